"""Formatting (whole document): the same output as `kit fmt`; a refused file gets no edits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.format import format_model

if TYPE_CHECKING:
    from kit_lsp.server import KitLanguageServer


def register(server: KitLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    @server.thread()
    def formatting(ls: KitLanguageServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        doc = ls.state.docs.get(params.text_document.uri)
        if doc is None or doc.kind != "kit":
            return []
        result = format_model(doc.parsed())
        if not result.changed:
            return []
        end = doc.end_position(ls.state.encoding)
        return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), result.text)]
