"""kit-lsp: creates the server and registers the features. Nothing else lives here."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from kit_core import __version__
from kit_lsp import features
from kit_lsp.background import DesignJob
from kit_lsp.features.diagnostics import Diagnostics
from kit_lsp.features.lifecycle import terminate
from kit_lsp.features.regenerate import Regenerator
from kit_lsp.project import Snapshot
from kit_lsp.protocol import KitProtocol
from kit_lsp.refresh import Refresher
from kit_lsp.state import State


class KitLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "kit-lsp",
            __version__,
            protocol_cls=KitProtocol,
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
        )
        self.state = State()
        self.analysis_listeners: list[Callable[[Snapshot], None]] = []  # told after each published analysis
        self.diagnostics = Diagnostics(self)
        self.regenerate = Regenerator(self)
        self.stub_drift: DesignJob  # set by the features that own them
        self.breaking: DesignJob
        self.refresh = Refresher(self)
        self.analysis_listeners.append(self.refresh.soon)

    @property
    def shutdown_received(self) -> bool:
        protocol = self.protocol
        return isinstance(protocol, KitProtocol) and protocol.shutdown_received


def create_server() -> KitLanguageServer:
    server = KitLanguageServer()
    for feature in features.ALL:
        feature.register(server)
    return server


def main(argv: Sequence[str] | None = None) -> None:
    """`kit-lsp [-stdio] [-version]`: serve on stdin/stdout; exit 0 only after `shutdown`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-version", "--version", "-v") for a in args):
        print(f"kit-lsp {__version__}")
        sys.exit(0)
    server = create_server()
    server.start_io()  # returns when stdin closes without an `exit` notification
    terminate(0 if server.shutdown_received else 1)
