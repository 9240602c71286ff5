"""Inlay hints of a `.kit` file, from the same semantics the generators read.

    for hint in inlay_hints(analysis, path):
        hint.at, hint.label, hint.kind, hint.tooltip

- after a method's route (or its name): the full route, basePath + `@prefix` + route, and
  the success status (`POST /api/todos · 201`);
- after it: the effective middleware chain after inheritance and `@ignoreMiddleware`;
- after a request field: where it travels and its wire name (`query "page"`); a field
  used by several requests that bind it differently lists each with its method;
- after a field typed by a scalar: the validators it inherits from the scalar.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kit_core.model import Decorator, ErrorDecl, Field, ScalarDecl, SourceFile, TypeDecl
from kit_core.semantics import FieldBinding, Location, MethodInfo
from kit_core.semantics.types import own_validators
from kit_core.source import Span
from kit_core.symbols import Kind


@dataclass(frozen=True, slots=True)
class Hint:
    at: Span  # an empty span: where the hint is shown (it is drawn before the text there)
    label: str
    kind: str  # "route", "middlewares", "wire", "validators"
    tooltip: str


def end_of(span: Span) -> Span:
    return Span(
        span.path,
        span.end_byte,
        span.end_byte,
        span.end_line,
        span.end_col,
        span.end_line,
        span.end_col,
        span.end_col16,
        span.end_col16,
    )


def decorator_text(d: Decorator) -> str:
    """A decorator as written (arguments in their source spelling)."""
    args = f"({', '.join(a.text for a in d.args)})" if d.has_parens or d.args else ""
    return f"@{d.name}{args}"


def inlay_hints(analysis: Any, path: str) -> list[Hint]:
    """Every hint of one file of an analysed design, in file order."""
    out = [h for m in analysis.http.methods if m.file is not None and m.file.path == path for h in method_hints(m)]
    file = next((f for f in analysis.files if f.path == path), None)
    if file is not None:
        out += wire_hints(analysis.http.methods, file)
        out += validator_hints(analysis.symbols, file)
    out.sort(key=lambda h: (h.at.start_byte, _ORDER[h.kind]))
    return out


_ORDER = {"route": 0, "middlewares": 1, "validators": 2, "wire": 3}


def method_hints(m: MethodInfo) -> list[Hint]:
    head = m.method.route.span if m.method.route is not None else m.method.name_span
    at = end_of(head)
    tip = f"{m.mux_pattern}: basePath + @prefix + route; success status {m.status}"
    out = [Hint(at, f"{m.verb} {m.full_route} · {m.status}", "route", tip)]
    ignored = m.method.decorator("ignoreMiddleware") is not None
    if m.middlewares or ignored:
        chain = " → ".join(m.middlewares) if m.middlewares else "none"
        tip = "the middleware chain this route runs, outermost first (service chain, then the method's)"
        out.append(Hint(at, f"middlewares: {chain}", "middlewares", tip))
    return out


def wire_hints(methods: tuple[MethodInfo, ...], file: SourceFile) -> list[Hint]:
    """A hint per request field written in this file (own or reached through a mixin)."""
    uses: dict[int, tuple[Field, list[tuple[FieldBinding, MethodInfo]]]] = {}
    for m in methods:
        for b in m.request_fields:
            if b.field.field.span.path == file.path:
                uses.setdefault(id(b.field.field), (b.field.field, []))[1].append((b, m))
    out = []
    for fld, bindings in uses.values():
        label, tip = _wire_label(bindings)
        out.append(Hint(end_of(fld.type.span), label, "wire", tip))
    return out


def _wire(b: FieldBinding) -> str:
    if b.location is Location.NONE:
        return "server-only"
    return f'{b.location.value} "{b.wire_name}"'


def _wire_label(bindings: list[tuple[FieldBinding, MethodInfo]]) -> tuple[str, str]:
    distinct: dict[str, list[str]] = {}
    for b, m in bindings:
        distinct.setdefault(_wire(b), []).append(f"{m.service}.{m.method.name}")
    how = {"explicit" if b.explicit else "default" for b, _ in bindings}
    tip = (
        "bound by "
        + (" / ".join(sorted(how)))
        + " binding in "
        + ", ".join(sorted({n for names in distinct.values() for n in names}))
    )
    if len(distinct) == 1:
        return next(iter(distinct)), tip
    return " | ".join(f"{w} ({', '.join(names)})" for w, names in distinct.items()), tip


def validator_hints(symbols: Any, file: SourceFile) -> list[Hint]:
    out = []
    for f in _fields(file):
        found = symbols.resolve(f.type, file.package or "", _params_of(file, f))
        if found is None or found.kind is not Kind.SCALAR or f.type.array_dims:
            continue
        if not isinstance(found.decl, ScalarDecl):
            continue
        inherited = own_validators(found.decl.decorators)
        if inherited:
            label = " ".join(decorator_text(d) for d in inherited)
            tip = f"checks inherited from scalar {found.name}, run before the field's own"
            out.append(Hint(end_of(f.type.span), label, "validators", tip))
    return out


def _fields(file: SourceFile) -> Iterator[Field]:
    for decl in file.declarations:
        if isinstance(decl, TypeDecl | ErrorDecl):
            yield from (m for m in decl.members if isinstance(m, Field))


def _params_of(file: SourceFile, f: Field) -> tuple[str, ...]:
    for decl in file.declarations:
        if isinstance(decl, TypeDecl) and decl.span.start_byte <= f.span.start_byte < decl.span.end_byte:
            return tuple(p.name for p in decl.params)
    return ()
