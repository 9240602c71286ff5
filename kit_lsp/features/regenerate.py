"""Generate on save: saving a `.kit`, `.proto` or `kit.design.yaml` regenerates its design.

Generation runs on its own thread, incrementally, from the server's own analysis of the
design when that is what is on disk (`kit_lsp.generation`), under the project lock shared
with `kit gen`. Saves of one design are coalesced: saves during the debounce restart it, a
save during a run asks for exactly one more run afterwards. The client sees `$/progress`
(begin, a report per stage, end) when it supports work-done progress, and a
`window/logMessage` naming what was written and swept (and that the run waits for another
kit run, when it does). A design with errors writes nothing; its diagnostics stay as the
analyzer published them.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.printable import printable
from kit_lsp.features.stub_drift import RENAMES
from kit_lsp.generation import Outcome, generate_design
from kit_lsp.project import design_root_for

if TYPE_CHECKING:
    from kit_lsp.project import Snapshot
    from kit_lsp.server import KitLanguageServer

log = logging.getLogger(__name__)


class Regenerator:
    def __init__(self, server: KitLanguageServer) -> None:
        self._server = server
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="kit-generate")
        self._tasks: dict[Path, asyncio.Task[None]] = {}
        self._running: set[Path] = set()
        self._again: set[Path] = set()
        self.runs = 0  # completed runs (tests read it through kit/status)

    def on_save(self, path: str) -> None:
        if not self._server.state.settings.generate_on_save:
            return
        root = design_root_for(path)
        if root is None:
            self._log(lsp.MessageType.Info, f"kit: {path} is not inside a design folder; nothing generated")
            return
        if root in self._running:
            self._again.add(root)
            return
        task = self._tasks.get(root)
        if task is not None and not task.done():
            task.cancel()
        self._tasks[root] = asyncio.ensure_future(self._run(root))

    def cancel_pending(self) -> None:
        for root, task in self._tasks.items():
            if root not in self._running:
                task.cancel()

    @property
    def busy(self) -> bool:
        return any(not t.done() for t in self._tasks.values())

    async def _run(self, root: Path) -> None:
        await asyncio.sleep(self._server.state.settings.generate_delay_ms / 1000)
        self._running.add(root)
        try:
            while True:
                self._again.discard(root)
                await self._generate_once(root)
                if root not in self._again:
                    return
        finally:
            self._running.discard(root)

    async def _generate_once(self, root: Path) -> None:
        loop = asyncio.get_running_loop()
        progress = await _Progress.start(self._server, f"kit: generating {root.name}")

        def report(message: str) -> None:
            loop.call_soon_threadsafe(progress.report, message)
            if message.startswith("kit: waiting"):
                loop.call_soon_threadsafe(self._log, lsp.MessageType.Info, message)

        renames = RENAMES.pop(str(root), {})
        try:
            current = lambda: self._snapshot(root)  # noqa: E731
            outcome = await loop.run_in_executor(self._pool, generate_design, root, report, current, renames)
        except Exception as exc:  # a generator bug must not take the server down
            log.exception("generation of %s failed", root)
            outcome = Outcome(root, failure=f"internal error: {exc}")
        progress.end(outcome.summary())
        self.runs += 1
        self._log(lsp.MessageType.Info if outcome.ok else lsp.MessageType.Warning, outcome.summary())
        for notice in outcome.notices:
            self._log(lsp.MessageType.Info, f"kit: notice: {notice}")
        self._tell(outcome)
        self._server.stub_drift.refresh_all()  # stubs were written: their state changed
        self._server.refresh.soon()

    def _tell(self, outcome: Outcome) -> None:
        """Where users look: a failed generation always, a one-line summary when asked."""
        if not outcome.ok:
            kind = lsp.MessageType.Warning if outcome.design_errors else lsp.MessageType.Error
            self._server.window_show_message(lsp.ShowMessageParams(kind, outcome.summary()))
        elif self._server.state.settings.save_summary:
            self._server.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Info, outcome.one_line()))

    def _snapshot(self, root: Path) -> Snapshot | None:
        """The server's analysis of the design as its buffers are now (analysed again when a
        buffer changed since the last analysis)."""
        state = self._server.state
        key = str(root)
        snap = state.latest(key)
        if snap is None or any(snap.versions.get(d.path, -1) != d.version for d in state.docs_for(key)):
            snap = state.analyze(key)
        return snap

    def _log(self, kind: lsp.MessageType, message: str) -> None:
        self._server.window_log_message(lsp.LogMessageParams(type=kind, message=printable(message)))


class _Progress:
    """`$/progress` begin/report/end, or nothing when the client does not support it."""

    def __init__(self, server: KitLanguageServer, token: str | None) -> None:
        self._server, self._token = server, token

    @classmethod
    async def start(cls, server: KitLanguageServer, title: str) -> _Progress:
        window = server.client_capabilities.window
        if window is None or not window.work_done_progress:
            return cls(server, None)
        token = f"kit-generate-{uuid.uuid4().hex[:8]}"
        try:
            await server.work_done_progress.create_async(token)
        except Exception as exc:
            log.info("progress token refused: %s", exc)
            return cls(server, None)
        server.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title=title, cancellable=False))
        return cls(server, token)

    def report(self, message: str) -> None:
        if self._token is not None:
            self._server.work_done_progress.report(self._token, lsp.WorkDoneProgressReport(message=message))

    def end(self, message: str) -> None:
        if self._token is not None:
            self._server.work_done_progress.end(self._token, lsp.WorkDoneProgressEnd(message=message))
