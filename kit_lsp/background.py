"""Diagnostics computed from an analysis but off the keystroke path (stub drift, breaking
changes against a baseline): each source runs on its own thread, some time after the last
analysis of a design, and publishes only for documents still at the version analysed (a
newer analysis schedules it again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.diagnostics import Diagnostic
from kit_core.resident.session import Snapshot
from kit_lsp.convert import lsp_range, uri_of
from kit_lsp.startup.lspjson import diagnostic_json

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

log = logging.getLogger(__name__)

Compute = Callable[[Snapshot], "dict[str, list[Diagnostic]] | None"]  # None: leave what is published


class Tell(Exception):
    """A problem the user must hear about (once), not a bug: shown with `window/showMessage`,
    and the source's diagnostics are cleared."""


class DesignJob:
    """One source of diagnostics, recomputed per design ``delay`` seconds after its last analysis."""

    def __init__(
        self,
        server: KitLanguageServer,
        source: str,
        compute: Compute,
        delay: float,
        forget: Callable[[], None] | None = None,
    ) -> None:
        self._server = server
        self._forget = forget  # told when something outside the analysis changed (`refresh_all`)
        self.source = source
        self._compute = compute
        self.delay = delay
        self._pool = ThreadPoolExecutor(1, thread_name_prefix=f"kit-{source}")
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Future[None]] = set()
        self.latest: dict[str, list[Diagnostic]] = {}  # path -> what was last published (kit values)
        self._told: set[str] = set()
        self._shown: dict[str, set[str]] = {}  # design -> files with diagnostics of this source

    def on_snapshot(self, snap: Snapshot) -> None:
        """An analysis of a design was published: compute again once edits pause."""
        if snap.root is None:
            return
        loop = asyncio.get_running_loop()
        timer = self._timers.pop(snap.key, None)
        if timer is not None:
            timer.cancel()
        self._timers[snap.key] = loop.call_later(self.delay, self._start, snap.key)

    def refresh_all(self) -> None:
        """Something outside the analysis changed (a Go file, a setting): compute again."""
        if self._forget is not None:
            self._forget()
        for key in {self._server.state.key_for(d) for d in self._server.state.docs}:
            snap = self._server.state.latest(key)
            if snap is not None:
                self.on_snapshot(snap)

    def _start(self, key: str) -> None:
        self._timers.pop(key, None)
        snap = self._server.state.latest(key)
        if snap is None:
            return
        task = asyncio.ensure_future(self._run(snap))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, snap: Snapshot) -> None:
        loop = asyncio.get_running_loop()
        try:
            found = await loop.run_in_executor(self._pool, self._compute, snap)
        except Tell as problem:
            if str(problem) not in self._told:
                self._told.add(str(problem))
                params = lsp.ShowMessageParams(lsp.MessageType.Warning, str(problem))
                self._server.window_show_message(params)
            found = {}
        except Exception:  # a bug here must not take the server down
            log.exception("%s diagnostics of %s failed", self.source, snap.key)
            return
        if found is not None:
            self.publish(snap, found)

    def publish(self, snap: Snapshot, found: dict[str, list[Diagnostic]]) -> None:
        """For every file of the design with something to show, open or not, and `[]` where
        something was shown before."""
        state = self._server.state
        open_docs = {d.path: d for d in state.docs_for(snap.key)}
        shown = self._shown.setdefault(snap.key, set())
        for path in sorted(found.keys() | shown):
            doc = open_docs.get(path)
            if doc is not None and snap.versions.get(path, doc.version) != doc.version:
                continue  # edited since: the next analysis schedules this again
            diags = found.get(path, [])
            self.latest[path] = diags
            uri, version = (doc.uri, doc.version) if doc is not None else (uri_of(path), None)
            converted = [diagnostic_json(d, state.encoding) for d in diags]
            self._server.diagnostics.set_file(self.source, uri, version, converted)
            if diags:
                shown.add(path)
            else:
                shown.discard(path)
        self._server.refresh.soon()  # code lenses show the stubs' state

    async def idle(self) -> None:
        while self._timers or self._tasks:
            await asyncio.sleep(0.02)

    def fixes(self, path: str, diag: lsp.Diagnostic, encoding: str) -> list[tuple[str, lsp.WorkspaceEdit]]:
        """The quick fixes of the published diagnostic at ``diag``: one action per title,
        holding every edit of that title (a signature and the import it needs)."""
        out: dict[str, dict[str, list[lsp.TextEdit]]] = {}
        for d in self.latest.get(path, []):
            if d.code != diag.code or lsp_range(d.span, encoding) != diag.range:
                continue
            for fix in d.fixes:
                edits = out.setdefault(fix.title, {}).setdefault(uri_of(fix.span.path), [])
                edits.append(lsp.TextEdit(lsp_range(fix.span, encoding), fix.new_text))
        return [(title, lsp.WorkspaceEdit(changes=changes)) for title, changes in out.items()]
