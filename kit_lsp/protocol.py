"""The JSON-RPC details pygls 2.x leaves out or gets wrong, in one subclass of its protocol.

kit dispatches requests and notifications itself, in the public `handle_message`: it looks
the handler up in pygls's feature manager (`fm.builtin_features` first, then `fm.features`,
as pygls does), runs it (a coroutine on the event loop, a threaded handler in the server's
`thread_pool`, a generator step by step, a plain function inline), keeps its own table of
the handlers still running and answers with `send_json`, the result unstructured by the
converter it was given. It overrides none of pygls's private hooks and reads none of its
private attributes (a test scans `kit_lsp` for them); pygls still structures incoming
messages (`structure_message`), resolves the answers to the server's own requests
(`send_request`) and sends its notifications. What that buys:

- Every request is answered: invalid params -32602 (pygls raises while structuring and
  drops the message), a request before `initialize` -32002 (pygls runs it), a second
  `initialize` or any request after `shutdown` -32600, an unknown method -32601, a handler
  that fails or whose result cannot be unstructured -32603. Framing and JSON problems are
  handled by `kit_lsp.wire` before a message gets here.
- `$/cancelRequest` answers the request with -32800 at once (pygls can only cancel a
  request that has not started, which a threaded handler has); the handler's late result
  is dropped, and handlers may stop early: `cancelled()` sees the cancellation from the
  handler's thread (the request's context travels into the thread pool). One lock decides
  which comes first, the result or the cancellation: a request is answered exactly once.
- Only handlers still running are kept, and each is forgotten when it is done (pygls kept
  the future of every notification, every `didChange`, about 2 KB a keystroke); a handler
  that finishes inline is never recorded.
- `shutdown` cancels every other handler still running (a generator's cancellation reaches
  the handler it is waiting for), then refuses everything but `exit`.
- pygls keeps its own copy of every open buffer (re-split into lines on each edit); kit
  keeps the text in `kit_lsp.documents`, so the built-in sync handlers only pass the
  notification on.
- The start-up code (`kit_lsp.startup.boot`) answers `initialize` before pygls is imported; the
  protocol still runs `initialize` (workspace, client capabilities) but does not answer
  it a second time: it checks that its answer is the one already sent.
- Messages that are JSON already (published diagnostics, `kit_lsp.startup.lspjson`; the
  wire's error answers) go out as they are (`send_json`), through the writer pygls was
  given: no lsprotocol objects built only to be unstructured again.

pygls keeps its converter, server and shutdown flag in private attributes; this class
keeps its own references (from the constructor's arguments) instead of reading them, and
its own request id (`msg_id`) in a context variable of its own.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import itertools
import logging
import sys
import threading
from collections.abc import Callable, Generator, Hashable
from concurrent.futures import Future, InvalidStateError
from functools import partial
from typing import Any

from cattrs import Converter
from lsprotocol import types as lsp
from pygls.exceptions import (
    FeatureNotificationError,
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcRequestCancelled,
    JsonRpcServerNotInitialized,
)
from pygls.feature_manager import is_thread_function
from pygls.protocol import JsonRPCResponseMessage, LanguageServerProtocol
from pygls.protocol.json_rpc import MsgId
from pygls.protocol.language_server import lsp_method

from kit_lsp import wire

log = logging.getLogger(__name__)

# The id of the request whose handler is running (None in a notification's): set where a
# request starts, copied into the thread pool and into the tasks it starts.
_REQUEST_ID: contextvars.ContextVar[MsgId | None] = contextvars.ContextVar("kit_lsp_request_id", default=None)

AnyFuture = Future[Any] | asyncio.Future[Any]


class Cancelled(Exception):
    """Raised by a handler that noticed its request was cancelled (the answer is already out)."""


class KitProtocol(LanguageServerProtocol):
    def __init__(self, server: Any, converter: Converter) -> None:
        # set before pygls's constructor, which reads every attribute (`running` too)
        self._shut_down = False
        # handlers still running: a request's under its id, the others under a number of their own
        self._running: dict[Hashable, AnyFuture] = {}
        super().__init__(server, converter)
        self.converter = converter  # what pygls structures messages with (it keeps it private)
        self.language_server = server
        self._initialize_seen = False
        self._preanswered: MsgId | None = None  # the `initialize` the start-up code answered
        self.boot_result: dict[str, Any] | None = None  # what the start-up code answered
        self._cancelled: set[MsgId] = set()  # requests answered -32800 whose handler still runs
        self._book = threading.Lock()  # results arrive on worker threads, cancellations on the loop
        self._unnamed = itertools.count()

    @property
    def shutdown_received(self) -> bool:
        return self._shut_down

    @property
    def msg_id(self) -> MsgId | None:
        """The id of the request whose handler calls this (None outside a request)."""
        return _REQUEST_ID.get()

    @property
    def running(self) -> int:
        """How many handlers are still running (requests and notifications)."""
        return len(self._running)

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
        self.respond(data["id"], error=exc)

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        if method is None:  # an answer to one of the server's own requests: pygls resolves it
            super().handle_message(message)
            return
        msg_id = getattr(message, "id", None)
        params = getattr(message, "params", None)
        if msg_id is not None:
            if self._admit(method, msg_id):
                contextvars.copy_context().run(self._request, msg_id, method, params)
            return
        if method != lsp.EXIT and (not self._initialize_seen or self._shut_down):
            return  # notifications before `initialize` are dropped (LSP), after `shutdown` all but `exit`
        if method == lsp.CANCEL_REQUEST:
            if params is not None:
                self._cancel(params.id)
            return
        contextvars.copy_context().run(self._notification, method, params)

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
            self.respond(msg_id, error=error)
        return error is None

    def _handler(self, method: str) -> Callable[..., Any] | None:
        """The handler pygls would run: its built-in one (which calls kit's), else kit's."""
        return self.fm.builtin_features.get(method) or self.fm.features.get(method)

    # ------------------------------------------------------------------ running handlers

    def _request(self, msg_id: MsgId, method: str, params: Any) -> None:
        handler = self._handler(method)
        if handler is None:
            log.warning("kit-lsp: request %r for an unknown method %r", msg_id, method)
            self.respond(msg_id, error=JsonRpcMethodNotFound.of(method))
            return
        _REQUEST_ID.set(msg_id)
        try:
            future = self._start(handler, (params,))
        except Exception:
            log.exception("kit-lsp: starting %s failed", method)
            self.respond(msg_id, error=JsonRpcInternalError.of(sys.exc_info()))
            return
        with self._book:
            self._running[msg_id] = future
        future.add_done_callback(partial(self._answer, msg_id))

    def _notification(self, method: str, params: Any) -> None:
        handler = self._handler(method)
        if handler is None:
            log.warning("kit-lsp: ignoring a notification for an unknown method %r", method)
            return
        try:
            future = self._start(handler, (params,))
        except Exception as exc:
            log.exception("kit-lsp: starting %s failed", method)
            self._report(exc)
            return
        if future.done():  # most notifications (every keystroke's) finish inline: nothing to keep
            self._check(future)
            return
        key = ("notification", next(self._unnamed))
        with self._book:
            self._running[key] = future
        future.add_done_callback(partial(self._finished, key))

    def _start(self, handler: Callable[..., Any], args: Any, kwargs: dict[str, Any] | None = None) -> AnyFuture:
        """Run ``handler`` the way its kind asks; its future is done when it is."""
        kwargs = kwargs or {}
        if inspect.iscoroutinefunction(handler):
            return asyncio.ensure_future(handler(*args, **kwargs))
        if is_thread_function(handler):
            run = contextvars.copy_context().run  # the request id travels into the thread
            return self.language_server.thread_pool.submit(run, handler, *args, **kwargs)
        future: Future[Any] = Future()
        if inspect.isgeneratorfunction(handler):
            self._step(handler(*args, **kwargs), future, None)
            return future
        try:
            _settle(future, handler(*args, **kwargs))
        except Exception as exc:
            _fail(future, exc)
        return future

    def _step(self, steps: Generator[Any, Any, Any], future: Future[Any], previous: AnyFuture | None) -> None:
        """Run a generator handler (pygls's built-in ones) to its next `yield handler, args,
        kwargs`, start that handler and come back with its result when it is done."""
        if future.cancelled() or (previous is not None and previous.cancelled()):
            future.cancel()
            steps.close()
            return
        try:
            handler, args, kwargs = steps.send(None if previous is None else previous.result())
            waiting = self._start(handler, args, kwargs)
        except StopIteration as stop:
            _settle(future, stop.value)
            return
        except Exception as exc:
            _fail(future, exc)
            return
        future.add_done_callback(partial(_cancel_with, waiting))  # a cancelled step cancels what it waits for
        waiting.add_done_callback(partial(self._step, steps, future))

    def _answer(self, msg_id: MsgId, future: AnyFuture) -> None:
        with self._book:
            if self._running.get(msg_id) is future:
                del self._running[msg_id]
            if msg_id in self._cancelled:
                self._cancelled.discard(msg_id)
                return  # answered when the cancellation came; the late result is dropped
        if future.cancelled():  # by `shutdown` before it ran
            self.respond(msg_id, error=JsonRpcRequestCancelled(f"request {msg_id} was cancelled"))
            return
        try:
            result = future.result()
        except JsonRpcException as exc:
            log.warning("kit-lsp: request %r: %s", msg_id, exc)
            self.respond(msg_id, error=exc)
            return
        except Exception:
            log.exception("kit-lsp: request %r failed", msg_id)
            self.respond(msg_id, error=JsonRpcInternalError.of(sys.exc_info()))
            return
        self.respond(msg_id, result)

    def _finished(self, key: Hashable, future: AnyFuture) -> None:
        with self._book:
            self._running.pop(key, None)
        self._check(future)

    def _check(self, future: AnyFuture) -> None:
        """Log and report a notification handler's failure (nobody waits for its answer)."""
        if future.cancelled() or (exc := future.exception()) is None:
            return
        log.error("kit-lsp: a notification handler failed", exc_info=exc)
        self._report(exc)

    def _report(self, exc: BaseException) -> None:
        error = JsonRpcInternalError.of((type(exc), exc, exc.__traceback__))
        try:
            self.language_server.report_server_error(error, FeatureNotificationError)
        except Exception:  # reporting must not fail the handling
            log.warning("kit-lsp: reporting an error failed", exc_info=True)

    # ------------------------------------------------------------------ cancelling

    def _cancel(self, msg_id: MsgId) -> None:
        with self._book:
            future = self._running.get(msg_id)
            if future is None or future.done() or msg_id in self._cancelled:
                return
            self._cancelled.add(msg_id)
        self.respond(msg_id, error=JsonRpcRequestCancelled(f"request {msg_id} was cancelled"))
        future.cancel()  # stops it only if it has not started (a started coroutine too)

    def cancelled(self) -> bool:
        """Whether the request whose handler calls this was cancelled (any thread)."""
        msg_id = self.msg_id
        return msg_id is not None and msg_id in self._cancelled

    def check_cancelled(self) -> None:
        if self.cancelled():
            raise Cancelled()

    @lsp_method(lsp.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Any:
        """Run kit's handler, cancel every other handler still running, refuse what follows."""
        current = self.msg_id  # read before the first `yield`, while this request's context is current
        if (handler := self.fm.features.get(lsp.SHUTDOWN)) is not None:
            yield handler, args, None
        with self._book:
            others = [future for key, future in self._running.items() if key != current]
        for future in others:
            future.cancel()
        self._shut_down = True
        return None

    # ------------------------------------------------------------------ answering

    def respond(self, msg_id: MsgId, result: Any = None, error: JsonRpcException | None = None) -> None:
        """Answer a request: ``result`` (lsprotocol objects are unstructured) or ``error``."""
        if msg_id is not None and msg_id == self._preanswered:
            self._preanswered = None
            self._check_boot_answer(result, error)
            return
        if error is None:
            try:
                answer = self.converter.unstructure(JsonRPCResponseMessage(id=msg_id, result=result, jsonrpc="2.0"))
                self._write(wire.encode(answer))
                return
            except (TypeError, ValueError):  # a result that is no JSON must still be answered
                log.exception("kit-lsp: the answer to %r cannot be sent as JSON", msg_id)
                error = JsonRpcInternalError.of(sys.exc_info())
        self.send_json(self.converter.unstructure(lsp.ResponseErrorMessage(id=msg_id, error=error.to_response_error())))

    def _check_boot_answer(self, result: Any, error: JsonRpcException | None) -> None:
        """The answer pygls computes must be the one the start-up code sent (a test keeps them
        equal; a difference is logged, never sent twice)."""
        if error is not None:
            log.error("kit-lsp: initialize failed after it was answered: %s", error)
            return
        computed = self.converter.unstructure(result)
        if computed != self.boot_result:
            log.error("kit-lsp: the early initialize answer differs from pygls's: %s", computed)

    # ------------------------------------------------------------------ sending JSON as it is

    def send_json(self, message: dict[str, Any]) -> None:
        """Send a JSON-RPC message that is plain JSON already, framed by `kit_lsp.wire`."""
        self._write(wire.encode(message))

    def _write(self, data: bytes) -> None:
        if self.writer is None:
            log.error("kit-lsp: no writer to send %s", data[:200])
            return
        self.writer.write(data)

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


def _settle(future: Future[Any], result: Any) -> None:
    try:
        future.set_result(result)
    except InvalidStateError:  # cancelled meanwhile (by `shutdown`): nobody wants the result
        pass


def _fail(future: Future[Any], exc: BaseException) -> None:
    try:
        future.set_exception(exc)
    except InvalidStateError:
        pass


def _cancel_with(waiting: AnyFuture, future: AnyFuture) -> None:
    if future.cancelled():
        waiting.cancel()


def _reason(exc: BaseException) -> str:
    cause = exc.__cause__
    while cause is not None and cause.__cause__ is not None:
        cause = cause.__cause__
    detail = str(cause or exc).strip().splitlines()
    return detail[0] if detail else type(exc).__name__
