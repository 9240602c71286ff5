"""One kit run at a time per project: `kit gen` and kit-lsp's generation on save.

    with project_lock(project_root, on_wait=print_to_stderr):
        ... recover, generate, write ...

The lock is an `fcntl.flock` on the file `lock` in the project's state folder
(`kit_core/statedir.py`), so nothing is added to the user's tree and the operating system releases
it when the holder dies, however it dies. The holder writes its pid into the file; a run
that finds the lock taken calls ``on_wait`` once with the message
`kit: waiting for another kit run on <project> (pid N)...` and then blocks until it is free.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from kit_core.statedir import open_state, state_dir

LOCK_NAME = "lock"


def waiting_message(project_root: Path | str, pid: int | None) -> str:
    holder = f"pid {pid}" if pid else "pid unknown"
    return f"kit: waiting for another kit run on {project_root} ({holder})..."


@contextmanager
def project_lock(
    project_root: Path | str,
    on_wait: Callable[[str], None] | None = None,
    folder: Path | None = None,
) -> Iterator[Path]:
    """Hold the project's run lock for the block; yields the project's state folder."""
    folder = folder or state_dir(project_root)
    fd = open_state(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT)  # never through a symlink
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait(waiting_message(project_root, _holder(fd)))
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        try:
            yield folder
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _holder(fd: int) -> int | None:
    """The pid the holder wrote (it may not have written it yet: look a few times)."""
    for _ in range(20):
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text.isdigit():
            return int(text)
        time.sleep(0.005)
    return None
