"""Lowering: designs lowered and checked field by field (spans, literals, trivia, codes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit_core.lower import parse_file
from kit_core.model import (
    EnumDecl,
    ErrorDecl,
    EventDecl,
    Field,
    LiteralKind,
    MiddlewareDecl,
    Mixin,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    TypeDecl,
)

DESIGNS = Path(__file__).parent / "grammar" / "designs"


def lower(text: str, path: str = "t.kit") -> SourceFile:
    return parse_file(path, text)


def codes(f: SourceFile) -> list[tuple[str, int]]:
    """(code, 1-based line) of every parse diagnostic."""
    return [(d.code, d.span.start_line + 1) for d in f.parse_diagnostics]  # type: ignore[attr-defined]


@pytest.mark.parametrize("design", sorted(DESIGNS.glob("*.kit")), ids=lambda p: p.name)
def test_shared_designs_lower_cleanly(design: Path) -> None:
    f = parse_file(design.name, design.read_text(encoding="utf-8"))
    assert codes(f) == []
    assert f.package


def test_users_design_shape() -> None:
    f = parse_file("users.kit", (DESIGNS / "users.kit").read_text(encoding="utf-8"))
    assert f.package == "users"
    assert [d.name for d in f.decorators] == ["version", "doc"]
    assert f.package_trivia.doc_text == "Users API: the design used by the lowering tests."
    kinds = {type(d) for d in f.declarations}
    assert kinds == {TypeDecl, EnumDecl, ScalarDecl, ErrorDecl, MiddlewareDecl, ServiceDecl, EventDecl}
    user = next(d for d in f.declarations if d.name == "User")
    assert isinstance(user, TypeDecl)
    assert user.doc == "A registered user."
    assert isinstance(user.members[0], Mixin)
    tags = next(m for m in user.members if isinstance(m, Field) and m.name == "tags")
    assert [d.name for d in tags.decorators] == ["maxItems", "uniqueItems"]
    score = next(m for m in user.members if isinstance(m, Field) and m.name == "score")
    arg = score.decorators[0].args[0]
    assert (arg.kind, arg.value, arg.text) == (LiteralKind.FLOAT, -1.5, "-1.5")
