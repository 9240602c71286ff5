"""Code lenses per method of a `.kit` file and per RPC of a `.proto` file: the stub's state
("stub: implemented", "stub: TODO", ...), "open handler", "open stub", "open in OpenAPI".
A lens runs the command `kit.open` (file URI, 0-based line), which asks the client to show
that place (`window/showDocument`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from kit_core.editor.lenses import DRIFTED, MethodFacts, http_facts, openapi_line, rpc_facts, stub_status
from kit_lsp.convert import lsp_range, uri_of
from kit_lsp.features.declared.code_lens import DECLARED, OPEN

if TYPE_CHECKING:
    from kit_core.resident.session import Snapshot
    from kit_lsp.app import KitLanguageServer


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def facts_of(snap: Snapshot, path: str, kind: str) -> list[MethodFacts]:
    if snap.root is None or snap.analysis is None:
        return []
    if kind == "proto":
        return rpc_facts(snap.protos, snap.manifest, path)
    return http_facts(snap.analysis, snap.manifest, path)


def _lens(at: lsp.Range, title: str, path: Path, line: int) -> lsp.CodeLens:
    return lsp.CodeLens(at, lsp.Command(title, OPEN, arguments=[uri_of(str(path)), line]))


def lenses(facts: MethodFacts, project: Path, at: lsp.Range, drifted: bool = False) -> list[lsp.CodeLens]:
    stub = project / facts.stub
    status, line = stub_status(_read(stub), facts)
    if drifted:
        status = DRIFTED
    out = [_lens(at, f"stub: {status}", stub, line)]
    if (project / facts.handler).is_file():
        out.append(_lens(at, "open handler", project / facts.handler, 0))
    if stub.is_file():
        out.append(_lens(at, "open stub", stub, line))
    if facts.openapi and facts.operation_id:
        doc = project / facts.openapi
        data = _read(doc)
        found = openapi_line(data.decode("utf-8", "replace"), facts.operation_id) if data is not None else None
        if found is not None:
            out.append(_lens(at, "open in OpenAPI", doc, found))
    return out


def register(server: KitLanguageServer) -> None:
    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_CODE_LENS)
    @server.thread()
    def code_lens(ls: KitLanguageServer, params: lsp.CodeLensParams) -> list[lsp.CodeLens] | None:
        state = ls.state
        doc = state.docs.get(params.text_document.uri)
        if doc is None or doc.kind not in ("kit", "proto"):
            return None
        snap = state.snapshot_for(doc)
        if snap.root is None:
            return None
        drifted = {d.span.start_byte for d in ls.stub_drift.latest.get(doc.path, []) if d.code == "stub/drift"}
        out = []
        for f in facts_of(snap, doc.path, doc.kind):
            at = lsp_range(f.span, state.encoding, state.text_of)
            out += lenses(f, snap.root.parent, at, f.span.start_byte in drifted)
        return out

    @DECLARED.command(server, OPEN)
    async def open_file(ls: Any, uri: str, line: int) -> bool:  # pygls reads these hints at run time
        """Show a file at a line; False when the client cannot (it then gets the lens's title only)."""
        window = ls.client_capabilities.window
        if window is None or not window.show_document or not window.show_document.support:
            return False
        place = lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0))
        result = await ls.window_show_document_async(lsp.ShowDocumentParams(uri, take_focus=True, selection=place))
        return bool(result and result.success)
