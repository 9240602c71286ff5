"""Fields as a client sees them, and how two versions of a set of fields pair up.

A field is known by where it travels and its wire name (`body "price"`, `query "page"`).
Its type is compared by what travels (`wire_type`): a renamed type with the same shape, or a
scalar for its own primitive, changes nothing on the wire; `int64` for `int32`, an object for
a string, one more `[]` or another map key does. Direction rules (`SENT`, `RECEIVED`): a
change breaks a client only on the sides where the client meets it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kit_core.breaking.validators import narrowed
from kit_core.semantics import FieldBinding, TypeShape, is_optional
from kit_core.semantics.types import validators
from kit_core.source import Span
from kit_core.symbols import Kind

SENT = frozenset({"request", "event"})  # what a client (or an event publisher) sends
RECEIVED = frozenset({"response", "error", "event"})  # what a client (or an event consumer) receives
BOTH = SENT | RECEIVED

Key = tuple[str, str]  # location, wire name


@dataclass(frozen=True, slots=True)
class FieldFact:
    name: str
    location: str
    wire: str
    required: bool
    shape: TypeShape
    checks: tuple[Any, ...]  # the validators (decorators), scalar's first
    span: Span
    mixed_from: tuple[str, Any] | None = None  # (package, declaration) a plain mixin brings it from

    @property
    def place(self) -> str:
        return f'{self.location} "{self.wire}"'

    @property
    def type(self) -> str:
        return label(self.shape)


def facts(bindings: tuple[FieldBinding, ...]) -> dict[Key, FieldFact]:
    """The fields that travel (`@sensitive` ones stay on the server), by location and wire name."""
    out = {}
    for b in bindings:
        if b.location.value == "none":
            continue
        ef = b.field
        # a field a plain (not generic) mixin brings is one field wherever it is mixed in
        mixed = (ef.owner_package, ef.owner) if ef.via and not getattr(ef.owner, "params", ()) else None
        out[(b.location.value, b.wire_name)] = FieldFact(
            ef.name,
            b.location.value,
            b.wire_name,
            not is_optional(ef),
            ef.shape,
            validators(ef),
            ef.field.name_span,
            mixed,
        )
    return out


def label(shape: TypeShape) -> str:
    """A type as the design writes it, without package qualifiers (`Page<User>[]`)."""
    if shape.kind is Kind.MAP and len(shape.args) == 2:
        base = f"map<{label(shape.args[0])}, {label(shape.args[1])}>"
    else:
        base = shape.name + (f"<{', '.join(label(a) for a in shape.args)}>" if shape.args else "")
    return base + "[]" * shape.array_dims


def is_struct(shape: TypeShape) -> bool:
    return not shape.array_dims and shape.kind in (Kind.TYPE, Kind.ERROR)


def is_enum(shape: TypeShape) -> bool:
    return not shape.array_dims and shape.kind is Kind.ENUM


def wire_type(shape: TypeShape) -> str:
    """What travels, down to the first object or enum: `string`, `int64[]`, `object`,
    `map<string, object[]>`, `enum of string` (their fields and values are compared apart)."""
    dims = "[]" * shape.array_dims
    if shape.kind is Kind.MAP and len(shape.args) == 2:
        return f"map<{wire_type(shape.args[0])}, {wire_type(shape.args[1])}>{dims}"
    if shape.kind in (Kind.TYPE, Kind.ERROR):
        return "object" + dims
    if shape.kind is Kind.ENUM:
        return f"enum of {shape.base().primitive}{dims}"
    prim = shape.base().primitive
    return (prim or shape.text().rstrip("?")) + dims


def leaves(shape: TypeShape, path: str) -> Iterator[tuple[TypeShape, str]]:
    """The objects and enums inside a value with their paths: `items[]`, `byId{}`; a map's
    key and value both (a key may be an enum)."""
    if shape.array_dims:
        yield from leaves(shape.element().base(), f"{path}{'[]' * shape.array_dims}")
    elif shape.kind is Kind.MAP and len(shape.args) == 2:
        yield from leaves(shape.args[0], f"{path}{{key}}")
        yield from leaves(shape.args[1], f"{path}{{}}")
    elif is_struct(shape) or is_enum(shape):
        yield shape, path


def join(path: str, wire: str) -> str:
    return f"{path}.{wire}" if path else wire


@dataclass(frozen=True, slots=True)
class Pairing:
    """How a field of the old version relates to the new one."""

    kind: str  # same | wire (moved location or wire name) | renamed | removed | added
    old: FieldFact | None
    new: FieldFact | None


def pair_up(old: dict[Key, FieldFact], new: dict[Key, FieldFact]) -> Iterator[Pairing]:
    """Fields kept at one key; a gone field whose name travels elsewhere (wire); a gone field
    replaced by a new one of the same location and type (renamed); the rest removed or added."""
    added = {k: f for k, f in new.items() if k not in old}
    for k, f in old.items():
        if k in new:
            yield Pairing("same", f, new[k])
    for k, f in old.items():
        if k in new:
            continue
        moved = next((a for a in added.values() if a.name == f.name), None)
        renamed = moved or next(
            (
                a
                for a in added.values()
                if a.location == f.location and wire_type(a.shape) == wire_type(f.shape) and a.type == f.type
            ),
            None,
        )
        if renamed is not None:
            added.pop((renamed.location, renamed.wire))
        yield Pairing("wire" if moved else "renamed" if renamed else "removed", f, renamed)
    for f in added.values():
        yield Pairing("added", None, f)


@dataclass(frozen=True, slots=True)
class Finding:
    """One breaking difference of a field, before it is placed and given its reach."""

    code: str
    reason: str  # follows "<the field>": " was removed", ": @gte(1) narrowed to @gte(2)"
    sides: frozenset[str]  # the sides it breaks a client on
    old: FieldFact | None
    new: FieldFact | None


def findings(p: Pairing) -> Iterator[Finding]:
    o, n = p.old, p.new
    if p.kind == "removed":
        yield Finding("breaking/removed", " was removed", BOTH, o, n)
    elif p.kind == "wire" and o and n:
        yield Finding("breaking/wire", f" travels as {n.place} (was {o.place})", BOTH, o, n)
    elif p.kind == "renamed" and o and n:
        yield Finding("breaking/renamed", f" was renamed to {n.name} ({o.place} is now {n.place})", BOTH, o, n)
    elif p.kind == "added" and n and n.required:
        yield Finding("breaking/required", " is new and required", SENT, o, n)
    if p.kind not in ("same", "wire") or not (o and n):  # a renamed field has broken its clients already
        return
    if wire_type(o.shape) != wire_type(n.shape):
        yield Finding("breaking/type", f" changed type from {o.type} to {n.type}", BOTH, o, n)
    if n.required and not o.required:
        yield Finding("breaking/required", " became required", SENT, o, n)
    if o.required and not n.required:
        yield Finding("breaking/required", " may now be absent (it was required)", RECEIVED, o, n)
    for reason in narrowed(o.checks, n.checks):
        yield Finding("breaking/narrowed", f": {reason}", SENT, o, n)


def continues(p: Pairing) -> bool:
    """Whether the values of a pair of fields are compared further (same shape on the wire)."""
    return p.old is not None and p.new is not None and wire_type(p.old.shape) == wire_type(p.new.shape)
