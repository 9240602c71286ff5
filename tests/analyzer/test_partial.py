"""The first look (`kit_core.analyzer.partial`): for every file of every design here, what
it reports is exactly what the full analysis reports for that file, less the findings of
the design-wide rules (which the partial run leaves to the full one); and it reads only
the packages the file reaches."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from kit_core.analyzer import analyze
from kit_core.analyzer.partial import LOCAL_RULES, design_wide, first_look
from kit_core.analyzer.session import DESIGN_RULES
from kit_core.design_text import read_design
from kit_core.designfiles import MANIFEST_NAME, design_files, design_roots
from kit_core.diagnostics.diagnostic import identity
from kit_core.lower import parse_file
from kit_core.manifest import Manifest, default_manifest
from kit_core.manifest_reader import parse_manifest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from gen_design import write_design  # noqa: E402

CASES = REPO / "tests" / "analyzer" / "cases"
FOLDERS = ["examples", "tests/analyzer/cases", "tests/golden", "tests/openapi/golden", "tests/e2e/designs"]


def _manifest(root: Path) -> Manifest:
    mpath = root / MANIFEST_NAME
    text = mpath.read_text(encoding="utf-8") if mpath.is_file() else ""
    return parse_manifest(str(mpath), text)[0] if text.strip() else default_manifest(str(mpath))


def _roots() -> list[Path]:
    return sorted({r.resolve() for f in FOLDERS for r in design_roots(REPO / f)})


def _check(root: Path, only: set[str] | None = None) -> int:
    """Compare the first look of every file (of ``only``) with the full analysis; returns
    how many diagnostics the first looks reported."""
    manifest = _manifest(root)
    files = [parse_file(str(p), read_design(str(p))) for p in design_files(root)]
    full = analyze(files, manifest)
    wide = design_wide(full)
    seen = 0
    for f in files:
        if only is not None and Path(f.path).name not in only:
            continue
        look = first_look(root, f.path, f.source, manifest)
        want = sorted(str(identity(d)) for d in full.for_file(f.path) if identity(d) not in wide)
        got = sorted(str(identity(d)) for d in look.diagnostics)
        assert got == want, f.path
        seen += len(got)
    return seen


@pytest.mark.parametrize("root", _roots(), ids=lambda p: str(p.relative_to(REPO)))
def test_first_look_equals_the_full_analysis_on_design_folders(root: Path) -> None:
    _check(root)


def test_first_look_equals_the_full_analysis_on_every_one_file_case(tmp_path: Path) -> None:
    seen = 0
    for case in sorted(CASES.glob("*.kit")):
        root = tmp_path / case.stem
        root.mkdir()
        shutil.copy(case, root / case.name)
        (root / MANIFEST_NAME).write_text("")
        seen += _check(root)
    assert seen > 100  # the cases are about errors: most of them are decided by the first look


def test_first_look_reads_only_the_packages_a_file_reaches(tmp_path: Path) -> None:
    info = write_design(tmp_path / "d", types=120, methods=40, packages=8, big_lines=300)
    manifest = _manifest(info.root)
    big = first_look(info.root, str(info.big_file), info.big_file.read_text(), manifest)
    assert big.packages == {"big"}
    service = info.root / "p3" / "service.kit"
    look = first_look(info.root, str(service), service.read_text(), manifest)
    assert look.packages == {"p0", "p3"}  # its own and the shared one it references
    assert _check(info.root, {"big.kit", "service.kit", "types.kit"}) == 0  # the bench design is valid


def test_first_look_of_a_design_with_errors_across_packages(tmp_path: Path) -> None:
    """A reference into another package and an operation id used in two packages: the
    reference's error is decided (the other package is loaded); the clash is left to the
    full run."""
    root = tmp_path / "d"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    (root / MANIFEST_NAME).write_text("")
    (root / "a" / "a.kit").write_text(
        'package a\n\nservice Users {\n\t@operationId("countUsers")\n\tget Count /a/count {}\n}\n'
    )
    (root / "b" / "b.kit").write_text(
        "package b\n\ntype Page {\n\tnext a.Nope\n}\n\n"
        'service Users {\n\t@operationId("countUsers")\n\tget Count /b/count {\n\t\tresponse Page\n\t}\n}\n'
    )
    (root / "c.kit").write_text("package c\n\ntype Unrelated {\n\tx string\n}\n")
    manifest = _manifest(root)
    path = str(root / "b" / "b.kit")
    look = first_look(root, path, (root / "b" / "b.kit").read_text(), manifest)
    assert look.packages == {"a", "b"}
    assert [d.code for d in look.diagnostics] == ["ref/unknown-symbol"]
    files = [parse_file(str(p), read_design(str(p))) for p in design_files(root)]
    full = {d.code for d in analyze(files, manifest).for_file(path)}
    assert full == {"ref/unknown-symbol", "operation/duplicate-id"}  # the full run finds the clash too
    assert _check(root) >= 1


def test_every_design_rule_is_classified() -> None:
    names = {name for name, _ in DESIGN_RULES}
    assert LOCAL_RULES <= names
