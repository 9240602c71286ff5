"""Where kit values become lsprotocol values (and LSP positions become bytes).

Diagnostics are the exception: they are published as JSON (`kit_lsp.startup.lspjson`,
whose column choice these ranges share), without lsprotocol objects in between.

kit spans carry byte columns and UTF-16 columns (`kit_core.source.Span`); the client's
position encoding (negotiated by pygls: UTF-16 unless the client prefers UTF-8 or UTF-32)
decides which one is sent.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from kit_core.source import Span
from kit_lsp.startup.lspjson import TextOf, columns, uri_of

__all__ = ["TextOf", "uri_of"]

UTF8 = lsp.PositionEncodingKind.Utf8
UTF16 = lsp.PositionEncodingKind.Utf16
UTF32 = lsp.PositionEncodingKind.Utf32


def lsp_range(span: Span, encoding: str = UTF16, text_of: TextOf | None = None) -> lsp.Range:
    start, end = columns(span, encoding, text_of)
    return lsp.Range(lsp.Position(span.start_line, start), lsp.Position(span.end_line, end))


def lsp_location(span: Span, encoding: str = UTF16, text_of: TextOf | None = None) -> lsp.Location:
    return lsp.Location(uri_of(span.path), lsp_range(span, encoding, text_of))


def lsp_edit(span: Span, new_text: str, encoding: str = UTF16, text_of: TextOf | None = None) -> lsp.TextEdit:
    return lsp.TextEdit(lsp_range(span, encoding, text_of), new_text)


# --------------------------------------------------------------------------- client -> bytes


def byte_column(line: bytes, character: int, encoding: str) -> int:
    """The byte offset within ``line`` of a client column (clamped to the line)."""
    if encoding == UTF8:
        return min(character, len(line))
    text = line.decode("utf-8", "replace")
    units = 0
    for i, ch in enumerate(text):
        if units >= character:
            return len(text[:i].encode("utf-8"))
        units += 1 if encoding == UTF32 or ord(ch) < 0x10000 else 2
    return len(line)
