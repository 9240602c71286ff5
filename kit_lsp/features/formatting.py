"""Formatting: the same text as `kit fmt`, sent as the smallest edits (not a replacement of
the whole document), in the file's own line endings; a refused file gets no edits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.format import format_model
from kit_lsp.features.declared.formatting import DECLARED
from kit_lsp.textdiff import line_ending, minimal_edits

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer


def register(server: KitLanguageServer) -> None:
    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_FORMATTING)
    @server.thread()
    def formatting(ls: KitLanguageServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        doc = ls.state.docs.get(params.text_document.uri)
        if doc is None or doc.kind != "kit":
            return []
        text = doc.text
        result = format_model(doc.parsed())
        if not result.ok:
            return []
        ending = line_ending(text)
        formatted = result.text.replace("\n", ending) if ending != "\n" else result.text
        return minimal_edits(text, formatted, ls.state.encoding)
