"""The members a type's generated JSON codec reads and writes, with what each needs."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.fastnew import maker
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.typemap import TypeMapper
from kit_core.model import TypeDecl
from kit_core.semantics import TypeShape
from kit_core.semantics.types import ValueClass, value_class
from kit_core.symbols import INT_PRIMITIVES, Kind

INT_BITS = {p: p.removeprefix("u").removeprefix("int") or "kitjson.IntSize" for p in INT_PRIMITIVES}
FLOAT_BITS = {"float32": "32", "float64": "64"}


@dataclass(frozen=True, slots=True)
class WireField:
    """One JSON member of a type (mixin members included, in member order)."""

    key: str  # the wire key
    access: str  # Go expression of the field: `v.Stamp.Source`
    shape: TypeShape  # the field's type (generic arguments substituted through mixins)
    pointer: bool  # the Go field is a pointer
    optional: bool  # `?` or `@default`: may be absent, left out when nil
    nullable: bool  # `@nullable`: null is its nil
    default: bool  # pre-filled with a `@default`
    vc: ValueClass  # value_class(shape), asked by every step of the codec


def wire_fields(g: GoGen, mapper: TypeMapper, decl: TypeDecl, package: str) -> list[WireField]:
    out: list[WireField] = []
    facts_of = g.design.facts
    for ef in g.index.fields(decl, package):
        facts = facts_of(ef.owner, ef.owner_package, ef.field)
        # `is_wire` read off the facts (one binding at most: two is an error, `binding/conflict`)
        if facts.sensitive or facts.explicit_binding not in (None, "body"):
            continue
        vc = value_class(ef.shape)
        if vc is ValueClass.FILE:
            continue
        path = "".join(m.ref.name + "." for m in ef.via) if ef.via else ""
        access = f"v.{path}{facts.go_name}"
        out.append(
            _new_wire(
                facts.json_key,
                access,
                ef.shape,
                facts.pointer,
                facts.optional,
                facts.nullable,
                facts.default is not None,
                vc,
            )  # fmt: skip
        )
    return out


_new_wire = maker(WireField)


def bits(shape: TypeShape) -> str:
    """Bit size argument of kitjson's Int/Uint/Float for a number shape."""
    prim = shape.primitive or ""
    if prim in FLOAT_BITS:
        return FLOAT_BITS[prim]
    if shape.kind is Kind.ENUM:
        return "kitjson.IntSize"  # an int enum's Go type is int
    return INT_BITS.get(prim, "64")
