"""Rename a top-level declaration: prepare succeeds only on an identifier naming a
declaration of the current file (its own name or a use of it); the edit rewrites the
name and every use in all design files of the design, as one WorkspaceEdit. The new name
must be a valid identifier, not a reserved word or built-in type, upper-case first
(services may be lower-case), and free in its package."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams

from kit_core.model import Decl, ServiceDecl
from kit_core.symbols import PRIMITIVES
from kit_lsp import describe
from kit_lsp.convert import lsp_edit, lsp_range, uri_of
from kit_lsp.features.navigation import declaration_at
from kit_lsp.locate import target_at
from kit_lsp.refs import references
from kit_lsp.state import View

if TYPE_CHECKING:
    from kit_lsp.server import KitLanguageServer

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_VERBS = frozenset(describe.VERBS)


def register(server: KitLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    @server.thread()
    def prepare(ls: KitLanguageServer, params: lsp.PrepareRenameParams) -> lsp.PrepareRenamePlaceholder | None:
        view = ls.state.view(params.text_document.uri)
        if view is None:
            return None
        decl = _own_declaration(view, params.position)
        target = target_at(view.file, view.offset(params.position))
        if decl is None or target is None:
            return None
        span = target.node.span if target.kind == "ref" else decl.name_span
        return lsp.PrepareRenamePlaceholder(range=lsp_range(span, view.encoding), placeholder=decl.name)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME)
    @server.thread()
    def rename(ls: KitLanguageServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
        view = ls.state.view(params.text_document.uri)
        decl = _own_declaration(view, params.position) if view is not None else None
        if view is None or decl is None:
            return None
        problem = validate_name(view, decl, params.new_name)
        if problem:
            raise JsonRpcInvalidParams(problem)
        return workspace_edit(view, decl, params.new_name)


def _own_declaration(view: View, position: lsp.Position) -> Decl | None:
    decl = declaration_at(view, position)
    if decl is None or decl.name_span.path != view.doc.path:
        return None
    return decl


def validate_name(view: View, decl: Decl, new: str) -> str | None:
    if not _IDENT.fullmatch(new):
        return f"{new!r} is not a valid identifier (letters, digits and `_`, not starting with a digit)"
    if new in describe.KEYWORDS or new in _VERBS:
        return f"{new!r} is a reserved word"
    if new in PRIMITIVES:
        return f"{new!r} is a built-in type name"
    if not new[0].isupper() and not isinstance(decl, ServiceDecl):
        return f"{new!r} must start with an upper-case letter"
    pkg = view.symbols.packages.get(view.file.package or "")
    if new != decl.name and pkg is not None and _taken(pkg, new, decl):
        return f"{new!r} is already declared in package {pkg.name}"
    return None


def _taken(pkg: object, new: str, decl: Decl) -> bool:
    if isinstance(decl, ServiceDecl):
        return new in getattr(pkg, "services", {})
    tables = ("types", "enums", "scalars", "errors", "middlewares", "events")
    return any(new in getattr(pkg, t, {}) for t in tables)


def workspace_edit(view: View, decl: Decl, new: str) -> lsp.WorkspaceEdit:
    spans = [decl.name_span, *(r.span for r in references(view.symbols, view.files, decl))]
    changes: dict[str, list[lsp.TextEdit]] = {}
    for span in spans:
        changes.setdefault(uri_of(span.path), []).append(lsp_edit(span, new, view.encoding))
    return lsp.WorkspaceEdit(changes=changes)
