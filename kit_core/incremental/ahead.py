"""Work that decides whether a run's rendering is wanted, done in a forked process while this
one goes on.

    with Pending.start(Ahead(split.rules, has_errors), fork=True) as rules:
        ...                      # build the render units, render (polling `rules.moot()`)
        found = rules.result()   # waits for the child

`kit gen` runs the analyzer's rules this way: they are most of the check, and nothing the
generators read comes from them, only whether the design has errors. The child inherits the
loaded design, so nothing is sent to it; its result comes back pickled through a file, then
one byte on a pipe says it is there. A child that dies (or cannot start) is not trusted:
the work is then done in this process. Without ``fork`` the work is done at once, here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from kit_core import scratch


@dataclass(frozen=True, slots=True)
class Ahead:
    """``run()``: the work (its result must pickle); ``moot(result)``: the rendering is not
    wanted (the design has errors)."""

    run: Callable[[], Any]
    moot: Callable[[Any], bool]


_FAILED = object()


class Pending:
    def __init__(self, ahead: Ahead) -> None:
        self.ahead = ahead
        self.known = False
        self.value: Any = None
        self.pid = 0
        self.note = -1
        self.scratch: scratch.Scratch | None = None

    @classmethod
    def start(cls, ahead: Ahead, fork: bool) -> Pending:
        pending = cls(ahead)
        if fork and hasattr(os, "fork") and (os.cpu_count() or 1) >= 2:
            pending._fork()
        else:
            pending._settle(pending.ahead.run())
        return pending

    def _fork(self) -> None:
        self.scratch = scratch.Scratch("kit-ahead")
        note_r, note_w = os.pipe()
        self.pid = scratch.fork()
        if self.pid == 0:  # the child: do the work, hand the result over, end without cleanup
            os.close(note_r)
            scratch.child_ends(self.scratch, self.ahead.run, note_w)
        os.close(note_w)
        self.note = note_r
        os.set_blocking(note_r, False)

    def moot(self) -> bool:
        """Whether the rendering is known to be moot (never waits)."""
        if not self.known:
            try:
                self._heard(os.read(self.note, 1))
            except BlockingIOError:
                return False
        return bool(self.ahead.moot(self.value))

    def result(self) -> Any:
        """The work's result (waits for the child)."""
        if not self.known:
            os.set_blocking(self.note, True)
            self._heard(os.read(self.note, 1))
        return self.value

    def _heard(self, note: bytes) -> None:
        loaded = self.scratch.taken(_FAILED) if note and self.scratch is not None else _FAILED
        self._settle(self.ahead.run() if loaded is _FAILED else loaded)

    def _settle(self, value: Any) -> None:
        self.value, self.known = value, True

    def close(self) -> None:
        """Stop the child if it still runs; forget its file."""
        if self.pid:
            scratch.stop(self.pid)
            self.pid = 0
        if self.note >= 0:
            os.close(self.note)
            self.note = -1
        if self.scratch is not None:
            self.scratch.close()
            self.scratch = None

    def __enter__(self) -> Pending:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
