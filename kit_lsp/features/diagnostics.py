"""Debounced, versioned, per-source diagnostics.

An edit schedules an analysis of its design (run on the analysis thread, never on the
message loop). An edit to an idle design is analysed at once (after the messages already
queued, so a burst arriving together is one analysis); edits arriving while an analysis
runs, or within the debounce delay of the last one, are coalesced into one analysis
after the delay. The result is published for every open document of that design whose
version is still the one analysed, the last edited document first; a document edited
meanwhile waits for the analysis its edit scheduled. Diagnostics are kept per (source,
uri) so that one source (``analyzer``, ``generate``) can clear without wiping the others.
When no edit has come for a while, a full garbage collection runs on the analysis thread
(the analyzer keeps its bulk values away from the collector; see `kit_core.gcpause`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core import gcpause
from kit_lsp.convert import lsp_diagnostic
from kit_lsp.documents import Document
from kit_lsp.project import Snapshot

if TYPE_CHECKING:
    from kit_lsp.server import KitLanguageServer

log = logging.getLogger(__name__)

IDLE_COLLECT_S = 30.0  # quiet time after an analysis before a full garbage collection

ANALYZER = "analyzer"
GENERATE = "generate"


class Diagnostics:
    def __init__(self, server: KitLanguageServer) -> None:
        self._server = server
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._finished: dict[str, float] = {}  # key -> when its last analysis ended
        self._edited: dict[str, str] = {}  # key -> uri of the last edited document
        self._collect: asyncio.TimerHandle | None = None
        self._by_source: dict[str, dict[str, list[lsp.Diagnostic]]] = {}

    # ------------------------------------------------------------------ scheduling

    def schedule(self, key: str) -> None:
        """Analyse ``key`` (a design root or a lone file) after the debounce delay."""
        if key in self._running:
            self._again.add(key)
            return
        task = self._tasks.get(key)
        if task is not None and not task.done():
            task.cancel()
        self._tasks[key] = asyncio.ensure_future(self._run(key))

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

    async def idle(self) -> None:
        """Wait until no analysis is scheduled or running (tests, benchmarks)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    # ------------------------------------------------------------------ publishing

    def publish_snapshot(self, snap: Snapshot) -> None:
        state = self._server.state
        edited = self._edited.get(snap.key)
        for doc in sorted(state.docs_for(snap.key), key=lambda d: d.uri != edited):
            if doc.path not in snap.versions or snap.versions[doc.path] != doc.version:
                continue  # edited since: the analysis its edit scheduled will publish
            diags = [lsp_diagnostic(d, state.encoding, state.text_of) for d in snap.diagnostics_for(doc.path)]
            self.set(ANALYZER, doc, diags)
        for listener in self._server.analysis_listeners:
            listener(snap)

    def set(self, source: str, doc: Document, diags: list[lsp.Diagnostic]) -> None:
        self._by_source.setdefault(source, {})[doc.uri] = diags
        self._publish(doc.uri, doc.version)

    def clear(self, uri: str) -> None:
        for per_uri in self._by_source.values():
            per_uri.pop(uri, None)
        self._publish(uri, None)

    def _publish(self, uri: str, version: int | None) -> None:
        merged: list[lsp.Diagnostic] = []
        seen: set[tuple[object, ...]] = set()
        for per_uri in self._by_source.values():
            for d in per_uri.get(uri, []):
                key = (
                    d.code,
                    d.message,
                    d.range.start.line,
                    d.range.start.character,
                    d.range.end.line,
                    d.range.end.character,
                )
                if key not in seen:
                    seen.add(key)
                    merged.append(d)
        params = lsp.PublishDiagnosticsParams(uri=uri, diagnostics=merged, version=version)
        self._server.text_document_publish_diagnostics(params)
