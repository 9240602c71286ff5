"""Model values moved within their file: the same text seen ``dbyte`` bytes and ``dline``
lines further down (columns unchanged, so the move is by whole lines).

Incremental lowering reuses a declaration whose text an edit did not touch by shifting
its previous model instead of lowering it again; the analyzer shifts the diagnostics it
cached for such a declaration. Written out class by class: this runs for every
declaration after an edit point, on every keystroke.
"""

from __future__ import annotations

from kit_core.diagnostics import Diagnostic, Fix, Related
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


class Shift:
    """``Shift(dbyte, dline).decl(d)``: ``d`` with every span moved."""

    __slots__ = ("dbyte", "dline")

    def __init__(self, dbyte: int, dline: int) -> None:
        self.dbyte = dbyte
        self.dline = dline

    def span(self, s: Span) -> Span:
        b, n = self.dbyte, self.dline
        return Span(s.path, s.start_byte + b, s.end_byte + b, s.start_line + n, s.start_col,
                    s.end_line + n, s.end_col, s.start_col16, s.end_col16)  # fmt: skip

    def diagnostic(self, d: Diagnostic) -> Diagnostic:
        sp = self.span
        related = tuple(Related(sp(r.span), r.message) for r in d.related) if d.related else ()
        fixes = tuple(Fix(f.title, sp(f.span), f.new_text) for f in d.fixes) if d.fixes else ()
        return Diagnostic(d.code, d.severity, d.message, sp(d.span), related, fixes)

    # ------------------------------------------------------------------ pieces

    def comment(self, c: Comment) -> Comment:
        return Comment(c.text, self.span(c.span))

    def trivia(self, t: Trivia) -> Trivia:
        if t is NO_TRIVIA:
            return t
        doc = tuple(self.comment(c) for c in t.doc) if t.doc else ()
        return Trivia(doc, self.comment(t.trailing) if t.trailing is not None else None)

    def literal(self, lit: Literal) -> Literal:
        items = tuple(self.literal(i) for i in lit.items) if lit.items else ()
        return Literal(lit.kind, lit.text, lit.value, self.span(lit.span), items)

    def decorators(self, decs: tuple[Decorator, ...]) -> tuple[Decorator, ...]:
        if not decs:
            return decs
        sp, lit = self.span, self.literal
        return tuple(
            Decorator(
                d.name,
                tuple(lit(a) for a in d.args) if d.args else (),
                d.has_parens,
                sp(d.span),
                sp(d.name_span),
                self.trivia(d.trivia),
            )
            for d in decs
        )

    def ref(self, r: TypeRef) -> TypeRef:
        args = tuple(self.ref(a) for a in r.args) if r.args else ()
        return TypeRef(r.name, self.span(r.span), self.span(r.name_span), r.package, args, r.array_dims, r.optional)

    def member(self, m: Member) -> Member:
        if isinstance(m, Field):
            return Field(
                m.name,
                self.ref(m.type),
                self.decorators(m.decorators),
                self.span(m.span),
                self.span(m.name_span),
                self.trivia(m.trivia),
            )
        return Mixin(self.ref(m.ref), self.span(m.span), self.trivia(m.trivia))

    def enum_value(self, v: EnumValue) -> EnumValue:
        value = self.literal(v.value) if v.value is not None else None
        decorators = self.decorators(v.decorators)
        return EnumValue(v.name, value, decorators, self.span(v.span), self.span(v.name_span), self.trivia(v.trivia))

    def route(self, r: Route) -> Route:
        segments = tuple(PathSegment(s.text, self.span(s.span), s.var, s.wildcard) for s in r.segments)
        return Route(r.text, segments, self.span(r.span))

    def method(self, m: Method) -> Method:
        return Method(
            m.verb,
            m.name,
            self.route(m.route) if m.route is not None else None,
            self.ref(m.request) if m.request is not None else None,
            self.ref(m.response) if m.response is not None else None,
            self.decorators(m.decorators),
            self.span(m.span),
            self.span(m.name_span),
            self.trivia(m.trivia),
            tuple(self.comment(c) for c in m.body_comments) if m.body_comments else (),
        )

    # ------------------------------------------------------------------ declarations

    def decl(self, d: Decl) -> Decl:
        sp = self.span
        head = (d.name, self.decorators(d.decorators), sp(d.span), sp(d.name_span), self.trivia(d.trivia))
        if isinstance(d, TypeDecl):
            params = tuple(TypeParam(p.name, sp(p.span)) for p in d.params) if d.params else ()
            return TypeDecl(*head, params, tuple(self.member(m) for m in d.members))
        if isinstance(d, EnumDecl):
            return EnumDecl(*head, tuple(self.enum_value(v) for v in d.values))
        if isinstance(d, ScalarDecl):
            return ScalarDecl(*head, self.ref(d.primitive))
        if isinstance(d, ErrorDecl):
            members = tuple(self.member(m) for m in d.members)
            return ErrorDecl(*head, d.category, sp(d.category_span), members, d.has_body)
        if isinstance(d, MiddlewareDecl):
            return MiddlewareDecl(*head)
        if isinstance(d, ServiceDecl):
            return ServiceDecl(*head, tuple(self.method(m) for m in d.methods), d.extend)
        if isinstance(d, EventDecl):
            payload = self.ref(d.payload) if d.payload is not None else None
            return EventDecl(*head, payload, d.payload_array)
        raise TypeError(f"not a declaration: {type(d).__name__}")
