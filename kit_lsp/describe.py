"""Markdown for hover and completion documentation.

Decorators and error categories come from the decorator registry; declarations are shown
in the formatter's canonical layout with their doc; primitives and verbs have the short
texts below (language facts of dsl-facts §2.4 and THE SPEC's routes section).
"""

from __future__ import annotations

import dataclasses

from kit_core.decorators import ERROR_CATEGORIES, lookup
from kit_core.formatter.printer import print_file
from kit_core.formatter.render import decorators, field_type
from kit_core.model import Decl, EnumValue, Field, Method, SourceFile

PRIMITIVES: dict[str, str] = {
    "string": "UTF-8 text; Go `string`, JSON string.",
    "bytes": "Binary data; Go `[]byte`, JSON base64 string. Length validators count bytes.",
    "bool": "Go `bool`, JSON boolean.",
    "int": "Signed integer; Go `int`, JSON number.",
    "int8": "Signed 8-bit integer; Go `int8`.",
    "int16": "Signed 16-bit integer; Go `int16`.",
    "int32": "Signed 32-bit integer; Go `int32`.",
    "int64": "Signed 64-bit integer; Go `int64`.",
    "uint": "Unsigned integer; Go `uint`.",
    "uint8": "Unsigned 8-bit integer; Go `uint8`.",
    "uint16": "Unsigned 16-bit integer; Go `uint16`.",
    "uint32": "Unsigned 32-bit integer; Go `uint32`.",
    "uint64": "Unsigned 64-bit integer; Go `uint64`.",
    "float32": "32-bit float; Go `float32`, JSON number.",
    "float64": "64-bit float; Go `float64`, JSON number.",
    "datetime": "A point in time: Go `time.Time`, JSON RFC 3339 string (`format: date-time`). "
    "Body fields only; no validators, no `@default`.",
    "file": "An uploaded file: Go `*multipart.FileHeader`. Only at the top level of a request type, "
    "bound with `@form`; `file[]` binds every repeated part.",
    "any": "Any JSON value; Go `any`.",
    "map": "`map<K, V>`: a JSON object. Keys: `string`, integer widths, or a scalar/enum over one.",
}

VERBS: dict[str, str] = {
    "get": "HTTP GET. Fields not bound elsewhere come from the query. Success: 200 with a response, 204 without.",
    "post": "HTTP POST. Fields not bound elsewhere come from the JSON body. Success: 201 with a response, 204 without.",
    "put": "HTTP PUT. Fields not bound elsewhere come from the JSON body. Success: 200 with a response, 204 without.",
    "patch": "HTTP PATCH. Fields not bound elsewhere come from the JSON body. Success: 200 with a response, "
    "204 without.",
    "delete": "HTTP DELETE. Fields not bound elsewhere come from the query. Success: 200 with a response, 204 without.",
    "head": "HTTP HEAD. Fields not bound elsewhere come from the query. No response body.",
    "options": "HTTP OPTIONS. Fields not bound elsewhere come from the query.",
}

_MAX_LINES = 40


def code(text: str) -> str:
    return f"```kit\n{text.rstrip()}\n```"


def declaration(decl: Decl, file: SourceFile) -> str:
    """The declaration in canonical layout (no comments), then its doc."""
    alone = dataclasses.replace(
        file, decorators=(), imports=(), package=None, package_span=None, declarations=(decl,), comments=()
    )
    lines = print_file(alone).splitlines()
    if len(lines) > _MAX_LINES:
        lines = [*lines[: _MAX_LINES - 1], "\t…", lines[-1]]
    parts = [code("\n".join(lines))]
    if file.package:
        parts.append(f"package `{file.package}`")
    if decl.doc:
        parts.append(decl.doc)
    return "\n\n".join(parts)


def field(f: Field, owner: str) -> str:

    line = " ".join(x for x in (f.name, field_type(f), decorators(f.decorators)) if x)
    doc = _doc_of(f.decorators) or f.trivia.doc_text
    return "\n\n".join(x for x in (code(line), f"field of `{owner}`", doc) if x)


def enum_value(v: EnumValue, owner: str) -> str:
    line = v.name + (f" = {v.value.text}" if v.value is not None else "")
    wire = v.value.text if v.value is not None else f'"{v.name}"'
    doc = _doc_of(v.decorators) or v.trivia.doc_text
    return "\n\n".join(x for x in (code(line), f"value of enum `{owner}`; wire value {wire}", doc) if x)


def method(m: Method, service: str) -> str:
    route = m.route.text if m.route is not None else "(route: /<kebab-case name>)"
    lines = [f"{m.verb} {m.name} {route}"]
    if m.request is not None:
        lines.append(f"\trequest  {m.request.text()}")
    if m.response is not None:
        lines.append(f"\tresponse {m.response.text()}")
    parts = [code("\n".join(lines)), f"method of service `{service}`"]
    if m.doc:
        parts.append(m.doc)
    return "\n\n".join(parts)


def decorator(name: str) -> str | None:
    spec = lookup(name)
    return spec.hover() if spec is not None else None


def category(name: str) -> str | None:
    cat = ERROR_CATEGORIES.get(name)
    if cat is None:
        return None
    return f'{code(f"error {cat.name}")}\n\nError category: HTTP {cat.status}, default message "{cat.message}".'


def primitive(name: str) -> str | None:
    doc = PRIMITIVES.get(name)
    return f"{code(name)}\n\nBuilt-in type. {doc}" if doc else None


def verb(name: str) -> str | None:
    doc = VERBS.get(name)
    return f"{code(name)}\n\n{doc}" if doc else None


def _doc_of(decorators: tuple[object, ...]) -> str | None:
    for d in decorators:
        if getattr(d, "name", None) == "doc":
            args = getattr(d, "args", ())
            if args and args[0].is_string:
                return str(args[0].value)
    return None
