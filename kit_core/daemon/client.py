"""`kit gen`'s side: hand the run to the project's daemon (starting it when there is none)
and print what it prints. None means "run it yourself": no daemon could be reached, it
refused twice, or it ended without finishing (never a reason to fail the user's run)."""

from __future__ import annotations

import os
import socket
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from kit_core.daemon.protocol import LOG_NAME, Lines, identity, send, socket_path

START_TIMEOUT_ENV = "KIT_DAEMON_START_TIMEOUT"
_REFUSED = -1


def run_gen(root: Path, context: Path | None, targets: Sequence[str] | None) -> int | None:
    from kit_core.statedir import StateDirError, state_dir

    project = (context or root.parent).resolve()
    try:
        folder = state_dir(project)
    except StateDirError:
        return None
    path = socket_path(folder)
    if path is None:
        return None
    request: dict[str, object] = {
        "identity": identity(),
        "gen": {"root": str(root), "context": str(context) if context else None, "targets": list(targets or [])},
        "cwd": os.getcwd(),
    }
    for _ in range(2):  # a refusing daemon (another kit build) exits: start ours once
        try:
            conn = _connect(path) or _start(folder, path)
        except PermissionError:  # another user's socket or folder: nothing to hand over to
            return None
        if conn is None:
            return None
        with conn:
            code = _exchange(conn, request)
        if code != _REFUSED:
            return code
    return None


def stop(folder: Path) -> bool:
    """Ask the project's daemon to exit (True: there was one and it answered)."""
    path = socket_path(folder)
    try:
        conn = _connect(path) if path is not None else None
    except OSError:
        return False
    if conn is None:
        return False
    with conn:
        send(conn, {"identity": identity(), "stop": True})
        return Lines(conn).next() is not None


def _connect(path: Path) -> socket.socket | None:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(str(path))
    except (FileNotFoundError, ConnectionRefusedError):  # none there, or a dead one's socket file
        conn.close()
        return None
    except OSError:
        conn.close()
        raise
    return conn


def _start(folder: Path, path: Path) -> socket.socket | None:
    """Start a detached daemon and connect to it as soon as it listens (it binds its socket
    before its heavy imports)."""
    import subprocess

    with open(folder / LOG_NAME, "ab") as log:
        daemon = subprocess.Popen(
            [sys.executable, "-m", "kit_core.daemon", "serve", str(folder)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd="/",
            start_new_session=True,  # not the terminal's: Ctrl-C on this run leaves it
        )
    deadline = time.monotonic() + float(os.environ.get(START_TIMEOUT_ENV, "10"))
    while time.monotonic() < deadline:
        conn = _connect(path)
        if conn is not None:
            return conn
        if daemon.poll() is not None:  # it ended at once (another serves, or it failed: see its log)
            return _connect(path)
        time.sleep(0.005)
    return None


def _exchange(conn: socket.socket, request: dict[str, object]) -> int | None:
    try:
        send(conn, request)
        lines = Lines(conn)
        while (message := lines.next()) is not None:
            if "out" in message:
                sys.stdout.write(str(message["out"]))
                sys.stdout.flush()
            elif "err" in message:
                sys.stderr.write(str(message["err"]))
                sys.stderr.flush()
            elif "exit" in message:
                return int(message["exit"])
            elif "refused" in message:
                return _REFUSED
    except OSError:
        pass
    return None  # it ended mid-run: the run is done here (the project lock and journal keep it safe)
