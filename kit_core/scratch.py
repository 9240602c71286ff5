"""Scratch files and forked children shared by `kit gen`'s helpers (the renderers' fork,
the analyzer rules' fork, gofmt's batches).

A forked child hands its result back pickled through a `Scratch`: an anonymous file in
memory (``memfd_create``; elsewhere a temporary file unlinked at once), opened before the
fork, so that no name is left behind whatever ends the run (a killed `kit gen` used to leave
its files in /dev/shm). Child and parent share the file's offset: the child writes from the
start, the parent rewinds once the child is done. The parent treats a result that does not
load as no result (the child is not trusted, its work is redone).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import tempfile
from collections.abc import Callable
from typing import Any, NoReturn


def memory_dir() -> str | None:
    """/dev/shm when it is there and writable, else None (the system's temp folder)."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


class Scratch:
    """An anonymous file for one child's result (see the module's docstring)."""

    def __init__(self, name: str) -> None:
        if hasattr(os, "memfd_create"):
            self.fd = os.memfd_create(name, os.MFD_CLOEXEC)
        else:  # pragma: no cover - not Linux
            self.fd, path = tempfile.mkstemp(prefix=name, dir=memory_dir())
            os.unlink(path)

    def hand_over(self, value: Any) -> None:
        """The child's side: ``value`` pickled into the file."""
        with os.fdopen(os.dup(self.fd), "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)

    def taken(self, default: Any = None) -> Any:
        """The parent's side, once the child is done: what it handed over, or ``default`` when
        that does not load."""
        try:
            os.lseek(self.fd, 0, os.SEEK_SET)
            with os.fdopen(os.dup(self.fd), "rb") as fh:
                return pickle.load(fh)
        except Exception:
            return default

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


_held: set[int | signal.Signals] = set()  # the signal mask before `fork` (the child restores it)


def fork() -> int:
    """`os.fork`, with Ctrl-C held back in the child until it runs its own code (`child_ends`):
    Python's after-fork hooks in the child would otherwise take the interrupt and print it
    ("Exception ignored in: _after_fork"). The parent's mask is restored at once."""
    global _held
    _held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    pid = os.fork()
    if pid == 0:
        return 0
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, _held)  # an interrupt held meanwhile lands here
    except BaseException:
        stop(pid)
        raise
    return pid


def child_ends(into: Scratch, work: Callable[[], Any], note: int | None = None) -> NoReturn:
    """A forked child's whole life after the fork: ``work()``, its result handed over through
    ``into`` (then one byte on ``note``, when given), and the process ended without cleanup.
    It ends with status 0 only when all of that was done: anything else is not trusted."""
    status = 1
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, _held)  # `fork` held Ctrl-C back until here
        into.hand_over(work())
        if note is not None:
            os.write(note, b"!")
        status = 0
    finally:
        os._exit(status)


def stop(pid: int) -> None:
    """Kill a forked child (if it still runs) and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
