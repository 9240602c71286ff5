"""The runtime's pin in go.mod, prepared while `kit gen` runs.

`kit gen` pins the runtime after writing (`gomod.pin_runtime`: ~0.06 s on a clean run, a
copy of the runtime into kit's cache, a digest of it, a `go mod edit -json`). The part that
changes nothing in the project (`gomod.prepare_pin`) runs in a thread from the start of the
run instead: its file copies, hashing and go process leave the interpreter's lock, so it
uses the core that is idle while the design loads. Only the edit of go.mod waits for the
outputs to be written, as before. The thread is joined before the process forks (the
analyzer's rules and the renderer run in forked children), so that no child inherits it
half-done.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from kit_core.generators.base import Notice
from kit_core.gomod import PreparedPin, prepare_pin


class PinAhead:
    def __init__(self, project_root: Path) -> None:
        self.project_root = project_root
        self.prepared: PreparedPin | None = None
        self.thread = threading.Thread(target=self._prepare, name="kit-pin", daemon=True)
        self.thread.start()
        os.register_at_fork(before=self.wait)

    def _prepare(self) -> None:
        self.prepared = prepare_pin(self.project_root)

    def wait(self) -> None:
        if self.thread.is_alive() and threading.current_thread() is not self.thread:
            self.thread.join()

    def apply(self) -> list[Notice]:
        """`pin_runtime`'s notices; go.mod edited per the plan prepared meanwhile."""
        self.wait()
        prepared = self.prepared or prepare_pin(self.project_root)  # the thread failed: here, as before
        return prepared.apply()
