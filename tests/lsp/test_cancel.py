"""`$/cancelRequest` is honoured for any request in flight: it is answered -32800 at once,
and the handler's late result is never sent."""

from __future__ import annotations

import time
from pathlib import Path

from lsp_helpers import MANIFEST, write_design
from raw_client import RawClient


def _design(root: Path, packages: int = 40, types: int = 25) -> Path:
    files = {"design/kit.design.yaml": MANIFEST}
    for p in range(packages):
        body = [f"package p{p}", ""]
        for t in range(types):
            body += [f"type T{t} {{", "\tname string @length(1, 20)", f"\tnext T{max(t - 1, 0)}?", "}", ""]
        files[f"design/p{p}/types.kit"] = "\n".join(body)
    return write_design(root, files) / "design"


def test_a_cancelled_request_is_answered_32800_and_nothing_else(tmp_path: Path) -> None:
    root = _design(tmp_path)
    path = root / "p0/types.kit"
    client = RawClient()
    try:
        client.initialize(root, {"generateOnSave": False})
        item = {"uri": path.as_uri(), "languageId": "kit", "version": 1, "text": path.read_text()}
        client.notify("textDocument/didOpen", {"textDocument": item})
        position = {"line": 2, "character": 6}  # `T0`: its references need the design analysed (it is not yet)
        params = {"textDocument": {"uri": path.as_uri()}, "position": position, "context": {"includeDeclaration": True}}
        first = client.request("textDocument/references", params)
        client.notify("$/cancelRequest", {"id": first})
        reply = client.answer(first)
        assert reply.get("error", {}).get("code") == -32800, reply
        second = client.request("textDocument/references", params)  # not cancelled: answered in full
        assert client.answer(second).get("result")
        time.sleep(0.2)
        answers = [m for _, m in list(client.inbox.queue) if m.get("id") == first]
        assert answers == []  # the handler's own result for the cancelled request was dropped
    finally:
        client.close()
