"""Validator decorators as JSON Schema keywords, and literal values as JSON values.

String validators go on string schemas (never on `bytes`: decorator rule 3), number
validators on number schemas, item-count validators on arrays (`minProperties` /
`maxProperties` on maps). On an array field, string and number validators describe its
items.
"""

from __future__ import annotations

from typing import Any

from kit_core.model import Decorator, EnumDecl, Literal, LiteralKind
from kit_core.symbols import NUMBER_PRIMITIVES

STRING_VALIDATORS = frozenset({"length", "minLength", "maxLength", "pattern", "format"})
NUMBER_VALIDATORS = frozenset({"gte", "gt", "lte", "lt", "range", "positive", "negative", "multipleOf"})
COUNT_VALIDATORS = frozenset({"minItems", "maxItems", "uniqueItems"})

FORMATS = {"datetime": "date-time", "url": "uri"}

# `@format(time)` checks HH:MM:SS without an offset; JSON Schema's "time" format requires one,
# so the document states the check as a pattern instead.
TIME_PATTERN = "^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$"


# Formats JSON Schema does not define whose Go check is a regex (the helpers' own, in
# templates/go/helpers/<name>.go.j2; a test holds them equal): the document adds the regex as
# a pattern, so a validator that ignores an unknown format still checks what the service does.
FORMAT_PATTERNS = {
    "phone": r"^\+?[0-9 ()\-]{6,20}$",
    "creditcard": "^[0-9]{12,19}$",
    "hexcolor": "^#?(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$",
}


def literal_value(lit: Literal, enum: EnumDecl | None = None) -> Any:
    """A decorator literal as JSON; a bare ident names a value of ``enum``."""
    if lit.kind is LiteralKind.ARRAY:
        return [literal_value(i, enum) for i in lit.items]
    if lit.kind is LiteralKind.IDENT and enum is not None:
        return enum_wire_value(enum, str(lit.value))
    return lit.value


def enum_wire_value(enum: EnumDecl, name: str) -> Any:
    for v in enum.values:
        if v.name == name:
            return v.name if v.value is None else v.value.value
    return name


def _num(d: Decorator, i: int = 0) -> Any:
    return d.args[i].value if len(d.args) > i else None


def string_keywords(d: Decorator) -> dict[str, Any]:
    if d.name == "length":
        return {"minLength": _num(d, 0), "maxLength": _num(d, 1)}
    if d.name in ("minLength", "maxLength"):
        return {d.name: _num(d)}
    if d.name == "pattern":
        return {"pattern": _num(d)}
    if d.name == "format" and d.args:
        name = str(d.args[0].value)
        if name == "time":
            return {"pattern": TIME_PATTERN}
        kws: dict[str, Any] = {"format": FORMATS.get(name, name)}
        if name in FORMAT_PATTERNS:
            kws["pattern"] = FORMAT_PATTERNS[name]
        return kws
    return {}


def merge_keywords(into: dict[str, Any], kws: dict[str, Any]) -> None:
    """Add ``kws`` to ``into``; a second pattern joins an `allOf` (a schema holds one)."""
    for key, value in kws.items():
        if key == "pattern" and "pattern" in into and into["pattern"] != value:
            into.setdefault("allOf", []).append({"pattern": value})
        else:
            into[key] = value


def number_keywords(d: Decorator) -> dict[str, Any]:
    table = {
        "gte": "minimum",
        "gt": "exclusiveMinimum",
        "lte": "maximum",
        "lt": "exclusiveMaximum",
        "multipleOf": "multipleOf",
    }
    if d.name in table:
        return {table[d.name]: _num(d)}
    if d.name == "range":
        return {"minimum": _num(d, 0), "maximum": _num(d, 1)}
    if d.name == "positive":
        return {"exclusiveMinimum": 0}
    if d.name == "negative":
        return {"exclusiveMaximum": 0}
    return {}


def count_keywords(d: Decorator, is_map: bool) -> dict[str, Any]:
    if d.name == "uniqueItems":
        return {} if is_map else {"uniqueItems": True}
    if d.name == "minItems" and _num(d) == 0:
        return {}
    key = d.name.replace("Items", "Properties") if is_map else d.name
    return {key: _num(d)}


def keywords_for(
    decorators: tuple[Decorator, ...], primitive: str | None, container: str | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(keywords for the value schema, keywords for the array/map schema around it).

    ``primitive`` is the primitive under the value (scalars resolved), ``container`` is
    "array", "map" or None.
    """
    value: dict[str, Any] = {}
    outer: dict[str, Any] = {}
    for d in decorators:
        if d.name in COUNT_VALIDATORS and container is not None:
            outer.update(count_keywords(d, container == "map"))
        elif d.name in STRING_VALIDATORS and primitive == "string":
            merge_keywords(value, string_keywords(d))
        elif d.name in NUMBER_VALIDATORS and primitive in NUMBER_PRIMITIVES:
            value.update(number_keywords(d))
    return value, outer
