"""kit-lsp's server: creates it, registers the features and runs the message loop.

The process starts in `kit_lsp.server.main` / `kit_lsp.startup.boot` (the handshake before these
imports); `serve` takes over the stream from there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, NoReturn

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from kit_core import __version__
from kit_core.resident.session import Snapshot
from kit_lsp import features, wire
from kit_lsp.background import DesignJob
from kit_lsp.features.declared.sync import CHANGE
from kit_lsp.features.diagnostics import Diagnostics
from kit_lsp.features.lifecycle import terminate
from kit_lsp.features.regenerate import Regenerator
from kit_lsp.protocol import KitProtocol
from kit_lsp.refresh import Refresher
from kit_lsp.startup.firstlook import FirstLook
from kit_lsp.startup.handover import Handover, Published
from kit_lsp.state import State

log = logging.getLogger(__name__)


class KitLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "kit-lsp",
            __version__,
            protocol_cls=KitProtocol,
            text_document_sync_kind=lsp.TextDocumentSyncKind(CHANGE),  # as declared
        )
        self.state = State()
        self.analysis_listeners: list[Callable[[Snapshot], None]] = []  # told after each published analysis
        self.diagnostics = Diagnostics(self)
        self.startup = Handover(self)
        self.regenerate = Regenerator(self)
        self.stub_drift: DesignJob  # set by the features that own them
        self.breaking: DesignJob
        self.refresh = Refresher(self)
        self.analysis_listeners.append(self.refresh.soon)

    @property
    def kit_protocol(self) -> KitProtocol:
        assert isinstance(self.protocol, KitProtocol)
        return self.protocol

    @property
    def shutdown_received(self) -> bool:
        return self.kit_protocol.shutdown_received


def create_server() -> KitLanguageServer:
    server = KitLanguageServer()
    for feature in features.modules():
        feature.register(server)
    return server


def serve(
    inbox: wire.Inbox,
    outbox: wire.Outbox,
    backlog: list[wire.Item | None],
    answered: dict[str, Any],
    published: Published | None = None,
    first: FirstLook | None = None,
) -> NoReturn:
    """Run the server on messages from ``inbox`` (``backlog`` first: what the start-up code
    read, beginning with the `initialize` it answered with ``answered``; ``published``: the
    diagnostics it published from the cache; ``first``: the first-look process, whose
    answers the server takes over) until the input ends; exit 0 only after `shutdown`."""
    server = create_server()
    protocol = server.kit_protocol
    protocol.set_writer(outbox)
    head = backlog[0] if backlog else None
    if isinstance(head, dict) and head.get("method") == lsp.INITIALIZE:
        protocol.preanswered(head["id"], answered)
    asyncio.run(_loop(protocol, inbox, backlog, server.startup, published or {}, first))
    terminate(0 if server.shutdown_received else 1)


async def _loop(
    protocol: KitProtocol,
    inbox: wire.Inbox,
    backlog: list[wire.Item | None],
    startup: Handover,
    published: Published,
    first: FirstLook | None,
) -> None:
    loop = asyncio.get_running_loop()
    ended = asyncio.Event()

    def receive(item: wire.Item | None) -> None:
        if item is None:
            ended.set()
            return
        try:
            protocol.receive(item)
        except Exception:  # a bug in one message's handling must not end the loop
            log.exception("kit-lsp: handling a message failed")

    def received(item: wire.Item | None) -> None:
        receive(item)
        inbox.done()

    startup.take_over(published, first)  # its answers run on the loop: after the backlog
    for item in backlog:
        receive(item)

    def post(item: wire.Item | None) -> None:
        loop.call_soon_threadsafe(received, item)

    inbox.attach(post)
    await ended.wait()
