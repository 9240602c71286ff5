"""Folding ranges: bodies, argument lists, arrays and raw strings (the grammar's folds
query), runs of comment lines, and the import block."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from tree_sitter import QueryCursor

from kit_core import syntax
from kit_core.model import SourceFile
from kit_lsp.features.declared.folding import DECLARED

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer
    from kit_lsp.documents import Document


def ranges(doc: Document) -> list[lsp.FoldingRange]:
    out: list[lsp.FoldingRange] = []
    seen: set[int] = set()
    for nodes in QueryCursor(syntax.folds_query()).captures(doc.current_tree().root_node).values():
        for node in nodes:
            start, end = node.start_point.row, node.end_point.row
            if end > start and start not in seen:
                seen.add(start)
                out.append(lsp.FoldingRange(start_line=start, end_line=end - 1 if _closes(doc, node) else end))
    file = doc.parsed()
    out.extend(_comment_runs(file))
    out.extend(_imports(file))
    return sorted(out, key=lambda r: (r.start_line, r.end_line))


def _closes(doc: Document, node: object) -> bool:
    """Keep the closing bracket visible: fold up to the line before it."""
    end = getattr(node, "end_byte", 0)
    return doc.source[end - 1 : end] in (b"}", b")", b"]")


def _comment_runs(file: SourceFile) -> list[lsp.FoldingRange]:
    out: list[lsp.FoldingRange] = []
    run: list[int] = []
    for c in file.comments:
        line = c.span.start_line
        if run and line == run[-1] + 1:
            run.append(line)
            continue
        if len(run) > 1:
            out.append(lsp.FoldingRange(run[0], run[-1], kind=lsp.FoldingRangeKind.Comment))
        run = [line]
    if len(run) > 1:
        out.append(lsp.FoldingRange(run[0], run[-1], kind=lsp.FoldingRangeKind.Comment))
    return out


def _imports(file: SourceFile) -> list[lsp.FoldingRange]:
    if len(file.imports) < 2:
        return []
    first, last = file.imports[0].span.start_line, file.imports[-1].span.end_line
    return [lsp.FoldingRange(first, last, kind=lsp.FoldingRangeKind.Imports)] if last > first else []


def register(server: KitLanguageServer) -> None:
    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    @server.thread()
    def folding(ls: KitLanguageServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
        doc = ls.state.docs.get(params.text_document.uri)
        if doc is None or doc.kind != "kit":
            return []
        return ranges(doc)
