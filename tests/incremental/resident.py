"""The resident kit as the tests start it: each test its own user folder (`XDG_RUNTIME_DIR`,
a short name under /tmp: a socket's path is short), so that tests do not share (or stop) one
another's resident kit; `stop` ends the one it started, by its pid, and checks it is gone."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kit_core.daemon.protocol import FOLDER_NAME, LOCK_NAME, SOCKET_NAME

DEADLINE = 60.0  # generous: only a broken resident kit comes near it
KIT = str(Path(__file__).resolve().parents[2] / "kit_core")


class Resident:
    def __init__(self, **env: str) -> None:
        self.run_dir = Path(tempfile.mkdtemp(prefix="kr", dir="/tmp"))
        self.env = {k: v for k, v in os.environ.items() if k not in ("KIT_NO_DAEMON", "CI")}
        self.env.update({"XDG_RUNTIME_DIR": str(self.run_dir), "KIT_DAEMON_IDLE": "120"}, **env)

    @property
    def folder(self) -> Path:
        return self.run_dir / FOLDER_NAME

    @property
    def socket(self) -> Path:
        return self.folder / SOCKET_NAME

    def gen(self, cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "kit_core.cli", "gen", *(args or ("design",))],
            cwd=cwd,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=DEADLINE,
            stdin=subprocess.DEVNULL,
        )

    def pid(self) -> int | None:
        """The pid of the resident kit serving this user folder, None when none holds its lock."""
        lock = self.folder / LOCK_NAME
        if not lock.exists():
            return None
        fd = os.open(lock, os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            text = lock.read_text().split()
            return int(text[0]) if text else None
        else:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        finally:
            os.close(fd)

    def processes(self) -> list[int]:
        """Every resident kit process started with this user folder (from /proc)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
                environ = (entry / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"kit_core.daemon" in cmdline and b"serve" in cmdline:
                if f"XDG_RUNTIME_DIR={self.run_dir}".encode() in environ:
                    found.append(int(entry.name))
        return found

    def status(self) -> dict[str, Any] | None:
        out = subprocess.run(
            [sys.executable, "-m", "kit_core.daemon", "status"],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=DEADLINE,
        )
        return json.loads(out.stdout) if out.returncode == 0 else None

    def wait_gone(self, within: float = DEADLINE) -> bool:
        deadline = time.monotonic() + within
        while self.processes():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def stop(self) -> None:
        """Stop what this test started (asked first, then killed by its pid) and clean up."""
        subprocess.run(
            [sys.executable, "-m", "kit_core.daemon", "stop"], env=self.env, capture_output=True, timeout=DEADLINE
        )
        stubborn = not self.wait_gone(10.0)
        for pid in self.processes():
            os.kill(pid, signal.SIGKILL)  # the resident kit this test started, by its id
        shutil.rmtree(self.run_dir, ignore_errors=True)
        assert not stubborn, "the resident kit did not stop when asked"
