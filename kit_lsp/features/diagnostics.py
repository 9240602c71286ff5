"""Debounced, versioned, per-source diagnostics.

An edit schedules an analysis of its design (debounced per design, run on the analysis
thread, never on the message loop). The result is published for every open document of
that design whose version is still the one analysed; a document edited meanwhile waits
for the analysis its edit scheduled. Diagnostics are kept per (source, uri) so that one
source (``analyzer``, ``generate``) can clear without wiping the others.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_lsp.convert import lsp_diagnostic
from kit_lsp.documents import Document
from kit_lsp.project import Snapshot

if TYPE_CHECKING:
    from kit_lsp.server import KitLanguageServer

log = logging.getLogger(__name__)

ANALYZER = "analyzer"
GENERATE = "generate"


class Diagnostics:
    def __init__(self, server: KitLanguageServer) -> None:
        self._server = server
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._running: set[str] = set()
        self._again: set[str] = set()
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
        self.schedule(self._server.state.key_for(doc))

    async def _run(self, key: str) -> None:
        state = self._server.state
        await asyncio.sleep(state.settings.diagnostics_delay_ms / 1000)
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
                self.publish_snapshot(snap)
                if key not in self._again:
                    return
                await asyncio.sleep(state.settings.diagnostics_delay_ms / 1000)
        finally:
            self._running.discard(key)

    async def idle(self) -> None:
        """Wait until no analysis is scheduled or running (tests, benchmarks)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    # ------------------------------------------------------------------ publishing

    def publish_snapshot(self, snap: Snapshot) -> None:
        state = self._server.state
        for doc in state.docs_for(snap.key):
            if doc.path not in snap.versions or snap.versions[doc.path] != doc.version:
                continue  # edited since: the analysis its edit scheduled will publish
            diags = [lsp_diagnostic(d, state.encoding, state.text_of) for d in snap.diagnostics_for(doc.path)]
            self.set(ANALYZER, doc, diags)

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
