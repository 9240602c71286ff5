"""Ctrl-C during `kit gen`: the run stops at once, except while it writes.

`kit gen` in its own process installs `on_sigint`: an interrupt raises `Cancelled` wherever
the run is, unless it is inside a `shielded` block (the write of the outputs, the journal's
recovery, the cache): those are finished first, so the tree is as before the run or as
after it, never between. `pending()` then says that the user asked to stop. Forked helpers
inherit the handler; their `Cancelled` ends them quietly (`scratch.child_ends`).

The resident kit does not take signals mid-run (its resident analysis must stay whole): a
client's cancel is looked at between the run's stages (`Cancelled` from the run's progress
callback), the last of which comes just before the write.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

EXIT_STATUS = 130  # 128 + SIGINT, as a shell reports a command Ctrl-C ended


class Cancelled(KeyboardInterrupt):
    """The user interrupted the run before it wrote anything."""


_shield = 0
_pending = False
_wrote = False


def on_sigint() -> None:
    """Ctrl-C raises `Cancelled` outside `shielded` blocks (main thread only)."""
    signal.signal(signal.SIGINT, _handle)


def _handle(_signum: int, _frame: FrameType | None) -> None:
    global _pending
    _pending = True
    if not _shield:
        raise Cancelled()


def pending() -> bool:
    """Whether an interrupt arrived (during a shielded block it did not stop the run)."""
    return _pending


@contextmanager
def shielded(writes: bool = False) -> Iterator[None]:
    """A block an interrupt does not cut short (it is noted: `pending`). ``writes``: the block
    writes the run's outputs (an interrupt after it says so: `wrote`)."""
    global _shield, _wrote
    _shield += 1
    try:
        yield
        _wrote = _wrote or writes
    finally:
        _shield -= 1


def wrote() -> bool:
    """Whether the run has written its outputs (an interrupt now leaves the tree as after it)."""
    return _wrote


def interrupted_line(written: bool | None) -> str:
    """The one line `kit gen` prints when Ctrl-C ended it."""
    if written is None:
        return "kit: interrupted"
    if written:
        return "kit: interrupted after the run had written its files (the tree is as after it)"
    return "kit: interrupted; nothing was written"
