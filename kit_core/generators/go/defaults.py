"""`@default` values of request fields read outside the JSON body (query fields of a GET...).

Fields decoded from the JSON body get theirs from the request type's `UnmarshalJSON`
(`unmarshal.py`), which also covers nested objects, array elements and map values.
"""

from __future__ import annotations

from dataclasses import replace

from kit_core import naming
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.render import go_string
from kit_core.generators.go.typemap import TypeMapper
from kit_core.model import Literal, LiteralKind
from kit_core.semantics import Location, MethodInfo, TypeShape
from kit_core.symbols import Kind


def default_statements(g: GoGen, mapper: TypeMapper, m: MethodInfo, helper: str, decoded: bool) -> list[str]:
    """Pre-fill statements; ``decoded``: the body is JSON-decoded (body fields are left to it)."""
    out: list[str] = []
    for b in m.request_fields:
        if decoded and b.location is Location.BODY:
            continue
        dec = b.field.decorator("default")
        if dec is None or not dec.args or dec.args[0].kind is LiteralKind.NULL:
            continue
        facts = g.design.facts(b.field.owner, b.field.owner_package, b.field.field)
        shape = b.field.shape
        value = literal(mapper, dec.args[0], shape)
        target = f"req.{facts.go_name}"
        if facts.pointer:
            out.append(f"{target} = {helper}.Ptr[{mapper.shape(shape.base())}]({value})")
        else:
            out.append(f"{target} = {value}")
    return out


def literal(mapper: TypeMapper, lit: Literal, shape: TypeShape) -> str:
    """A Go expression of a default literal for a field of ``shape``."""
    if lit.kind is LiteralKind.ARRAY:
        elem = shape.element() if shape.array_dims else shape
        items = ", ".join(literal(mapper, i, elem) for i in lit.items)
        return f"{mapper.shape(shape.base() if not shape.array_dims else _plain(shape))}{{{items}}}"
    if lit.kind is LiteralKind.IDENT and shape.kind is Kind.ENUM:
        name = str(lit.value).rpartition(".")[2]
        return mapper.qualify(naming.enum_const(shape.name, name), shape.package)
    if lit.is_string:
        text = go_string(str(lit.value))
        return f"[]byte({text})" if shape.primitive == "bytes" else text
    return lit.text


def _plain(shape: TypeShape) -> TypeShape:

    return replace(shape, optional=False)
