"""What the `kit gen` client and the resident kit share: where the socket is, who may talk,
and how a message looks (one JSON object a line).

    client -> {"identity": ..., "gen": {"root": ..., "context": ..., "targets": [...]},
               "cwd": ..., "interactive": bool}
    client -> {"cancel": true}                     (Ctrl-C, while its run goes on)
    client -> {"identity": ..., "stop": true} | {"identity": ..., "status": true}
    daemon -> {"out": text} | {"err": text}        (what the run prints, in order)
    daemon -> {"exit": status} | {"cancelled": true} | {"refused": reason} | {"status": {...}}

Both ends check that the other is a process of this user (`peer_is_me`, `SO_PEERCRED`)
before reading anything from it.
"""

from __future__ import annotations

import json
import os
import socket
import struct
from pathlib import Path
from typing import Any

from kit_core.daemon.identity import identity
from kit_core.statedir import safe_dir

__all__ = ["Lines", "daemon_dir", "identity", "peer_is_me", "send", "socket_path"]

SOCKET_NAME = "daemon.sock"
LOCK_NAME = "daemon.lock"
LOG_NAME = "daemon.log"
FOLDER_NAME = "kit"
# a Unix socket's path has a short limit (108 bytes on Linux): a longer folder gets no daemon
MAX_SOCKET_PATH = 100


def daemon_dir() -> Path:
    """The user's resident-kit folder, made safe (`statedir.safe_dir`; raises `OSError` when
    it cannot be): ``$XDG_RUNTIME_DIR/kit``, else ``/tmp/kit-<uid>``. One per user whatever
    the cache folder or ``TMPDIR``: one resident kit per user."""

    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    uid = os.getuid() if hasattr(os, "getuid") else 0
    base = Path(runtime) / FOLDER_NAME if os.path.isabs(runtime) else Path("/tmp") / f"{FOLDER_NAME}-{uid}"
    return safe_dir(base)


def socket_path(folder: Path) -> Path | None:
    path = folder / SOCKET_NAME
    return path if len(os.fsencode(path)) <= MAX_SOCKET_PATH else None


def peer_is_me(conn: socket.socket) -> bool:
    """Whether the process at the other end runs as this user (`SO_PEERCRED`)."""
    peercred = getattr(socket, "SO_PEERCRED", None)
    if peercred is None:  # pragma: no cover - not Linux: the folder's mode is the guard
        return True
    try:
        raw = conn.getsockopt(socket.SOL_SOCKET, peercred, struct.calcsize("3i"))
    except OSError:
        return False
    _pid, uid, _gid = struct.unpack("3i", raw)
    return bool(uid == os.getuid())


def send(conn: socket.socket, message: dict[str, Any]) -> None:
    conn.sendall((json.dumps(message) + "\n").encode("utf-8"))


class Lines:
    """The messages arriving on a connection, one per line (None at its end)."""

    def __init__(self, conn: socket.socket) -> None:
        self._file = conn.makefile("rb")

    def next(self) -> dict[str, Any] | None:
        try:
            line = self._file.readline()
        except (OSError, ValueError):  # reset, or closed under us
            return None
        if not line:
            return None
        try:
            message = json.loads(line)
        except ValueError:
            return None
        return message if isinstance(message, dict) else None
