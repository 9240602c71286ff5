"""Every name a file uses, and what it resolves to: what definition, references, rename,
highlight and hover share.

A `Ref` is one written use of a declaration's name: a type reference (fields, mixins,
clauses, payloads, generic arguments), a middleware or error named in a decorator (which
decorator arguments name what comes from the decorator registry), or the name of an
`extend service` block.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kit_core.decorators import RefKind, lookup
from kit_core.model import (
    Decl,
    Decorator,
    ErrorDecl,
    EventDecl,
    Field,
    Literal,
    LiteralKind,
    MiddlewareDecl,
    Mixin,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    TypeDecl,
    TypeRef,
)
from kit_core.source import Span
from kit_core.symbols import PRIMITIVES, SymbolTable

TYPE, MIDDLEWARE, ERROR, SERVICE = "type", "middleware", "error", "service"


@dataclass(frozen=True, slots=True)
class Ref:
    namespace: str  # TYPE, MIDDLEWARE, ERROR or SERVICE
    name: str  # unqualified
    qualifier: str | None  # the written `pkg.` part
    span: Span  # the name token (what rename rewrites)
    whole: Span  # qualifier included
    package: str | None  # package of the file that writes it
    params: tuple[str, ...] = ()  # type parameters in scope


DeclKey = tuple[str, int]


def decl_key(decl: Decl) -> DeclKey:
    return (decl.name_span.path, decl.name_span.start_byte)


# --------------------------------------------------------------------------- collecting


def file_refs(f: SourceFile) -> list[Ref]:
    return list(_file_refs(f))


def _file_refs(f: SourceFile) -> Iterator[Ref]:
    pkg = f.package
    for d in f.decorators:
        yield from _decorator_refs(d, pkg)
    for decl in f.declarations:
        params = tuple(p.name for p in decl.params) if isinstance(decl, TypeDecl) else ()
        for d in decl.decorators:
            yield from _decorator_refs(d, pkg)
        if isinstance(decl, ServiceDecl):
            if decl.extend:
                yield Ref(SERVICE, decl.name, None, decl.name_span, decl.name_span, pkg)
            for m in decl.methods:
                for d in m.decorators:
                    yield from _decorator_refs(d, pkg)
                for clause in (m.request, m.response):
                    if clause is not None:
                        yield from _type_refs(clause, pkg, ())
        elif isinstance(decl, EventDecl) and decl.payload is not None:
            yield from _type_refs(decl.payload, pkg, ())
        elif isinstance(decl, ScalarDecl):
            yield from _type_refs(decl.primitive, pkg, ())
        for member in getattr(decl, "members", ()):
            if isinstance(member, Mixin):
                yield from _type_refs(member.ref, pkg, params)
            elif isinstance(member, Field):
                yield from _type_refs(member.type, pkg, params)
                for d in member.decorators:
                    yield from _decorator_refs(d, pkg)
        for value in getattr(decl, "values", ()):
            for d in value.decorators:
                yield from _decorator_refs(d, pkg)


def _type_refs(t: TypeRef, pkg: str | None, params: tuple[str, ...]) -> Iterator[Ref]:
    if t.name and not t.is_map:
        whole = _join(t.span, t.name_span) if t.package else t.name_span
        yield Ref(TYPE, t.name, t.package, t.name_span, whole, pkg, params)
    for a in t.args:
        yield from _type_refs(a, pkg, params)


def _join(outer: Span, name: Span) -> Span:
    """From the start of ``outer`` (the qualifier) to the end of the name."""
    return Span(
        name.path,
        outer.start_byte,
        name.end_byte,
        outer.start_line,
        outer.start_col,
        name.end_line,
        name.end_col,
        outer.start_col16,
        name.end_col16,
    )


_NAMESPACE = {RefKind.MIDDLEWARE: MIDDLEWARE, RefKind.ERROR: ERROR}


def _decorator_refs(d: Decorator, pkg: str | None) -> Iterator[Ref]:
    spec = lookup(d.name)
    if spec is None:
        return
    for i, arg in enumerate(_flat(d.args)):
        param = spec.param_for(i)
        namespace = _NAMESPACE.get(param.refers) if param is not None and param.refers else None
        if namespace is not None and arg.kind is LiteralKind.IDENT and isinstance(arg.value, str):
            qualifier, _, name = arg.value.rpartition(".")
            yield Ref(namespace, name, qualifier or None, _tail(arg.span, len(name)), arg.span, pkg)


def _flat(args: tuple[Literal, ...]) -> list[Literal]:
    if len(args) == 1 and args[0].kind is LiteralKind.ARRAY:
        return list(args[0].items)
    return list(args)


def _tail(span: Span, length: int) -> Span:
    """The last ``length`` (ASCII) characters of a one-line span."""
    return Span(
        span.path,
        span.end_byte - length,
        span.end_byte,
        span.end_line,
        span.end_col - length,
        span.end_line,
        span.end_col,
        span.end_col16 - length,
        span.end_col16,
    )


# --------------------------------------------------------------------------- resolving


def resolve(symbols: SymbolTable, ref: Ref) -> Decl | None:
    """The declaration a reference names, or None (primitive, type parameter, unknown)."""
    if ref.namespace == MIDDLEWARE:
        if ref.qualifier is None:
            return symbols.middleware(ref.name)  # middleware names are project-wide
        declaring = symbols.packages.get(ref.qualifier)
        return declaring.middlewares.get(ref.name) if declaring is not None else None
    if ref.namespace == TYPE and ref.qualifier is None and (ref.name in ref.params or ref.name in PRIMITIVES):
        return None
    owner = symbols.packages.get(ref.qualifier or ref.package or "")
    if owner is None:
        return None
    if ref.namespace == ERROR:
        return owner.errors.get(ref.name)
    if ref.namespace == SERVICE:
        blocks = [b for b in owner.services.get(ref.name, []) if not b.extend]
        return blocks[0] if blocks else None
    return owner.lookup(ref.name)


def namespace_of(decl: Decl) -> str:

    if isinstance(decl, MiddlewareDecl):
        return MIDDLEWARE
    if isinstance(decl, ServiceDecl):
        return SERVICE
    if isinstance(decl, ErrorDecl):
        return ERROR
    return TYPE


def references(symbols: SymbolTable, files: list[SourceFile], target: Decl) -> list[Ref]:
    """Every use of ``target`` across ``files`` (the declaration itself not included)."""
    key = decl_key(target)
    out: list[Ref] = []
    for f in files:
        for ref in file_refs(f):
            if ref.namespace not in (namespace_of(target), TYPE if namespace_of(target) == ERROR else ""):
                continue
            decl = resolve(symbols, ref)
            if decl is not None and decl_key(decl) == key:
                out.append(ref)
    return out
