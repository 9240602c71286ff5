"""`kit gen` renders before the design is known to be free of errors: the analyzer's rules
run in a forked process meanwhile (`ahead.Pending`), the renderers ask it between units, and
its errors stop the run with what a serial run reports, nothing written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from designs import FILES, tree, write_project

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.units import RenderUnit
from kit_core.incremental import render as render_module
from kit_core.incremental.ahead import Ahead, Pending
from kit_core.incremental.render import render_units
from kit_core.regenerate import Outcome, regenerate

PARENT = os.getpid()


def _units(n: int, rendered: list[str] | None = None, fail: str = "") -> list[RenderUnit]:
    def render(name: str) -> list[OutputFile]:
        if rendered is not None:
            rendered.append(name)
        if name == fail:
            raise KeyError(f"{name}: a unit of a design with errors")
        return [OutputFile(f"{name}.txt", name, Owner.REGEN)]

    return [RenderUnit(f"u{i}", lambda i=i: render(f"u{i}"), weight=1000) for i in range(n)]


def _slow(value: str, seconds: float = 0.0) -> Ahead:
    def run() -> tuple[str, int]:
        if seconds:
            import time

            time.sleep(seconds)
        return value, os.getpid()

    return Ahead(run, lambda result: result[0] == "errors")


def test_the_work_runs_in_another_process_while_this_one_renders() -> None:
    with Pending.start(_slow("clean"), fork=True) as pending:
        rendered = render_units(_units(40), parallel=True, watch=pending)
        assert pending.result()[1] != PARENT
    assert rendered is not None and sorted(rendered) == sorted(f"u{i}" for i in range(40))


@pytest.mark.parametrize("parallel", [True, False])
def test_moot_rendering_stops_and_a_unit_that_raised_meanwhile_is_no_error(parallel: bool) -> None:
    seen: list[str] = []
    with Pending.start(_slow("errors", 0.2), fork=True) as pending:
        assert render_units(_units(400, seen, fail="u0"), parallel=parallel, watch=pending) is None
    assert len(seen) < 400  # the parent stopped once it knew


def test_a_unit_that_raises_is_an_error_when_the_rendering_is_wanted() -> None:
    with Pending.start(_slow("clean"), fork=True) as pending, pytest.raises(KeyError, match="u0"):
        render_units(_units(40, fail="u0"), parallel=True, watch=pending)


def test_a_child_that_dies_is_replaced_by_this_process() -> None:
    def run() -> int:
        if os.getpid() != PARENT:
            os._exit(3)
        return PARENT

    with Pending.start(Ahead(run, lambda _: False), fork=True) as pending:
        assert pending.result() == PARENT


def test_without_a_fork_the_work_is_done_at_once() -> None:
    pending = Pending.start(_slow("errors"), fork=False)
    assert pending.known and pending.moot() and pending.result()[1] == PARENT


BROKEN = {**FILES, "notes/notes.kit": FILES["notes/notes.kit"] + "\ntype Broken {\n\tx NoSuchType\n}\n"}


def _located(out: Outcome, root: Path) -> list[tuple[str, int, int, str, str]]:
    return [(os.path.relpath(d.path, root), d.line, d.col, d.code, d.message) for d in out.diagnostics]


@pytest.mark.parametrize("weight", [0, 10**9])  # renderers forked or not
def test_rule_errors_found_meanwhile_stop_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, weight: int) -> None:
    serial = regenerate(write_project(tmp_path / "serial", BROKEN))
    monkeypatch.setattr(render_module, "MIN_PARALLEL_WEIGHT", weight)
    forked = regenerate(write_project(tmp_path / "forked", BROKEN), parallel=True)
    assert serial.has_errors and forked.report is None
    assert _located(forked, tmp_path / "forked") == _located(serial, tmp_path / "serial")
    assert sorted(tree(tmp_path / "forked")) == sorted(["go.mod", *(f"design/{name}" for name in BROKEN)])


def _by_pid(name: str, weight: int, keeps: bool = False) -> RenderUnit:
    return RenderUnit(
        name, lambda: [OutputFile(f"{name}.txt", str(os.getpid()), Owner.REGEN)], weight=weight, keeps=keeps
    )


def test_a_unit_that_keeps_pieces_is_rendered_by_this_process() -> None:
    """A unit keeping pieces for the next run (the OpenAPI document in a resident kit) is
    never rendered by the forked child (its pieces would die with it, and the next edit would
    render the whole document): whichever process takes what from the queue, it is here."""
    for _ in range(5):
        units = [_by_pid("kept", 100_000, keeps=True), *(_by_pid(f"u{i}", 1000) for i in range(20))]
        rendered = render_units(units, parallel=True)
        assert rendered is not None and rendered["kept"][0].content == str(PARENT)
        assert len(rendered) == 21


def test_only_the_units_that_keep_pieces_weigh_nothing_for_a_fork() -> None:
    """A resident kit's edit: the kept document's weight alone does not make the run fork."""
    units = [_by_pid("kept", 100_000, keeps=True), _by_pid("pkg", 10)]
    rendered = render_units(units, parallel=True)
    assert rendered is not None and {fs[0].content for fs in rendered.values()} == {str(PARENT)}
