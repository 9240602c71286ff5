"""The start-up's server side: what `kit_lsp.startup.early` began, carried on by the server.

The boot publishes the session cache's diagnostics and the first looks until the server is
imported; from the hand-over on, this object does the same duties inside the server:

- the first look (`kit_lsp.startup.firstlook`): a `.kit` file opened before the design's
  first analysis is asked about, and the answer is shown while the document is still at
  the version asked about and the server's analysis has not published it; the process is
  closed once an analysis is out;
- what not to publish twice: the diagnostics the start-up published (cache, first look)
  are remembered per document, and the analysis's first list for it is not sent again
  when it is the same JSON (`already_published`);
- the session cache: a design's diagnostics are written once it has been quiet for
  ``REMEMBER_S``, and at shutdown.

Every list involved is LSP JSON from `kit_lsp.startup.lspjson`, as published.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from kit_lsp.startup import cache
from kit_lsp.startup.early import Published
from kit_lsp.startup.firstlook import Answer, FirstLook
from kit_lsp.startup.lspjson import by_path

if TYPE_CHECKING:
    from kit_core.resident.session import Snapshot
    from kit_lsp.app import KitLanguageServer
    from kit_lsp.documents import Document

REMEMBER_S = 2.0  # quiet time after a design's analysis before its diagnostics are cached


class Handover:
    def __init__(self, server: KitLanguageServer) -> None:
        self._server = server
        self._early: Published = {}  # what the start-up published and the analysis has not yet
        self._first: FirstLook | None = None
        self._remembering: dict[str, asyncio.TimerHandle] = {}
        server.analysis_listeners.append(self._analysed)

    def take_over(self, published: Published, first: FirstLook | None) -> None:
        """On the message loop, once the boot's messages are handled: what it published, and
        the first-look process, whose answers are the server's from now on."""
        self._early.update(published)
        if first is None:
            return
        self._first = first
        loop = asyncio.get_running_loop()

        def sink(answer: Answer) -> None:
            loop.call_soon_threadsafe(self.first_look, answer)

        first.attach(sink)

    # ------------------------------------------------------------------ publishing once

    def already_published(self, uri: str, version: int | None, diags: list[Any]) -> bool:
        """Whether ``diags`` (the analysis's list for ``uri``) is exactly what the start-up
        published for it; asked once per document (the next list is the server's own)."""
        return self._early.pop(uri, None) == (version, diags)

    # ------------------------------------------------------------------ the first look

    def ask_first_look(self, doc: Document) -> None:
        """A design file opened before the server's first analysis is out: ask for its first look."""
        first = self._first
        diagnostics = self._server.diagnostics
        if first is None or doc.kind != "kit" or diagnostics.published(doc.uri) or doc.uri in self._early:
            return
        state = self._server.state
        buffers = {d.path: d.text for d in state.docs if d is not doc and d.kind in ("kit", "manifest")}
        first.ask(doc.uri, doc.path, doc.version, doc.text, state.encoding, buffers)

    def first_look(self, answer: Answer) -> None:
        """A file's first look: shown while nothing else was for it, at the version asked about."""
        uri, version = answer["uri"], answer.get("version")
        doc = self._server.state.docs.get(uri)
        diagnostics = self._server.diagnostics
        if doc is None or doc.version != version or diagnostics.published(uri) or uri in self._early:
            return
        self._early[uri] = (version, answer["diagnostics"])
        diagnostics.show_first_look(uri, version, answer["diagnostics"])

    def _analysed(self, snap: Snapshot) -> None:
        """An analysis is out (on the message loop): no more first looks; cache it later."""
        if self._first is not None:
            self._first.close()
            self._first = None
        self._remember_later(snap)

    # ------------------------------------------------------------------ the cache between sessions

    def _remember_later(self, snap: Snapshot) -> None:
        if snap.root is None:
            return
        handle = self._remembering.pop(snap.key, None)
        if handle is not None:
            handle.cancel()
        loop = asyncio.get_running_loop()
        self._remembering[snap.key] = loop.call_later(REMEMBER_S, self._remember, snap.key)

    def _remember(self, key: str) -> None:
        self._remembering.pop(key, None)
        state = self._server.state
        snap = state.latest(key)
        if snap is not None:
            asyncio.get_running_loop().run_in_executor(state.analysis_pool, self.write_cache, snap)

    def remember_now(self) -> None:
        """Write what is waiting to be cached (at shutdown), the designs whose analysis is
        still to be published included (the first look may have shown a file already)."""
        for handle in self._remembering.values():
            handle.cancel()
        for key in sorted(self._remembering.keys() | self._server.diagnostics.scheduled()):
            snap = self._server.state.latest(key)
            if snap is not None and snap.root is not None:
                self.write_cache(snap)
        self._remembering.clear()

    def write_cache(self, snap: Snapshot) -> None:
        """Keep the design's diagnostics for the next session (see `kit_lsp.startup.cache`)."""
        state = self._server.state
        diags = by_path(snap.diagnostics, state.encoding, state.text_of)
        files = {path: f.source for path, f in snap.files.items()}
        cache.save(cache.make_record(snap.key, state.encoding, snap.manifest_text, files, diags))
