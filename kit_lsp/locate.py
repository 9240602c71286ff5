"""What is under the cursor, in model terms."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kit_core.model import (
    Decl,
    Decorator,
    EnumDecl,
    ErrorDecl,
    Field,
    Method,
    ServiceDecl,
    SourceFile,
)
from kit_core.source import Span
from kit_lsp.refs import Ref, file_refs


@dataclass(frozen=True, slots=True)
class Target:
    kind: str  # "ref" | "decl" | "decorator" | "field" | "enum_value" | "method" | "verb" | "category"
    span: Span
    node: Any  # the Ref, Decl, Decorator, Field, EnumValue or Method
    decl: Decl | None = None  # the enclosing declaration
    field: Field | None = None  # the enclosing field (for decorator targets)


def _inside(span: Span, offset: int) -> bool:
    return span.start_byte <= offset <= span.end_byte and bool(span.path or span.end_byte)


def target_at(f: SourceFile, offset: int) -> Target | None:
    for ref in file_refs(f):
        if _inside(ref.whole, offset):
            return Target("ref", ref.whole, ref, _decl_at(f, offset))
    decl = _decl_at(f, offset)
    if decl is None:
        return _decorator_target(f.decorators, offset, None, None)
    if _inside(decl.name_span, offset):
        return Target("decl", decl.name_span, decl, decl)
    if isinstance(decl, ErrorDecl) and _inside(decl.category_span, offset):
        return Target("category", decl.category_span, decl.category, decl)
    return _decorator_target(decl.decorators, offset, decl, None) or _inner(f, decl, offset)


def _decl_at(f: SourceFile, offset: int) -> Decl | None:
    for decl in f.declarations:
        if _inside(decl.span, offset):
            return decl
    return None


def _decorator_target(
    decorators: tuple[Decorator, ...], offset: int, decl: Decl | None, fld: Field | None
) -> Target | None:
    for d in decorators:
        if _inside(d.span, offset):
            return Target("decorator", d.span, d, decl, fld)
    return None


def _inner(f: SourceFile, decl: Decl, offset: int) -> Target | None:
    for member in getattr(decl, "members", ()):
        if isinstance(member, Field) and _inside(member.span, offset):
            if _inside(member.name_span, offset):
                return Target("field", member.name_span, member, decl)
            return _decorator_target(member.decorators, offset, decl, member)
    if isinstance(decl, EnumDecl):
        return _enum_value(decl, offset)
    if isinstance(decl, ServiceDecl):
        for m in decl.methods:
            if _inside(m.span, offset):
                return _method(f, decl, m, offset)
    return None


def _enum_value(decl: EnumDecl, offset: int) -> Target | None:
    for v in decl.values:
        if _inside(v.name_span, offset):
            return Target("enum_value", v.name_span, v, decl)
        hit = _decorator_target(v.decorators, offset, decl, None)
        if hit is not None:
            return hit
    return None


def _method(f: SourceFile, service: ServiceDecl, m: Method, offset: int) -> Target | None:
    if _inside(m.name_span, offset):
        return Target("method", m.name_span, m, service)
    hit = _decorator_target(m.decorators, offset, service, None)
    if hit is not None:
        return hit
    verb = verb_span(f, m)
    if verb is not None and _inside(verb, offset):
        return Target("verb", verb, m, service)
    return None


def verb_span(f: SourceFile, m: Method) -> Span | None:
    """The verb token before the method name."""
    src = f.source.encode("utf-8")
    end = m.name_span.start_byte
    while end > 0 and src[end - 1 : end] in (b" ", b"\t"):
        end -= 1
    start = end - len(m.verb)
    if start < 0 or src[start:end].decode("utf-8", "replace") != m.verb:
        return None
    n = m.name_span
    width = n.start_col - (m.name_span.start_byte - start)
    return Span(
        n.path,
        start,
        end,
        n.start_line,
        width,
        n.start_line,
        width + len(m.verb),
        n.start_col16 - (n.start_byte - start),
        n.start_col16 - (n.start_byte - start) + len(m.verb),
    )


__all__ = ["Ref", "Target", "target_at", "verb_span"]
