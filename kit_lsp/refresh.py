"""Ask the client to request inlay hints and code lenses again when something other than
the edited document changed them (another file of the design, a generation writing stubs):
`workspace/inlayHint/refresh` and `workspace/codeLens/refresh`, at most once per pause."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

DELAY_S = 0.3


class Refresher:
    def __init__(self, server: KitLanguageServer) -> None:
        self._server = server
        self._timer: asyncio.TimerHandle | None = None

    def soon(self, *_: Any) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(DELAY_S, self._send)

    def _supported(self, name: str) -> bool:
        workspace = self._server.client_capabilities.workspace
        node = getattr(workspace, name, None) if workspace is not None else None
        return bool(node is not None and node.refresh_support)

    def _send(self) -> None:
        self._timer = None
        if self._supported("inlay_hint"):
            self._server.workspace_inlay_hint_refresh(None)
        if self._supported("code_lens"):
            self._server.workspace_code_lens_refresh(None)
