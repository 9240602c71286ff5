"""Statements of generated `WriteKitJSON` methods: append a value's JSON to kitjson's encoder.

Output is encoding/json's byte for byte, with rule 9 of types built in: a required nil list,
map or bytes is written `[]`, `{}` or `""`, an optional one is left out, a `@nullable` one is
null. An `any` member without `@nullable` has no empty value: a nil one fails the encoding
(the response answers 500, as for NaN), since the document and the decoder refuse its null.
Constant text (punctuation, escaped keys) is merged into one `e.Raw` per run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kit_core.generators.go.codec_fields import WireField, bits
from kit_core.generators.go.codec_read import ACCESS
from kit_core.generators.go.jsonwire import Lines, go_raw, json_string
from kit_core.generators.go.render import block
from kit_core.generators.go.typemap import TypeMapper
from kit_core.semantics import TypeShape
from kit_core.semantics.types import ValueClass, holds_nil, value_class

V = ValueClass
PLAIN_CALLS = {
    V.STRING: ("e.Str", "string"),
    V.BYTES: ("e.Base64", "[]byte"),
    V.BOOL: ("e.Bool", "bool"),
    V.INT: ("e.Int", "int64"),
    V.UINT: ("e.Uint", "uint64"),
}
MAP_WRITERS = {V.INT: "WriteIntMap", V.UINT: "WriteUintMap"}


def if_nil_null(expr: str, write: list[str]) -> str:
    """`if expr == nil { e.Null() } else { write }`."""
    return block(f"if {expr} == nil", "e.Null()") + " else " + block("", *write).lstrip()


class _Recorded(Lines):
    """What `_member_value` writes, as (raw?, text) steps, to be replayed for another access."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[tuple[bool, str]] = []

    def raw(self, text: str) -> None:
        self.steps.append((True, text))

    def add(self, *stmts: str) -> None:
        self.steps.extend((False, s) for s in stmts)


@dataclass
class Writer:
    """The `WriteKitJSON` statements of one file's types. A member's value is written the same
    way for every member of the same shape and flags, but for its access: each distinct one is
    built once with a stand-in access and replayed (see `codec_read.Reader`)."""

    mapper: TypeMapper
    _values: dict[tuple[TypeShape, bool, bool, bool], list[tuple[bool, str]]] = field(default_factory=dict)

    def members(self, fields: list[WireField]) -> list[str]:
        """The body of WriteKitJSON: `{`, each member with its key, `}`. Commas are known statically
        until an optional member may have been left out; after that `e.Key` decides."""
        out = Lines()
        out.raw("{")
        state = "none"  # none: nothing written yet; maybe: optional members only; some: a member
        for f in fields:
            key = json_string(f.key) + ":"
            target = Lines() if f.optional else out
            if state == "some":
                target.raw("," + key)
            elif state == "none":
                target.raw(key)
            else:
                target.add(f"e.Key({go_raw(key)})")
            self._replay(f, target)
            if f.optional:
                out.add(block(f"if {f.access} != nil", *target.done()))
                state = "maybe" if state == "none" else state
            else:
                state = "some"
        out.raw("}")
        return out.done()

    def _replay(self, f: WireField, out: Lines) -> None:
        key = (f.shape, f.pointer, f.optional, f.nullable)
        steps = self._values.get(key)
        if steps is None:
            recorded = _Recorded()
            self._member_value(f, ACCESS, recorded)
            steps = self._values[key] = recorded.steps
        for raw, text in steps:
            if raw:
                out.raw(text)
            else:
                out.add(text.replace(ACCESS, f.access))

    def _member_value(self, f: WireField, access: str, out: Lines) -> None:
        vc = f.vc
        if f.pointer:
            if vc is V.STRUCT:
                write = [f"{access}.WriteKitJSON(e)"]
            elif vc is V.PARAM:
                write = [f"kitjson.Encode(e, {access})"]
            else:
                write = self.lines(f.shape.base(), f"*{access}", 0)
            if f.optional:
                out.add(*write)
            else:  # @nullable or a required type parameter: nil is null
                out.add(if_nil_null(access, write))
            return
        if f.nullable and not f.optional and holds_nil(f.shape):
            out.add(if_nil_null(access, self.lines(f.shape, access, 0)))
            return
        if vc is V.ANY and not f.nullable:  # null is refused in, so it is never written out
            out.add(f"e.AnyNotNull({access})")
            return
        self.value(f.shape, access, 0, out)

    def lines(self, shape: TypeShape, expr: str, depth: int) -> list[str]:
        out = Lines()
        self.value(shape, expr, depth, out)
        return out.done()

    def value(self, shape: TypeShape, expr: str, depth: int, out: Lines) -> None:
        """Append the value ``expr`` (of shape's Go type, no `?` pointer)."""
        vc = value_class(shape)
        if vc is V.ARRAY:
            i = f"i{depth}"
            each = self.lines(shape.element(), f"{expr}[{i}]", depth + 1)
            out.raw("[")
            out.add(block(f"for {i} := range {expr}", block(f"if {i} > 0", 'e.Raw(",")'), *each))
            out.raw("]")
        elif vc is V.MAP:
            out.add(self._map(shape, expr, depth))
        elif vc is V.STRUCT:
            out.add(f"{expr}.WriteKitJSON(e)")
        elif vc is V.PARAM:
            out.add(f"kitjson.Encode(e, &{expr})")
        else:
            out.add(self.scalar(shape, expr))

    def scalar(self, shape: TypeShape, expr: str) -> str:
        vc = value_class(shape)
        if vc is V.FLOAT:
            arg = expr if self.mapper.shape(shape.base()) == "float64" else f"float64({expr})"
            return f"e.Float({arg}, {bits(shape)})"
        if vc is V.DATETIME:
            return f"e.Time({expr})"
        if vc not in PLAIN_CALLS:
            return f"e.Any({expr})"
        call, plain = PLAIN_CALLS[vc]
        # a named []byte is assignable to []byte; any other named type is converted
        if vc is V.BYTES or self.mapper.shape(shape.base()) == plain:
            return f"{call}({expr})"
        return f"{call}({plain}({expr}))"

    def _map(self, shape: TypeShape, expr: str, depth: int) -> str:
        key, val = shape.args
        writer = MAP_WRITERS.get(value_class(key), "WriteMap")
        x = f"x{depth}"
        vtype = self.mapper.shape(val.base() if not val.array_dims else val)
        if val.optional and not holds_nil(val):
            vtype = "*" + vtype
            base = val.base()
            inner = [f"{x}.WriteKitJSON(e)"] if value_class(base) is V.STRUCT else self.lines(base, f"*{x}", depth + 1)
            body = [if_nil_null(x, inner)]
        elif val.optional and value_class(val) is not V.ANY:  # a nil-able optional value: nil is null
            body = [if_nil_null(x, self.lines(val, x, depth + 1))]
        else:
            body = self.lines(val, x, depth + 1)
        fn = block(f"func(e *kitjson.Encoder, {x} {vtype})", *body)
        return f"kitjson.{writer}(e, {expr}, {fn})"
