"""Document symbols (outline) and workspace symbols.

Outline: type→Struct (fields→Field), enum→Enum (values→EnumMember), error→Object,
scalar→Class, middleware→Function, service→Interface (methods→Method with detail
`verb Name (Req → Resp)`), event→Event. Workspace symbols use the same kinds (error→Class)
with the package as container, filtered by a case-insensitive subsequence of the query.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core import program
from kit_core.model import (
    Decl,
    EnumDecl,
    ErrorDecl,
    EventDecl,
    Field,
    Method,
    MiddlewareDecl,
    ScalarDecl,
    ServiceDecl,
    TypeDecl,
)
from kit_core.resident.session import Snapshot
from kit_core.source import Span
from kit_lsp.convert import lsp_location, lsp_range
from kit_lsp.features.declared.symbols import DECLARED
from kit_lsp.proto_view import proto_symbols

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

K = lsp.SymbolKind
_KINDS: dict[type, lsp.SymbolKind] = {
    TypeDecl: K.Struct,
    EnumDecl: K.Enum,
    ErrorDecl: K.Object,
    ScalarDecl: K.Class,
    MiddlewareDecl: K.Function,
    ServiceDecl: K.Interface,
    EventDecl: K.Event,
}


def _symbol(
    name: str,
    kind: lsp.SymbolKind,
    span: Span,
    name_span: Span,
    enc: str,
    detail: str | None = None,
    children: list[lsp.DocumentSymbol] | None = None,
) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(
        name=name or "?",
        kind=kind,
        range=lsp_range(span, enc),
        selection_range=lsp_range(name_span, enc),
        detail=detail,
        children=children,
    )


def _detail(decl: Decl) -> str | None:
    if isinstance(decl, ErrorDecl):
        return decl.category
    if isinstance(decl, ScalarDecl):
        return decl.primitive.text()
    if isinstance(decl, ServiceDecl) and decl.extend:
        return "extend"
    if isinstance(decl, EventDecl) and decl.payload is not None:
        return decl.payload.text()
    return None


def method_detail(m: Method) -> str:
    req = m.request.text() if m.request else "∅"
    resp = m.response.text() if m.response else "∅"
    return f"{m.verb} {m.name} ({req} → {resp})"


def _children(decl: Decl, enc: str) -> list[lsp.DocumentSymbol]:
    out: list[lsp.DocumentSymbol] = []
    for m in getattr(decl, "members", ()):
        if isinstance(m, Field):
            out.append(_symbol(m.name, K.Field, m.span, m.name_span, enc, m.type.text()))
    for v in getattr(decl, "values", ()):
        out.append(_symbol(v.name, K.EnumMember, v.span, v.name_span, enc))
    if isinstance(decl, ServiceDecl):
        for me in decl.methods:
            out.append(_symbol(me.name, K.Method, me.span, me.name_span, enc, method_detail(me)))
    return out


def document_symbols(decls: tuple[Decl, ...], enc: str) -> list[lsp.DocumentSymbol]:
    return [
        _symbol(d.name, _KINDS[type(d)], d.span, d.name_span, enc, _detail(d), _children(d, enc) or None) for d in decls
    ]


def matches(query: str, name: str) -> bool:
    it = iter(name.lower())
    return all(ch in it for ch in query.lower())


def register(server: KitLanguageServer) -> None:
    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @server.thread()
    def outline(ls: KitLanguageServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        doc = ls.state.docs.get(params.text_document.uri)
        if doc is not None and doc.kind == "proto":
            return proto_symbols(ls.state.snapshot_for(doc), doc.path, ls.state.encoding)
        if doc is None or doc.kind != "kit":
            return []
        return document_symbols(doc.parsed().declarations, ls.state.encoding)

    @DECLARED.feature(server, lsp.WORKSPACE_SYMBOL)
    @server.thread()
    def workspace(ls: KitLanguageServer, params: lsp.WorkspaceSymbolParams) -> list[lsp.SymbolInformation]:
        out: list[lsp.SymbolInformation] = []
        for snap in _snapshots(ls):
            for f in snap.files.values():
                for d in f.declarations:
                    if matches(params.query, d.name):
                        kind = K.Class if isinstance(d, ErrorDecl) else _KINDS[type(d)]
                        loc = lsp_location(d.name_span, ls.state.encoding, ls.state.text_of)
                        out.append(
                            lsp.SymbolInformation(location=loc, name=d.name, kind=kind, container_name=f.package)
                        )
        return out


def _snapshots(ls: KitLanguageServer) -> list[Snapshot]:
    """The designs of the open documents, else the design of the workspace folder."""
    state, keys = ls.state, []
    for doc in state.docs:
        if doc.kind == "kit" and state.key_for(doc) not in keys:
            keys.append(state.key_for(doc))
    if not keys and state.workspace_root is not None:
        try:
            keys.append(str(program.find_design_root(state.workspace_root)))
        except program.DesignError:
            return []
    return [state.latest(k) or state.analyze(k) for k in keys]
