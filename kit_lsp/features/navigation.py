"""Go to definition, find references, document highlight: type references (also
`pkg.Name`), middleware and error names in decorators, `extend service` names; across
files and packages of the design."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.model import Decl
from kit_lsp.convert import lsp_location, lsp_range
from kit_lsp.features.declared.navigation import DECLARED
from kit_lsp.goto import proto_locations, stub_location
from kit_lsp.locate import target_at
from kit_lsp.refs import references, resolve
from kit_lsp.state import View

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer


def declaration_at(view: View, position: lsp.Position) -> Decl | None:
    """The declaration named at the cursor: by its own name or by a use of it."""
    target = target_at(view.file, view.offset(position))
    if target is None:
        return None
    if target.kind == "ref":
        return resolve(view.symbols, target.node)
    if target.kind == "decl":
        decl: Decl = target.node
        return decl
    return None


def _named(ls: KitLanguageServer, uri: str, position: lsp.Position) -> tuple[View, Decl] | None:
    """The document's view and the declaration named at the cursor, when both are there."""
    view = ls.state.view(uri)
    decl = declaration_at(view, position) if view is not None else None
    return (view, decl) if view is not None and decl is not None else None


def register(server: KitLanguageServer) -> None:
    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_DEFINITION)
    @server.thread()
    def definition(ls: KitLanguageServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        view = ls.state.view(params.text_document.uri)
        if view is None:
            return None
        target = target_at(view.file, view.offset(params.position))
        if target is not None and target.kind == "method":
            return stub_location(view, target) or None
        decl = declaration_at(view, params.position)
        own = [lsp_location(decl.name_span, view.encoding, ls.state.text_of)] if decl is not None else []
        name = target.node.name if target is not None and target.kind in ("ref", "decl") else None
        return (own + (proto_locations(view, name) if name else [])) or None

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_REFERENCES)
    @server.thread()
    def refs(ls: KitLanguageServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        named = _named(ls, params.text_document.uri, params.position)
        if named is None:
            return None
        view, decl = named
        spans = [r.span for r in references(view.symbols, view.files, decl)]
        if params.context.include_declaration:
            spans.insert(0, decl.name_span)
        return [lsp_location(s, view.encoding, ls.state.text_of) for s in spans]

    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    @server.thread()
    def highlight(ls: KitLanguageServer, params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight] | None:
        named = _named(ls, params.text_document.uri, params.position)
        if named is None:
            return None
        view, decl = named
        spans = [r.span for r in references(view.symbols, [view.file], decl)]
        if decl.name_span.path == view.doc.path:
            spans.insert(0, decl.name_span)
        return [lsp.DocumentHighlight(lsp_range(s, view.encoding), lsp.DocumentHighlightKind.Text) for s in spans]
