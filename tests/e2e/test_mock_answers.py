"""The mock's answer builder (`kit_core/generators/go/mock_values.py`) on a design of every
validator kind: each answer passes its type's generated `Validate()` (in Go), the answers
are the same on every run, and a `@pattern` no generator can satisfy is reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_harness import GO_ENV, REPO, go_available, make_project

from kit_core.mock.build import NotAMockFolder, prepare


def mock_project(tmp_path: Path, edit: tuple[str, str] | None = None) -> tuple[Path, list[str]]:
    root = make_project("mockvalues", tmp_path / "project")
    if edit is not None:
        kit = root / "design" / "values.kit"
        kit.write_text(kit.read_text().replace(*edit))
    project = prepare(root / "design", tmp_path / "mock", root)
    return project.root, [f"{w.span.display()}: {w.code}: {w.message}" for w in project.warnings]


def answers(root: Path) -> str:
    return (root / "internal" / "mockanswers" / "answers.go").read_text()


@pytest.mark.skipif(not go_available(), reason="the Go toolchain is needed")
def test_every_answer_passes_validate(tmp_path: Path) -> None:
    root, warnings = mock_project(tmp_path)
    assert warnings == []
    text = answers(root)
    for expected in (
        "Between: 6", "Mult: 14", "Low: int8(-3)", "Tiny: float32(0.0005)",  # bounds, multipleOf
        'Code: values.Code("AA-000")', 'Sku: "SKU0000"',  # @pattern, generated
        'Named: "hello"', 'Title: "exa"',  # an @example that passes; one that breaks @maxLength(3)
        "values.ColorRed, values.ColorGreen, values.ColorBlue",  # @minItems(3) @uniqueItems
        "Nums: []int{1, 2}", "None: []string{}", "Children: []values.Node{}",  # counts, recursion
        'Card: kitMockPtr("example")}',  # @mutuallyExclusive: the first only
    ):  # fmt: skip
        assert expected in text, expected
    proc = subprocess.run(["go", "test", "-count=1", "-v", "./internal/mockanswers"], cwd=root, env=GO_ENV,
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "--- PASS: TestAnswersValidate" in proc.stdout


def test_answers_are_deterministic(tmp_path: Path) -> None:
    first, _ = mock_project(tmp_path / "a")
    second, _ = mock_project(tmp_path / "b")
    files = sorted(p.relative_to(first) for p in first.rglob("*.go"))
    assert files == sorted(p.relative_to(second) for p in second.rglob("*.go"))
    for rel in files:
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel


def test_unanswerable_pattern_is_reported(tmp_path: Path) -> None:
    """`\\p{Greek}` is RE2 syntax the string generator does not know: without an @example the
    field is reported where it is declared; with one that matches, it is the answer."""
    sku = "sku     string  @pattern(`^SKU[0-9]{4}$`)"
    _, warnings = mock_project(tmp_path / "a", (sku, r"sku string @pattern(`^\p{Greek}+$`)"))
    assert len(warnings) == 1, warnings
    assert "values.kit:31:2: mock/no-example: sku has @pattern(`^\\p{Greek}+$`)" in warnings[0], warnings
    root, warnings = mock_project(tmp_path / "b", (sku, r'sku string @pattern(`^\p{Greek}+$`) @example("αβγ")'))
    assert warnings == [] and 'Sku: "αβγ"' in answers(root)


def test_out_folder_with_other_files_is_left_alone(tmp_path: Path) -> None:
    """`--out` naming a folder kit mock did not write: refused, nothing removed or written."""
    root = make_project("mockvalues", tmp_path / "project")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(NotAMockFolder):
        prepare(root / "design", mine, root)
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    again = prepare(root / "design", tmp_path / "mock", root).root
    assert prepare(root / "design", again, root).root == again  # its own folder: replaced


def test_a_design_with_errors_writes_nothing(tmp_path: Path) -> None:
    root = make_project("mockvalues", tmp_path / "project")
    kit = root / "design" / "values.kit"
    kit.write_text(kit.read_text().replace("response Lists", "response Nowhere"))
    env = {**os.environ, "PYTHONPATH": str(REPO), "KIT_NO_DAEMON": "1"}
    out = tmp_path / "mock"
    cmd = [sys.executable, "-m", "kit_core.cli", "mock", "-f", str(root / "design"), "--out", str(out)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 1 and "values.kit:" in proc.stderr and ": error " in proc.stderr, proc.stderr
    assert "kit: nothing was written" in proc.stderr and not out.exists()
