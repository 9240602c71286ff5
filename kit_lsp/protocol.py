"""The JSON-RPC details pygls 2.x leaves out or gets wrong, in one subclass of its protocol.

- Every request is answered: invalid params -32602 (pygls raises while structuring and
  drops the message), a request before `initialize` -32002 (pygls runs it), a second
  `initialize` or any request after `shutdown` -32600. Framing and JSON problems are
  handled by `kit_lsp.wire` before a message gets here.
- `$/cancelRequest` answers the request with -32800 at once (pygls can only cancel a
  request that has not started, which a threaded handler has); the handler's late result
  is dropped, and handlers may stop early: `cancelled()` sees the cancellation from the
  handler's thread (the request's context travels into the thread pool).
- pygls keeps the future of every handler it runs in `_request_futures` and removes only
  those of requests: each notification (every `didChange`) left one behind, about 2 KB
  a keystroke. Here every future is forgotten when it is done. (Upstreamable as is: the
  same three lines belong in `JsonRPCProtocol._execute_handler`.)
- pygls keeps its own copy of every open buffer (re-split into lines on each edit); kit
  keeps the text in `kit_lsp.documents`, so the built-in sync handlers only pass the
  notification on.
- The start-up code (`kit_lsp.startup.boot`) answers `initialize` before pygls is imported; the
  protocol still runs `initialize` (workspace, client capabilities) but does not answer
  it a second time.
- Messages that are JSON already (published diagnostics, `kit_lsp.startup.lspjson`; the
  wire's error answers) go out as they are (`send_json`), through the writer pygls was
  given: no lsprotocol objects built only to be unstructured again.

pygls keeps its converter, server and shutdown flag in private attributes; this class
keeps its own references (from the constructor's arguments) instead of reading them. What
it still shares with pygls's internals are the hooks it overrides (`_execute_handler`,
`_send_response`, `_send_handler_result`, `_handle_cancel_notification`) and the table of
in-flight requests they keep (`_request_futures`): pygls 2.1 has no public hook for them.
"""

from __future__ import annotations

import contextvars
import logging
from concurrent.futures import Future
from functools import partial
from typing import Any

from cattrs import Converter
from lsprotocol import types as lsp
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcRequestCancelled,
    JsonRpcServerNotInitialized,
)
from pygls.feature_manager import is_thread_function
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import MsgId
from pygls.protocol.language_server import lsp_method

from kit_lsp import wire

log = logging.getLogger(__name__)


class Cancelled(Exception):
    """Raised by a handler that noticed its request was cancelled (the answer is already out)."""


class KitProtocol(LanguageServerProtocol):
    def __init__(self, server: Any, converter: Converter) -> None:
        self._shut_down = False  # before pygls's constructor, which reads every attribute
        super().__init__(server, converter)
        self.converter = converter  # what pygls structures messages with (it keeps it private)
        self.language_server = server
        self._initialize_seen = False
        self._preanswered: MsgId | None = None  # the `initialize` the start-up code answered
        self._cancelled: set[MsgId] = set()
        self.boot_result: dict[str, Any] | None = None  # what the start-up code answered

    @property
    def shutdown_received(self) -> bool:
        return self._shut_down

    def preanswered(self, msg_id: MsgId, result: dict[str, Any]) -> None:
        self._preanswered, self.boot_result = msg_id, result

    # ------------------------------------------------------------------ receiving

    def receive(self, item: wire.Item) -> None:
        """One item from `kit_lsp.wire.Inbox`: a decoded message, or a problem to answer."""
        if isinstance(item, wire.Problem):
            log.warning("kit-lsp: %s", item.description)
            if item.reply is not None:
                self.send_json(item.reply)
            return
        try:
            message = self.structure_message(item)
        except JsonRpcException as exc:
            self._refuse(item, exc)
            return
        self.handle_message(message)

    def _refuse(self, data: dict[str, Any], exc: JsonRpcException) -> None:
        method = data.get("method")
        if method is None or "id" not in data:
            log.warning("kit-lsp: dropped a message that does not fit its type (%s): %s", method, exc)
            return
        if isinstance(exc, JsonRpcInvalidParams) or exc.__cause__ is not None:
            exc = JsonRpcInvalidParams(f"invalid params for {method}: {_reason(exc)}")
        self._send_response(data["id"], error=exc.to_response_error())

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        msg_id = getattr(message, "id", None)
        is_request = method is not None and msg_id is not None
        if method is not None and msg_id is not None and not self._admit(method, msg_id):
            return
        if not is_request and method not in (None, lsp.EXIT) and not self._initialize_seen:
            return  # notifications before `initialize` are dropped (LSP), except `exit`
        if self._shut_down and method != lsp.EXIT:
            return  # after `shutdown` only `exit` counts (requests were refused in `_admit`)
        super().handle_message(message)

    def _admit(self, method: str, msg_id: MsgId) -> bool:
        """Whether a request may run; otherwise it has been answered with an error."""
        error: JsonRpcException | None = None
        if self._shut_down and method != lsp.EXIT:
            error = JsonRpcInvalidRequest(f"kit-lsp is shut down; {method} is not accepted after shutdown")
        elif method == lsp.INITIALIZE:
            if self._initialize_seen:
                error = JsonRpcInvalidRequest("initialize was already received")
            self._initialize_seen = True
        elif not self._initialize_seen:
            error = JsonRpcServerNotInitialized(f"{method} before initialize")
        if error is not None:
            self._send_response(msg_id, error=error.to_response_error())
        return error is None

    # ------------------------------------------------------------------ running handlers

    def _execute_handler(
        self,
        msg_id: MsgId,
        handler: Any,
        callback: Any,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        if is_thread_function(handler):
            run = contextvars.copy_context().run  # the request id travels into the thread
            future: Future[Any] = self.language_server.thread_pool.submit(run, handler, *(args or ()), **(kwargs or {}))
            self._request_futures[msg_id] = future
            future.add_done_callback(callback)
        else:
            super()._execute_handler(msg_id, handler, callback, args, kwargs)
        kept = self._request_futures.get(msg_id)
        if kept is not None:
            kept.add_done_callback(partial(self._forget, msg_id))

    def _forget(self, msg_id: MsgId, future: Any) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    # ------------------------------------------------------------------ cancelling

    def _handle_cancel_notification(self, msg_id: MsgId) -> None:
        future = self._request_futures.get(msg_id)
        if future is None or future.done() or msg_id in self._cancelled:
            return
        self._cancelled.add(msg_id)
        error = JsonRpcRequestCancelled(f"request {msg_id} was cancelled")
        super()._send_response(msg_id, error=error.to_response_error())
        future.cancel()  # stops it only if it has not started

    def cancelled(self) -> bool:
        """Whether the request whose handler calls this was cancelled (any thread)."""
        msg_id = self.msg_id
        return msg_id is not None and msg_id in self._cancelled

    def check_cancelled(self) -> None:
        if self.cancelled():
            raise Cancelled()

    def _send_handler_result(self, future: Future[Any], *, msg_id: MsgId) -> None:
        if msg_id in self._cancelled:
            self._cancelled.discard(msg_id)
            self._request_futures.pop(msg_id, None)
            return  # answered when the cancellation came
        super()._send_handler_result(future, msg_id=msg_id)

    def _send_response(self, msg_id: MsgId, result: Any | None = None, error: Any | None = None) -> None:
        if msg_id is not None and msg_id == self._preanswered:
            self._preanswered = None
            self._check_boot_answer(result, error)
            return
        super()._send_response(msg_id, result, error)

    def _check_boot_answer(self, result: Any, error: Any) -> None:
        """The answer pygls computes must be the one the start-up code sent (a test keeps them
        equal; a difference is logged, never sent twice)."""
        if error is not None:
            log.error("kit-lsp: initialize failed after it was answered: %s", error)
            return
        computed = self.converter.unstructure(result)
        if computed != self.boot_result:
            log.error("kit-lsp: the early initialize answer differs from pygls's: %s", computed)

    @lsp_method(lsp.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Any:
        """As pygls's, over a copy of the in-flight futures (cancelling one forgets it)."""
        if (handler := self.fm.features.get(lsp.SHUTDOWN)) is not None:
            yield handler, args, None
        current = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()
        self._shut_down = True
        return None

    # ------------------------------------------------------------------ sending JSON as it is

    def send_json(self, message: dict[str, Any]) -> None:
        """Send a JSON-RPC message that is plain JSON already, framed by `kit_lsp.wire`."""
        writer = self.writer
        if writer is None:
            log.error("kit-lsp: no writer to send %s", message.get("method"))
            return
        writer.write(wire.encode(message))

    def notify_json(self, method: str, params: dict[str, Any]) -> None:
        self.send_json({"jsonrpc": "2.0", "method": method, "params": params})

    # ------------------------------------------------------------------ document sync

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams) -> Any:
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Any:
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: lsp.DidCloseTextDocumentParams) -> Any:
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


def _reason(exc: BaseException) -> str:
    cause = exc.__cause__
    while cause is not None and cause.__cause__ is not None:
        cause = cause.__cause__
    detail = str(cause or exc).strip().splitlines()
    return detail[0] if detail else type(exc).__name__
