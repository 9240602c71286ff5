"""Which RPCs reach each message and enum of the protos, and at which path: a walk from
every RPC's request and response message through message-typed fields (`lines[]` for a
repeated field, `attrs{}` for a map's value), along every path except inside itself: a recursive message
ends the walk where it meets itself."""

from __future__ import annotations

from typing import Any

from kit_core.breaking.change import Reach
from kit_core.breaking.fields import join
from kit_core.breaking.walk import PATHS

REPEATED = 3  # FieldDescriptorProto.LABEL_REPEATED

Reaches = dict[str, set[Reach]]  # full name (`.pkg.Msg`) -> where its root travels


def proto_reaches(messages: dict[str, Any], services: dict[str, Any]) -> Reaches:
    """``messages`` and ``services`` map full names to a `Decl` (its ``proto`` descriptor)."""
    out: Reaches = {}
    for sfull, service in sorted(services.items()):
        for m in service.proto.method:
            rpc = f"{sfull[1:]}/{m.name}"
            for side, start in (("request", m.input_type), ("response", m.output_type)):
                _walk(messages, start, Reach("", side, rpc), out)
    return out


def _walk(messages: dict[str, Any], start: str, root: Reach, out: Reaches) -> None:
    todo: list[tuple[str, str, tuple[str, ...]]] = [(start, root.path, ())]
    while todo:
        full, path, below = todo.pop()
        met = out.setdefault(full, set())
        reach = root._replace(path=path)
        if reach in met:
            continue
        met.add(reach)
        decl = messages.get(full)
        if decl is None or full in below or len(met) > PATHS:  # an enum; a cycle; enough paths shown
            continue
        inside = (*below, full)
        for fl in decl.proto.field:
            if not fl.type_name:
                continue
            here = join(path, fl.name)
            entry = messages.get(fl.type_name)
            if entry is not None and entry.proto.options.map_entry:
                value = next((v for v in entry.proto.field if v.name == "value"), None)
                if value is not None and value.type_name:
                    todo.append((value.type_name, f"{here}{{}}", inside))
                continue
            todo.append((fl.type_name, here + ("[]" if fl.label == REPEATED else ""), inside))


def at_field(reaches: Reaches, full: str, name: str) -> tuple[Reach, ...]:
    """Where a field of a message travels."""
    return tuple(sorted({r._replace(path=join(r.path, name)) for r in reaches.get(full, ())}))


def at_root(reaches: Reaches, full: str) -> tuple[Reach, ...]:
    return tuple(sorted(reaches.get(full, ())))
