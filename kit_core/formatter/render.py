"""Canonical spelling of the small pieces: literals, decorators, type references, routes.

Literals keep their source spelling (``Literal.text``); only arrays are re-spelled from
their items, and a quoted argument naming a registered identifier is written bare
(`@format("email")` -> `@format(email)`) unless the name is a reserved word.
"""

from __future__ import annotations

from collections.abc import Iterable

from kit_core.formatter.registry import registered_idents
from kit_core.model import Decorator, Field, Literal, LiteralKind, Route, TypeRef
from kit_core.words import KEYWORDS  # a quoted argument spelling a reserved word stays quoted


def literal(lit: Literal, bare_names: frozenset[str] = frozenset()) -> str:
    if lit.kind is LiteralKind.ARRAY:
        return "[" + ", ".join(literal(i, bare_names) for i in lit.items) + "]"
    if prefers_bare(lit, bare_names):
        return str(lit.value)
    return lit.text


def prefers_bare(lit: Literal, bare_names: frozenset[str]) -> bool:
    """A `"..."` string naming a registered identifier that is not a reserved word."""
    return (
        lit.kind is LiteralKind.STRING
        and isinstance(lit.value, str)
        and lit.value in bare_names
        and lit.value not in KEYWORDS
    )


def decorator(d: Decorator) -> str:
    if not d.args:
        return "@" + d.name  # flags lose empty parens
    names = registered_idents(d.name)
    return "@" + d.name + "(" + ", ".join(literal(a, names) for a in d.args) + ")"


def decorators(ds: Iterable[Decorator]) -> str:
    return " ".join(decorator(d) for d in ds)


def needs_question_mark(f: Field) -> bool:
    """`@default` makes a field optional; the formatter writes the `?` (not on `@path`)."""
    return not f.type.optional and f.decorator("default") is not None and f.decorator("path") is None


def field_type(f: Field) -> str:
    return type_ref(f.type) + ("?" if needs_question_mark(f) else "")


def type_ref(t: TypeRef) -> str:
    return t.text()


def route(r: Route) -> str:
    if not r.segments:
        return "/"
    return "/" + "/".join(s.text for s in r.segments)
