"""Rename (with prepare) from the declaration or any use of a type, enum, enum value,
scalar, error, middleware, service, event, method or field, across files and packages, as
one WorkspaceEdit. `kit_lsp.renaming` finds the symbol and its uses and decides whether the
new name is acceptable (a refusal answers the request with an error naming the problem)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams

from kit_core.source import Span
from kit_lsp import renaming
from kit_lsp.convert import lsp_edit, lsp_range, uri_of
from kit_lsp.features.declared.rename import DECLARED
from kit_lsp.features.stub_drift import remember_stub_renames
from kit_lsp.state import View

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer


def register(server: KitLanguageServer) -> None:
    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    @server.thread()
    def prepare(ls: KitLanguageServer, params: lsp.PrepareRenameParams) -> lsp.PrepareRenamePlaceholder | None:
        view = ls.state.view(params.text_document.uri, fresh=True)
        found = renaming.symbol_at(view, view.offset(params.position)) if view is not None else None
        if view is None or found is None:
            return None
        symbol, span = found
        return lsp.PrepareRenamePlaceholder(range=lsp_range(span, view.encoding), placeholder=symbol.name)

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_RENAME)
    @server.thread()
    def rename(ls: KitLanguageServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
        view = ls.state.view(params.text_document.uri, fresh=True)
        found = renaming.symbol_at(view, view.offset(params.position)) if view is not None else None
        if view is None or found is None:
            return None
        symbol = found[0]
        spans = renaming.occurrences(view, symbol, ls.kit_protocol.check_cancelled)
        ls.kit_protocol.check_cancelled()
        problem = renaming.problem(view, symbol, params.new_name, spans)
        if problem:
            raise JsonRpcInvalidParams(problem)
        remember_stub_renames(view, symbol.node, params.new_name)
        return workspace_edit(view, spans, params.new_name, ls.state.uri_for)


def workspace_edit(
    view: View, spans: list[Span], new: str, uri_for: Callable[[str], str] = uri_of
) -> lsp.WorkspaceEdit:
    """``new`` written over every span; ``uri_for`` names a file as the client knows it."""
    changes: dict[str, list[lsp.TextEdit]] = {}
    for span in spans:
        changes.setdefault(uri_for(span.path), []).append(lsp_edit(span, new, view.encoding))
    return lsp.WorkspaceEdit(changes=changes)
