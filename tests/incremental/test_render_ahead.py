"""`kit gen` starts rendering before the design is known to be free of errors: the analyzer's
rules run in the renderers' fork (`render_ahead`), and their errors stop the run with
what a serial run reports, nothing written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from designs import FILES, tree, write_project

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.units import RenderUnit
from kit_core.incremental import render as render_module
from kit_core.incremental.render import Ahead, render_ahead
from kit_core.regenerate import Outcome, regenerate

PARENT = os.getpid()


def _units(n: int, rendered: list[str] | None = None, fail: str = "") -> list[RenderUnit]:
    def render(name: str) -> list[OutputFile]:
        if rendered is not None:
            rendered.append(name)
        if name == fail and os.getpid() == PARENT:
            raise KeyError(f"{name}: a unit of a design with errors")
        return [OutputFile(f"{name}.txt", f"{name} by {os.getpid() == PARENT}", Owner.REGEN)]

    return [RenderUnit(f"u{i}", lambda i=i: render(f"u{i}"), weight=1000) for i in range(n)]


def test_ahead_runs_in_the_child_while_the_parent_renders() -> None:
    rendered, result = render_ahead(_units(40), Ahead(os.getpid, lambda _: False), parallel=True)
    assert result != PARENT  # the rules ran in the fork
    assert rendered is not None and sorted(rendered) == sorted(f"u{i}" for i in range(40))


def test_moot_rendering_stops_and_a_unit_that_raised_meanwhile_is_no_error() -> None:
    seen: list[str] = []
    units = _units(400, seen, fail="u0")
    rendered, result = render_ahead(units, Ahead(lambda: "errors", lambda r: r == "errors"), parallel=True)
    assert (rendered, result) == (None, "errors")
    assert len(seen) < 400  # the parent stopped once it knew


def test_a_unit_that_raises_is_an_error_when_the_rendering_is_wanted() -> None:
    with pytest.raises(KeyError, match="u0"):
        render_ahead(_units(40, fail="u0"), Ahead(lambda: "clean", lambda r: r != "clean"), parallel=True)


def test_a_child_that_dies_ahead_is_replaced_by_the_parent() -> None:
    def run() -> int:
        if os.getpid() != PARENT:
            os._exit(3)
        return PARENT

    rendered, result = render_ahead(_units(40), Ahead(run, lambda _: False), parallel=True)
    assert result == PARENT and rendered is not None and len(rendered) == 40


def test_without_a_fork_ahead_runs_first_and_can_spare_the_rendering() -> None:
    seen: list[str] = []
    assert render_ahead(_units(3, seen), Ahead(lambda: 1, lambda _: True), parallel=False) == (None, 1)
    assert seen == []


BROKEN = {**FILES, "notes/notes.kit": FILES["notes/notes.kit"] + "\ntype Broken {\n\tx NoSuchType\n}\n"}


def _located(out: Outcome, root: Path) -> list[tuple[str, int, int, str, str]]:
    return [(os.path.relpath(d.path, root), d.line, d.col, d.code, d.message) for d in out.diagnostics]


def test_file_rule_errors_found_in_the_fork_stop_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    serial = regenerate(write_project(tmp_path / "serial", BROKEN))
    monkeypatch.setattr(render_module, "MIN_PARALLEL_WEIGHT", 0)
    forked = regenerate(write_project(tmp_path / "forked", BROKEN), parallel=True)
    assert serial.has_errors and forked.report is None
    assert _located(forked, tmp_path / "forked") == _located(serial, tmp_path / "serial")
    assert sorted(tree(tmp_path / "forked")) == sorted(["go.mod", *(f"design/{name}" for name in BROKEN)])
