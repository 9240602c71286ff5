"""The canonical layout of one file (dsl-facts §5.1), printed from the model.

Order: file decorators, `package`, imports, declarations; one blank line between
top-level items; decorators one per line above declarations and methods; bodies always
multi-line; tabs for indentation. Comments are placed by :mod:`emitter`.
"""

from __future__ import annotations

from collections.abc import Sequence

from kit_core.formatter import render
from kit_core.formatter.emitter import Emitter, Kind, Scope, body_policy, service_policy, top_level_policy
from kit_core.formatter.members import print_enum_values, print_members
from kit_core.formatter.registry import registered_idents
from kit_core.model import (
    Decl,
    Decorator,
    EnumDecl,
    ErrorDecl,
    EventDecl,
    Import,
    Method,
    MiddlewareDecl,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    TypeDecl,
)


def print_file(f: SourceFile) -> str:
    src = f.source.encode("utf-8")
    em = Emitter(src, f.comments)
    top = Scope(0, top_level_policy)
    for d in f.decorators:
        decorator_lines(em, top, Kind.FILE_DECORATOR, (d,))
    if f.package is not None and f.package_span is not None:
        start = em.back_to_keyword(f.package_span.start_byte, "package")
        em.item(top, Kind.PACKAGE, start, "package " + f.package)
    for imp in f.imports:
        em.item(top, Kind.IMPORT, em.code_start(imp.span.start_byte), _import(src, imp))
    for decl in f.declarations:
        print_decl(em, top, decl)
    em.finish(top)
    text = "\n".join(em.lines).strip("\n")
    return text + "\n" if text else ""


def _import(src: bytes, imp: Import) -> str:
    """`import [alias] "path"` with the path literal as written."""
    written = src[imp.span.start_byte : imp.span.end_byte].decode("utf-8").rstrip()
    quote = min((i for i in (written.find('"'), written.find("`")) if i >= 0), default=-1)
    path = written[quote:] if quote >= 0 else '"' + imp.path + '"'
    return "import " + (imp.alias + " " if imp.alias else "") + path


# --------------------------------------------------------------------------- declarations


_KEYWORD = {
    TypeDecl: "type",
    EnumDecl: "enum",
    ScalarDecl: "scalar",
    MiddlewareDecl: "middleware",
    ServiceDecl: "service",
    EventDecl: "event",
}


def print_decl(em: Emitter, scope: Scope, decl: Decl) -> None:
    above = _above(decl)
    head_start = _head_start(em, decl)
    if above:
        decorator_lines(em, scope, Kind.DECL, above)
        em.piece(scope.indent, head_start, _head(em, decl))
    else:
        em.item(scope, Kind.DECL, head_start, _head(em, decl))
    _body(em, decl, scope.indent + 1)


def decorator_lines(em: Emitter, scope: Scope, kind: Kind, decorators: Sequence[Decorator]) -> None:
    """Decorators on lines of their own above what they decorate; the first opens the item.

    A decorator whose argument list holds comments keeps one argument per line."""
    for i, d in enumerate(decorators):
        multi = bool(d.args) and bool(em.comments_between(d.name_span.end_byte, d.span.end_byte))
        text = "@" + d.name + "(" if multi else render.decorator(d)
        if i == 0:
            em.item(scope, kind, d.span.start_byte, text)
        else:
            em.piece(scope.indent, d.span.start_byte, text)
        if multi:
            names = registered_idents(d.name)
            for j, arg in enumerate(d.args):
                comma = "," if j < len(d.args) - 1 else ""
                em.piece(scope.indent + 1, arg.span.start_byte, render.literal(arg, names) + comma)
            em.piece(scope.indent, d.span.end_byte - 1, ")")


def _above(decl: Decl) -> list[Decorator]:
    return [d for d in decl.decorators if d.span.start_byte < decl.name_span.start_byte]


def _head_start(em: Emitter, decl: Decl) -> int:
    if isinstance(decl, ErrorDecl):
        return em.back_to_keyword(decl.category_span.start_byte, "error")
    start = em.back_to_keyword(decl.name_span.start_byte, _KEYWORD[type(decl)])
    if isinstance(decl, ServiceDecl) and decl.extend:
        start = em.back_to_keyword(start, "extend")
    return start


def _head(em: Emitter, decl: Decl) -> str:
    """The declaration's keyword line, with `{` (or `{}` for an empty body) when it has one."""
    if isinstance(decl, MiddlewareDecl):
        return "middleware " + decl.name
    if isinstance(decl, ScalarDecl):
        after = [d for d in decl.decorators if d.span.start_byte > decl.name_span.start_byte]
        parts = ["scalar", decl.name, render.type_ref(decl.primitive), render.decorators(after)]
        return " ".join(parts).rstrip()
    if isinstance(decl, ErrorDecl):
        head = f"error {decl.category} {decl.name}"
        return head + (" " + _open(em, decl, bool(decl.members)) if decl.has_body else "")
    if isinstance(decl, TypeDecl):
        params = "<" + ", ".join(p.name for p in decl.params) + ">" if decl.params else ""
        return f"type {decl.name}{params} " + _open(em, decl, bool(decl.members))
    if isinstance(decl, EnumDecl):
        return f"enum {decl.name} " + _open(em, decl, bool(decl.values))
    if isinstance(decl, ServiceDecl):
        keyword = "extend service" if decl.extend else "service"
        return f"{keyword} {decl.name} " + _open(em, decl, bool(decl.methods))
    return f"event {decl.name} " + _open(em, decl, decl.payload is not None)


def _open(em: Emitter, decl: Decl, has_items: bool) -> str:
    """`{` for a body with items or comments, else `{}`."""
    inside = em.comments_between(decl.name_span.end_byte, em.closing_byte(decl.span.end_byte))
    return "{" if has_items or inside else "{}"


def _body(em: Emitter, decl: Decl, indent: int) -> None:
    if isinstance(decl, (MiddlewareDecl, ScalarDecl)):
        return
    if isinstance(decl, ErrorDecl) and not decl.has_body:
        return
    close_at = em.closing_byte(decl.span.end_byte)
    if _head(em, decl).endswith("{}"):
        return
    if isinstance(decl, (TypeDecl, ErrorDecl)):
        print_members(em, decl.members, indent, close_at)
    elif isinstance(decl, EnumDecl):
        print_enum_values(em, decl.values, indent, close_at)
    elif isinstance(decl, ServiceDecl):
        _print_methods(em, decl.methods, indent, close_at)
    else:
        _print_event(em, decl, indent, close_at)


def _print_event(em: Emitter, decl: EventDecl, indent: int, close_at: int) -> None:
    scope = Scope(indent, body_policy)
    if decl.payload is not None:
        start = em.back_to_keyword(decl.payload.span.start_byte, "payload")
        em.item(scope, Kind.MEMBER, start, "payload " + render.type_ref(decl.payload))
    em.close(scope, close_at, indent - 1, "}")


# --------------------------------------------------------------------------- methods


def _print_methods(em: Emitter, methods: tuple[Method, ...], indent: int, close_at: int) -> None:
    scope = Scope(indent, service_policy)
    for m in methods:
        _print_method(em, scope, m)
    em.close(scope, close_at, indent - 1, "}")


def _print_method(em: Emitter, scope: Scope, m: Method) -> None:
    head_start = em.back_to_keyword(m.name_span.start_byte, m.verb)
    close_at = em.closing_byte(m.span.end_byte)
    clauses = _clauses(em, m, close_at)
    route = " " + render.route(m.route) if m.route is not None else ""
    opens = bool(clauses) or bool(em.comments_between(head_start, close_at))
    head = f"{m.verb} {m.name}{route} " + ("{" if opens else "{}")
    if m.decorators:
        decorator_lines(em, scope, Kind.METHOD, m.decorators)
        em.piece(scope.indent, head_start, head)
    else:
        em.item(scope, Kind.METHOD, head_start, head)
    if not head.endswith("{}"):
        body = Scope(scope.indent + 1, body_policy)
        for start, text in clauses:
            em.item(body, Kind.MEMBER, start, text)
        em.close(body, close_at, scope.indent, "}")


def _clauses(em: Emitter, m: Method, close_at: int) -> list[tuple[int, str]]:
    """(source start, text) of `request  T` / `response T`; request first unless comments
    inside the body pin the written order."""
    out: list[tuple[int, str]] = []
    for keyword, ref in (("request", m.request), ("response", m.response)):
        if ref is not None:
            out.append((em.back_to_keyword(ref.span.start_byte, keyword), keyword.ljust(9) + ref.text()))
    if len(out) == 2 and em.comments_between(m.name_span.end_byte, close_at):
        out.sort()
    return out
