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


def test_a_design_without_protos_loads_neither_protobuf_nor_protoc(tmp_path: Path) -> None:
    """Both cost ~20 ms of imports in every run; only a design with protos needs them."""
    import subprocess
    import sys

    _design(tmp_path, "openapi:\n  title: Shop\n")
    probe = (
        "import sys; from pathlib import Path; from kit_core.regenerate import regenerate; "
        f"out = regenerate(Path({str(tmp_path / 'design')!r}), project_root=Path({str(tmp_path)!r})); "
        "assert out.report is not None and out.report.ok; "
        "print(sorted(m for m in sys.modules if m.startswith(('google.protobuf', 'grpc_tools._protoc'))))"
    )
    env = {"KIT_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert (tmp_path / "internal/types/shop/types.go").is_file()
