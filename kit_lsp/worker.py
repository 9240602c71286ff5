"""Generation in a worker process, so that it never holds the GIL against the keystroke path.

A full generation of a large design is seconds of CPU-bound Python; on a thread of the
server it took turns with every analysis (edit-to-diagnostics rose from ~25 ms to 100-250 ms
while a save regenerated). The worker is `python -m kit_lsp.worker`, started at the first
save and kept (it keeps its imports and whatever a generation may cache); it reads one
JSON object a line on stdin and answers the same way on stdout:

    -> {"run": 3, "root": "/path/design"}         <- {"progress": 3, "message": "checking"}
    -> {"cancel": 3}                              <- {"done": 3, "outcome": {...}}
                                                  <- {"done": 3, "cancelled": true}

A cancelled run stops at the next stage boundary before writing (never in the middle of
writing files); the server cancels a run when a newer save supersedes it. The worker ends
when its stdin closes (the server exited).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import IO, Any

from kit_core import gcpause

log = logging.getLogger(__name__)


class Superseded(Exception):
    """The run was cancelled; raised from its progress callback at a stage boundary."""


# --------------------------------------------------------------------------- the worker process


def serve_worker(inp: IO[str], out: IO[str]) -> None:
    from kit_core.resident.designs import ResidentDesigns
    from kit_lsp.generation import Outcome, generate_design

    designs = ResidentDesigns()  # kept across runs: a save after an edit re-parses only what changed

    cancelled: set[int] = set()
    runs: list[dict[str, Any]] = []
    ready = threading.Condition()
    ended = False

    def send(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    def read() -> None:  # cancellations must be seen while a run is busy
        nonlocal ended
        for line in inp:
            message = json.loads(line)
            with ready:
                if "cancel" in message:
                    cancelled.add(int(message["cancel"]))
                else:
                    runs.append(message)
                ready.notify()
        with ready:
            ended = True
            ready.notify()

    threading.Thread(target=read, daemon=True).start()
    while True:
        with ready:
            ready.wait_for(lambda: bool(runs) or ended)
            if not runs:
                return
            run = runs.pop(0)
        run_id = int(run["run"])

        def progress(message: str, run_id: int = run_id) -> None:
            if run_id in cancelled:
                raise Superseded()
            send({"progress": run_id, "message": message})

        try:
            root = Path(run["root"])
            snapshot = partial(designs.snapshot, root)
            disk = partial(designs.disk, root)
            outcome = generate_design(root, progress, snapshot, run.get("renames"), disk)
        except Superseded:
            send({"done": run_id, "cancelled": True})
            continue
        except Exception as exc:  # a generator bug: reported, the worker stays
            log.exception("generation of %s failed", run["root"])
            outcome = Outcome(Path(run["root"]), failure=f"internal error: {exc}")
        cancelled.discard(run_id)
        send({"done": run_id, "outcome": {**asdict(outcome), "root": str(outcome.root)}})


WORKER_NICENESS = 5  # a little below the editor; the keystroke path relies on `Worker.hold`, not on this


def background() -> None:
    """Run a little below the editor (gofmt and the plugins inherit it). The keystroke path
    does not rely on priority: the server stops the worker while it analyses an edit
    (`Worker.hold`). The idle scheduling class was tried before: it starved a generation for
    as long as anything else kept every core busy (a `go build`, a test run), minutes."""
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):
        pass


def main() -> None:
    gcpause.install()  # the worker's generations pause the collector as `kit gen` does
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    background()
    serve_worker(sys.stdin, sys.stdout)


# --------------------------------------------------------------------------- the server's side

Report = Callable[[str], None]


class Worker:
    """The server's handle on the worker process (started on first use, restarted if it died).
    `run` is awaited on the server's event loop; messages arrive on a reader thread."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._next = 0
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any] | None], Report, asyncio.AbstractEventLoop]] = {}
        self._lock = threading.Lock()
        self._holds = 0
        self._stopped = False

    def _ensure(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "kit_lsp.worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
                # Its own process group, so `hold` stops its renderers and gofmt with it. Should
                # the server die while it is held, the group is orphaned with a stopped member,
                # and the kernel sends it SIGHUP then SIGCONT (POSIX): it never lingers stopped.
                process_group=0 if hasattr(os, "killpg") else None,
            )
            threading.Thread(target=self._read, args=(self._proc,), name="kit-generate-reader", daemon=True).start()
        return self._proc

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Stop the worker's process group while the server analyses an edit, so that a
        generation never competes with the keystroke path for the CPU (both cores go to the
        editor for those few milliseconds); nested and concurrent holds count."""
        with self._lock:
            self._holds += 1
            if self._holds == 1 and self._pending:
                self._stopped = self._signal(signal.SIGSTOP)
        try:
            yield
        finally:
            with self._lock:
                self._holds -= 1
                if self._holds == 0 and self._stopped:
                    self._signal(signal.SIGCONT)
                    self._stopped = False

    def _signal(self, sig: int) -> bool:
        proc = self._proc
        if proc is None or proc.poll() is not None or not hasattr(os, "killpg"):
            return False
        try:
            os.killpg(proc.pid, sig)
        except OSError:
            return False
        return True

    def start(self) -> None:
        """Start the process ahead of the first run (its imports take a while)."""
        self._ensure()

    async def run(
        self, root: Path, report: Report, renames: dict[str, str] | None = None
    ) -> tuple[int, asyncio.Future[dict[str, Any] | None]]:
        """Start a generation; returns its id and a future of the outcome (None: cancelled).
        ``renames``: old stub -> new stub of methods renamed in the editor (their code moves)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            self._next += 1
            run_id = self._next
            future: asyncio.Future[dict[str, Any] | None] = loop.create_future()
            self._pending[run_id] = (future, report, loop)
        self._send({"run": run_id, "root": str(root), "renames": renames or {}})
        return run_id, future

    def cancel(self, run_id: int) -> None:
        if run_id in self._pending:
            self._send({"cancel": run_id})

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._ensure()
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except OSError as exc:  # it died: the reader fails what was pending
            log.warning("kit-lsp: generation worker unreachable: %s", exc)

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            self._dispatch(message)
        proc.wait()
        with self._lock:
            pending, self._pending = self._pending, {}
        for future, _, loop in pending.values():
            outcome = {"failure": f"the generation worker exited with status {proc.returncode}"}
            loop.call_soon_threadsafe(_resolve, future, outcome)

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "progress" in message:
            entry = self._pending.get(int(message["progress"]))
            if entry is not None:
                entry[2].call_soon_threadsafe(entry[1], str(message["message"]))
            return
        with self._lock:
            entry = self._pending.pop(int(message.get("done", -1)), None)
        if entry is not None:
            result = None if message.get("cancelled") else dict(message.get("outcome") or {})
            entry[2].call_soon_threadsafe(_resolve, entry[0], result)

    def stop(self) -> None:
        self._signal(signal.SIGCONT)  # a held worker could not read the end of its input
        if self._proc is not None and self._proc.poll() is None and self._proc.stdin is not None:
            try:
                self._proc.stdin.close()  # the worker ends at the end of its input
            except OSError:
                pass


def _resolve(future: asyncio.Future[dict[str, Any] | None], result: dict[str, Any] | None) -> None:
    if not future.done():
        future.set_result(result)


if __name__ == "__main__":
    main()
