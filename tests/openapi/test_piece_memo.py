"""A resident process keeps the document's pieces between renders (`openapi.incremental`):
after an edit, a package's part is built again, but only the pieces whose value changed are
dumped as YAML again; the rest are taken by their value. The text is the whole document's."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from kit_core import program
from kit_core.generators import openapi
from kit_core.generators.openapi import incremental
from kit_core.incremental.keys import DesignKeys

SHOWCASE = Path(__file__).resolve().parents[2] / "examples" / "showcase" / "design"
EDIT = ("long    string?         @maxLength(3)", "long    string?         @maxLength(4)")


def _render(root: Path) -> tuple[str, str]:
    """(the document kept in pieces, the document built whole)."""
    design = program.load_design(root)
    design.module = "example.com/x"
    checked = program.check(design)
    keys = DesignKeys("base", [(f.path, f.package, f.source) for f in design.files])
    symbols, index, http = openapi._parts(checked.analysis, design.manifest)
    pieces = incremental.render_incremental(symbols, design.manifest, http, index, keys)
    return pieces, openapi.render(checked.analysis, design.manifest)


def test_an_edit_dumps_only_the_pieces_it_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "design"
    shutil.copytree(SHOWCASE, root)
    incremental.forget()
    first, whole = _render(root)
    assert first == whole
    dumped: list[str] = []
    real = incremental.fragment

    def counted(name: str, value: Any, indent: int) -> tuple[str, bool]:
        dumped.append(name)
        return real(name, value, indent)

    monkeypatch.setattr(incremental, "fragment", counted)
    types = root / "shop" / "types.kit"
    assert EDIT[0] in types.read_text()
    types.write_text(types.read_text().replace(*EDIT))
    again, whole = _render(root)
    assert again == whole and again != first
    # the edited schema (and a piece embedding it), not the shop part's other pieces
    assert dumped and len(dumped) <= 2, dumped
    assert len(incremental._dumped) > 20
    incremental.forget()


def _union_of_kept_parts() -> dict[str, tuple[str, bool]]:
    """What the next render may reuse, by its definition: the pieces of the kept parts."""
    return {k: (t, o) for part in incremental._memo.values() for t, o, k in part.yaml.values() if k is not None}


def test_the_reused_pieces_are_those_of_the_kept_parts(tmp_path: Path) -> None:
    """`_dumped` is updated by the parts an edit built or dropped (`_keep_dumped`), not made
    again of every piece: after edits there and back it is still the kept parts' pieces."""
    root = tmp_path / "design"
    shutil.copytree(SHOWCASE, root)
    incremental.forget()
    types = root / "shop" / "types.kit"
    text = types.read_text()
    for step in (text, text.replace(*EDIT), text, text.replace(*EDIT), text.replace(*EDIT)):
        types.write_text(step)
        pieces, whole = _render(root)
        assert pieces == whole
        assert incremental._dumped == _union_of_kept_parts()
        assert set(incremental._holders) == set(incremental._dumped)
    incremental.forget()
    assert not incremental._dumped and not incremental._holders
