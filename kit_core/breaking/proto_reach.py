"""Which RPCs reach each message and enum of the protos, and at which path: a walk from
every RPC's request and response message through message-typed fields (`lines[]` for a
repeated field, `attrs{}` for a map's value), each message once per RPC and side, so a
recursive message ends the walk where it meets itself."""

from __future__ import annotations

from typing import Any

from kit_core.breaking.change import Reach
from kit_core.breaking.fields import join

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
    walked: set[str] = set()
    todo = [(start, root.path)]
    while todo:
        full, path = todo.pop()
        out.setdefault(full, set()).add(root._replace(path=path))
        decl = messages.get(full)
        if decl is None or full in walked:
            continue
        walked.add(full)
        for fl in decl.proto.field:
            if not fl.type_name:
                continue
            here = join(path, fl.name)
            entry = messages.get(fl.type_name)
            if entry is not None and entry.proto.options.map_entry:
                value = next((v for v in entry.proto.field if v.name == "value"), None)
                if value is not None and value.type_name:
                    todo.append((value.type_name, f"{here}{{}}"))
                continue
            todo.append((fl.type_name, here + ("[]" if fl.label == REPEATED else "")))


def at_field(reaches: Reaches, full: str, name: str) -> tuple[Reach, ...]:
    """Where a field of a message travels."""
    return tuple(sorted({r._replace(path=join(r.path, name)) for r in reaches.get(full, ())}))


def at_root(reaches: Reaches, full: str) -> tuple[Reach, ...]:
    return tuple(sorted(reaches.get(full, ())))
