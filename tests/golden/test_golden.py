"""Golden tests of the Go generator: `tests/golden/<case>/design` -> `expected/`.

`KIT_UPDATE_GOLDEN=1` rewrites `expected/`. Otherwise a missing file, a diff, or an
expected file the run no longer produces fails the test.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kit_core import program
from kit_core.generators import go

HERE = Path(__file__).resolve().parent
CASES = sorted(p.name for p in HERE.iterdir() if (p / "design").is_dir())
MODULE = "example.com/golden"

pytestmark = pytest.mark.skipif(shutil.which("gofmt") is None, reason="gofmt is needed for byte-exact output")


def generate_go(design_dir: Path) -> dict[str, str]:
    design = program.load_design(design_dir, project_root=design_dir.parent)
    design.module = MODULE
    checked = program.check(design)
    errors = [d for d in checked.diagnostics if d.is_error]
    assert not errors, [f"{d.span.display()}: {d.message}" for d in errors]
    files, _ = go.generate(program.gen_context(design, checked.analysis))
    return {f.path: f.content for f in files}


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str) -> None:
    actual = generate_go(HERE / case / "design")
    expected_dir = HERE / case / "expected"
    if os.environ.get("KIT_UPDATE_GOLDEN") == "1":
        shutil.rmtree(expected_dir, ignore_errors=True)
        for path, text in actual.items():
            (expected_dir / path).parent.mkdir(parents=True, exist_ok=True)
            (expected_dir / path).write_text(text)
        return
    expected = {p.relative_to(expected_dir).as_posix(): p.read_text() for p in expected_dir.rglob("*") if p.is_file()}
    assert sorted(actual) == sorted(expected), "file set differs (KIT_UPDATE_GOLDEN=1 rewrites expected/)"
    for path, text in actual.items():
        assert text == expected[path], f"{path} differs from expected/ (KIT_UPDATE_GOLDEN=1 rewrites it)"


@pytest.mark.parametrize("example", ["todo", "showcase"])
def test_generation_is_deterministic(example: str) -> None:
    design = HERE.parents[1] / "examples" / example / "design"
    assert generate_go(design) == generate_go(design)
