"""The outline of a compiled proto file: messages (fields, nested messages and enums), enums
(values), services (RPCs), each with the span of its declaration and of its name, read from
the descriptor's source info (what `kit-lsp` shows as document symbols)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kit_core.proto.places import FILE_MESSAGE, FILE_SERVICE, NAME, SERVICE_METHOD
from kit_core.source import Span

FILE_ENUM, MESSAGE_FIELD, MESSAGE_NESTED, MESSAGE_ENUM, ENUM_VALUE = 5, 2, 3, 4, 2
KINDS = {
    (False, False): "unary",
    (False, True): "server streaming",
    (True, False): "client streaming",
    (True, True): "bidirectional",
}


@dataclass(frozen=True, slots=True)
class Symbol:
    name: str
    kind: str  # message, field, enum, value, service, rpc
    span: Span  # the whole declaration
    name_span: Span
    detail: str = ""
    children: tuple[Symbol, ...] = field(default=())


def outline(pd: Any, name: str) -> list[Symbol]:
    """The symbols of one design proto (by import name); [] when it did not compile."""
    f = pd.file(name) if pd is not None else None
    if f is None:
        return []
    text = pd.text(name)

    def sym(path: list[int], label: str, kind: str, detail: str = "", children: tuple[Symbol, ...] = ()) -> Symbol:
        return Symbol(label, kind, text.located(f, path), text.located(f, [*path, NAME]), detail, children)

    def enum(e: Any, path: list[int]) -> Symbol:
        values = tuple(sym([*path, ENUM_VALUE, i], v.name, "value", str(v.number)) for i, v in enumerate(e.value))
        return sym(path, e.name, "enum", "", values)

    def message(m: Any, path: list[int]) -> Symbol:
        kids = [
            sym([*path, MESSAGE_FIELD, i], fl.name, "field", f"{field_type(fl)} = {fl.number}")
            for i, fl in enumerate(m.field)
        ]
        kids += [message(n, [*path, MESSAGE_NESTED, i]) for i, n in enumerate(m.nested_type)]
        kids += [enum(e, [*path, MESSAGE_ENUM, i]) for i, e in enumerate(m.enum_type)]
        return sym(path, m.name, "message", "", tuple(sorted(kids, key=lambda s: s.span.start_byte)))

    out = [message(m, [FILE_MESSAGE, i]) for i, m in enumerate(f.message_type)]
    out += [enum(e, [FILE_ENUM, i]) for i, e in enumerate(f.enum_type)]
    for si, s in enumerate(f.service):
        rpcs = tuple(
            sym(
                [FILE_SERVICE, si, SERVICE_METHOD, i],
                m.name,
                "rpc",
                f"{KINDS[(m.client_streaming, m.server_streaming)]} ({m.input_type[1:]}) → {m.output_type[1:]}",
            )
            for i, m in enumerate(s.method)
        )
        out.append(sym([FILE_SERVICE, si], s.name, "service", "", rpcs))
    return sorted(out, key=lambda s: s.span.start_byte)


class Outlines:
    """The outlines of a compiled design's protos, each made when it is first asked for (the
    outline of a large proto costs seconds: nothing makes it until an editor shows it).
    ``before``'s outlines of files whose descriptors this design reuses are kept."""

    def __init__(self, pd: Any, before: Outlines | None = None) -> None:
        self._pd = pd
        self._made: dict[str, list[Symbol]] = {}
        if before is not None:
            self._made = {n: o for n, o in before._made.items() if pd.file(n) is before._pd.file(n)}

    def get(self, name: str, default: list[Symbol] | None = None) -> list[Symbol]:
        if name not in self._made:
            if name not in self._pd.names:
                return default if default is not None else []
            self._made[name] = outline(self._pd, name)
        return self._made[name]


def field_type(fl: Any, full: bool = False) -> str:
    """`string`, `repeated Item`; ``full`` names messages and enums by their full name."""
    # deferred: protoc and protobuf load only for a design with protos
    from google.protobuf import descriptor_pb2

    if fl.type_name:
        base = fl.type_name[1:] if full else fl.type_name.rsplit(".", 1)[-1]
    else:
        base = descriptor_pb2.FieldDescriptorProto.Type.Name(fl.type)[5:].lower()
    return ("repeated " if fl.label == descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED else "") + base


def messages(pd: Any) -> dict[str, tuple[Span, str]]:
    """Every message of the design's protos by simple name: (name span, full name); the
    language server's definition from a `.kit` name into a proto message reads this."""
    out: dict[str, tuple[Span, str]] = {}

    def walk(syms: list[Symbol] | tuple[Symbol, ...], prefix: str) -> None:
        for s in syms:
            if s.kind == "message":
                out.setdefault(s.name, (s.name_span, f"{prefix}{s.name}"))
                walk(s.children, f"{prefix}{s.name}.")

    for name in pd.names if pd is not None else ():
        f = pd.file(name)
        if f is not None:
            walk(outline(pd, name), f"{f.package}." if f.package else "")
    return out
