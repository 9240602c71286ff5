"""Generate on save: saving a `.kit`, `.proto` or `kit.design.yaml` regenerates its design.

Generation runs in a worker process (`kit_lsp.worker`), never on a thread of the server,
where it would hold the GIL against the keystroke path. The worker keeps its own parsed and
analysed copy of each design (re-parsing only the files a save changed) and generates
incrementally from it (`kit_lsp.generation`), under the project lock shared with `kit gen`.
Saves of one design are coalesced: saves during the debounce restart it; a save during a run
supersedes it (the run is cancelled at its next stage boundary, before it writes) and one
more run follows. The client sees `$/progress` (begin, a report per stage, end) when it
supports work-done progress, and a `window/logMessage` naming what was written and swept
(and that the run waits for another kit run, when it does). A design with errors writes
nothing; its diagnostics stay as the analyzer published them.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.printable import printable
from kit_core.resident.session import design_root_for
from kit_lsp.features.stub_drift import RENAMES
from kit_lsp.generation import Outcome
from kit_lsp.worker import Worker

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

log = logging.getLogger(__name__)

WARM_DELAY_S = 2.0


class Regenerator:
    def __init__(self, server: KitLanguageServer) -> None:
        self._server = server
        self.worker = Worker()
        self._tasks: dict[Path, asyncio.Task[None]] = {}
        self._running: dict[Path, int | None] = {}  # root -> id of its run in the worker
        self._again: set[Path] = set()
        self.runs = 0  # completed runs
        self._warming: asyncio.TimerHandle | None = None

    def on_save(self, path: str) -> None:
        if not self._server.state.settings.generate_on_save:
            return
        root = design_root_for(path)
        if root is None:
            self._log(lsp.MessageType.Info, f"kit: {path} is not inside a design folder; nothing generated")
            return
        if root in self._running:
            self._again.add(root)
            run_id = self._running[root]
            if run_id is not None:
                self.worker.cancel(run_id)  # superseded: what it would write is already stale
            return
        task = self._tasks.get(root)
        if task is not None and not task.done():
            task.cancel()
        self._tasks[root] = asyncio.ensure_future(self._run(root))

    def warm(self) -> None:
        """Start the worker process a little after a design is opened, so the first save
        does not wait for its imports (and the start does not compete with the first analysis)."""
        if self._warming is None and self._server.state.settings.generate_on_save:
            self._warming = asyncio.get_running_loop().call_later(WARM_DELAY_S, self.worker.start)

    def cancel_pending(self) -> None:
        for root, task in self._tasks.items():
            if root not in self._running:
                task.cancel()
        for run_id in self._running.values():
            if run_id is not None:
                self.worker.cancel(run_id)

    async def _run(self, root: Path) -> None:
        await asyncio.sleep(self._server.state.settings.generate_delay_ms / 1000)
        self._running[root] = None
        try:
            while True:
                self._again.discard(root)
                await self._generate_once(root)
                if root not in self._again:
                    return
        finally:
            self._running.pop(root, None)

    async def _generate_once(self, root: Path) -> None:
        progress = await _Progress.start(self._server, f"kit: generating {root.name}")

        def report(message: str) -> None:
            progress.report(message)
            if message.startswith("kit: waiting"):
                self._log(lsp.MessageType.Info, message)

        renames = dict(RENAMES.get(str(root), {}))  # methods renamed in the editor: their code moves
        run_id, result = await self.worker.run(root, report, renames)
        self._running[root] = run_id
        raw = await result
        if raw is None:
            progress.end("kit: superseded by a newer save")
            return
        outcome = Outcome.from_dict(root, raw)
        if outcome.ok:
            for old in renames:
                RENAMES.get(str(root), {}).pop(old, None)
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
            self._server.work_done_progress.tokens.pop(self._token, None)  # pygls keeps every token otherwise
