"""Diagnostics published while the server is still being imported: the last session's, and
the first looks of files opened meanwhile.

Standard library only (it runs in `kit_lsp.startup.boot` between the handshake and the
hand-over). For each design in the workspace folders whose cached record
(`kit_lsp.startup.cache`) still matches the files exactly, the recorded diagnostics of every
file are published at once; a file opened meanwhile gets them with its version when its
text is the recorded one, else it is sent to the first look. Nothing is published for a
design whose files changed, for a client using another position encoding, or for a buffer
edited before the server took over. What was published is handed to the server
(`kit_lsp.startup.handover`), which republishes a file only if its analysis finds otherwise.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from kit_core.designfiles import design_roots
from kit_lsp import wire
from kit_lsp.startup import cache
from kit_lsp.startup.capabilities import position_encoding
from kit_lsp.startup.firstlook import Answer, FirstLook

Published = dict[str, tuple[int | None, list[Any]]]  # uri -> (version, LSP JSON diagnostics)


def path_of(uri: str) -> str | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return str(Path(unquote(parsed.path)).resolve())


def _folders(params: dict[str, Any]) -> list[Path]:
    uris = [f.get("uri") for f in params.get("workspaceFolders") or [] if isinstance(f, dict)]
    uris = [u for u in uris if isinstance(u, str)] or [params.get("rootUri")]
    return [Path(p) for p in (path_of(u) for u in uris if isinstance(u, str)) if p]


class Early:
    def __init__(self, params: dict[str, Any], outbox: wire.Outbox, first: FirstLook | None = None) -> None:
        self._outbox = outbox
        self._first = first
        self._encoding = position_encoding(params.get("capabilities"))
        self._folders = _folders(params)
        self._records: list[cache.Record] = []
        self._opened: dict[str, tuple[str, int | None, str]] = {}  # path -> (uri, version, text)
        self._touched: set[str] = set()  # uris edited or closed: left to the server
        self._lock = threading.Lock()  # `load` runs on its own thread
        self._closed = False  # handed over: nothing more is published
        self.published: Published = {}

    def load(self) -> None:
        """Read the records of the workspace's designs and publish those still valid (on its
        own thread: a large workspace folder takes a while to list, the hand-over never waits)."""
        records = []
        for folder in self._folders:
            for root in design_roots(folder):
                record = cache.load(str(root.resolve()))
                if record is not None and record.get("encoding") == self._encoding and cache.matches_disk(record, {}):
                    records.append(record)
        with self._lock:
            self._records = records
            for record in records:
                self._log(f"kit: diagnostics of {record['root']} from the last session (unchanged since)")
                for path, diags in record["diagnostics"].items():
                    if path not in self._opened:
                        self._publish(Path(path).as_uri(), None, diags)
            for path in self._opened:
                self._opened_file(path)

    def close(self) -> Published:
        """The hand-over: nothing is published after it; returns what was."""
        with self._lock:
            self._closed = True
            return dict(self.published)

    def _log(self, message: str) -> None:
        params = {"type": 4, "message": message}  # MessageType.Log
        self._outbox.send({"jsonrpc": "2.0", "method": "window/logMessage", "params": params})

    def see(self, item: wire.Item) -> None:
        """A message read before the hand-over (it is handled by the server later too)."""
        if not isinstance(item, dict):
            return
        method, params = item.get("method"), item.get("params")
        if not isinstance(params, dict):
            return
        doc = params.get("textDocument")
        if not isinstance(doc, dict) or not isinstance(doc.get("uri"), str):
            return
        uri: str = doc["uri"]
        with self._lock:
            if method == "textDocument/didOpen" and isinstance(doc.get("text"), str):
                path = path_of(uri)
                if path is not None and uri not in self._touched:
                    self._opened[path] = (uri, doc.get("version"), doc["text"])
                    self._opened_file(path)
                    self._ask(path)
            elif method in ("textDocument/didChange", "textDocument/didClose"):
                self._touched.add(uri)

    def _ask(self, path: str) -> None:
        """Ask the first-look process about an opened design file nothing was published for."""
        uri, version, text = self._opened[path]
        if self._first is None or not path.endswith(".kit") or uri in self.published:
            return
        buffers = {p: t for p, (_, _, t) in self._opened.items() if p != path}
        self._first.ask(uri, path, version, text, self._encoding, buffers)

    def first_look(self, answer: Answer) -> None:
        """An answer of the first-look process: published unless something was (the cache's
        record) or the buffer was edited since."""
        with self._lock:
            uri = answer["uri"]
            if uri not in self.published:
                version = answer.get("version")
                self._publish(uri, version if isinstance(version, int) else None, answer["diagnostics"])

    def _opened_file(self, path: str) -> None:
        uri, version, text = self._opened[path]
        for record in self._records:
            if path in record["files"]:
                if record["files"][path] == cache.text_digest(text):
                    versioned = version if isinstance(version, int) else None
                    self._publish(uri, versioned, record["diagnostics"].get(path, []))
                return

    def _publish(self, uri: str, version: int | None, diags: list[Any]) -> None:
        if uri in self._touched or self._closed:
            return
        from kit_lsp.startup.lspjson import publish_params  # deferred: not before the handshake

        params = publish_params(uri, version, diags)
        self._outbox.send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params})
        self.published[uri] = (version, diags)


def run(
    params: dict[str, Any],
    inbox: wire.Inbox,
    outbox: wire.Outbox,
    importing: threading.Thread,
    first: FirstLook | None = None,
) -> tuple[list[wire.Item | None], Published]:
    """Publish cached diagnostics, and the first looks of opened files, while ``importing``
    runs; returns the messages read meanwhile (for the server, in order) and what was
    published. ``first``'s answers are held from the return on (the server takes them)."""
    early = Early(params, outbox, first)
    if first is not None:
        first.attach(early.first_look)
    backlog: list[wire.Item | None] = []

    def load() -> None:
        try:
            early.load()
        except Exception as exc:  # a cache that cannot be read only means no early diagnostics
            print(f"kit-lsp: cached diagnostics not used: {exc}", file=sys.stderr)

    threading.Thread(target=load, name="kit-lsp-early", daemon=True).start()
    while importing.is_alive():
        got, item = inbox.take(timeout=0.005)
        if got:
            if item is not None:
                early.see(item)
            backlog.append(item)
    if first is not None:
        first.attach(None)
    return backlog, early.close()
