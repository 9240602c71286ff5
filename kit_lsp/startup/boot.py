"""`kit-lsp`'s entry point: the handshake first, the server's imports meanwhile.

Importing pygls, lsprotocol and kit's analyzer takes most of a second; `initialize` is
answered long before that. This module imports only the standard library (and
`kit_lsp.wire` / `kit_lsp.startup.capabilities`, which do the same): it starts the server's imports
on a thread, reads the first messages itself, answers `initialize` with the capabilities
`kit_lsp.startup.capabilities` computes (exactly pygls's; checked by the server and by the
tests), publishes the diagnostics cached from the last session while the imports run
(`kit_lsp.startup.early`), then hands the stream to the server once it is imported - the
`initialize` request included, so pygls sets up its workspace, without answering it twice.

Before `initialize`, requests get -32002 and notifications are dropped (LSP), `exit` ends
the process with status 1.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any, NoReturn

from kit_core import gcpause
from kit_lsp import wire
from kit_lsp.startup import early
from kit_lsp.startup.capabilities import initialize_result
from kit_lsp.startup.firstlook import FirstLook

_VERSION_FLAGS = ("-version", "--version", "-v")
_HELP_FLAGS = ("-h", "-help", "--help")
USAGE = """\
usage: kit-lsp [--stdio] [--version] [--help]

kit's language server: an editor starts it and speaks the Language Server Protocol
over its standard input and output (--stdio, the only transport, is the default).
Run by hand it waits for an editor's `initialize` message.

  --stdio         serve on stdin/stdout (accepted for editors that pass it)
  -v, --version   print the version and exit
  -h, --help      print this help and exit

Editor set-up: editors/ in kit's repository (Neovim, VS Code, Helix).
"""
_HANDSHAKE_SWITCH_S = 0.0005  # see `_Importer`
_HANDSHAKE_WAIT_S = 0.1


class _Importer(threading.Thread):
    """Imports the server on its own thread. It starts once `initialize` is answered (or
    after ``_HANDSHAKE_WAIT_S``, for a client slow to send it), so the answer does not share
    the GIL with the import; then a short switch interval lets the reader and the start-up
    code take their turns within a millisecond instead of five (restored when the import is
    done)."""

    def __init__(self) -> None:
        super().__init__(name="kit-lsp-import", daemon=True)
        self.error: BaseException | None = None
        self.go = threading.Event()
        self._interval = sys.getswitchinterval()

    def run(self) -> None:
        self.go.wait(_HANDSHAKE_WAIT_S)
        sys.setswitchinterval(_HANDSHAKE_SWITCH_S)
        try:
            import kit_lsp.app  # noqa: F401
        except BaseException as exc:  # re-raised on the main thread
            self.error = exc
        finally:
            sys.setswitchinterval(self._interval)


def main(argv: list[str] | None = None) -> None:
    """`kit-lsp [-stdio] [-version] [-help]`: serve on stdin/stdout; exit 0 only after `shutdown`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in _HELP_FLAGS for a in args):
        print(USAGE, end="")
        sys.exit(0)
    if any(a in _VERSION_FLAGS for a in args):
        from kit_core import __version__

        print(f"kit-lsp {__version__}")
        sys.exit(0)
    gcpause.install()  # a long-lived server: models frozen out of the collector's sight, frees deferred
    first = FirstLook().start()  # at once: it imports the analyzer on the other core meanwhile
    importer = _Importer()
    importer.start()
    inbox = wire.Inbox(sys.stdin.buffer).start()
    outbox = wire.Outbox(sys.stdout.buffer)
    initialize = handshake(inbox, outbox)
    importer.go.set()
    backlog, published = early.run(initialize["params"], inbox, outbox, importer, first)
    importer.join()
    if importer.error is not None:
        raise importer.error
    from kit_lsp.app import serve

    serve(inbox, outbox, [initialize, *backlog], initialize_result(initialize["params"]), published, first)


def handshake(inbox: wire.Inbox, outbox: wire.Outbox) -> dict[str, Any]:
    """Answer messages up to `initialize`; returns the `initialize` request (answered)."""
    while True:
        item = inbox.next_waiting()
        if item is None:
            _exit(1)  # the client went away before initializing
        if isinstance(item, wire.Problem):
            if item.reply is not None:
                outbox.send(item.reply)
            continue
        method, msg_id = item.get("method"), item.get("id")
        if method == "initialize" and msg_id is not None:
            problem = _invalid_initialize(item.get("params"))
            if problem:
                outbox.send(wire.error_reply(msg_id, wire.INVALID_PARAMS, problem))
                continue
            outbox.send({"jsonrpc": "2.0", "id": msg_id, "result": initialize_result(item["params"])})
            return item
        if method == "exit":
            _exit(1)
        if msg_id is not None and method is not None:
            outbox.send(wire.error_reply(msg_id, wire.SERVER_NOT_INITIALIZED, f"{method} before initialize"))


def _invalid_initialize(params: Any) -> str | None:
    """The shape checks the answer relies on (pygls checks the rest once it is loaded)."""
    if not isinstance(params, dict):
        return "invalid params for initialize: params must be an object"
    if not isinstance(params.get("capabilities"), dict):
        return "invalid params for initialize: capabilities must be an object"
    return None


def _exit(code: int) -> NoReturn:
    sys.stdout.flush()
    os._exit(code)  # the import thread must not hold the exit
