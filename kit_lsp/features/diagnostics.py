"""Debounced, versioned, per-source diagnostics.

An edit schedules an analysis of its design (run on the analysis thread, never on the
message loop). An edit to an idle design is analysed at once (after the messages already
queued, so a burst arriving together is one analysis); edits arriving while an analysis
runs, or within the debounce delay of the last one, are coalesced into one analysis
after the delay. The result is published for every file of the design, open or not (only
what changed since the last publication: a keystroke republishes its own document, not
the whole design): an open document only when its version is still the one analysed,
the last edited document first; a document edited meanwhile waits for the analysis its
edit scheduled. Diagnostics are kept per (source, uri), as the LSP JSON they are
published as (`kit_lsp.startup.lspjson`), so that one source (``analyzer``, a background
job's) can clear without wiping the others. The start-up's part (the first look, the
session cache, not publishing twice what the start-up published) is
`kit_lsp.startup.handover`.
When no edit has come for a while, a full garbage collection runs on the analysis thread
(the analyzer keeps its bulk values away from the collector; see `kit_core.gcpause`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from kit_core import gcpause
from kit_core.diagnostics import Diagnostic
from kit_core.resident.session import Snapshot
from kit_lsp.documents import Document, path_of
from kit_lsp.startup.lspjson import TextOf, diagnostic_json, publish_params, uri_of

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

log = logging.getLogger(__name__)

IDLE_COLLECT_S = 30.0  # quiet time after an analysis before a full garbage collection

ANALYZER = "analyzer"

Json = dict[str, Any]  # one LSP diagnostic as published


class Diagnostics:
    def __init__(self, server: KitLanguageServer) -> None:
        self._server = server
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._finished: dict[str, float] = {}  # key -> when its last analysis ended
        self._edited: dict[str, str] = {}  # key -> uri of the last edited document
        self._collect: asyncio.TimerHandle | None = None
        self._by_source: dict[str, dict[str, list[Json]]] = {}
        self._last: dict[str, tuple[int | None, tuple[Diagnostic, ...]]] = {}  # uri -> what was published
        self._shown: dict[str, set[str]] = {}  # key -> paths whose published list is not empty
        self._forced: set[str] = set()  # paths whose next list is published even if unchanged
        self._loop: asyncio.AbstractEventLoop | None = None
        server.state.protos_ready = self._protos_ready

    # ------------------------------------------------------------------ scheduling

    def schedule(self, key: str) -> None:
        """Analyse ``key`` (a design root or a lone file) after the debounce delay."""
        self._loop = asyncio.get_running_loop()
        if key in self._running:
            self._again.add(key)
            return
        task = self._tasks.get(key)
        if task is not None and not task.done():
            task.cancel()
        self._tasks[key] = asyncio.ensure_future(self._run(key))

    def _protos_ready(self, key: str) -> None:
        """(Any thread.) A large proto's full compile ended after its first pass was
        published (`kit_core.resident.protos`): analyse again to publish its diagnostics."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.schedule, key)

    def schedule_doc(self, doc: Document) -> None:
        key = self._server.state.key_for(doc)
        self._edited[key] = doc.uri
        self.schedule(key)

    def _delay(self, key: str) -> float:
        """No delay for an idle design; the debounce delay within a burst of edits."""
        delay = self._server.state.settings.diagnostics_delay_ms / 1000
        finished = self._finished.get(key)
        return delay if finished is not None and time.monotonic() - finished < delay else 0.0

    async def _run(self, key: str) -> None:
        state = self._server.state
        await asyncio.sleep(self._delay(key))
        self._running.add(key)
        try:
            while True:
                self._again.discard(key)
                loop = asyncio.get_running_loop()
                with self._server.regenerate.worker.hold():  # a save's generation waits meanwhile
                    try:
                        snap = await loop.run_in_executor(state.analysis_pool, state.analyze, key)
                    except Exception:  # a bug in a stage must not take the server down
                        log.exception("analysis of %s failed", key)
                        return
                    finally:
                        self._finished[key] = time.monotonic()
                    self.publish_snapshot(snap)
                state.release()
                if key not in self._again:
                    return
                await asyncio.sleep(state.settings.diagnostics_delay_ms / 1000)
        finally:
            self._running.discard(key)
            self._collect_when_idle()

    def _collect_when_idle(self) -> None:
        if self._collect is not None:
            self._collect.cancel()
        loop = asyncio.get_running_loop()
        self._collect = loop.call_later(IDLE_COLLECT_S, self._idle_collect)

    def _idle_collect(self) -> None:
        self._collect = None
        if self._running or any(not t.done() for t in self._tasks.values()):
            self._collect_when_idle()
            return
        asyncio.get_running_loop().run_in_executor(self._server.state.analysis_pool, gcpause.collect)

    def scheduled(self) -> set[str]:
        """The keys with an analysis scheduled or running (finished ones included until the next)."""
        return set(self._tasks)

    def published(self, uri: str) -> bool:
        """Whether an analysis's list was published for ``uri`` (or found unchanged)."""
        return uri in self._last

    async def idle(self) -> None:
        """Wait until no analysis is scheduled or running (tests, benchmarks)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    # ------------------------------------------------------------------ publishing

    def publish_snapshot(self, snap: Snapshot) -> None:
        """Publish what changed: every file of the design, open or not (an open document only
        for the version analysed; the last edited one first), and `[]` for a file whose
        diagnostics went away (fixed, or the file is gone)."""
        state = self._server.state
        by_path: dict[str, list[Diagnostic]] = {}
        for d in snap.diagnostics:
            by_path.setdefault(d.span.path, []).append(d)
        open_docs = {d.path: d for d in state.docs_for(snap.key)}
        shown = self._shown.setdefault(snap.key, set())
        # a closed file with nothing to show, before and now, has nothing to publish: only
        # these are looked at (a keystroke costs the files whose lists change, not the design)
        paths = by_path.keys() | shown | open_docs.keys() | (self._forced & snap.files.keys())
        self._forced -= paths
        edited = self._edited.get(snap.key)

        def order(path: str) -> tuple[bool, bool, str]:
            doc = open_docs.get(path)
            return (doc is None or doc.uri != edited, doc is None, path)

        for path in sorted(paths, key=order):
            doc = open_docs.get(path)
            if doc is not None and snap.versions.get(path, -1) != doc.version:
                continue  # edited since: the analysis its edit scheduled will publish
            found = tuple(by_path.get(path, ()))
            self._publish_file(path, doc, found, state.encoding, state.text_of)
            if found:
                shown.add(path)
            else:
                shown.discard(path)
        for listener in self._server.analysis_listeners:
            listener(snap)

    def _publish_file(
        self, path: str, doc: Document | None, found: tuple[Diagnostic, ...], encoding: str, text_of: TextOf
    ) -> None:
        uri = doc.uri if doc is not None else uri_of(path)
        version = doc.version if doc is not None else None
        last = self._last.get(uri)
        if last == (version, found) or (last is None and doc is None and not found):
            self._last[uri] = (version, found)
            return  # unchanged, or a closed file that never had any
        self._last[uri] = (version, found)
        converted = [diagnostic_json(d, encoding, text_of) for d in found]
        self._by_source.setdefault(ANALYZER, {})[uri] = converted
        if self._server.startup.already_published(uri, version, converted):
            return
        self._publish(uri, version)

    def forget_published(self, uri: str) -> None:
        """Publish the next analysis's list for ``uri`` even if it looks the same (a closed
        buffer: the list now belongs to the file on disk, unversioned)."""
        self._last[uri] = (-1, ())  # no version is -1: the next list differs
        self._forced.add(path_of(uri))

    def show_first_look(self, uri: str, version: int | None, diags: list[Json]) -> None:
        """The first look's list for ``uri``, shown as the analyzer's until its own comes."""
        self.set_file(ANALYZER, uri, version, diags)

    def set_file(self, source: str, uri: str, version: int | None, diags: list[Json]) -> None:
        """One source's diagnostics of a file, open (its version) or not (None)."""
        self._by_source.setdefault(source, {})[uri] = diags
        self._publish(uri, version)

    def clear(self, uri: str) -> None:
        for per_uri in self._by_source.values():
            per_uri.pop(uri, None)
        self._last.pop(uri, None)
        self._publish(uri, None)

    def _publish(self, uri: str, version: int | None) -> None:
        merged: list[Json] = []
        seen: set[tuple[object, ...]] = set()
        for per_uri in self._by_source.values():
            for d in per_uri.get(uri, []):
                start, end = d["range"]["start"], d["range"]["end"]
                key = (d.get("code"), d["message"], start["line"], start["character"], end["line"], end["character"])
                if key not in seen:
                    seen.add(key)
                    merged.append(d)
        if not merged:
            for per_uri in self._by_source.values():
                per_uri.pop(uri, None)  # nothing kept for files with nothing to show
        params = publish_params(uri, version, merged)
        self._server.kit_protocol.notify_json("textDocument/publishDiagnostics", params)
