"""Model values moved within their file: the same text seen ``dbyte`` bytes and ``dline``
lines further down (columns unchanged, so the move is by whole lines).

Incremental lowering reuses a declaration whose text an edit did not touch by shifting
its previous model instead of lowering it again; the analyzer shifts the diagnostics it
cached for such a declaration. Written out class by class: this runs for every
declaration after an edit point, on every keystroke.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kit_core.diagnostics import Diagnostic, Fix, Related
from kit_core.fastnew import maker
from kit_core.model import (
    NO_TRIVIA,
    Comment,
    Decl,
    Decorator,
    EnumDecl,
    EnumValue,
    ErrorDecl,
    EventDecl,
    Field,
    Literal,
    Member,
    Method,
    MiddlewareDecl,
    Mixin,
    PathSegment,
    Route,
    ScalarDecl,
    ServiceDecl,
    Trivia,
    TypeDecl,
    TypeParam,
    TypeRef,
)
from kit_core.source import Span

__all__ = ["Shift"]

_new = tuple.__new__  # builds a Span without the named tuple's keyword-parsing constructor


_Comment = maker(Comment)
_Trivia = maker(Trivia)
_Literal = maker(Literal)
_Decorator = maker(Decorator)
_TypeRef = maker(TypeRef)
_Field = maker(Field)
_Mixin = maker(Mixin)
_EnumValue = maker(EnumValue)
_PathSegment = maker(PathSegment)
_Route = maker(Route)
_Method = maker(Method)
_TypeParam = maker(TypeParam)
_TypeDecl = maker(TypeDecl)
_EnumDecl = maker(EnumDecl)
_ScalarDecl = maker(ScalarDecl)
_ErrorDecl = maker(ErrorDecl)
_MiddlewareDecl = maker(MiddlewareDecl)
_ServiceDecl = maker(ServiceDecl)
_EventDecl = maker(EventDecl)


class Shift:
    """``Shift(dbyte, dline).decl(d)``: ``d`` with every span moved.

    The parts are closures over the offsets (no attribute look-ups on the hot path)."""

    __slots__ = ("dbyte", "dline", "span", "diagnostic", "decl", "_parts")

    def __init__(self, dbyte: int, dline: int) -> None:
        self.dbyte = dbyte
        self.dline = dline
        self._parts = _parts(dbyte, dline)
        self.span: Callable[[Span], Span] = self._parts["span"]
        self.diagnostic: Callable[[Diagnostic], Diagnostic] = self._parts["diagnostic"]
        self.decl: Callable[[Decl], Decl] = self._parts["decl"]


def _parts(b: int, n: int) -> dict[str, Callable[..., Any]]:  # noqa: C901 - one closure per model class
    def span(s: Span) -> Span:
        path, start, end, start_line, start_col, end_line, end_col, start16, end16 = s
        return _new(Span, (path, start + b, end + b, start_line + n, start_col, end_line + n, end_col, start16, end16))

    def diagnostic(d: Diagnostic) -> Diagnostic:
        related = tuple([Related(span(r.span), r.message) for r in d.related]) if d.related else ()
        fixes = tuple([Fix(f.title, span(f.span), f.new_text) for f in d.fixes]) if d.fixes else ()
        return Diagnostic(d.code, d.severity, d.message, span(d.span), related, fixes)

    def comment(c: Comment) -> Comment:
        return _Comment(c.text, span(c.span))

    def trivia(t: Trivia) -> Trivia:
        if t is NO_TRIVIA:
            return t
        doc = tuple([comment(c) for c in t.doc]) if t.doc else ()
        return _Trivia(doc, comment(t.trailing) if t.trailing is not None else None)

    def literal(lit: Literal) -> Literal:
        items = tuple([literal(i) for i in lit.items]) if lit.items else ()
        path, start, end, start_line, start_col, end_line, end_col, start16, end16 = lit.span
        moved = _new(Span, (path, start + b, end + b, start_line + n, start_col, end_line + n, end_col, start16, end16))
        return _Literal(lit.kind, lit.text, lit.value, moved, items)

    def decorators(decs: tuple[Decorator, ...]) -> tuple[Decorator, ...]:
        if not decs:
            return decs
        out = []
        for d in decs:
            args = tuple([literal(a) for a in d.args]) if d.args else ()
            t = d.trivia
            out.append(_Decorator(d.name, args, d.has_parens, span(d.span), span(d.name_span),
                                  t if t is NO_TRIVIA else trivia(t)))  # fmt: skip
        return tuple(out)

    def ref(r: TypeRef) -> TypeRef:
        args = tuple([ref(a) for a in r.args]) if r.args else ()
        moved = span(r.span)
        name_span = moved if r.name_span is r.span else span(r.name_span)
        return _TypeRef(r.name, moved, name_span, r.package, args, r.array_dims, r.optional)

    def member(m: Member) -> Member:
        t = m.trivia
        if type(m) is Field:
            return _Field(m.name, ref(m.type), decorators(m.decorators), span(m.span), span(m.name_span),
                          t if t is NO_TRIVIA else trivia(t))  # fmt: skip
        return _Mixin(ref(m.ref), span(m.span), t if t is NO_TRIVIA else trivia(t))  # type: ignore[union-attr]

    def enum_value(v: EnumValue) -> EnumValue:
        value = literal(v.value) if v.value is not None else None
        return _EnumValue(v.name, value, decorators(v.decorators), span(v.span), span(v.name_span), trivia(v.trivia))

    def route(r: Route) -> Route:
        segments = tuple([_PathSegment(s.text, span(s.span), s.var, s.wildcard) for s in r.segments])
        return _Route(r.text, segments, span(r.span))

    def method(m: Method) -> Method:
        return _Method(
            m.verb,
            m.name,
            route(m.route) if m.route is not None else None,
            ref(m.request) if m.request is not None else None,
            ref(m.response) if m.response is not None else None,
            decorators(m.decorators),
            span(m.span),
            span(m.name_span),
            trivia(m.trivia),
            tuple([comment(c) for c in m.body_comments]) if m.body_comments else (),
        )

    def decl(d: Decl) -> Decl:
        head = (d.name, decorators(d.decorators), span(d.span), span(d.name_span), trivia(d.trivia))
        kind = type(d)
        if kind is TypeDecl:
            params = tuple([_TypeParam(p.name, span(p.span)) for p in d.params]) if d.params else ()  # type: ignore[union-attr]
            return _TypeDecl(*head, params, tuple([member(m) for m in d.members]))  # type: ignore[union-attr]
        if isinstance(d, EnumDecl):
            return _EnumDecl(*head, tuple([enum_value(v) for v in d.values]))
        if isinstance(d, ScalarDecl):
            return _ScalarDecl(*head, ref(d.primitive))
        if isinstance(d, ErrorDecl):
            return _ErrorDecl(*head, d.category, span(d.category_span), tuple([member(m) for m in d.members]),
                              d.has_body)  # fmt: skip
        if isinstance(d, MiddlewareDecl):
            return _MiddlewareDecl(*head)
        if isinstance(d, ServiceDecl):
            return _ServiceDecl(*head, tuple([method(m) for m in d.methods]), d.extend)
        if isinstance(d, EventDecl):
            return _EventDecl(*head, ref(d.payload) if d.payload is not None else None, d.payload_array)
        raise TypeError(f"not a declaration: {type(d).__name__}")

    return {"span": span, "diagnostic": diagnostic, "decl": decl}
