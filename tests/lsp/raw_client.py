"""A minimal JSON-RPC client over a subprocess's stdio (kit's own framing, no LSP library):
for tests that send what a well-behaved client never would, and for timing kit-lsp from
the outside (`bench/lsp/bench_start.py`) without an LSP library's imports in the client."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from kit_lsp import wire

SERVER = [sys.executable, "-m", "kit_lsp"]


class RawClient:
    def __init__(self, command: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            command or SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )
        self.inbox: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self.received: list[dict[str, Any]] = []  # every message, in order
        self._next = 0
        self._writing = threading.Lock()  # the reader answers the server's requests too
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        reader = wire.FrameReader(self.proc.stdout)
        while True:
            body = reader.read()
            if body is None:
                return
            if isinstance(body, bytes):
                message = json.loads(body)
                if message.get("method") == "client/registerCapability" and "id" in message:
                    self.send({"id": message["id"], "result": None})  # as an editor does
                self.received.append(message)
                self.inbox.put((time.perf_counter(), message))

    def send(self, message: dict[str, Any]) -> float:
        return self.write(wire.encode({"jsonrpc": "2.0", **message}))

    def write(self, data: bytes) -> float:
        """Raw bytes, framed or not."""
        stdin = self.proc.stdin
        assert stdin is not None
        with self._writing:
            sent = time.perf_counter()
            stdin.write(data)
            stdin.flush()
        return sent

    def request(self, method: str, params: Any) -> int:
        self._next += 1
        self.send({"id": self._next, "method": method, "params": params})
        return self._next

    def answer(self, msg_id: Any, timeout: float = 60) -> dict[str, Any]:
        return self.wait(lambda m: m.get("id") == msg_id and "method" not in m, timeout)[1]

    def notify(self, method: str, params: Any) -> float:
        return self.send({"method": method, "params": params})

    def wait(self, match: Any, timeout: float = 120) -> tuple[float, dict[str, Any]]:
        """The first message (arrival time, message) for which ``match(message)`` holds."""
        end = time.monotonic() + timeout
        while True:
            at, msg = self.inbox.get(timeout=max(0.01, end - time.monotonic()))
            if match(msg):
                return at, msg

    def initialize(self, root: Path, options: Any = None, watches: bool = False) -> float:
        """Send `initialize` at once; returns ms from spawn to its answer. ``watches``: the
        client offers to watch files (as VS Code and Neovim do; the server registers its
        watchers and trusts file events instead of walking the design again)."""
        capabilities: dict[str, Any] = {"textDocument": {"rename": {"prepareSupport": True}}}
        if watches:
            capabilities["workspace"] = {"didChangeWatchedFiles": {"dynamicRegistration": True}}
        msg_id = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "capabilities": capabilities,
                "initializationOptions": options,
            },
        )
        at, _ = self.wait(lambda m: m.get("id") == msg_id)
        self.notify("initialized", {})
        return (at - self.started) * 1000

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(10)  # everything the server wrote is in `received`


def diagnostics_for(uri: str, version: int | None = None) -> Any:
    def match(msg: dict[str, Any]) -> bool:
        params = msg.get("params") or {}
        return (
            msg.get("method") == "textDocument/publishDiagnostics"
            and params.get("uri") == uri
            and (version is None or params.get("version") == version)
        )

    return match
