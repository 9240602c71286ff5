"""Semantic tokens (full document) from the grammar's highlights query.

Every capture name of `queries/highlights.scm` maps to an LSP token type (and modifiers);
punctuation is left to the client's grammar. Where several patterns capture one node the
first pattern wins (tree-sitter's highlight rule). Multi-line tokens (raw strings) are
split per line.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from tree_sitter import QueryCursor

from kit_core import syntax
from kit_lsp.features.declared.semantic_tokens import DECLARED, TYPES

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer
    from kit_lsp.documents import Document

_CAPTURES: dict[str, tuple[str, int]] = {
    "keyword": ("keyword", 0),
    "keyword.function": ("keyword", 0),
    "type": ("type", 0),
    "type.builtin": ("type", 2),
    "type.definition": ("type", 1),
    "type.parameter": ("typeParameter", 1),
    "module": ("namespace", 0),
    "function": ("function", 1),
    "function.method": ("method", 1),
    "property": ("property", 1),
    "constant": ("enumMember", 0),
    "constant.builtin": ("enumMember", 2),
    "variable.parameter": ("parameter", 0),
    "attribute": ("decorator", 0),
    "comment": ("comment", 0),
    "string": ("string", 0),
    "string.escape": ("string", 0),
    "string.special.path": ("string", 0),
    "number": ("number", 0),
    "number.float": ("number", 0),
    "boolean": ("keyword", 0),
    "operator": ("operator", 0),
}


def tokens(doc: Document, encoding: str = "utf-16") -> list[int]:
    """The LSP encoding: 5 integers per token, positions relative to the previous token."""
    tree = doc.current_tree()
    seen: dict[tuple[int, int], tuple[int, int, int]] = {}  # (start, end) -> (pattern, type, mods)
    for pattern, captures in QueryCursor(syntax.highlights_query()).matches(tree.root_node):
        for name, nodes in captures.items():
            mapped = _CAPTURES.get(name)
            if mapped is None:
                continue
            for node in nodes:
                key = (node.start_byte, node.end_byte)
                if key not in seen or seen[key][0] > pattern:
                    seen[key] = (pattern, TYPES.index(mapped[0]), mapped[1])
    return _encode(doc, sorted(seen.items()), encoding)


def _encode(doc: Document, items: list[tuple[tuple[int, int], tuple[int, int, int]]], encoding: str) -> list[int]:
    data: list[int] = []
    prev_line = prev_col = 0
    last_end = -1
    starts = doc.line_starts()
    for (start, end), (_, kind, mods) in items:
        if start < last_end:
            continue  # nested in a token already emitted (an escape inside a string)
        last_end = end
        for line, col, length in _pieces(doc, starts, start, end, encoding):
            delta_line = line - prev_line
            delta_col = col - prev_col if delta_line == 0 else col
            data.extend([delta_line, delta_col, length, kind, mods])
            prev_line, prev_col = line, col
    return data


def _pieces(doc: Document, starts: list[int], start: int, end: int, encoding: str) -> list[tuple[int, int, int]]:
    """(line, column, length) in client units per line of a byte range."""

    out: list[tuple[int, int, int]] = []
    line = bisect_right(starts, start) - 1
    while start < end:
        line_end = starts[line + 1] - 1 if line + 1 < len(starts) else len(doc.source)
        stop = min(end, line_end)
        prefix = doc.source[starts[line] : start].decode("utf-8", "replace")
        text = doc.source[start:stop].decode("utf-8", "replace")
        if text:
            out.append((line, _units(prefix, encoding), _units(text, encoding)))
        line += 1
        if line >= len(starts):
            break
        start = starts[line]
    return out


def _units(s: str, encoding: str) -> int:
    if encoding == lsp.PositionEncodingKind.Utf8:
        return len(s.encode("utf-8"))
    if encoding == lsp.PositionEncodingKind.Utf32:
        return len(s)
    return len(s.encode("utf-16-le")) // 2


def register(server: KitLanguageServer) -> None:
    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL)
    @server.thread()
    def full(ls: KitLanguageServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
        doc = ls.state.docs.get(params.text_document.uri)
        if doc is None or doc.kind != "kit":
            return lsp.SemanticTokens(data=[])
        return lsp.SemanticTokens(data=tokens(doc, ls.state.encoding))


__all__ = ["tokens"]
