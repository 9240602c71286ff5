"""Breaking changes of the HTTP side: what a client of the routes sees, compared between
two analyses (`kit_core.semantics`, the facts the generators use).

A method is known by (package, service, method); a field by where it travels and its wire
name. Breaking: a removed or renamed route, method, field or enum value; a changed route,
success status or error status; a request field that became required (or a new required
one); a narrowed validator; a changed wire name or location; a changed type; a response
field that may now be absent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from kit_core.breaking.change import Change
from kit_core.breaking.validators import narrowed
from kit_core.decorators import category_status
from kit_core.model import EnumDecl, ServiceDecl
from kit_core.semantics import FieldBinding, MethodInfo, is_optional
from kit_core.semantics.types import validators
from kit_core.source import Span

Where = Callable[[Span], str]  # a baseline span as `path:line:col`

Key = tuple[str, str, str]  # package, service, method


@dataclass(frozen=True, slots=True)
class FieldFact:
    name: str
    location: str
    wire: str
    required: bool
    type: str
    checks: tuple[Any, ...]  # the validators (decorators), scalar's first
    span: Span

    @property
    def place(self) -> str:
        return f'{self.location} "{self.wire}"'


def _facts(bindings: tuple[FieldBinding, ...]) -> dict[tuple[str, str], FieldFact]:
    out = {}
    for b in bindings:
        if b.location.value == "none":
            continue
        ef = b.field
        shape = ef.shape.base() if not ef.shape.array_dims else ef.shape
        t = shape.text().rstrip("?")
        out[(b.location.value, b.wire_name)] = FieldFact(
            ef.name, b.location.value, b.wire_name, not is_optional(ef), t, validators(ef), ef.field.name_span
        )
    return out


def compare_http(old: Any, new: Any, was: Where) -> list[Change]:
    """``old`` and ``new`` are analyses (`kit_core.analyzer.Analysis`)."""
    from kit_core.generators.openapi.document import operation_ids

    olds = {_key(m): m for m in old.http.methods}
    news = {_key(m): m for m in new.http.methods}
    ids = {**_ids(old.http.methods, operation_ids), **_ids(new.http.methods, operation_ids)}
    out: list[Change] = []
    routes = {(m.verb, m.full_route): m for k, m in news.items() if k not in olds}
    for key, o in olds.items():
        n = news.get(key)
        if n is None:
            out.extend(_gone(o, routes.get((o.verb, o.full_route)), new, was, ids))
        else:
            out.extend(_method(o, n, was, ids))
    out.extend(_errors(old, new, was))
    out.extend(_enums(old, new, was))
    return out


def _ids(methods: tuple[MethodInfo, ...], operation_ids: Callable[..., dict[int, str]]) -> dict[int, str]:
    """The operationIds the OpenAPI document gives (by method object)."""
    return operation_ids(methods)


def _key(m: MethodInfo) -> Key:
    return (m.package, m.service, m.method.name)


def _label(m: MethodInfo) -> str:
    return f"{m.verb} {m.full_route} ({m.service}.{m.method.name})"


def _gone(
    o: MethodInfo, same_route: MethodInfo | None, new: Any, was: Where, ids: dict[int, str]
) -> Iterator[Change]:
    at = was(o.method.name_span)
    if same_route is not None and ids[id(o)] == ids[id(same_route)]:
        return  # same route, same operationId (`@operationId`): clients see no difference
    if same_route is not None:
        yield Change("breaking/renamed", f"method {o.service}.{o.method.name} was renamed to "
                     f"{same_route.method.name}: its operationId {ids[id(o)]} is now "
                     f"{ids[id(same_route)]}", same_route.method.name_span, at)
        return
    parent = _service_span(new, o.package, o.service)
    yield Change("breaking/removed", f"route {_label(o)} was removed", parent, at)


def _service_span(analysis: Any, package: str, service: str) -> Span | None:
    pkg = analysis.symbols.packages.get(package)
    blocks: list[ServiceDecl] = pkg.services.get(service, []) if pkg is not None else []
    return blocks[0].name_span if blocks else None


def _method(o: MethodInfo, n: MethodInfo, was: Where, ids: dict[int, str]) -> Iterator[Change]:
    at, here = was(o.method.name_span), n.method.name_span
    name = f"{n.service}.{n.method.name}"
    if (o.verb, o.full_route) != (n.verb, n.full_route):
        yield Change("breaking/route", f"route of {name} changed from {o.verb} {o.full_route} to "
                     f"{n.verb} {n.full_route}", here, at)
    if o.status != n.status:
        yield Change("breaking/status", f"success status of {name} changed from {o.status} to {n.status}", here, at)
    if ids[id(o)] != ids[id(n)]:
        yield Change("breaking/renamed", f"operationId of {name} changed from {ids[id(o)]} to {ids[id(n)]}", here, at)
    yield from _fields(name, "request", _facts(o.request_fields), _facts(n.request_fields), here, was)
    yield from _fields(name, "response", _facts(o.response_fields), _facts(n.response_fields), here, was)


def _fields(
    name: str, side: str, old: dict[tuple[str, str], FieldFact], new: dict[tuple[str, str], FieldFact],
    method_span: Span, was: Where,
) -> Iterator[Change]:
    gone = {k: f for k, f in old.items() if k not in new}
    added = {k: f for k, f in new.items() if k not in old}
    for k, f in old.items():
        if k in new:
            yield from _field(name, side, f, new[k], was)
    for f in gone.values():
        moved = next((a for a in added.values() if a.name == f.name), None)
        renamed = moved or next((a for a in added.values() if a.location == f.location and a.type == f.type), None)
        if renamed is not None:
            added.pop((renamed.location, renamed.wire))
        if moved is not None:
            yield Change("breaking/wire", f"{side} field {f.name} of {name} travels as {moved.place} (was {f.place})",
                         moved.span, was(f.span))
        elif renamed is not None:
            yield Change("breaking/renamed", f"{side} field {f.name} of {name} was renamed to {renamed.name} "
                         f"({f.place} is now {renamed.place})", renamed.span, was(f.span))
        else:
            yield Change("breaking/removed", f"{side} field {f.name} ({f.place}) of {name} was removed",
                         method_span, was(f.span))
    for f in added.values():
        if side == "request" and f.required:
            yield Change("breaking/required", f"{name} has a new required request field {f.name} ({f.place})",
                         f.span, "")


def _field(name: str, side: str, o: FieldFact, n: FieldFact, was: Where) -> Iterator[Change]:
    at = was(o.span)
    what = f"{side} field {n.name} ({n.place}) of {name}"
    if o.type != n.type:
        yield Change("breaking/type", f"type of {what} changed from {o.type} to {n.type}", n.span, at)
    if side == "request" and n.required and not o.required:
        yield Change("breaking/required", f"{what} became required", n.span, at)
    if side == "response" and o.required and not n.required:
        yield Change("breaking/required", f"{what} may now be absent (it was required)", n.span, at)
    if side == "request":
        for reason in narrowed(o.checks, n.checks):
            yield Change("breaking/narrowed", f"{what}: {reason}", n.span, at)


def _errors(old: Any, new: Any, was: Where) -> Iterator[Change]:
    for pkg_name, pkg in old.symbols.packages.items():
        now = new.symbols.packages.get(pkg_name)
        for name, decl in pkg.errors.items():
            n = now.errors.get(name) if now is not None else None
            if n is None:
                continue
            before, after = category_status(decl.category), category_status(n.category)
            if before != after:
                yield Change("breaking/status", f"error {name} now answers {after} (was {before})",
                             n.category_span, was(decl.category_span))


def _enums(old: Any, new: Any, was: Where) -> Iterator[Change]:
    for pkg_name, pkg in old.symbols.packages.items():
        now = new.symbols.packages.get(pkg_name)
        for name, decl in pkg.enums.items():
            n = now.enums.get(name) if now is not None else None
            if n is None:
                continue
            values = _wire_values(n)
            for v in decl.values:
                wire = _wire(v)
                if wire not in values:
                    yield Change("breaking/removed", f"enum value {name}.{v.name} ({wire}) was removed",
                                 n.name_span, was(v.name_span))


def _wire_values(decl: EnumDecl) -> set[str]:
    return {_wire(v) for v in decl.values}


def _wire(v: Any) -> str:
    return v.value.text if v.value is not None else f'"{v.name}"'

