"""What the `kit gen` client and the daemon share: where the socket is, who may talk, and
how a message looks (one JSON object a line).

    client -> {"identity": ..., "gen": {"root": ..., "context": ..., "targets": [...]}}
    client -> {"identity": ..., "stop": true}
    daemon -> {"out": text} | {"err": text}      (what the run prints, in order)
    daemon -> {"exit": status} | {"refused": reason}
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

SOCKET_NAME = "daemon.sock"
LOCK_NAME = "daemon.lock"
LOG_NAME = "daemon.log"
# a Unix socket's path has a short limit (108 bytes on Linux): a longer state folder
# gets no daemon
MAX_SOCKET_PATH = 100
# what a run reads from the environment beyond kit's own files: where tools and caches are
_ENV_PREFIXES = ("KIT_", "GO", "XDG_")
_ENV_NAMES = ("PATH", "HOME", "TMPDIR")
_OWN_PREFIX = "KIT_DAEMON_"  # the daemon's own settings (idle time, log level) change no output


def socket_path(folder: Path) -> Path | None:
    path = folder / SOCKET_NAME
    return path if len(os.fsencode(path)) <= MAX_SOCKET_PATH else None


def identity() -> str:
    """Equal for a client and a daemon that would generate the same bytes."""
    from kit_core.incremental.build import build_id
    from kit_core.incremental.keys import digest

    env = sorted(
        (k, v)
        for k, v in os.environ.items()
        if (k in _ENV_NAMES or k.startswith(_ENV_PREFIXES)) and not k.startswith(_OWN_PREFIX)
    )
    return digest(build_id(), json.dumps(env))


def send(conn: socket.socket, message: dict[str, Any]) -> None:
    conn.sendall((json.dumps(message) + "\n").encode("utf-8"))


class Lines:
    """The messages arriving on a connection, one per line (None at its end)."""

    def __init__(self, conn: socket.socket) -> None:
        self._file = conn.makefile("rb")

    def next(self) -> dict[str, Any] | None:
        line = self._file.readline()
        if not line:
            return None
        try:
            message = json.loads(line)
        except ValueError:
            return None
        return message if isinstance(message, dict) else None
