"""Memory stays bounded over a long editing session: 50,000 `didChange` notifications (sent
as fast as the pipe takes them) leave the server's resident memory within 10% of where it
was after warming up. Each edit used to cost about 2 KB for good (pygls kept one future
per notification), a design rule's cache kept one entry per method object ever analysed,
and a flood of edits piled decoded messages up in memory."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from lsp_helpers import DESIGN, write_design
from raw_client import RawClient, diagnostics_for

from kit_lsp import wire
from kit_lsp.features import breaking, stub_drift

EDITS = 50_000
BATCH = 500


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


class _Editor:
    """Types and deletes one character in a doc comment (the design stays valid)."""

    def __init__(self, client: RawClient, uri: str, line: int) -> None:
        self.client, self.uri, self.line, self.version = client, uri, line, 1

    def edits(self, count: int) -> None:
        batch: list[bytes] = []
        for _ in range(count):
            self.version += 1
            insert = self.version % 2 == 0
            start = {"line": self.line, "character": 3}
            end = {"line": self.line, "character": 3 if insert else 4}
            change = {"range": {"start": start, "end": end}, "text": "x" if insert else ""}
            params = {"textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": [change]}
            batch.append(wire.encode({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": params}))
            if len(batch) == BATCH:
                self.client.write(b"".join(batch))
                batch = []
        if batch:
            self.client.write(b"".join(batch))
        self.client.wait(diagnostics_for(self.uri, self.version), timeout=300)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmRSS from /proc")
def test_memory_is_flat_over_50000_edits(tmp_path: Path) -> None:
    root = write_design(tmp_path, DESIGN)
    client = RawClient()
    try:
        client.initialize(root / "design")
        path = root / "design/users/users.kit"
        text = path.read_text()
        uri = path.as_uri()
        item = {"uri": uri, "languageId": "kit", "version": 1, "text": text}
        client.notify("textDocument/didOpen", {"textDocument": item})
        editor = _Editor(client, uri, text.split("\n").index("// User is a person with an account."))
        editor.edits(3000)  # caches and the allocator's pools reach their working size
        # the jobs that run once edits pause (stub drift, breaking changes) load the generators
        # the first time: let them, as a user's first pause would, before measuring
        time.sleep(max(stub_drift.DELAY_S, breaking.DELAY_S) + 2.5)
        editor.edits(500)
        start = _rss_kb(client.proc.pid)
        editor.edits(EDITS)
        end = _rss_kb(client.proc.pid)
        assert end <= start * 1.10, f"RSS {start} kB -> {end} kB after {EDITS} edits"
    finally:
        client.close()


def test_the_reader_stays_a_bounded_number_of_messages_ahead() -> None:
    import io
    import threading
    import time

    data = b"".join(wire.encode({"jsonrpc": "2.0", "method": "m", "params": i}) for i in range(100))
    inbox = wire.Inbox(io.BufferedReader(io.BytesIO(data)), max_ahead=4)  # type: ignore[arg-type]
    got: list[object] = []
    arrived = threading.Event()

    def sink(item: object) -> None:
        got.append(item)
        arrived.set()

    inbox.attach(sink)
    inbox.start()
    time.sleep(0.3)
    assert len(got) == 4  # the consumer has handled nothing yet
    for _ in range(200):
        if len(got) == 101:  # 100 messages and the end of input
            break
        arrived.clear()
        inbox.done()
        arrived.wait(1)
    assert [m["params"] for m in got[:-1]] == list(range(100)) and got[-1] is None  # type: ignore[index]


def test_design_rule_results_are_kept_only_for_methods_that_exist(tmp_path: Path) -> None:
    """Each re-lowered method used to leave one cached route-rule result behind."""
    from lsp_helpers import USERS
    from lsprotocol import types as lsp

    from kit_core.resident.session import DesignSession
    from kit_lsp.documents import Document

    root = write_design(tmp_path, DESIGN) / "design"
    path = root / "users/users.kit"
    doc = Document(path.as_uri(), str(path), 1, USERS.encode())
    session = DesignSession(root)
    session.analyze({doc.path: doc})
    line = USERS.split("\n").index("\tget GetUser /{id} {")
    sizes = []
    for version in range(2, 60):
        at = lsp.Position(line, len("\tget GetUser /{id}"))
        change = lsp.TextDocumentContentChangePartial(range=lsp.Range(at, at), text=" " if version % 2 else "")
        if version % 2 == 0:
            change = lsp.TextDocumentContentChangePartial(
                range=lsp.Range(at, lsp.Position(line, at.character + 1)), text=""
            )
        doc.apply([change], version, "utf-16")
        session.analyze({doc.path: doc})
        assert session._analyzer is not None
        sizes.append(len(session._analyzer._reusable))
    assert max(sizes) == sizes[0], sizes
