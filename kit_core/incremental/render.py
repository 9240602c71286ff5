"""Render units, on both cores when there is enough to render.

With ``parallel`` (the command line; never in the language server, whose threads a fork
would copy half-way), a run with much to render forks once after the analysis, and both
processes take units from one queue - a pipe holding the units' numbers, heaviest first
(by their declared weight), each read of one number atomic - until it is empty, so neither
waits for the other whatever the weights are worth. The child inherits the analysed design,
so nothing is sent to it; its files come back pickled through a temporary file (plain
strings: fast). Templates are compiled before the fork, so neither process compiles them
twice. A child that fails for any reason is not trusted: its units are rendered here.

``watch`` (`ahead.Pending`) is work running meanwhile in another process that may find
the rendering moot (the analyzer's rules, in `kit gen`): the parent asks it between units,
and stops, and stops the child, as soon as it says so; a unit that raised meanwhile is an
error only if the rendering is wanted.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kit_core import scratch
from kit_core.generators.base import OutputFile
from kit_core.generators.units import RenderUnit

if TYPE_CHECKING:
    from kit_core.incremental.ahead import Pending

MIN_PARALLEL_WEIGHT = 400  # below this a fork (and pickling the files back) costs more than it saves

Rendered = dict[str, list[OutputFile]]


def render_units(
    units: Sequence[RenderUnit],
    parallel: bool = False,
    before_fork: Callable[[], None] | None = None,
    watch: Pending | None = None,
) -> Rendered | None:
    """The files of each unit, by its name; None when ``watch`` found the rendering moot.
    Units that keep pieces for the next run (`RenderUnit.keeps`) are rendered here."""
    weight = sum(u.weight for u in units if not u.keeps)
    if (
        not parallel
        or weight < MIN_PARALLEL_WEIGHT
        or len(units) * _NUMBER > _QUEUE_BYTES  # the queue is written whole before the fork
        or not hasattr(os, "fork")
        or (os.cpu_count() or 1) < 2
    ):
        return _here(units, watch)
    if before_fork is not None:
        before_fork()
    kept = [u for u in units if u.keeps]
    return _forked(sorted((u for u in units if not u.keeps), key=lambda u: -u.weight), watch, kept)


def _here(units: Sequence[RenderUnit], watch: Pending | None) -> Rendered | None:
    out: Rendered = {}
    try:
        for u in units:
            if watch is not None and watch.moot():
                return None
            out[u.name] = u.render()
    except Exception:
        if watch is not None and watch.ahead.moot(watch.result()):
            return None
        raise
    return None if watch is not None and watch.ahead.moot(watch.result()) else out


_NUMBER = 4  # bytes per unit number in the queue (a read of at most PIPE_BUF bytes is atomic)
_QUEUE_BYTES = 60_000  # below a pipe's capacity (64 KiB on Linux): the write never blocks


def _forked(units: list[RenderUnit], watch: Pending | None, here: Sequence[RenderUnit] = ()) -> Rendered | None:
    """``units`` shared with a forked child through the queue; ``here`` rendered by this
    process only (first: the child meanwhile takes from the queue)."""
    tmp = scratch.Scratch("kit-render")
    queue_r, queue_w = os.pipe()
    pid = 0
    try:
        os.write(queue_w, b"".join(i.to_bytes(_NUMBER, "little") for i in range(len(units))))
        os.close(queue_w)
        pid = scratch.fork()
        if pid == 0:  # the child: render what it takes, hand the files over, end without cleanup
            scratch.child_ends(tmp, lambda: _take(units, queue_r, {}))
        out: Rendered = {}
        failed: Exception | None = None
        try:
            stop = watch.moot if watch is not None else _never
            for unit in here:
                if stop():
                    break
                out[unit.name] = unit.render()
            _take(units, queue_r, out, stop)
        except Exception as exc:  # noqa: BLE001 - an error only if the rendering is wanted (below)
            failed = exc
        if watch is not None and watch.ahead.moot(watch.result()):
            return None  # the child is stopped below
        _, status = os.waitpid(pid, 0)
        pid = 0
        if failed is not None:
            raise failed
        handed = _read(tmp) if status == 0 else None
        missing = [u for u in (*here, *units) if u.name not in out and (handed is None or u.name not in handed)]
        out.update(handed or {})
        out.update({u.name: u.render() for u in missing})  # what a failed child took
        return out
    finally:
        if pid:
            scratch.stop(pid)
        os.close(queue_r)
        tmp.close()


def _never() -> bool:
    return False


def _take(units: list[RenderUnit], queue: int, out: Rendered, stop: Callable[[], bool] = _never) -> Rendered:
    while not stop() and len(data := os.read(queue, _NUMBER)) == _NUMBER:
        unit = units[int.from_bytes(data, "little")]
        out[unit.name] = unit.render()
    return out


def _read(tmp: scratch.Scratch) -> Rendered | None:
    data = tmp.taken()
    return data if isinstance(data, dict) else None
