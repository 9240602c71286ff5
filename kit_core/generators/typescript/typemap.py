"""TypeScript type expressions of design types (what the client's `types.ts` declares).

Choices (docs/typescript-client.md says why to the user):
* integers of every size, `int64` included, are `number`: the server writes them as JSON
  numbers and `JSON.parse` reads those as doubles, so a value beyond 2^53 loses precision;
  a `bigint` or `string` type would need a custom JSON parser in a client that takes none;
* `datetime` is a `string` in RFC 3339: `JSON.parse` gives a string, and a `Date` would drop
  the offset and sub-millisecond digits the server sent;
* `bytes` is the base64 `string` the JSON carries; `file` is a `Blob` (a `File` is one);
* `any` is `unknown`; a map is `Record<string, V>` (JSON object keys are strings).
"""

from __future__ import annotations

import json

from kit_core.generators.openapi.names import DeclNames
from kit_core.model import EnumDecl
from kit_core.semantics import EffectiveField, TypeShape
from kit_core.semantics.types import enum_is_int, is_nullable
from kit_core.symbols import FLOAT_PRIMITIVES, INT_PRIMITIVES, Kind

_PRIMITIVES = {
    "string": "string",
    "bytes": "string",
    "bool": "boolean",
    "datetime": "string",
    "file": "Blob",
    "any": "unknown",
    **dict.fromkeys(INT_PRIMITIVES, "number"),
    **dict.fromkeys(FLOAT_PRIMITIVES, "number"),
}

# Names the client module itself declares: a design declaration of one of these names is
# written with its package prefix, like two packages declaring one name.
RESERVED = frozenset(
    {
        *("ApiError", "KitError", "Client", "ClientOptions", "CallOptions", "ErrorClass", "Transport", "T"),
        # globals the client module uses: an error class of one of these names would hide them
        *("Error", "Response", "Headers", "FormData", "Blob", "Object", "Array", "String", "Number", "JSON"),
        *("URLSearchParams", "Promise", "Record", "ReturnType", "AbortSignal", "ReadonlyArray", "Request"),
        *("RequestInit", "File", "Map", "Set", "Date"),
        # the runtime's own types
        *("Value", "Pairs", "Bound", "Outgoing"),
    }
)


class TsNames:
    """Declaration names: the OpenAPI component rule (a name two packages declare gets its
    package as a prefix), so the client and the document name a type alike."""

    def __init__(self, names: DeclNames) -> None:
        self.names = names

    def decl(self, package: str, name: str) -> str:
        out = self.names.decl(package, name)
        return f"{package[:1].upper()}{package[1:]}{name}" if out in RESERVED else out


class TypeMap:
    """``prefix``: how the module writing the expressions reaches `types.ts` (`T.` in the client)."""

    def __init__(self, names: TsNames, prefix: str = "") -> None:
        self.names = names
        self.prefix = prefix

    def shape(self, shape: TypeShape) -> str:
        """The type of a value of ``shape`` (its `?` is the field's business)."""
        if shape.array_dims:
            return _array(self.shape(shape.element()))
        if shape.kind is Kind.MAP and len(shape.args) == 2:
            value = self.shape(shape.args[1])
            if shape.args[1].optional:
                value += " | null"
            return f"Record<string, {value}>"
        if shape.kind is Kind.PRIMITIVE:
            return _PRIMITIVES.get(shape.name, "unknown")
        if shape.kind is Kind.PARAM:
            return shape.name
        if shape.kind in (Kind.TYPE, Kind.ENUM, Kind.SCALAR, Kind.ERROR) and shape.package is not None:
            name = self.prefix + self.names.decl(shape.package, shape.name)
            if shape.args:
                name += "<" + ", ".join(self.shape(a) for a in shape.args) + ">"
            return name
        return "unknown"

    def field(self, ef: EffectiveField) -> str:
        t = self.shape(ef.shape)
        return f"{t} | null" if is_nullable(ef.field) else t


def _array(element: str) -> str:
    return f"({element})[]" if " " in element else f"{element}[]"


def enum_union(decl: EnumDecl) -> str:
    """The enum's wire values as a union of literals (numbers for an int enum)."""
    if enum_is_int(decl):
        values = [str(v.value.value) for v in decl.values if v.value is not None]
    else:
        values = [json.dumps(v.name if v.value is None else str(v.value.value)) for v in decl.values]
    return " | ".join(values) or "never"


def ts_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def property_name(key: str) -> str:
    """A property key as written in an interface or object literal (quoted unless an identifier)."""
    return key if key.isidentifier() and key.isascii() else ts_string(key)


def doc_comment(lines: list[str], indent: str = "") -> str:
    text = [ln.replace("*/", "*\\/") for ln in lines if ln is not None]
    if not text:
        return ""
    if len(text) == 1 and "\n" not in text[0]:
        return f"{indent}/** {text[0]} */\n"
    body = "".join(f"{indent} * {ln}".rstrip() + "\n" for t in text for ln in t.split("\n"))
    return f"{indent}/**\n{body}{indent} */\n"
