"""The only place where kit values become LSP values (and LSP positions become bytes).

kit spans carry byte columns and UTF-16 columns (`kit_core.source.Span`); the client's
position encoding (negotiated by pygls: UTF-16 unless the client prefers UTF-8 or UTF-32)
decides which one is sent.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from kit_core.diagnostics import Diagnostic, Severity
from kit_core.printable import printable
from kit_core.source import Span
from kit_lsp.startup.lspjson import TextOf, columns, uri_of

__all__ = ["TextOf", "uri_of"]

UTF8 = lsp.PositionEncodingKind.Utf8
UTF16 = lsp.PositionEncodingKind.Utf16
UTF32 = lsp.PositionEncodingKind.Utf32

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
    Severity.HINT: lsp.DiagnosticSeverity.Hint,
}


def lsp_range(span: Span, encoding: str = UTF16, text_of: TextOf | None = None) -> lsp.Range:
    start, end = columns(span, encoding, text_of)
    return lsp.Range(lsp.Position(span.start_line, start), lsp.Position(span.end_line, end))


def lsp_location(span: Span, encoding: str = UTF16, text_of: TextOf | None = None) -> lsp.Location:
    return lsp.Location(uri_of(span.path), lsp_range(span, encoding, text_of))


def lsp_diagnostic(d: Diagnostic, encoding: str = UTF16, text_of: TextOf | None = None) -> lsp.Diagnostic:
    related = [
        lsp.DiagnosticRelatedInformation(lsp_location(r.span, encoding, text_of), printable(r.message))
        for r in d.related
        if r.span.path
    ]
    return lsp.Diagnostic(
        range=lsp_range(d.span, encoding, text_of),
        message=printable(d.message),
        severity=_SEVERITY[d.severity],
        code=d.code,
        source="kit",
        related_information=related or None,
    )


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
