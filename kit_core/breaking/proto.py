"""Breaking changes of the protos: messages, fields, enums, services and RPCs compared
between two compiled designs (descriptors with source info), as buf's wire and JSON rules
read them. A field is known by its number: a removed field (unless its number is now
reserved), a renamed one (JSON names change), a moved number, a changed type or label; a
removed enum value, message, service or RPC; changed RPC messages or streaming kind."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kit_core.breaking.change import Change, Where
from kit_core.breaking.proto_reach import Reaches, at_field, at_root, proto_reaches
from kit_core.proto.outline import ENUM_VALUE, FILE_ENUM, MESSAGE_ENUM, MESSAGE_FIELD, MESSAGE_NESTED, field_type
from kit_core.proto.places import FILE_MESSAGE, FILE_SERVICE, SERVICE_METHOD
from kit_core.source import Span

KINDS = {
    (False, False): "unary",
    (False, True): "server streaming",
    (True, False): "client streaming",
    (True, True): "bidirectional",
}


@dataclass(frozen=True, slots=True)
class Decl:
    """A message, enum, service with its descriptor and where it is written."""

    full: str
    proto: Any
    span: Span
    spans: dict[str, Span]  # member name -> span


Index = tuple[dict[str, Decl], dict[str, Decl], dict[str, Decl]]  # messages, enums, services by full name


def proto_index(pd: Any) -> Index:
    """The design's own protos, indexed (spans are taken now: ``pd`` reads files lazily)."""
    if pd is None or not pd.compiled:
        return {}, {}, {}
    return _index(pd)


def _index(pd: Any) -> Index:
    messages: dict[str, Decl] = {}
    enums: dict[str, Decl] = {}
    services: dict[str, Decl] = {}
    for name in pd.names:
        f = pd.file(name)
        if f is None:
            continue
        text = pd.text(name)
        prefix = f".{f.package}" if f.package else ""
        _walk(f, text, prefix, f.message_type, [FILE_MESSAGE], messages, enums)
        for ei, e in enumerate(f.enum_type):
            _enum(text, f, f"{prefix}.{e.name}", e, [FILE_ENUM, ei], enums)
        for si, s in enumerate(f.service):
            here = [FILE_SERVICE, si]
            spans = {m.name: text.located(f, [*here, SERVICE_METHOD, mi, 1]) for mi, m in enumerate(s.method)}
            full = f"{prefix}.{s.name}"
            services[full] = Decl(full, s, text.located(f, [*here, 1]), spans)
    return messages, enums, services


def _walk(
    f: Any, text: Any, prefix: str, msgs: Any, path: list[int], out: dict[str, Decl], enums: dict[str, Decl]
) -> None:
    for mi, m in enumerate(msgs):
        full, here = f"{prefix}.{m.name}", [*path, mi]
        spans = {fl.name: text.located(f, [*here, MESSAGE_FIELD, fi, 1]) for fi, fl in enumerate(m.field)}
        out[full] = Decl(full, m, text.located(f, [*here, 1]), spans)
        _walk(f, text, full, m.nested_type, [*here, MESSAGE_NESTED], out, enums)
        for ei, e in enumerate(m.enum_type):
            _enum(text, f, f"{full}.{e.name}", e, [*here, MESSAGE_ENUM, ei], enums)


def _enum(text: Any, f: Any, full: str, e: Any, path: list[int], out: dict[str, Decl]) -> None:
    spans = {v.name: text.located(f, [*path, ENUM_VALUE, vi, 1]) for vi, v in enumerate(e.value)}
    out[full] = Decl(full, e, text.located(f, [*path, 1]), spans)


def compare_protos(old: Index, new: Index, was: Where) -> list[Change]:
    """Indexes of two compiled designs (`proto_index`)."""
    om, oe, osv = old
    nm, ne, nsv = new
    reach = proto_reaches(om, osv)  # where clients of the baseline meet each message and enum
    out: list[Change] = []
    for full, o in om.items():
        n = nm.get(full)
        if n is None:
            out.append(
                Change("breaking/removed", f"message {full[1:]} was removed", None, was(o.span), at_root(reach, full))
            )
        else:
            out.extend(_message(o, n, was, reach))
    for full, o in oe.items():
        n = ne.get(full)
        if n is None:
            out.append(
                Change("breaking/removed", f"enum {full[1:]} was removed", None, was(o.span), at_root(reach, full))
            )
            continue
        numbers = {v.number for v in n.proto.value}
        for v in o.proto.value:
            if v.number not in numbers:
                out.append(
                    Change(
                        "breaking/removed",
                        f"enum value {full[1:]}.{v.name} ({v.number}) was removed",
                        n.span,
                        was(o.spans[v.name]),
                        at_root(reach, full),
                    )
                )
    for full, o in osv.items():
        n = nsv.get(full)
        if n is None:
            out.append(Change("breaking/removed", f"service {full[1:]} was removed", None, was(o.span)))
        else:
            out.extend(_service(o, n, was))
    return out


def _type(fl: Any) -> str:
    return field_type(fl, full=True)


def _message(o: Decl, n: Decl, was: Where, reach: Reaches) -> Iterator[Change]:
    name = o.full[1:]
    by_number = {fl.number: fl for fl in n.proto.field}
    by_name = {fl.name: fl for fl in n.proto.field}
    reserved = [(r.start, r.end) for r in n.proto.reserved_range]
    for fl in o.proto.field:
        at = was(o.spans[fl.name])
        where = at_field(reach, o.full, fl.name)
        now = by_number.get(fl.number)
        if now is None:
            moved = by_name.get(fl.name)
            if moved is not None:
                yield Change(
                    "breaking/field-number",
                    f"field {name}.{fl.name} moved from number {fl.number} to {moved.number}",
                    n.spans[moved.name],
                    at,
                    where,
                )
            elif not any(start <= fl.number < end for start, end in reserved):
                yield Change(
                    "breaking/removed",
                    f"field {name}.{fl.name} ({fl.number}) was removed without reserving its number",
                    n.span,
                    at,
                    where,
                )
            continue
        if now.name != fl.name:
            yield Change(
                "breaking/renamed",
                f"field {fl.number} of {name} was renamed from {fl.name} to {now.name}, which changes its JSON name",
                n.spans[now.name],
                at,
                where,
            )
        if _type(now) != _type(fl):
            yield Change(
                "breaking/type",
                f"type of field {name}.{now.name} changed from {_type(fl)} to {_type(now)}",
                n.spans[now.name],
                at,
                where,
            )


def _service(o: Decl, n: Decl, was: Where) -> Iterator[Change]:
    rpcs = {m.name: m for m in n.proto.method}
    for m in o.proto.method:
        at = was(o.spans[m.name])
        now = rpcs.get(m.name)
        rpc = f"{o.full[1:]}/{m.name}"
        if now is None:
            yield Change("breaking/removed", f"RPC {rpc} was removed", n.span, at)
            continue
        here = n.spans[m.name]
        if (now.input_type, now.output_type) != (m.input_type, m.output_type):
            yield Change(
                "breaking/type",
                f"RPC {rpc} changed from ({m.input_type[1:]}) returns ({m.output_type[1:]}) "
                f"to ({now.input_type[1:]}) returns ({now.output_type[1:]})",
                here,
                at,
            )
        before = KINDS[(m.client_streaming, m.server_streaming)]
        after = KINDS[(now.client_streaming, now.server_streaming)]
        if before != after:
            yield Change("breaking/streaming", f"RPC {rpc} changed from {before} to {after}", here, at)
