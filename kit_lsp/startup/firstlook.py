"""The first look: an opened file's diagnostics from a second process, before the server's own.

A cold start pays pygls's and lsprotocol's imports and then a whole design's analysis, one
after the other on one core: seconds on a large design. At spawn, `kit_lsp.startup.boot` starts
`kit_lsp.startup.firstlook_worker` (on the machine's other core), which imports only the analyzer;
each `.kit` file opened before the server's first analysis is sent to it, and it answers
with that file's diagnostics from the packages the file reaches
(`kit_core.analyzer.partial`). The answer goes to whoever holds the stream: the start-up
code (`kit_lsp.startup.early`), then the server (`kit_lsp.startup.handover`), which publishes it
only while the document is at the version asked about and its own analysis has not
published yet. The server closes the process after its first analysis.

Standard library only. `KIT_LSP_FIRST_LOOK=0` turns it off.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import subprocess

Answer = dict[str, Any]  # {uri, version, diagnostics} or {uri, version, error}
Sink = Callable[[Answer], None]


class FirstLook:
    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()  # the process's stdin
        self._deliver = threading.Lock()  # held while an answer is handed over (see `attach`)
        self._sink: Sink | None = None
        self._pending: list[Answer] = []
        self._asked: set[str] = set()

    def start(self) -> FirstLook:
        """Spawn the process (not when turned off, or when it cannot start: nothing is lost
        but the head start)."""
        if os.environ.get("KIT_LSP_FIRST_LOOK", "1") == "0":
            return self
        import subprocess  # deferred: `kit_lsp.startup.boot` imports this module before the handshake

        command = [sys.executable, "-m", "kit_lsp.startup.firstlook_worker"]
        try:
            self._proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError:
            return self
        threading.Thread(target=self._read, name="kit-lsp-first-look", daemon=True).start()
        return self

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.stdin is not None and not self._proc.stdin.closed

    def ask(self, uri: str, path: str, version: Any, text: str, encoding: str, buffers: dict[str, str]) -> None:
        """Ask for a file's first look (once per file: the server's analysis covers edits)."""
        with self._lock:
            if not self.running or uri in self._asked:
                return
            self._asked.add(uri)
            request = {"uri": uri, "path": path, "version": version, "text": text, "encoding": encoding}
            request["buffers"] = buffers
            line = json.dumps(request, separators=(",", ":")).encode("utf-8", "surrogatepass") + b"\n"
            try:
                assert self._proc is not None and self._proc.stdin is not None
                self._proc.stdin.write(line)
                self._proc.stdin.flush()
            except (OSError, ValueError):
                self._close_locked()

    def attach(self, sink: Sink | None) -> None:
        """Hand answers to ``sink`` from now on (those that came meanwhile first); None: hold
        them. Returns once no answer is on its way to the previous sink."""
        with self._deliver:
            self._sink = sink
            if sink is not None:
                pending, self._pending = self._pending, []
                for answer in pending:
                    sink(answer)

    def close(self) -> None:
        """No more questions: the process ends once it has answered what it was asked."""
        with self._lock:
            self._close_locked()

    def _close_locked(self) -> None:
        proc = self._proc
        if proc is not None and proc.stdin is not None and not proc.stdin.closed:
            try:
                proc.stdin.close()
            except OSError:
                pass

    def _read(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        for line in proc.stdout:
            try:
                answer = json.loads(line)
            except ValueError:
                continue
            if not isinstance(answer, dict) or "diagnostics" not in answer:
                continue  # an error: the server's analysis will tell
            with self._deliver:
                if self._sink is None:
                    self._pending.append(answer)
                else:
                    self._sink(answer)
        proc.wait()
