"""`internal/transport/<service-dir>/<method-file>.go`: one HTTP handler per method.

Pipeline ("Generated HTTP routes" rule 4): defaults -> decode body -> bind non-body fields
-> Validate() -> build the logic object -> call -> write the error, or encode the response.
`@passthrough` hands the raw writer and request to the logic.
"""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go import instances
from kit_core.generators.go.binding import Binder, is_bound
from kit_core.generators.go.defaults import default_statements
from kit_core.generators.go.gocontext import GoGen, go_doc
from kit_core.generators.go.headers import header_writes
from kit_core.generators.go.imports import ImportSet
from kit_core.generators.go.render import go_file
from kit_core.generators.go.sizes import size_expr
from kit_core.generators.go.statuses import go_status
from kit_core.generators.go.typemap import TypeMapper
from kit_core.model import TypeDecl
from kit_core.semantics import Location, MethodInfo

MULTIPART_FLOOR = 32 << 20


@dataclass(frozen=True, slots=True)
class HandlerView:
    name: str
    pattern: str
    doc: str
    passthrough: bool
    req_type: str | None
    defaults: list[str]
    decode: bool
    multipart: str | None  # max memory expression when the request is multipart
    binds: list[str]
    query: bool  # a bound field is read from the query (parsed once)
    validate: str | None  # the call validating `req` (`req.Validate()`), if any
    has_resp: bool
    resp_type: str | None
    resp_body: bool
    headers: list[str]
    status: int
    status_go: str  # `http.StatusCreated`


def service_import(g: GoGen, m: MethodInfo) -> str:
    return g.layout.import_path(g.layout.join(g.layout.service, m.output_dir))


def generate(g: GoGen, m: MethodInfo) -> OutputFile:
    imports = g.imports()
    imports.std("net/http")
    view = handler_view(g, m, imports)
    imports.std(f"{g.runtime}/server")
    imports.alias(service_import(g, m), "logic")
    imports.std(g.layout.import_path(g.layout.svccontext_dir))
    path = f"{g.layout.join(g.layout.transport, m.output_dir)}/{m.file_stem}.go"
    return go_file(path, Owner.REGEN, m.package, "handler.go.j2", imports, h=view)


def _validate_call(g: GoGen, m: MethodInfo, mapper: TypeMapper, req_decl: TypeDecl | None) -> str | None:
    """`req.Validate()`, or the types package's function for a request that is a generic
    instance over slices or maps (see `instances`)."""
    if req_decl is None or m.method.request is None or not g.needs.validates(req_decl):
        return None
    whole = instances.function_name(g, m.method.request, m.package)
    return f"{mapper.qualify(whole, m.package)}(&req)" if whole else "req.Validate()"


def decodes(m: MethodInfo, multipart: bool) -> bool:
    """Whether the handler decodes a JSON body (some field travels in it)."""
    return not multipart and any(b.location is Location.BODY for b in m.request_fields)


def handler_view(g: GoGen, m: MethodInfo, imports: ImportSet) -> HandlerView:
    mapper = g.mapper(imports, m.package, "types")
    req = m.request if m.request is not None and not m.passthrough else None
    req_type = mapper.shape(req) if req is not None else None
    multipart = m.is_multipart and req is not None
    binds: list[str] = []
    defaults: list[str] = []
    query = False
    helper = "transport"
    if req is not None:
        binder = Binder(g.design, mapper, helper)
        for b in m.request_fields:
            if is_bound(b, multipart):
                facts = g.design.facts(b.field.owner, b.field.owner_package, b.field.field)
                binds.extend(binder.statements(b, f"req.{facts.go_name}", facts.pointer))
        defaults = default_statements(g, mapper, m, helper, decodes(m, multipart))
        query = binder.uses_query
    resp = m.response if m.response is not None and not m.passthrough else None
    resp_decl = resp.decl if resp is not None and isinstance(resp.decl, TypeDecl) else None
    headers: list[str] = []
    if resp_decl is not None and resp is not None and resp.package is not None:
        headers = header_writes(g.design, g.design.flat_fields(resp_decl, resp.package), "resp", imports)
    if binds or defaults or multipart:
        imports.package(g.layout.import_path(g.layout.transport), helper)  # binding.go's package
    req_decl = req.decl if req is not None and isinstance(req.decl, TypeDecl) else None
    max_memory = max(MULTIPART_FLOOR, m.max_body_size or 0)
    return HandlerView(
        name=m.method.name,
        pattern=m.mux_pattern,
        doc=go_doc(m.method.name, m.doc, (), f"{m.method.name} handles {m.mux_pattern}."),
        passthrough=m.passthrough,
        req_type=req_type,
        defaults=defaults,
        decode=req is not None and decodes(m, multipart),
        multipart=size_expr(max_memory, compact=True) if multipart else None,
        binds=binds,
        query=query,
        validate=_validate_call(g, m, mapper, req_decl),
        has_resp=resp is not None,
        resp_type=mapper.shape(resp) if resp is not None else None,
        resp_body=m.has_response_body,
        headers=headers,
        status=m.status,
        status_go=go_status(m.status),
    )
