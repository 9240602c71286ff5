"""Hover: decorators (from the registry), declarations and their uses, fields, enum values
(also inside `@default(...)`), methods, verbs, error categories, primitives."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from kit_core.model import Decl, Decorator, EnumDecl, EnumValue, Field, LiteralKind
from kit_core.symbols import PRIMITIVES
from kit_lsp import describe
from kit_lsp.convert import lsp_range
from kit_lsp.features.declared.hover import DECLARED
from kit_lsp.locate import Target, target_at
from kit_lsp.manifest_lang import manifest_hover
from kit_lsp.refs import Ref, resolve
from kit_lsp.state import View

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer


def register(server: KitLanguageServer) -> None:
    @DECLARED.feature(server, lsp.TEXT_DOCUMENT_HOVER)
    @server.thread()
    def hover(ls: KitLanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        doc = ls.state.docs.get(params.text_document.uri)
        if doc is not None and doc.kind == "manifest":
            return manifest_hover(doc, params.position, ls.state.encoding)
        view = ls.state.view(params.text_document.uri)
        if view is None:
            return None
        offset = view.offset(params.position)
        target = target_at(view.file, offset)
        text = markdown(view, target, offset) if target is not None else None
        if text is None or target is None:
            return None
        content = lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text)
        return lsp.Hover(contents=content, range=lsp_range(target.span, view.encoding))


def markdown(view: View, target: Target, offset: int) -> str | None:
    node = target.node
    if target.kind == "ref":
        return _ref(view, node)
    if target.kind == "decl":
        return _decl(view, node)
    if target.kind == "decorator":
        return _decorator(view, node, target.field, offset)
    if target.kind == "field" and target.decl is not None:
        return describe.field(node, target.decl.name)
    if target.kind == "enum_value" and target.decl is not None:
        return describe.enum_value(node, target.decl.name)
    if target.kind == "method" and target.decl is not None:
        return describe.method(node, target.decl.name)
    if target.kind == "verb":
        return describe.verb(node.verb)
    if target.kind == "category":
        return describe.category(node)
    return None


def _ref(view: View, ref: Ref) -> str | None:
    if ref.qualifier is None and ref.name in ref.params:
        return describe.code(ref.name) + "\n\nType parameter."
    if ref.qualifier is None and ref.name in PRIMITIVES:
        return describe.primitive(ref.name)
    decl = resolve(view.symbols, ref)
    return _decl(view, decl) if decl is not None else None


def _decl(view: View, decl: Decl) -> str | None:
    for f in view.files:
        if f.path == decl.name_span.path:
            return describe.declaration(decl, f)
    return None


def _decorator(view: View, d: Decorator, fld: Field | None, offset: int) -> str | None:
    if d.name == "default" and fld is not None:
        value = _default_enum_value(view, d, fld, offset)
        if value is not None:
            return describe.enum_value(value[1], value[0].name)
    return describe.decorator(d.name)


def _default_enum_value(view: View, d: Decorator, fld: Field, offset: int) -> tuple[EnumDecl, EnumValue] | None:
    arg = next((a for a in d.args if a.span.start_byte <= offset <= a.span.end_byte), None)
    if arg is None or arg.kind is not LiteralKind.IDENT:
        return None
    resolved = view.symbols.resolve(fld.type, view.file.package or "")
    if resolved is None or not isinstance(resolved.decl, EnumDecl):
        return None
    for v in resolved.decl.values:
        if v.name == arg.value:
            return resolved.decl, v
    return None
