"""bench/lsp/bench_lsp.py reports a measurement that took no samples (`--saves 0`) instead
of crashing on it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "lsp" / "bench_lsp.py"


def test_a_measurement_without_samples_is_reported_as_not_measured(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_lsp", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.report("during-regen", [])
    bench.report("diagnostics", [40.0, 60.0])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["during-regen", "n=", "0", "not", "measured"]
    assert lines[1].startswith("diagnostics  n=  2") and "ratio  1.20" in lines[1]
