"""Render units, on both cores when there is enough to render.

With ``parallel`` (the command line; never in the language server, whose threads a fork
would copy half-way), a run with much to render forks once after the analysis, and both
processes take units from one queue - a pipe holding the units' numbers, heaviest first
(by their declared weight), each read of one number atomic - until it is empty, so neither
waits for the other whatever the weights are worth. The child inherits the analysed design,
so nothing is sent to it; its files come back pickled through a temporary file (plain
strings: fast). Templates are compiled before the fork, so neither process compiles them
twice. A child that fails for any reason is not trusted: its units are rendered here.

``ahead`` (`Ahead`) is work that decides whether the rendering is wanted at all, done by
the child before it takes units: `kit gen` runs the analyzer's rules there, so the
rendering starts before the design is known to be free of errors. The parent looks for
the child's answer between its units and stops, and stops the child, as soon as it says
the rendering is moot; a unit that raised meanwhile is an error only if it is not.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import tempfile
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kit_core.generators.base import OutputFile
from kit_core.generators.units import RenderUnit

MIN_PARALLEL_WEIGHT = 400  # below this a fork (and pickling the files back) costs more than it saves

Rendered = dict[str, list[OutputFile]]


@dataclass(frozen=True, slots=True)
class Ahead:
    """``run()``: what the child does first (its result is pickled back); ``moot(result)``:
    the rendering is not wanted (the design has errors)."""

    run: Callable[[], Any]
    moot: Callable[[Any], bool]


def render_units(
    units: Sequence[RenderUnit], parallel: bool = False, before_fork: Callable[[], None] | None = None
) -> Rendered:
    rendered, _ = render_ahead(units, None, parallel, before_fork)
    assert rendered is not None  # nothing ahead: never moot
    return rendered


def render_ahead(
    units: Sequence[RenderUnit],
    ahead: Ahead | None,
    parallel: bool = False,
    before_fork: Callable[[], None] | None = None,
) -> tuple[Rendered | None, Any]:
    """(the rendered files, None when ``ahead`` found them moot; ``ahead``'s result)."""
    weight = sum(u.weight for u in units)
    if (
        not parallel
        or weight < MIN_PARALLEL_WEIGHT
        or len(units) * _NUMBER > _QUEUE_BYTES  # the queue is written whole before the fork
        or not hasattr(os, "fork")
        or (os.cpu_count() or 1) < 2
    ):
        result = ahead.run() if ahead is not None else None
        if ahead is not None and ahead.moot(result):
            return None, result
        return {u.name: u.render() for u in units}, result
    if before_fork is not None:
        before_fork()
    return _forked(sorted(units, key=lambda u: -u.weight), ahead)


_NUMBER = 4  # bytes per unit number in the queue (a read of at most PIPE_BUF bytes is atomic)
_QUEUE_BYTES = 60_000  # below a pipe's capacity (64 KiB on Linux): the write never blocks


def _forked(units: list[RenderUnit], ahead: Ahead | None) -> tuple[Rendered | None, Any]:
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    fd, tmp = tempfile.mkstemp(prefix="kit-render-", suffix=".pickle", dir=shm)
    os.close(fd)
    queue_r, queue_w = os.pipe()
    note_r, note_w = os.pipe()
    try:
        os.write(queue_w, b"".join(i.to_bytes(_NUMBER, "little") for i in range(len(units))))
        os.close(queue_w)
        pid = os.fork()
        if pid == 0:  # the child: what is ahead, then render what it takes, hand it over, end without cleanup
            os.close(note_r)
            _child(units, queue_r, tmp, ahead, note_w)
        os.close(note_w)
        watch = _Watch(ahead, note_r, tmp + _AHEAD)
        out: Rendered = {}
        failed: Exception | None = None
        try:
            _take(units, queue_r, out, watch.moot)
        except Exception as exc:  # noqa: BLE001 - an error only if the rendering is wanted (below)
            failed = exc
        result = watch.result()
        if ahead is not None and ahead.moot(result):
            _stop(pid)
            return None, result
        _, status = os.waitpid(pid, 0)
        if failed is not None:
            raise failed
        handed = _read(tmp) if status == 0 else None
        missing = [u for u in units if u.name not in out and (handed is None or u.name not in handed)]
        out.update(handed or {})
        out.update({u.name: u.render() for u in missing})  # what a failed child took
        return out, result
    finally:
        os.close(queue_r)
        os.close(note_r)
        for path in (tmp, tmp + _AHEAD):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)


_AHEAD = ".ahead"  # beside the rendered files' pickle: the child's result of what was ahead


class _Watch:
    """The parent's view of the child's ``ahead`` work: the child writes its result to a file
    and then one byte to a pipe (a child that dies closes the pipe unwritten: the parent then
    does the work itself)."""

    def __init__(self, ahead: Ahead | None, note: int, path: str) -> None:
        self.ahead, self.note, self.path = ahead, note, path
        self.known = ahead is None
        self.value: Any = None
        os.set_blocking(note, False)

    def moot(self) -> bool:
        """Whether the rendering is known to be moot (never waits)."""
        if not self.known:
            try:
                self._settle(os.read(self.note, 1))
            except BlockingIOError:
                return False
        return self.ahead is not None and self.ahead.moot(self.value)

    def result(self) -> Any:
        if not self.known:
            os.set_blocking(self.note, True)
            self._settle(os.read(self.note, 1))
        return self.value

    def _settle(self, note: bytes) -> None:
        assert self.ahead is not None
        loaded = _read_any(self.path) if note else _FAILED
        self.value = self.ahead.run() if loaded is _FAILED else loaded
        self.known = True


def _stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _take(units: list[RenderUnit], queue: int, out: Rendered, stop: Callable[[], bool] = lambda: False) -> Rendered:
    while not stop() and len(data := os.read(queue, _NUMBER)) == _NUMBER:
        unit = units[int.from_bytes(data, "little")]
        out[unit.name] = unit.render()
    return out


def _child(units: list[RenderUnit], queue: int, tmp: str, ahead: Ahead | None, note: int) -> None:
    status = 1
    try:
        if ahead is not None:
            result = ahead.run()
            with open(tmp + _AHEAD, "wb") as fh:
                pickle.dump(result, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.write(note, b"!")
            if ahead.moot(result):
                os._exit(0)
        rendered = _take(units, queue, {})
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


_FAILED = object()


def _read_any(tmp: str) -> Any:
    try:
        with open(tmp, "rb") as fh:
            return pickle.load(fh)
    except Exception:
        return _FAILED


def _read(tmp: str) -> Rendered | None:
    data = _read_any(tmp)
    return data if isinstance(data, dict) else None
