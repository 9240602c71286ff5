"""Render units, on both cores when there is enough to render.

With ``parallel`` (the command line; never in the language server, whose threads a fork
would copy half-way), a run with much to render forks once after the analysis: the child
renders about half the units (by weight) and hands its files back through a temporary
file, while this process renders the other half. The child inherits the analysed design,
so nothing is sent to it; its files come back pickled (plain strings: fast). Templates are
compiled before the fork, so neither process compiles them twice. A child that fails for
any reason is not trusted: its units are rendered here instead.
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
    if not parallel or weight < MIN_PARALLEL_WEIGHT or not hasattr(os, "fork") or (os.cpu_count() or 1) < 2:
        return {u.name: u.render() for u in units}
    if before_fork is not None:
        before_fork()
    mine, theirs = split(units)
    return _forked(mine, theirs)


def split(units: Sequence[RenderUnit]) -> tuple[list[RenderUnit], list[RenderUnit]]:
    """Two halves of about equal weight (largest first, each to the lighter half)."""
    halves: tuple[list[RenderUnit], list[RenderUnit]] = ([], [])
    loads = [0, 0]
    for u in sorted(units, key=lambda u: -u.weight):
        side = 0 if loads[0] <= loads[1] else 1
        halves[side].append(u)
        loads[side] += u.weight
    return halves


def _forked(mine: list[RenderUnit], theirs: list[RenderUnit]) -> Rendered:
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    fd, tmp = tempfile.mkstemp(prefix="kit-render-", suffix=".pickle", dir=shm)
    os.close(fd)
    try:
        pid = os.fork()
        if pid == 0:  # the child: render, hand the files over, end without cleanup
            _child(theirs, tmp)
        out = {u.name: u.render() for u in mine}
        _, status = os.waitpid(pid, 0)
        handed = _read(tmp) if status == 0 else None
        if handed is None or set(handed) != {u.name for u in theirs}:
            handed = {u.name: u.render() for u in theirs}
        out.update(handed)
        return out
    finally:
        os.unlink(tmp)


def _child(units: list[RenderUnit], tmp: str) -> None:
    status = 1
    try:
        rendered = {u.name: u.render() for u in units}
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
