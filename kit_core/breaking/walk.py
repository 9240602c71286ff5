"""Values compared to any depth, once per declaration.

Every root a client meets (a method's request and response fields, an error body, an event
payload) hands its values to a `Walker` with the path and the method or event it travels
in. Objects and enums inside them (fields, array elements, map keys and values, generic
arguments) become pairs of the old and the new declaration, one per instance (`Page<User>`
and `Page<Order>` apart), and every pair remembers the reaches it was met at. A pair's
fields are walked for every path it is met at, except inside itself: a recursive type ends
its walk where it meets itself (`tree.children[]`).
Each change of a pair is then reported once, with the reaches on the sides it breaks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from kit_core.breaking.change import Change, Reach, Where
from kit_core.breaking.fields import (
    SENT,
    FieldFact,
    Key,
    Pairing,
    continues,
    facts,
    findings,
    is_enum,
    is_struct,
    join,
    label,
    leaves,
    pair_up,
)
from kit_core.semantics import TypeIndex, TypeShape
from kit_core.semantics.http import response_bindings

PATHS = 64  # a declaration met at more paths than this is not walked below for more of them
DEPTH = 32  # nor below this many objects (a baseline is not checked: it may hold a cycle of instances)


@dataclass(slots=True)
class _Struct:
    old: TypeShape
    new: TypeShape
    pairings: list[Pairing]
    reaches: set[Reach] = field(default_factory=set)


@dataclass(slots=True)
class _Enum:
    old: TypeShape
    new: TypeShape
    reaches: set[Reach] = field(default_factory=set)


class Walker:
    def __init__(self, old: TypeIndex, new: TypeIndex, was: Where) -> None:
        self.old, self.new, self.was = old, new, was
        self.structs: dict[tuple[str, str], _Struct] = {}
        self.enums: dict[tuple[str, str], _Enum] = {}

    def value(self, o: TypeShape, n: TypeShape, reach: Reach, below: tuple[tuple[str, str], ...] = ()) -> None:
        """A value that travels at ``reach`` in both versions, with one wire type; ``below``
        holds the pairs the walk is inside of (a recursive type stops where it meets itself)."""
        for (ol, path), (nl, _) in zip(leaves(o, reach.path), leaves(n, reach.path), strict=False):
            here = reach._replace(path=path)
            if is_struct(ol) and is_struct(nl):
                self.struct(ol, nl, here, below)
            elif is_enum(ol) and is_enum(nl):
                self.enums.setdefault((ol.base().text(), nl.base().text()), _Enum(ol, nl)).reaches.add(here)

    def struct(self, o: TypeShape, n: TypeShape, reach: Reach, below: tuple[tuple[str, str], ...] = ()) -> None:
        key = (o.base().text(), n.base().text())
        pair = self.structs.get(key)
        if pair is None:
            pair = self.structs[key] = _Struct(o, n, list(pair_up(self.fields(self.old, o), self.fields(self.new, n))))
        if reach in pair.reaches:
            return
        pair.reaches.add(reach)
        if key in below or len(pair.reaches) > PATHS or len(below) >= DEPTH:  # a cycle; enough paths shown
            return
        for p in pair.pairings:
            if continues(p):
                assert p.old is not None and p.new is not None
                self.value(p.old.shape, p.new.shape, reach._replace(path=join(reach.path, p.old.wire)), (*below, key))

    @staticmethod
    def fields(index: TypeIndex, shape: TypeShape) -> dict[Key, FieldFact]:
        # nested fields travel in the body by JSON key; an error's own may be headers or cookies
        return facts(response_bindings(index.fields_of(shape.base())))

    def changes(self) -> Iterator[Change]:
        for pair in self.structs.values():
            yield from self._struct_changes(pair)
        for enum in self.enums.values():
            yield from self._enum_changes(enum)

    def _struct_changes(self, pair: _Struct) -> Iterator[Change]:
        for p in pair.pairings:
            for f in findings(p):
                known = f.old or f.new
                assert known is not None
                reaches = {r._replace(path=join(r.path, known.wire)) for r in pair.reaches if r.side in f.sides}
                if not reaches:
                    continue
                owner, decl = self._owner(pair, f.new or self._still_mixed(pair, known))
                span = f.new.span if f.new is not None and p.kind != "removed" else decl.name_span
                was = self.was(f.old.span) if f.old is not None else None
                yield Change(f.code, f"field {known.name} of {owner}{f.reason}", span, was, tuple(sorted(reaches)))

    @staticmethod
    def _still_mixed(pair: _Struct, gone: FieldFact) -> FieldFact | None:
        """A removed field, if the mixin that brought it is still mixed in (else the type lost it)."""
        now = {
            (p.new.mixed_from[0], p.new.mixed_from[1].name)
            for p in pair.pairings
            if p.new is not None and p.new.mixed_from is not None
        }
        mixed = gone.mixed_from
        return gone if mixed is not None and (mixed[0], mixed[1].name) in now else None

    def _owner(self, pair: _Struct, known: FieldFact | None) -> tuple[str, Any]:
        """The declaration a change is told of: the one that writes the field when a mixin
        brings it (so each type mixing it in adds its reaches to one change), else the pair's."""
        if known is not None and known.mixed_from is not None:
            package, decl = known.mixed_from
            found = self.new.symbols.packages.get(package)
            written = found.lookup(decl.name) if found is not None else None
            return decl.name, written if written is not None else pair.new.decl
        before, now = label(pair.old.base()), label(pair.new.base())
        return (before if before == now else f"{before} (now {now})"), pair.new.decl

    def _enum_changes(self, enum: _Enum) -> Iterator[Change]:
        reaches = tuple(sorted(r for r in enum.reaches if r.side in SENT))
        if not reaches:  # a value a client only receives may go: the client never sees it again
            return
        old: Any = enum.old.decl
        new: Any = enum.new.decl
        values = {wire_value(v) for v in new.values}
        for v in old.values:
            wire = wire_value(v)
            if wire not in values:
                yield Change(
                    "breaking/removed",
                    f"enum value {label(enum.old)}.{v.name} ({wire}) was removed",
                    new.name_span,
                    self.was(v.name_span),
                    reaches,
                )


def wire_value(v: Any) -> str:
    return v.value.text if v.value is not None else f'"{v.name}"'
