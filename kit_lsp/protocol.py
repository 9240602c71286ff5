"""JSON-RPC details pygls leaves to the server: requests after `shutdown` are answered with
InvalidRequest (pygls drops them silently), and whether `shutdown` came before `exit`
decides the exit status (see `server.main`)."""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol


class KitProtocol(LanguageServerProtocol):
    @property
    def shutdown_received(self) -> bool:
        return bool(self._shutdown)

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        msg_id = getattr(message, "id", None)
        if self._shutdown and method is not None and method != lsp.EXIT and msg_id is not None:
            error = JsonRpcInvalidRequest(f"kit-lsp is shut down; {method} is not accepted after shutdown")
            self._send_response(msg_id, error=error.to_response_error())
            return
        super().handle_message(message)
