"""Breaking changes of the HTTP side and the events: what a client of the routes, or a
publisher or consumer of an event, sees, compared between two analyses (`kit_core.semantics`,
the facts the generators use).

A method is known by (package, service, method); its routes, statuses and operationIds are
compared, and its request and response fields one by one (by location and wire name: the
binding depends on the method, so these are reported per method). What travels below them
(objects, array elements, map keys and values, generic instances, enums), an error's body
and an event's payload go to a `Walker`, which reports each change once per declaration with
every path and method, error or event it reaches. Direction rules: `kit_core.breaking.fields`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kit_core.analyzer.events import contract_of
from kit_core.breaking.change import Change, Reach, Where
from kit_core.breaking.fields import FieldFact, Key, continues, facts, findings, label, pair_up, wire_type
from kit_core.breaking.walk import Walker
from kit_core.decorators import category_status
from kit_core.model import EventDecl, ServiceDecl
from kit_core.semantics import MethodInfo, TypeShape
from kit_core.source import Span
from kit_core.symbols import Kind

MethodKey = tuple[str, str, str]  # package, service, method


def compare_http(old: Any, new: Any, was: Where) -> list[Change]:
    """``old`` and ``new`` are analyses (`kit_core.analyzer.Analysis`)."""
    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.openapi.document import operation_ids

    olds = {_key(m): m for m in old.http.methods}
    news = {_key(m): m for m in new.http.methods}
    ids = {**operation_ids(old.http.methods), **operation_ids(new.http.methods)}
    walker = Walker(old.index, new.index, was)
    out: list[Change] = []
    routes = {(m.verb, m.full_route): m for k, m in news.items() if k not in olds}
    for key, o in olds.items():
        n = news.get(key)
        if n is None:
            out.extend(_gone(o, routes.get((o.verb, o.full_route)), new, was, ids))
        else:
            out.extend(_method(o, n, was, ids, walker))
    out.extend(_errors(old, new, was, olds, news, walker))
    out.extend(_events(old, new, was, walker))
    out.extend(walker.changes())
    return out


def _key(m: MethodInfo) -> MethodKey:
    return (m.package, m.service, m.method.name)


def _label(m: MethodInfo) -> str:
    return f"{m.verb} {m.full_route} ({m.service}.{m.method.name})"


def _gone(o: MethodInfo, same_route: MethodInfo | None, new: Any, was: Where, ids: dict[int, str]) -> Iterator[Change]:
    at = was(o.method.name_span)
    if same_route is not None and ids[id(o)] == ids[id(same_route)]:
        return  # same route, same operationId (`@operationId`): clients see no difference
    if same_route is not None:
        yield Change(
            "breaking/renamed",
            f"method {o.service}.{o.method.name} was renamed to "
            f"{same_route.method.name}: its operationId {ids[id(o)]} is now "
            f"{ids[id(same_route)]}",
            same_route.method.name_span,
            at,
        )
        return
    parent = _service_span(new, o.package, o.service)
    yield Change("breaking/removed", f"route {_label(o)} was removed", parent, at)


def _service_span(analysis: Any, package: str, service: str) -> Span | None:
    pkg = analysis.symbols.packages.get(package)
    blocks: list[ServiceDecl] = pkg.services.get(service, []) if pkg is not None else []
    return blocks[0].name_span if blocks else None


def _method(o: MethodInfo, n: MethodInfo, was: Where, ids: dict[int, str], walker: Walker) -> Iterator[Change]:
    at, here = was(o.method.name_span), n.method.name_span
    name = f"{n.service}.{n.method.name}"
    if (o.verb, o.full_route) != (n.verb, n.full_route):
        yield Change(
            "breaking/route",
            f"route of {name} changed from {o.verb} {o.full_route} to {n.verb} {n.full_route}",
            here,
            at,
        )
    if o.status != n.status:
        yield Change("breaking/status", f"success status of {name} changed from {o.status} to {n.status}", here, at)
    if ids[id(o)] != ids[id(n)]:
        yield Change("breaking/renamed", f"operationId of {name} changed from {ids[id(o)]} to {ids[id(n)]}", here, at)
    for side, before, after in (("request", o.request, n.request), ("response", o.response, n.response)):
        if before is not None and after is not None and not _has_fields(before) and not _has_fields(after):
            yield from _whole(f"{side} of {name}", before, after, here, at, Reach("", side, name), walker)
    yield from _fields(name, "request", facts(o.request_fields), facts(n.request_fields), here, was, walker)
    yield from _fields(name, "response", facts(o.response_fields), facts(n.response_fields), here, was, walker)


def _has_fields(shape: TypeShape) -> bool:
    return not shape.array_dims and shape.kind in (Kind.TYPE, Kind.ERROR)


def _whole(
    what: str, o: TypeShape, n: TypeShape, here: Span | None, at: Any, reach: Reach, walker: Walker
) -> Iterator[Change]:
    """A request, response or payload that is not an object of its own (`Item[]`): its type,
    then what travels inside it."""
    if wire_type(o) != wire_type(n):
        yield Change("breaking/type", f"{what} changed type from {label(o)} to {label(n)}", here, at)
    else:
        walker.value(o, n, reach)


def _fields(
    name: str,
    side: str,
    old: dict[Key, FieldFact],
    new: dict[Key, FieldFact],
    method_span: Span,
    was: Where,
    walker: Walker,
) -> Iterator[Change]:
    """The top-level fields of one side of a method (per method: their binding depends on it)."""
    for p in pair_up(old, new):
        for f in findings(p):
            if side not in f.sides:
                continue
            known = f.old or f.new
            assert known is not None
            what = f"{side} field {known.name} ({known.place}) of {name}"
            if p.kind in ("wire", "renamed"):
                what = f"{side} field {known.name} of {name}"
            span = method_span if p.kind == "removed" or f.new is None else f.new.span
            yield Change(
                f.code,
                what + f.reason,
                span,
                was(f.old.span) if f.old is not None else None,
                (Reach(known.wire, side, name),),
                named=True,
            )
        if continues(p):
            assert p.old is not None and p.new is not None
            walker.value(p.old.shape, p.new.shape, Reach(p.old.wire, side, name))


def _errors(
    old: Any,
    new: Any,
    was: Where,
    olds: dict[MethodKey, MethodInfo],
    news: dict[MethodKey, MethodInfo],
    walker: Walker,
) -> Iterator[Change]:
    """An error's status, and its body (a response of every method that answers it in both)."""
    for pkg_name, pkg in old.symbols.packages.items():
        now = new.symbols.packages.get(pkg_name)
        for name, decl in pkg.errors.items():
            n = now.errors.get(name) if now is not None else None
            if n is None:
                continue
            before, after = category_status(decl.category), category_status(n.category)
            if before != after:
                yield Change(
                    "breaking/status",
                    f"error {name} now answers {after} (was {before})",
                    n.category_span,
                    was(decl.category_span),
                )
            vias = sorted(
                f"{m.service}.{m.method.name}"
                for k, m in news.items()
                if k in olds and _answers(m, pkg_name, name) and _answers(olds[k], pkg_name, name)
            )
            o_shape = TypeShape(Kind.ERROR, name, pkg_name, decl)
            n_shape = TypeShape(Kind.ERROR, name, pkg_name, n)
            for via in vias or [""]:
                walker.struct(o_shape, n_shape, Reach("", "error", via, name))


def _answers(m: MethodInfo, package: str, name: str) -> bool:
    return any(e.package == package and e.name == name for e in m.errors)


def _events(old: Any, new: Any, was: Where, walker: Walker) -> Iterator[Change]:
    """Events by contract (their wire identity): removed ones, and their payloads."""
    olds, news = _by_contract(old), _by_contract(new)
    for contract, (pkg, decl) in sorted(olds.items()):
        found = news.get(contract)
        at = was(decl.name_span)
        if found is None:
            yield Change("breaking/removed", f"event {contract} was removed (or its @contract changed)", None, at)
            continue
        n_pkg, n = found
        if decl.payload is None or n.payload is None:
            continue
        o_shape, n_shape = old.index.shape(decl.payload, pkg), new.index.shape(n.payload, n_pkg)
        yield from _whole(
            f"payload of event {contract}", o_shape, n_shape, n.name_span, at, Reach("", "event", contract), walker
        )


def _by_contract(analysis: Any) -> dict[str, tuple[str, EventDecl]]:
    out: dict[str, tuple[str, EventDecl]] = {}
    for pkg_name, pkg in analysis.symbols.packages.items():
        for decl in pkg.events.values():
            out.setdefault(contract_of(decl, pkg_name), (pkg_name, decl))
    return out
