"""`client.ts`: the runtime, one error class per design error, and `createClient`, one async
function per design method (`client.getTodo({id})`).

A method function sends every request field where the server reads it (the shared HTTP
model's bindings), checks the method's success status, and maps any other answer by status
to the method's `@errors` classes, else to `KitError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from kit_core.decorators import ERROR_CATEGORIES, category_status
from kit_core.model import EnumDecl, ErrorDecl
from kit_core.naming import camel, go_name, screaming_snake
from kit_core.semantics import FieldBinding, HttpModel, Location, MethodInfo, TypeIndex, is_optional
from kit_core.semantics.http import BODY_VERBS, response_bindings
from kit_core.semantics.types import enum_is_int, json_key
from kit_core.symbols import FLOAT_PRIMITIVES, INT_PRIMITIVES, Kind, SymbolTable

from .declarations import HEADER, client_fields
from .runtime import RUNTIME
from .typemap import TypeMap, ts_string


def client_module(symbols: SymbolTable, index: TypeIndex, http: HttpModel, types: TypeMap) -> str:
    parts = [HEADER, "// A client of the design's HTTP API over fetch: no dependency. See docs/typescript-client.md.\n"]
    parts.append('import type * as T from "./types.js";\n')
    parts.append(RUNTIME)
    for pkg_name in sorted(symbols.packages):
        for e in sorted(symbols.packages[pkg_name].errors.values(), key=lambda d: d.name):
            parts.append(_error_class(index, types, pkg_name, e))
    parts.append(_create_client(http, types))
    return "".join(parts)


# --------------------------------------------------------------------------- errors


def _kind(shape_primitive: str | None) -> str:
    if shape_primitive in INT_PRIMITIVES or shape_primitive in FLOAT_PRIMITIVES:
        return "n"
    return "b" if shape_primitive == "bool" else "s"


def _bound(bindings: Sequence[FieldBinding]) -> str:
    """The header and cookie fields of a response or error body, as `readBound` reads them."""
    rows = []
    for b in bindings:
        if b.location not in (Location.HEADER, Location.COOKIE):
            continue
        shape = b.field.shape
        elem = shape.element() if shape.array_dims else shape
        prim = elem.primitive
        if elem.kind is Kind.ENUM and isinstance(elem.decl, EnumDecl):
            prim = "int64" if enum_is_int(elem.decl) else "string"
        rows.append(
            f"[{ts_string(json_key(b.field.field))}, {ts_string(b.wire_name)}, {ts_string(b.location.value)}, "
            f'"{_kind(prim)}", {"true" if shape.array_dims else "false"}]'
        )
    return "[" + ", ".join(rows) + "]"


def _error_class(index: TypeIndex, types: TypeMap, package: str, decl: ErrorDecl) -> str:
    name = types.names.decl(package, decl.name)
    fields = client_fields(index, decl, package)
    bindings = response_bindings(fields)
    wire = [b.wire_name for b in bindings if b.location is Location.BODY]
    category = ERROR_CATEGORIES.get(decl.category)
    message = category.message if category else decl.name
    status = category_status(decl.category) or 500
    keys = "null" if not wire else "[" + ", ".join(ts_string(k) for k in wire) + "]"
    doc = f"/** {decl.doc} */\n" if decl.doc and "*/" not in decl.doc else ""
    return (
        f"\n{doc}export class {name} extends ApiError<T.{name}Body> {{\n"
        f"  static readonly status = {status};\n"
        f"  static readonly code = {ts_string(screaming_snake(decl.name))};\n"
        f"  static readonly keys: readonly string[] | null = {keys};\n"
        f"  static readonly bound = {_bound(bindings)} as const;\n\n"
        f"  constructor(body: T.{name}Body, response: Response) {{\n"
        f"    super({ts_string(name)}, {ts_string(message)}, {status}, body, response);\n"
        "  }\n}\n"
    )


# --------------------------------------------------------------------------- methods


def function_names(methods: Sequence[MethodInfo]) -> dict[int, str]:
    """`camel(method)`; a name two methods share is `<service><Method>` for them, then
    `<package><Service><Method>`."""
    first = {id(m): camel(m.method.name) for m in methods}
    counts = Counter(first.values())
    second = {
        id(m): first[id(m)] if counts[first[id(m)]] == 1 else camel(m.service) + go_name(m.method.name) for m in methods
    }
    counts = Counter(second.values())
    third = {id(m): camel(m.package) + go_name(m.service) + go_name(m.method.name) for m in methods}
    return {id(m): second[id(m)] if counts[second[id(m)]] == 1 else third[id(m)] for m in methods}


def _create_client(http: HttpModel, types: TypeMap) -> str:
    names = function_names(http.methods)
    methods = sorted(http.methods, key=lambda m: names[id(m)])
    body = "".join(_method(m, names[id(m)], types) for m in methods)
    return (
        "\n/** A client of every method of the design: `createClient({baseUrl}).method(request)`. */\n"
        "export function createClient(options: ClientOptions) {\n"
        "  const t = new Transport(options);\n"
        f"  return {{\n{body}  }};\n"
        "}\n\n"
        "/** The client `createClient` returns. */\n"
        "export type Client = ReturnType<typeof createClient>;\n"
    )


def _route(info: MethodInfo) -> str:
    by_path = {b.wire_name: b for b in info.bound(Location.PATH)}
    out = []
    for seg in info.full_route.split("/"):
        if seg.startswith("{") and seg.endswith("}"):
            var = seg[1:-1]
            wildcard = var.endswith("...")
            var = var.removesuffix("...")
            b = by_path.get(var)
            if var in info.base_vars:
                out.append("${t.basePathVar(" + ts_string(var) + ")}")
            elif b is not None:
                out.append("${pathValue(" + _access(b) + (", true" if wildcard else "") + ")}")
            else:
                out.append(_template_text(seg))
        else:
            out.append(_template_text(seg))
    return "`" + "/".join(out) + "`"


def _template_text(s: str) -> str:
    return s.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${")


def _access(b: FieldBinding) -> str:
    key = json_key(b.field.field)
    return f"req.{key}" if key.isidentifier() and key.isascii() else f"req[{ts_string(key)}]"


def _pairs(bindings: Sequence[FieldBinding]) -> str:
    return "[" + ", ".join(f"[{ts_string(b.wire_name)}, {_access(b)}]" for b in bindings) + "]"


def _has_body(info: MethodInfo) -> bool:
    if info.response is None or info.status in (204, 304):
        return False
    if info.response_fields:
        return info.has_response_body
    return info.response.primitive is not None


def _method(info: MethodInfo, name: str, types: TypeMap) -> str:
    req_type = types.shape(info.request) if info.request is not None else None
    fields = [b for b in info.request_fields if b.location is not Location.NONE]
    params = ""
    if req_type is not None:
        required = any(not is_optional(b.field) for b in fields)
        params = f"req: {req_type}" + ("" if required else " = {}")
        params += ", "
    params += "call?: CallOptions"
    parts: list[str] = []
    for loc, key in ((Location.QUERY, "query"), (Location.HEADER, "headers"), (Location.COOKIE, "cookies")):
        bound = info.bound(loc)
        if bound:
            parts.append(f"{key}: {_pairs(bound)}")
    if info.is_multipart:
        parts.append(f"form: {_pairs([b for b in fields if b.location in (Location.FORM, Location.BODY)])}")
    elif info.request is not None and info.verb.lower() in BODY_VERBS and not info.passthrough:
        keys = ", ".join(ts_string(b.wire_name) for b in fields if b.location is Location.BODY)
        parts.append(f"json: pick(req, [{keys}])")
    request = "{ " + ", ".join(parts) + " }" if parts else "{}"
    errors = ", ".join(types.names.decl(e.package, e.name) for e in info.errors)
    doc = _doc(info)
    send = f"const res = await t.send({ts_string(info.verb)}, {_route(info)}, {request}, call);"
    if info.passthrough:
        return f"{doc}    async {name}({params}): Promise<Response> {{\n      {send}\n      return res;\n    }},\n"
    check = f"if (res.status !== {info.status}) throw await failure(res, [{errors}]);"
    lines = [send, check]
    if info.response is None:
        ret = "void"
    else:
        ret = types.shape(info.response)
        struct = info.response.kind in (Kind.TYPE, Kind.ERROR) and not info.response.array_dims
        lines.append(f"const out = {'await body<' + ret + '>(res)' if _has_body(info) else '{} as ' + ret};")
        read = [b for b in info.response_fields if b.location in (Location.HEADER, Location.COOKIE)]
        if struct and read:
            lines.append(f"readBound(res, out, {_bound(read)});")
        lines.append("return out;")
    body = "".join(f"      {ln}\n" for ln in lines)
    return f"{doc}    async {name}({params}): Promise<{ret}> {{\n{body}    }},\n"


def _doc(info: MethodInfo) -> str:
    lines = [f"`{info.verb} {info.full_route}`" + (f": {info.summary}" if info.summary else "")]
    if info.doc:
        lines.extend(info.doc.split("\n"))
    if info.deprecated:
        lines.append("@deprecated")
    text = [ln.replace("*/", "*\\/") for ln in lines]
    if len(text) == 1:
        return f"    /** {text[0]} */\n"
    return "    /**\n" + "".join(f"     * {ln}".rstrip() + "\n" for ln in text) + "     */\n"
