"""`<output.client>/`: the Go client of the HTTP API (issue 22 item 1).

One method per design method on one `Client`, taking and returning the types packages'
own types. Every binding is written as the generated handler reads it: the values are
formatted by `headers.wire_string` (what response headers are written with), JSON bodies
by the types' `WriteKitJSON`; response and error header and cookie fields are read back
with the server's own binding helpers (`binding.go.j2`, rendered again into the client's
`internal/wire` package) through `Binder`, the statements the handlers bind requests with.

Files: `client.go` (the Client, its options, the call loop, `Error`), one
`<service-dir>_client.go` per service directory, `internal/wire/`.
"""

from __future__ import annotations

import posixpath
import re
import threading
from dataclasses import dataclass
from functools import partial

from kit_core import naming
from kit_core.error_categories import ERROR_CATEGORIES
from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go import binding_file, instances
from kit_core.generators.go.binding import Binder, parser
from kit_core.generators.go.design import FieldFacts
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.handlers import decodes
from kit_core.generators.go.headers import wire_string
from kit_core.generators.go.imports import ImportSet
from kit_core.generators.go.render import block, go_file, go_string
from kit_core.generators.go.typemap import TypeMapper
from kit_core.generators.units import RenderUnit
from kit_core.model import ErrorDecl, TypeDecl
from kit_core.semantics import FieldBinding, Location, MethodInfo

IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
_VERB_CONST = {v: f"http.Method{v.capitalize()}" for v in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")}
_ROUTE_VAR = re.compile(r"\{([^}]*)\}")
_SOURCE = {Location.QUERY: "query", Location.HEADER: "header", Location.COOKIE: "cookie"}


@dataclass(frozen=True, slots=True)
class ErrorCase:
    status: int
    tries: list[str]  # one `if e := new(T); <matches> { ...; return e }` per declared error


@dataclass(frozen=True, slots=True)
class MethodView:
    name: str
    doc: str
    route: str
    passthrough: bool
    verb_const: str
    sends_body: bool  # a `@passthrough` method with a body verb takes the body as it is
    path: str  # Go expression of the escaped path
    params: str
    results: str
    req_type: str | None
    validate: str | None  # a `func() error` running the request's validation
    fail: str  # what precedes the error in a failing return (`nil, `)
    idempotent: str  # Go bool literal
    binds: list[str]
    status: int
    error_func: str
    resp_type: str | None
    resp_body: bool
    resp_reads: list[str]
    cases: list[ErrorCase]
    reads_headers: bool
    # the unexported helpers of client.go the method calls (baseVar, check, decode, jsonBody,
    # form, form.text, form.file, hasCode, decodeBody): client.go holds only those some method calls, as an unused
    # one is dead code staticcheck reports
    helpers: frozenset[str]


def package_name(directory: str) -> str:
    """The Go package name of the client directory (its last element, as an identifier)."""
    name = re.sub(r"[^a-z0-9_]", "", posixpath.basename(directory).lower())
    return name if name and not name[0].isdigit() else "client"


def method_names(g: GoGen) -> dict[int, str]:
    """Go method name per method (by id): its name, or service and name where two services
    of the design declare one name."""
    counts: dict[str, int] = {}
    for m in g.http.methods:
        counts[m.method.name] = counts.get(m.method.name, 0) + 1
    return {
        id(m): m.method.name if counts[m.method.name] == 1 else naming.go_name(m.service) + m.method.name
        for m in g.http.methods
    }


def units(g: GoGen) -> list[RenderUnit]:
    directory = g.layout.client
    if directory is None or not g.http.methods:
        return []
    names = method_names(g)
    out: list[RenderUnit] = []
    groups: list[_Group] = []
    for seg, methods in sorted(g.http.groups.items()):
        own = tuple(names[id(m)] for m in methods)
        unit = RenderUnit(
            f"go/client/{seg}",
            partial(service_file, g, directory, seg, methods, own),
            tuple(sorted({m.package for m in methods})),
            # a name depends on the other directories' methods (a clash adds the service)
            extra=own,
            weight=1 + len(methods) // 4,
        )
        out.append(unit)
        groups.append(_Group(methods, own, g.keys.of(unit) if g.keys is not None else None))
    # which helpers client.go holds depends on every method
    packages = tuple(sorted({m.package for m in g.http.methods}))
    segs = tuple(sorted(g.http.groups))
    shared = partial(shared_files, g, directory, tuple(groups))
    out.append(RenderUnit("go/client", shared, packages, extra=segs, keeps=g.keys is not None))
    return out


@dataclass(frozen=True, slots=True)
class _Group:
    """The methods of one service directory, with the key of their unit (None outside a
    long-lived process)."""

    methods: tuple[MethodInfo, ...]
    names: tuple[str, ...]
    key: str | None


# The helpers each directory's methods call, by the key of the directory's unit. client.go is
# rendered again on every edit (its helpers depend on every method); in a long-lived process
# (`GoGen.keys`) it then builds the views of the directories the edit changed only, not of
# all methods (a third of a one-file edit's time on the 2,000-type design). Only what the
# last render used is kept.
_helpers: dict[str, frozenset[str]] = {}
_helpers_lock = threading.Lock()


def helpers_used(g: GoGen, groups: tuple[_Group, ...]) -> frozenset[str]:
    """The helpers of client.go some method of the design calls."""
    global _helpers
    used: dict[str, frozenset[str]] = {}
    union: set[str] = set()
    with _helpers_lock:
        for group in groups:
            key = group.key
            if key is not None and key in _helpers:
                found = _helpers[key]
            else:
                views = (method_view(g, m, n, _imports(g)) for m, n in zip(group.methods, group.names, strict=True))
                found = frozenset(h for v in views for h in v.helpers)
            if key is not None:
                used[key] = found
            union |= found
        if g.keys is not None:
            _helpers = used
    return frozenset(union)


def shared_files(g: GoGen, directory: str, groups: tuple[_Group, ...]) -> list[OutputFile]:
    helpers = helpers_used(g, groups)
    imports = g.imports()
    for path in ("bytes", "context", "encoding/json", "errors", "io", "mime", "mime/multipart", "net/http"):
        imports.std(path)
    for path in ("net/textproto", "net/url", "strconv", "strings", "time"):
        imports.std(path)
    if helpers & {"decode", "jsonBody", "form"}:
        imports.std("fmt")
    if helpers & {"decode", "jsonBody"}:
        g.rt(imports, "kitjson")
    client = go_file(
        f"{directory}/client.go", Owner.REGEN, package_name(directory), "client.go.j2", imports, helpers=helpers
    )
    wire_dir = f"{directory}/internal/wire"
    binding = binding_file.generate(g)  # the server's binding helpers, in the client's own package
    text = re.sub(r"\npackage \w+\n", "\npackage wire\n", binding.content, count=1)
    wire = OutputFile(f"{wire_dir}/binding.go", text, Owner.REGEN)
    imports = g.imports()
    imports.std("net/http")
    response = go_file(f"{wire_dir}/response.go", Owner.REGEN, "wire", "client_wire.go.j2", imports)
    return [client, wire, response]


def service_file(
    g: GoGen, directory: str, seg: str, methods: tuple[MethodInfo, ...], names: tuple[str, ...]
) -> list[OutputFile]:
    # a first pass finds whether the file reads headers back (imports `wire`), so that the
    # name is taken before design packages are named
    scratch = _views(g, directory, methods, names, _imports(g))
    imports = _imports(g)
    imports.std("context")
    imports.std("net/http")
    if any(v.resp_reads or v.reads_headers for v in scratch):
        imports.std(g.layout.import_path(f"{directory}/internal/wire"))
    views = _views(g, directory, methods, names, imports)
    path = f"{directory}/{seg.replace('/', '_')}_client.go"
    return [go_file(path, Owner.REGEN, package_name(directory), "client_methods.go.j2", imports, methods=views)]


# the names the methods declare: a design package is never imported under one of them
LOCALS = ("c", "ctx", "opts", "req", "rq", "res", "body", "err", "resp", "form", "vs", "x", "e", "r", "o", "opt", "k")


def _imports(g: GoGen) -> ImportSet:
    imports = g.imports()
    imports.reserve(*LOCALS)
    return imports


def _views(
    g: GoGen, directory: str, methods: tuple[MethodInfo, ...], names: tuple[str, ...], imports: ImportSet
) -> list[MethodView]:
    return [method_view(g, m, name, imports) for m, name in zip(methods, names, strict=True)]


def method_view(g: GoGen, m: MethodInfo, name: str, imports: ImportSet) -> MethodView:
    mapper = g.mapper(imports, "")  # no home package: every type is qualified
    binder = Binder(g.design, mapper, "wire")
    req = m.request if m.request is not None and not m.passthrough else None
    resp = m.response if m.response is not None and not m.passthrough else None
    req_type = mapper.shape(req) if req is not None else None
    resp_type = mapper.shape(resp) if resp is not None else None
    params = "ctx context.Context" + (f", req *{req_type}" if req_type else "") + ", opts ...CallOption"
    if m.passthrough:
        params = _passthrough_params(m)
        if m.verb in ("POST", "PUT", "PATCH"):
            imports.std("io")
    results = f"(*{resp_type}, error)" if resp_type else "error"
    fail = "nil, " if resp_type else ""
    uses: set[str] = set()
    binds = _binds(g, m, imports, fail, uses) if req is not None else []
    resp_reads: list[str] = []
    if resp is not None:
        for b in m.response_fields:
            if b.location in (Location.HEADER, Location.COOKIE):
                facts = g.design.facts(b.field.owner, b.field.owner_package, b.field.field)
                resp_reads += binder.statements(b, f"resp.{facts.go_name}", facts.pointer)
    cases = _error_cases(g, m, mapper, binder, uses)
    path = _path(g, m, imports, uses)
    validate = _validate(g, m, mapper) if req is not None else None
    if validate is not None:
        uses.add("check")
    if resp_type is not None and m.has_response_body:
        uses.add("decode")
    return MethodView(
        name=name,
        doc=m.doc or "",
        route=f"{m.verb} {m.full_route}",
        passthrough=m.passthrough,
        verb_const=_VERB_CONST[m.verb],
        sends_body=m.passthrough and m.verb in ("POST", "PUT", "PATCH"),
        path=path,
        params=params,
        results=results,
        req_type=req_type,
        validate=validate,
        fail=fail,
        idempotent="true" if m.verb in IDEMPOTENT else "false",
        binds=binds,
        status=m.status,
        error_func=f"fail{name}" if cases else "frameworkError",
        resp_type=resp_type,
        resp_body=m.has_response_body,
        resp_reads=resp_reads,
        cases=cases,
        reads_headers=any("wire." in t for c in cases for t in c.tries),
        helpers=frozenset(uses),
    )


def _path(g: GoGen, m: MethodInfo, imports: ImportSet, uses: set[str]) -> str:
    """The route with its variables filled in, escaped: `"/todos/" + url.PathEscape(req.ID)`."""
    fields = {b.wire_name: b for b in m.request_fields if b.location is Location.PATH}
    parts: list[str] = []
    pos = 0
    route = m.full_route
    for match in _ROUTE_VAR.finditer(route):
        if match.start() > pos:
            parts.append(go_string(route[pos : match.start()]))
        pos = match.end()
        var = match.group(1).removesuffix("...")
        if var == "$":
            continue
        if var in m.base_vars and var not in fields:
            parts.append(f"c.baseVar({go_string(var)})")
            uses.add("baseVar")
            continue
        if m.passthrough:  # no typed request: the variable is a parameter of the method
            parts.append(f"{imports.std('net/url')}.PathEscape({passthrough_param(var)})")
            continue
        b = fields.get(var)
        if b is None:
            continue
        facts = g.design.facts(b.field.owner, b.field.owner_package, b.field.field)
        value = f"*req.{facts.go_name}" if facts.pointer else f"req.{facts.go_name}"
        parts.append(f"{imports.std('net/url')}.PathEscape({wire_string(g.design, facts, value, imports)})")
    if pos < len(route):
        parts.append(go_string(route[pos:]))
    return " + ".join(parts) or '"/"'


_TAKEN = frozenset(
    "break case chan const continue default defer else fallthrough for func go goto if import interface map package "
    "range return select struct switch type var c ctx opts body contentType o opt u req err k vs url http".split()
)


def passthrough_param(var: str) -> str:
    """The Go parameter carrying a route variable of a `@passthrough` method."""
    name = naming.camel(var) or "v"
    return name + "Value" if name in _TAKEN or not name.isidentifier() else name


def _passthrough_params(m: MethodInfo) -> str:
    names = [passthrough_param(v.removesuffix("...")) for v in m.path_vars if v not in m.base_vars]
    params = ["ctx context.Context", *(f"{n} string" for n in names)]
    if m.verb in ("POST", "PUT", "PATCH"):
        params += ["body io.Reader", "contentType string"]
    return ", ".join([*params, "opts ...CallOption"])


def _validate(g: GoGen, m: MethodInfo, mapper: TypeMapper) -> str | None:
    """What the handler validates the request with, as a `func() error`."""
    req = m.request
    decl = req.decl if req is not None and isinstance(req.decl, TypeDecl) else None
    if decl is None or m.method.request is None or not g.needs.validates(decl):
        return None
    whole = instances.function_name(g, m.method.request, m.package)
    if whole:
        return f"func() error {{ return {mapper.qualify(whole, m.package)}(req) }}"
    return "req.Validate"


def _binds(g: GoGen, m: MethodInfo, imports: ImportSet, fail: str, uses: set[str]) -> list[str]:
    """Statements putting the request's fields where the handler reads them."""
    multipart = m.is_multipart
    out: list[str] = []
    parts: list[str] = []
    for b in m.request_fields:
        if b.location in (Location.PATH, Location.NONE) or (b.location is Location.BODY and not multipart):
            continue
        facts = g.design.facts(b.field.owner, b.field.owner_package, b.field.field)
        shape = b.field.shape
        elem = shape.element() if shape.array_dims else shape
        expr = f"req.{facts.go_name}"
        wire = go_string(b.wire_name)
        if b.location in (Location.FORM, Location.BODY):
            if elem.primitive == "file":
                uses.add("form.file")
                parts.append(
                    block(f"for _, x := range {expr}", f"form.file({wire}, x)")
                    if shape.array_dims
                    else f"form.file({wire}, {expr})"
                )
                continue
            sink = f"form.text({wire}, %s)"
            uses.add("form.text")
        elif b.location is Location.COOKIE:
            sink = f"rq.cookies = append(rq.cookies, &http.Cookie{{Name: {wire}, Value: %s}})"
        else:
            sink = f"rq.{_SOURCE[b.location]}.Add({wire}, %s)"
        # what the handler does not read (nested arrays, objects, arrays of cookies) is not sent
        if shape.array_dims > 1 or elem.array_dims or parser(elem.primitive) is None:
            continue
        if shape.array_dims and b.location is Location.COOKIE:
            continue
        stmt = _one(g, b, facts, expr, sink, imports, out_header=b.location is Location.HEADER)
        (parts if b.location in (Location.FORM, Location.BODY) else out).append(stmt)
    if parts:
        out.append("form := newForm()")
        out.extend(parts)
        out.append(block("if err := form.close(rq); err != nil", f"return {fail}err"))
        uses.add("form")
    elif decodes(m, multipart):
        out.append(block("if err := rq.jsonBody(req); err != nil", f"return {fail}err"))
        uses.add("jsonBody")
    return out


def _one(
    g: GoGen, b: FieldBinding, facts: FieldFacts, expr: str, sink: str, imports: ImportSet, out_header: bool
) -> str:
    """One field: a pointer written when set, an array item by item (a header's items
    comma-separated, as the handler splits them), anything else always."""
    shape = b.field.shape
    if shape.array_dims:
        fmt = wire_string(g.design, facts, "x", imports)
        if out_header:
            strings = imports.std("strings")
            body = [
                f"vs := make([]string, 0, len({expr}))",
                block(f"for _, x := range {expr}", f"vs = append(vs, {fmt})"),
                sink % f'{strings}.Join(vs, ",")',
            ]
            return block(f"if {expr} != nil", *body)
        return block(f"for _, x := range {expr}", sink % fmt)
    pointer = facts.pointer
    value = wire_string(g.design, facts, f"*{expr}" if pointer else expr, imports)
    return block(f"if {expr} != nil", sink % value) if pointer else sink % value


def _error_cases(g: GoGen, m: MethodInfo, mapper: TypeMapper, binder: Binder, uses: set[str]) -> list[ErrorCase]:
    by_status: dict[int, list[str]] = {}
    for ref in m.errors:
        decl = ref.decl
        status = ref.status or ERROR_CATEGORIES[decl.category].status
        by_status.setdefault(status, []).append(_error_try(g, decl, ref.package, mapper, binder, uses))
    return [ErrorCase(s, tries) for s, tries in by_status.items()]


def _error_try(g: GoGen, decl: ErrorDecl, package: str, mapper: TypeMapper, binder: Binder, uses: set[str]) -> str:
    """`if e := new(T); <body matches> { <header fields>; return e }`."""
    go_type = mapper.qualify(naming.error_go_type(decl.name), package)
    own = g.design.fields_of(decl, package)
    json_body = bool(decl.mixins) or any(
        not f.sensitive and f.explicit_binding not in ("header", "cookie") for f in own
    )
    if json_body:
        match = f"decodeBody(body, &e.{decl.name}Body)"
        uses.add("decodeBody")
    else:
        match = f"hasCode(body, {mapper.qualify(f'ErrCode{decl.name}', package)})"
        uses.add("hasCode")
    reads: list[str] = []
    for ef in g.index.fields(decl, package):
        facts = g.design.facts(ef.owner, ef.owner_package, ef.field)
        binding = facts.explicit_binding
        if binding not in ("header", "cookie") or facts.sensitive:
            continue
        b = FieldBinding(ef, Location(binding), facts.wire_name(binding), True)
        reads += binder.statements(b, f"e.{facts.go_name}", facts.pointer)
    return block(f"if e := new({go_type}); {match}", *reads, "return e")


__all__ = ["units"]
