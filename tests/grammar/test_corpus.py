"""The grammar corpus, run through the Python binding (always) and the tree-sitter CLI
(when installed: `tree-sitter test` with the highlight tests, and the staleness check)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kit_core import syntax

GRAMMAR = Path(__file__).resolve().parents[2] / "grammar"
HEADER = re.compile(r"^(={3,})\n(.*?)\n\1\n\n", re.S | re.M)


def _cases() -> list[tuple[str, str, str]]:
    cases = []
    for path in sorted((GRAMMAR / "test" / "corpus").glob("*.txt")):
        parts = HEADER.split(path.read_text(encoding="utf-8"))
        for i in range(1, len(parts), 3):
            source, expected = parts[i + 2].split("\n---\n", 1)
            cases.append((f"{path.stem}: {parts[i + 1]}", source.removesuffix("\n"), expected))
    return cases


CASES = _cases()


def test_corpus_covers_every_area() -> None:
    areas = {name.split(":")[0] for name, _, _ in CASES}
    assert {"file", "types", "enums", "declarations", "services", "events", "decorators", "errors"} <= areas


@pytest.mark.parametrize(("name", "source", "expected"), CASES, ids=[c[0] for c in CASES])
def test_corpus_case(name: str, source: str, expected: str) -> None:
    tree = syntax.parse(source.encode("utf-8"))
    assert " ".join(str(tree.root_node).split()) == " ".join(expected.split())
    if not name.startswith("errors:"):
        assert not tree.root_node.has_error


CLI = shutil.which("tree-sitter")


@pytest.mark.skipif(CLI is None, reason="tree-sitter CLI not installed")
def test_tree_sitter_test_passes() -> None:
    run = subprocess.run([CLI or "", "test"], cwd=GRAMMAR, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.skipif(CLI is None, reason="tree-sitter CLI not installed")
def test_generated_parser_is_fresh() -> None:
    run = subprocess.run(["sh", str(GRAMMAR / "check-generated.sh")], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
