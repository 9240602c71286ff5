"""A split analysis (`analyze_split`: what generators read first, the rules apart, their
diagnostics handed over pickled as from another process) finds what `analyze` finds, on
every analyzer case."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from kit_core.analyzer import analyze, analyze_split
from kit_core.lower import parse_file

from .harness import case_paths


def _files(case: Path) -> list:
    paths = [case] if case.is_file() else sorted(case.rglob("*.kit"))
    return [parse_file(str(p), p.read_text(encoding="utf-8")) for p in paths]


@pytest.mark.parametrize("case", case_paths(), ids=lambda p: p.name)
def test_split_analysis_finds_what_analyze_finds(case: Path) -> None:
    whole = analyze(_files(case))
    split = analyze_split(_files(case))
    found = pickle.loads(pickle.dumps(split.rules()))
    assert [d.render() for d in split.complete(found).diagnostics] == [d.render() for d in whole.diagnostics]
    assert split.analysis().http is not None and split.analysis().index is not None  # what generators read
