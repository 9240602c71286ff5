"""Inlay hints of a `.kit` file (`kit_core.editor.hints`): full route and success status,
effective middleware chain, wire location of request fields, validators inherited from
scalars - what the generated code does, from the analysis the generators read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.editor.hints import inlay_hints
from kit_lsp.convert import lsp_range
from kit_lsp.features.declared.inlay_hints import DECLARED

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

_KIND = {
    "route": lsp.InlayHintKind.Type,
    "middlewares": lsp.InlayHintKind.Type,
    "validators": lsp.InlayHintKind.Type,
    "wire": lsp.InlayHintKind.Parameter,
}


def _inside(pos: lsp.Position, r: lsp.Range) -> bool:
    return (r.start.line, r.start.character) <= (pos.line, pos.character) <= (r.end.line, r.end.character)


def register(server: KitLanguageServer) -> None:
    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_INLAY_HINT)
    @server.thread()
    def inlay_hint(ls: KitLanguageServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint] | None:
        state = ls.state
        doc = state.docs.get(params.text_document.uri)
        if doc is None or doc.kind != "kit":
            return None
        snap = state.snapshot_for(doc)
        if snap.analysis is None:
            return None
        out = []
        for h in inlay_hints(snap.analysis, doc.path):
            pos = lsp_range(h.at, state.encoding, state.text_of).start
            if _inside(pos, params.range):
                out.append(lsp.InlayHint(pos, h.label, kind=_KIND[h.kind], tooltip=h.tooltip, padding_left=True))
        return out
