"""`kit gen`'s side: hand the run to the user's resident kit (starting it when there is none)
and print what it prints. None means "run it yourself": no resident kit could be reached
(or trusted), it refused twice, or it ended without finishing (never a reason to fail the
user's run). Ctrl-C while it runs asks it to cancel (`CANCELLED`)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from kit_core.daemon.protocol import LOG_NAME, Lines, daemon_dir, identity, peer_is_me, send, socket_path
from kit_core.interrupt import EXIT_STATUS, Cancelled, interrupted_line
from kit_core.printable import printable
from kit_core.statedir import open_state

START_TIMEOUT_ENV = "KIT_DAEMON_START_TIMEOUT"
_REFUSED = -1


def run_gen(root: Path, context: Path | None, targets: Sequence[str] | None, interactive: bool) -> int | None:
    try:
        folder = daemon_dir()
    except OSError as exc:
        _say(f"kit: running without a resident kit: {exc.filename or ''}: {exc.strerror or exc}")
        return None
    path = socket_path(folder)
    if path is None:
        return None
    request: dict[str, object] = {
        "identity": identity(),
        "gen": {"root": str(root), "context": str(context) if context else None, "targets": list(targets or [])},
        "cwd": os.getcwd(),
        "interactive": interactive,
    }
    for _ in range(2):  # a refusing resident kit (another build) exits: start ours once
        conn = _connect(path) or _start(folder, path)
        if conn is None:
            return None
        with conn:
            if not peer_is_me(conn):
                _say(f"kit: running without a resident kit: {path} is served by another user's process")
                return None
            code = _Exchange(conn).run(request)
        if code != _REFUSED:
            return code
    return None


def request(message: dict[str, Any]) -> dict[str, Any] | None:
    """One request to the user's resident kit (`stop`, `status`): its answer, None when there
    is none (or none of this user's)."""
    try:
        path = socket_path(daemon_dir())
        conn = _connect(path) if path is not None else None
    except OSError:
        return None
    if conn is None:
        return None
    with conn:
        if not peer_is_me(conn):
            return None
        send(conn, {"identity": identity(), **message})
        return Lines(conn).next()


def _say(message: str) -> None:

    print(printable(message), file=sys.stderr, flush=True)


def _connect(path: Path) -> socket.socket | None:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(str(path))
    except OSError:  # none there, a dead one's socket file, or not ours to reach
        conn.close()
        return None
    return conn


def _start(folder: Path, path: Path) -> socket.socket | None:
    """Start a detached resident kit and connect to it as soon as it listens (it binds its
    socket before its heavy imports)."""

    try:
        log = open_state(folder / LOG_NAME, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    except OSError:
        return None
    kit = str(Path(__file__).resolve().parent.parent)  # names the checkout in `ps` (scripts/test looks)
    try:
        daemon = subprocess.Popen(
            [sys.executable, *subprocess._args_from_interpreter_flags(), "-m", "kit_core.daemon", "serve", kit],  # type: ignore[attr-defined]
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd="/",
            start_new_session=True,  # not the terminal's: its Ctrl-C reaches the client, which cancels
        )
    finally:
        os.close(log)
    deadline = time.monotonic() + float(os.environ.get(START_TIMEOUT_ENV, "10"))
    while time.monotonic() < deadline:
        conn = _connect(path)
        if conn is not None:
            return conn
        if daemon.poll() is not None:  # it ended at once (another serves, or it failed: see its log)
            return _connect(path)
        time.sleep(0.005)
    return None


class _Exchange:
    """One run handed over: its output printed as it comes; a first Ctrl-C asks the resident
    kit to cancel (it stops at the run's next stage, before writing, and says so), a second
    one gives up waiting."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.interrupted = False

    def run(self, request: dict[str, object]) -> int | None:

        previous = signal.signal(signal.SIGINT, self._on_sigint)
        try:
            send(self.conn, request)
            return self._answer()
        except Cancelled:
            return _cancelled(written=None)
        except OSError:
            return _cancelled(written=None) if self.interrupted else None
        finally:
            signal.signal(signal.SIGINT, previous)

    def _on_sigint(self, _signum: int, _frame: FrameType | None) -> None:

        if self.interrupted:
            raise Cancelled()
        self.interrupted = True
        try:
            send(self.conn, {"cancel": True})
        except OSError:
            raise Cancelled() from None

    def _answer(self) -> int | None:
        lines = Lines(self.conn)
        while (message := lines.next()) is not None:
            if "out" in message:
                sys.stdout.write(str(message["out"]))
                sys.stdout.flush()
            elif "err" in message:
                sys.stderr.write(str(message["err"]))
                sys.stderr.flush()
            elif "cancelled" in message:
                return _cancelled(written=False)
            elif "exit" in message:
                return _cancelled(written=True) if self.interrupted else int(message["exit"])
            elif "refused" in message:
                return _REFUSED
        # it ended mid-run: the run is done here (the project lock and journal keep it safe)
        return _cancelled(written=None) if self.interrupted else None


def _cancelled(written: bool | None) -> int:

    _say(interrupted_line(written))
    return EXIT_STATUS
