"""JSON Schemas of types and fields, and the component registry.

Components are made on demand, for what the operations reach: a type, enum, scalar, error
or generic instance gets a component the first time a wire-visible schema names it. So a
generic instance named only by a `@sensitive` field, a header-inlined response, or the
body of a request with nothing in its body gets none (1.10).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from kit_core.decorators import ERROR_CATEGORIES, flat_args, literal_text
from kit_core.model import EnumDecl, EnumValue, ErrorDecl, LiteralKind, ScalarDecl, TypeDecl, find_decorator
from kit_core.naming import screaming_snake
from kit_core.semantics import EffectiveField, TypeIndex, TypeShape, is_optional, is_sensitive, json_key
from kit_core.semantics.types import binding_decorator
from kit_core.symbols import Kind

from .constraints import keywords_for, literal_value, merge_keywords
from .mapkeys import integer_key_names
from .names import DeclNames

Schema = dict[str, Any]

_INT_FORMATS = {
    "int": "int64",
    "int64": "int64",
    "int32": "int32",
    "int16": "int16",
    "int8": "int8",
    "uint": "uint64",
    "uint64": "uint64",
    "uint32": "uint32",
    "uint16": "uint16",
    "uint8": "uint8",
}
# what Go writes for math.MaxFloat32 (shortest form); the decoder takes it (it rounds to the max)
FLOAT32_MAX = 3.4028235e38
BASE64_PATTERN = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"
_PRIMITIVES: dict[str, Schema] = {
    "string": {"type": "string"},
    # contentEncoding is an annotation only: the pattern states what the decoder refuses
    "bytes": {"type": "string", "contentEncoding": "base64", "pattern": BASE64_PATTERN},
    "bool": {"type": "boolean"},
    # the decoder refuses a number float32 cannot hold (format alone bounds nothing)
    "float32": {"type": "number", "format": "float", "minimum": -FLOAT32_MAX, "maximum": FLOAT32_MAX},
    "float64": {"type": "number", "format": "double"},
    "datetime": {"type": "string", "format": "date-time"},
    "file": {"type": "string", "contentMediaType": "application/octet-stream"},
    "any": {},
}


def primitive_schema(name: str) -> Schema:
    if name in _INT_FORMATS:
        s: Schema = {"type": "integer", "format": _INT_FORMATS[name]}
        if name.startswith("uint"):
            s["minimum"] = 0
        return s
    return dict(_PRIMITIVES.get(name, {}))


def ref_schema(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(s: Schema) -> Schema:
    if not s:
        return s
    if isinstance(s.get("type"), str) and "$ref" not in s:
        return {**s, "type": [s["type"], "null"]}
    return {"anyOf": [s, {"type": "null"}]}


def is_wire(ef: EffectiveField) -> bool:
    """Carried in a JSON body: not bound elsewhere (`@body` is the body), not `@sensitive`."""
    binding = binding_decorator(ef.field)
    return not is_sensitive(ef.field) and (binding is None or binding.name == "body")


def field_doc(ef: EffectiveField) -> str | None:
    d = ef.field.decorator("doc")
    if d and d.args and d.args[0].is_string:
        return str(d.args[0].value)
    return ef.field.trivia.doc_text


class Schemas:
    def __init__(self, index: TypeIndex, names: DeclNames) -> None:
        self.index = index
        self.names = names
        self.components: dict[str, Schema] = {}

    # ------------------------------------------------------------------ types

    def of(self, shape: TypeShape) -> Schema:
        """Schema of a type (its `?` is the field's business, not the schema's)."""
        if shape.array_dims:
            return {"type": "array", "items": self.of(shape.element())}
        if shape.kind is Kind.MAP and len(shape.args) == 2:
            return self._map(shape)
        if shape.kind is Kind.PRIMITIVE:
            return primitive_schema(shape.name)
        if shape.kind in (Kind.TYPE, Kind.ENUM, Kind.SCALAR, Kind.ERROR) and shape.package is not None:
            return self._component_for(shape)
        return {}  # an unsubstituted type parameter or an unresolved name

    def _map(self, shape: TypeShape) -> Schema:
        key, value = shape.args
        values = self.of(value)
        if value.optional:  # an optional map value is null when absent (`map<string, int?>`)
            values = nullable(values)
        s: Schema = {"type": "object", "additionalProperties": values}
        names = integer_key_names(key)
        key_schema = self.of(key) if names is None else names
        if key_schema and key_schema != {"type": "string"}:
            s["propertyNames"] = key_schema
        return s

    def _component_for(self, shape: TypeShape) -> Schema:
        base = shape.base()
        decl, package = base.decl, base.package or ""
        name = self.names.of(base)
        if isinstance(decl, TypeDecl):
            return self.component(name, lambda: self.type_schema(decl, package, base.args))
        if isinstance(decl, EnumDecl):
            return self.component(name, lambda: enum_schema(decl))
        if isinstance(decl, ScalarDecl):
            return self.component(name, lambda: self.scalar_schema(decl))
        if isinstance(decl, ErrorDecl):
            return self.component(name, lambda: self.error_schema(decl, package))
        return {}

    def component(self, name: str, build: Callable[[], Schema]) -> Schema:
        if name not in self.components:
            self.components[name] = {}  # reserved first: recursive types refer to themselves
            self.components[name] = build()
        return ref_schema(name)

    def refuses_empty_object(self, schema: Schema) -> bool:
        """Whether `{}` fails the (object) schema: a required member or a `@requiresOneOf`."""
        ref = schema.get("$ref", "")
        if ref.startswith("#/components/schemas/"):
            schema = self.components.get(ref.rsplit("/", 1)[1], {})
        return bool(schema.get("required") or schema.get("anyOf"))

    # ------------------------------------------------------------------ components

    def type_schema(self, decl: TypeDecl, package: str, args: tuple[TypeShape, ...]) -> Schema:
        fields = [f for f in self.index.fields(decl, package, args) if is_wire(f)]
        s = self.object_schema(fields, any_not_null=True)
        # the decoder refuses an unknown member (server.strictJSON, true by default)
        s["additionalProperties"] = False
        _cross_field(s, decl, fields)
        return _annotate(s, decl.doc, decl.decorator("deprecated") is not None)

    def object_schema(self, fields: Sequence[EffectiveField], any_not_null: bool = False) -> Schema:
        """`any_not_null`: an `any` member without `@nullable` refuses null (types; an error's
        body is written by encoding/json, where a nil `any` is null)."""
        props = {json_key(f.field): self.field_schema(f, any_not_null) for f in fields}
        s: Schema = {"type": "object", "properties": props}
        required = [json_key(f.field) for f in fields if not is_optional(f)]
        if required:
            s["required"] = required
        return s

    def scalar_schema(self, decl: ScalarDecl) -> Schema:
        s = primitive_schema(decl.primitive.name)
        value, _ = keywords_for(decl.decorators, decl.primitive.name, None)
        merge_keywords(s, value)
        return _annotate(s, decl.doc, False)

    def error_schema(self, decl: ErrorDecl, package: str) -> Schema:
        fields = [f for f in self.index.fields(decl, package) if is_wire(f)]
        if fields:
            s = self.object_schema(fields)
        else:
            category = ERROR_CATEGORIES.get(decl.category)
            s = {
                "type": "object",
                "properties": {
                    "code": {"type": "string", "const": screaming_snake(decl.name)},
                    "message": {
                        "type": "string",
                        "examples": [category.message if category else decl.category],
                    },
                },
                "required": ["code", "message"],
            }
        return _annotate(s, decl.doc, False)

    # ------------------------------------------------------------------ fields

    def field_schema(self, ef: EffectiveField, any_not_null: bool = False) -> Schema:
        shape = ef.shape
        s = self.of(shape)
        if any_not_null and not s and _is_any(shape) and not ef.field.decorator("nullable"):
            # the decoder refuses null for an `any` member (required or not) and the encoder
            # never writes one (a nil required `any` fails the response, like NaN)
            s = {"not": {"type": "null"}}
        value, container = _unwrap(shape)
        value_kw, outer_kw = keywords_for(ef.field.decorators, value.primitive, container)
        merge_keywords(_innermost(s, container), value_kw)
        s.update(outer_kw)
        if ef.field.decorator("nullable"):
            s = nullable(s)
        enum = value.decl if isinstance(value.decl, EnumDecl) else None
        default = ef.field.decorator("default")
        if default and default.args:
            s["default"] = literal_value(default.args[0], enum)
        example = ef.field.decorator("example")
        if example and example.args:
            lit = example.args[0]
            many = lit.kind is LiteralKind.ARRAY and container is None
            s["examples"] = literal_value(lit, enum) if many else [literal_value(lit, enum)]
        return _annotate(s, field_doc(ef), ef.field.decorator("deprecated") is not None)


def _is_any(shape: TypeShape) -> bool:
    return not shape.array_dims and shape.kind is Kind.PRIMITIVE and shape.name == "any"


def _unwrap(shape: TypeShape) -> tuple[TypeShape, str | None]:
    """(the innermost value shape, "array" / "map" / None)."""
    if shape.array_dims:
        return shape.base(), "array"
    if shape.kind is Kind.MAP and len(shape.args) == 2:
        return shape.args[1], "map"
    return shape, None


def _innermost(s: Schema, container: str | None) -> Schema:
    if container == "array":
        while s.get("type") == "array":
            s = s["items"]
    elif container == "map":
        s = s["additionalProperties"]
    return s


def _annotate(s: Schema, doc: str | None, deprecated: bool) -> Schema:
    """Description and deprecation lead the schema."""
    head: Schema = {}
    if doc:
        head["description"] = doc
    if deprecated:
        head["deprecated"] = True
    return {**head, **s} if head else s


def _enum_is_string(decl: EnumDecl) -> bool:
    return all(v.value is None or v.value.is_string for v in decl.values)


def enum_schema(decl: EnumDecl) -> Schema:
    values = [v.name if v.value is None else v.value.value for v in decl.values]
    s: Schema = {"type": "string" if _enum_is_string(decl) else "integer", "enum": values}
    lines = [decl.doc] if decl.doc else []
    for v, wire in zip(decl.values, values, strict=True):
        doc = _value_doc(v)
        if doc:
            lines.append(f"- `{wire}`: {doc}")
    return _annotate(s, "\n".join(lines) or None, False)


def _value_doc(v: EnumValue) -> str | None:
    d = find_decorator(v.decorators, "doc")
    doc = str(d.args[0].value) if d and d.args else v.trivia.doc_text
    if find_decorator(v.decorators, "deprecated") is not None:
        doc = f"{doc} (deprecated)" if doc else "deprecated"
    return doc


def _cross_field(s: Schema, decl: TypeDecl, fields: Sequence[EffectiveField]) -> None:
    """`@requiresOneOf` as anyOf-required, `@mutuallyExclusive` as not-two-present."""
    keys = {f.name: json_key(f.field) for f in fields}
    one = decl.decorator("requiresOneOf")
    if one:
        s["anyOf"] = [{"required": [keys.get(literal_text(a), literal_text(a))]} for a in flat_args(one)]
    mutex = decl.decorator("mutuallyExclusive")
    if mutex:
        names = [keys.get(literal_text(a), literal_text(a)) for a in flat_args(mutex)]
        pairs = [{"required": [a, b]} for a, b in combinations(names, 2)]
        if pairs:
            s["not"] = {"anyOf": pairs}
