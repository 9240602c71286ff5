"""The orchestrator: which generators run for which targets and manifest kinds."""

from __future__ import annotations

from pathlib import Path

from kit_core import program

SHOP = """package shop

type Line {
\tsku string
}

event Placed {
\tpayload Line
}
"""


def _design(tmp_path: Path, manifest: str) -> program.Design:
    (tmp_path / "go.mod").write_text("module example.com/app\n\ngo 1.26\n")
    design = tmp_path / "design"
    design.mkdir()
    (design / "kit.design.yaml").write_text(manifest)
    (design / "shop.kit").write_text(SHOP)
    return program.load_design(design)


def _paths(design: program.Design, targets: tuple[str, ...] = program.TARGETS) -> list[str]:
    result = program.check(design)
    assert not result.has_errors, [d.render() for d in result.diagnostics]
    return [f.path for f in program.generate(design, result.analysis, targets).files]


def test_application_writes_the_document_and_go(tmp_path: Path) -> None:
    paths = _paths(_design(tmp_path, "openapi:\n  title: Shop\n"))
    assert "docs/openapi.yaml" in paths and "internal/types/shop/types.go" in paths


def test_docs_target_writes_only_the_document(tmp_path: Path) -> None:
    assert _paths(_design(tmp_path, ""), ("docs",)) == ["docs/openapi.yaml"]


def test_contracts_write_no_openapi_document(tmp_path: Path) -> None:
    paths = _paths(_design(tmp_path, "output:\n  kind: contracts\n"))
    assert "docs/openapi.yaml" not in paths
    assert "gen/events/shop/events.go" in paths and "gen/types/shop/types.go" in paths
