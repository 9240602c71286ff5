"""Render units, on both cores when there is enough to render.

With ``parallel`` (the command line; never in the language server, whose threads a fork
would copy half-way), a run with much to render forks once after the analysis, and both
processes take units from one queue - a pipe holding the units' numbers, heaviest first
(by their declared weight), each read of one number atomic - until it is empty, so neither
waits for the other whatever the weights are worth. The child inherits the analysed design,
so nothing is sent to it; its files come back pickled through a temporary file (plain
strings: fast). Templates are compiled before the fork, so neither process compiles them
twice. A child that fails for any reason is not trusted: its units are rendered here.
"""

from __future__ import annotations

import os
import pickle
import tempfile
import traceback
from collections.abc import Callable, Sequence

from kit_core.generators.base import OutputFile
from kit_core.generators.units import RenderUnit

MIN_PARALLEL_WEIGHT = 400  # below this a fork (and pickling the files back) costs more than it saves

Rendered = dict[str, list[OutputFile]]


def render_units(
    units: Sequence[RenderUnit], parallel: bool = False, before_fork: Callable[[], None] | None = None
) -> Rendered:
    weight = sum(u.weight for u in units)
    if (
        not parallel
        or weight < MIN_PARALLEL_WEIGHT
        or len(units) * _NUMBER > _QUEUE_BYTES  # the queue is written whole before the fork
        or not hasattr(os, "fork")
        or (os.cpu_count() or 1) < 2
    ):
        return {u.name: u.render() for u in units}
    if before_fork is not None:
        before_fork()
    return _forked(sorted(units, key=lambda u: -u.weight))


_NUMBER = 4  # bytes per unit number in the queue (a read of at most PIPE_BUF bytes is atomic)
_QUEUE_BYTES = 60_000  # below a pipe's capacity (64 KiB on Linux): the write never blocks


def _forked(units: list[RenderUnit]) -> Rendered:
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    fd, tmp = tempfile.mkstemp(prefix="kit-render-", suffix=".pickle", dir=shm)
    os.close(fd)
    queue_r, queue_w = os.pipe()
    try:
        os.write(queue_w, b"".join(i.to_bytes(_NUMBER, "little") for i in range(len(units))))
        os.close(queue_w)
        pid = os.fork()
        if pid == 0:  # the child: render what it takes, hand the files over, end without cleanup
            _child(units, queue_r, tmp)
        out = _take(units, queue_r)
        _, status = os.waitpid(pid, 0)
        handed = _read(tmp) if status == 0 else None
        missing = [u for u in units if u.name not in out and (handed is None or u.name not in handed)]
        out.update(handed or {})
        out.update({u.name: u.render() for u in missing})  # what a failed child took
        return out
    finally:
        os.close(queue_r)
        os.unlink(tmp)


def _take(units: list[RenderUnit], queue: int) -> Rendered:
    out: Rendered = {}
    while len(data := os.read(queue, _NUMBER)) == _NUMBER:
        unit = units[int.from_bytes(data, "little")]
        out[unit.name] = unit.render()
    return out


def _child(units: list[RenderUnit], queue: int, tmp: str) -> None:
    status = 1
    try:
        rendered = _take(units, queue)
        with open(tmp, "wb") as fh:
            pickle.dump(rendered, fh, protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    except BaseException:
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(traceback.format_exc())
        except OSError:
            pass
    finally:
        os._exit(status)


def _read(tmp: str) -> Rendered | None:
    try:
        with open(tmp, "rb") as fh:
            data = pickle.load(fh)
    except Exception:
        return None
    return data if isinstance(data, dict) else None
