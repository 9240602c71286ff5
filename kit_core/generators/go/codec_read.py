"""Statements of generated `ReadKitJSON` methods: one pass over a body, kitjson's decoder."""

from __future__ import annotations

from dataclasses import dataclass, field

from kit_core.generators.go.codec_fields import WireField, bits
from kit_core.generators.go.render import block, go_string
from kit_core.generators.go.typemap import TypeMapper
from kit_core.semantics import TypeShape
from kit_core.semantics.types import ValueClass, holds_nil, value_class

V = ValueClass
CALLS = {V.STRING: "d.Str()", V.BYTES: "d.Bytes()", V.BOOL: "d.Bool()", V.DATETIME: "d.Time()", V.ANY: "d.Any()"}
NUMBERS = {V.INT: "Int", V.UINT: "Uint", V.FLOAT: "Float"}
PLAIN = {V.STRING: "string", V.BYTES: "[]byte", V.BOOL: "bool", V.INT: "int64", V.UINT: "uint64", V.FLOAT: "float64"}


def mode(f: WireField) -> str:
    """What a null means for the member (kitjson.Mode)."""
    if f.nullable:
        return "Nullable"
    if f.optional:
        return "NotNull" if f.vc is V.ANY else "Optional"
    return "Required"


# Stand-ins for a member's access (`v.Name`) and presence check in a memoised `case` body: no
# generated statement holds a NUL or SOH character (strings are escaped by go_string).
ACCESS, CHECK = "\x00", "\x01"


@dataclass
class Reader:
    """The `ReadKitJSON` statements of one file's types. A member's `case` body depends on its
    shape and flags, and on its access and bit only through their text: members of a file
    share most shapes, so each distinct body is built once and the stand-ins replaced (a
    repeat asks the mapper nothing, and its imports are the file's, already there)."""

    mapper: TypeMapper
    _cases: dict[tuple[TypeShape, bool, bool, bool, bool], str] = field(default_factory=dict)

    def member(self, f: WireField, bit: int) -> str:
        """The `case` body of one member: record it, apply its null mode, decode its value."""
        key = (f.shape, f.pointer, f.optional, f.nullable, f.default)
        body = self._cases.get(key)
        if body is None:
            body = self._cases[key] = self._member(f, ACCESS, CHECK)
        check = f"d.Field(&seen[{bit // 64}], 1<<{bit % 64}, kitjson.{mode(f)})"
        return body.replace(CHECK, check).replace(ACCESS, f.access)

    def _member(self, f: WireField, access: str, check: str) -> str:
        vc = f.vc
        if not f.pointer and vc in (V.ARRAY, V.MAP):
            cond, body = self._array(f.shape, access, 0) if vc is V.ARRAY else self._map(f.shape, access, 0)
            stmt = block(f"if {check} && {cond}", *body)
        else:
            stmt = block(f"if {check}", *(self._pointer(f, access) if f.pointer else self.value(f.shape, access, 0)))
        if f.nullable and f.default:
            stmt += f" else {{\n\t{access} = nil\n}}"
        return stmt

    def _pointer(self, f: WireField, access: str) -> list[str]:
        vc = f.vc
        if vc in (V.STRUCT, V.PARAM):
            read = "x.ReadKitJSON(d)" if vc is V.STRUCT else "kitjson.Decode(d, x)"
            return [f"x := new({self.mapper.shape(f.shape.base())})", read, f"{access} = x"]
        return [f"x := {self.scalar(f.shape)}", f"{access} = &x"]

    def value(self, shape: TypeShape, target: str, depth: int) -> list[str]:
        """Statements decoding the next value into ``target`` (of shape's Go type, no `?` pointer)."""
        vc = value_class(shape)
        if vc in (V.ARRAY, V.MAP):
            cond, body = self._array(shape, target, depth) if vc is V.ARRAY else self._map(shape, target, depth)
            return [block(f"if {cond}", *body)]
        if vc is V.STRUCT:
            return [f"{target}.ReadKitJSON(d)"]
        if vc is V.PARAM:
            return [f"kitjson.Decode(d, &{target})"]
        return [f"{target} = {self.scalar(shape)}"]

    def scalar(self, shape: TypeShape) -> str:
        vc = value_class(shape)
        if vc in (V.INT, V.UINT, V.FLOAT):
            call = f"d.{NUMBERS[vc]}({bits(shape)})"
        else:
            call = CALLS.get(vc, "d.Any()")
        if vc not in PLAIN:
            return call
        gotype = self.mapper.shape(shape.base())
        return call if gotype == PLAIN[vc] else f"{gotype}({call})"

    def _array(self, shape: TypeShape, target: str, depth: int) -> tuple[str, list[str]]:
        """(condition, body) of an array: `d.Array()`, then the elements appended to target."""
        elem = shape.element()
        gotype = self.mapper.shape(shape)
        if value_class(elem) in (V.ARRAY, V.MAP, V.STRUCT, V.PARAM):
            x = f"x{depth}"
            each = [
                f"var {x} {self.mapper.shape(elem)}",
                *self.value(elem, x, depth + 1),
                f"{target} = append({target}, {x})",
            ]
        else:
            each = [f"{target} = append({target}, {self.scalar(elem)})"]
        return "d.Array()", [f"{target} = {gotype}{{}}", block("for d.Elem()", *each)]

    def _map(self, shape: TypeShape, target: str, depth: int) -> tuple[str, list[str]]:
        """(condition, body) of a map: `d.Map()`, then every entry put in target (once each)."""
        key, val = shape.args
        k, x = f"k{depth}", f"x{depth}"
        each = [f"{k} := {self._key(key)}", *self._map_value(val, x, depth), f"kitjson.Put(d, {target}, {k}, {x})"]
        return "d.Map()", [f"{target} = {self.mapper.shape(shape)}{{}}", block("for d.More()", *each)]

    def _key(self, key: TypeShape) -> str:
        vc = value_class(key)
        gotype = self.mapper.shape(key.base())
        if vc is V.INT:
            call = f"d.IntKey({bits(key)})"
        elif vc is V.UINT:
            call = f"d.UintKey({bits(key)})"
        else:
            call = "string(d.Key())"
        plain = {V.INT: "int64", V.UINT: "uint64"}.get(vc, "string")
        return call if gotype == plain else f"{gotype}({call})"

    def _map_value(self, val: TypeShape, x: str, depth: int) -> list[str]:
        base = val.base() if not val.array_dims else val
        vc = value_class(base)
        if val.optional and not holds_nil(val):  # a pointer: null is nil
            gotype = self.mapper.shape(base)
            if vc in (V.STRUCT, V.PARAM):
                read = f"{x}.ReadKitJSON(d)" if vc is V.STRUCT else f"kitjson.Decode(d, {x})"
                inner = [f"{x} = new({gotype})", read]
            else:
                inner = [f"y := {self.scalar(base)}", f"{x} = &y"]
            return [f"var {x} *{gotype}", block("if !d.Null()", *inner)]
        if not val.optional and vc not in (V.ARRAY, V.MAP, V.STRUCT, V.PARAM):
            return [f"{x} := {self.scalar(base)}"]
        body = self.value(base, x, depth + 1)
        if val.optional:  # nil-able value: null is its nil
            body = [block("if !d.Null()", *body)]
        return [f"var {x} {self.mapper.shape(base)}", *body]


def case_label(key: str) -> str:
    return f"case {go_string(key)}:"
