"""Scratch files and forked children shared by `kit gen`'s helpers (the renderers' fork,
the analyzer rules' fork, gofmt's batches).

Scratch files go to memory (/dev/shm) when it is there: they live for one run and are read
once. A forked child hands its result back pickled through such a file; the parent treats
a file that does not load as no result (the child is not trusted, its work is redone).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import tempfile
from typing import Any


def memory_dir() -> str | None:
    """/dev/shm when it is there and writable, else None (the system's temp folder)."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def scratch_file(prefix: str) -> str:
    """A new, empty scratch file (the caller unlinks it)."""
    fd, path = tempfile.mkstemp(prefix=prefix, suffix=".pickle", dir=memory_dir())
    os.close(fd)
    return path


def hand_over(path: str, value: Any) -> None:
    """The child's side: ``value`` pickled into ``path``."""
    with open(path, "wb") as fh:
        pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)


def taken(path: str, default: Any = None) -> Any:
    """The parent's side: what the child handed over, or ``default`` when it did not load."""
    try:
        with open(path, "rb") as fh:
            return pickle.load(fh)
    except Exception:
        return default


def stop(pid: int) -> None:
    """Kill a forked child (if it still runs) and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
