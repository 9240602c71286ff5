"""The members a type's generated JSON codec reads and writes, with what each needs."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.typemap import TypeMapper
from kit_core.model import TypeDecl
from kit_core.semantics import EffectiveField, TypeShape
from kit_core.semantics.types import ValueClass, binding_decorator, is_sensitive, value_class
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
    for ef in g.index.fields(decl, package):
        if not is_wire(ef):
            continue
        vc = value_class(ef.shape)
        if vc is ValueClass.FILE:
            continue
        facts = g.design.facts(ef.owner, ef.owner_package, ef.field)
        path = "".join(m.ref.name + "." for m in ef.via)
        out.append(
            WireField(
                key=facts.json_key,
                access=f"v.{path}{g.design.go_name(facts)}",
                shape=ef.shape,
                pointer=mapper.pointer(facts),
                optional=facts.optional,
                nullable=facts.nullable,
                default=facts.default is not None,
                vc=vc,
            )
        )
    return out


def is_wire(ef: EffectiveField) -> bool:
    """Carried in a JSON body: not bound elsewhere (`@body` is the body), not `@sensitive`."""
    binding = binding_decorator(ef.field)
    return not is_sensitive(ef.field) and (binding is None or binding.name == "body")


def bits(shape: TypeShape) -> str:
    """Bit size argument of kitjson's Int/Uint/Float for a number shape."""
    prim = shape.primitive or ""
    if prim in FLOAT_BITS:
        return FLOAT_BITS[prim]
    if shape.kind is Kind.ENUM:
        return "kitjson.IntSize"  # an int enum's Go type is int
    return INT_BITS.get(prim, "64")
