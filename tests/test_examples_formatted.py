"""The example designs are written in kit fmt's canonical style (what users copy from)."""

from __future__ import annotations

import io
from pathlib import Path

from kit_core.format import run

ROOT = Path(__file__).resolve().parents[1]


def test_examples_need_no_formatting() -> None:
    out, err = io.StringIO(), io.StringIO()
    status = run([str(ROOT / "examples")], list_only=True, write=False, stdout=out, stderr=err)
    assert status == 0, f"kit fmt -l lists:\n{out.getvalue()}{err.getvalue()}"
