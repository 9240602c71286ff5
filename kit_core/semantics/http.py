"""The HTTP side of a design, computed once for the analyzer and the generators.

    model = http_model(symbols, manifest)          # or analysis.http
    for m in model.methods:                        # MethodInfo, in design order
        m.mux_pattern        # "GET /api/users/{id}"   (Go 1.22 mux syntax; root is "/{$}")
        m.full_route         # "/api/users/{id}"       basePath + @prefix + method route
        m.request_fields     # FieldBinding per request field: location + wire name
        m.middlewares, m.tags, m.security            # inherited + appended, ignore*, deduped
        m.output_dir, m.file_stem                    # @group or file-cased service; method file
        m.status, m.timeout_ns, m.max_body_size
    model.groups["users"]                          # methods writing into one service directory

Rules implemented here (spec "Decorators" 3, 11-16 and "Generated HTTP routes" 1-3):
- route default `/<kebab name>`; full route = basePath + primary `@prefix` + route;
- binding default per verb: body for POST/PUT/PATCH, query for GET/DELETE/HEAD/OPTIONS;
  `@sensitive` fields are not on the wire; response `@header`/`@cookie` fields are
  written to headers/cookies;
- chains: the primary service's, then the extend block's, `@ignoreX` clears them, the
  method's append, duplicates removed keeping the first; the `@group` value is a tag;
- success status: `@status`, else 204 without a response body, 201 for POST, else 200.
Nothing here raises on an invalid design: unresolved parts are left out or None.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from kit_core.decorators import REGISTRY, category_status, flat_args, literal_text
from kit_core.model import Decorator, ErrorDecl, LiteralKind, Method, ServiceDecl, SourceFile, find_decorators
from kit_core.naming import file_case, route_from_method
from kit_core.semantics.types import (
    EffectiveField,
    TypeIndex,
    TypeShape,
    binding_decorator,
    is_sensitive,
    json_key,
)
from kit_core.symbols import Kind, SymbolTable

if TYPE_CHECKING:
    from kit_core.manifest import Manifest

BODY_VERBS = frozenset({"post", "put", "patch"})
VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
HEALTH_PATHS = ("/healthz", "/readyz")


class Location(StrEnum):
    """Where a request or response field travels."""

    BODY = "body"
    PATH = "path"
    QUERY = "query"
    HEADER = "header"
    COOKIE = "cookie"
    FORM = "form"
    NONE = "none"  # @sensitive: server-only


@dataclass(frozen=True, slots=True)
class FieldBinding:
    field: EffectiveField
    location: Location
    wire_name: str  # JSON key for body fields, parameter/header/cookie/part name otherwise
    explicit: bool  # written as a binding decorator (vs the verb's default)
    decorator: Decorator | None = None


@dataclass(frozen=True, slots=True)
class ErrorRef:
    name: str
    package: str
    decl: ErrorDecl
    status: int | None


@dataclass(frozen=True, slots=True)
class MethodInfo:
    package: str
    service: str
    method: Method
    block: ServiceDecl  # the block the method is written in (primary or extend)
    primary: ServiceDecl | None  # None for an orphan extend
    file: SourceFile | None
    verb: str  # upper case: GET, POST, ...
    route: str  # the method's own route (written or default)
    full_route: str
    mux_pattern: str
    path_vars: tuple[str, ...]  # variables of @prefix and the method route, in order
    base_vars: tuple[str, ...]  # variables of openapi.basePath (OpenAPI server variables)
    request: TypeShape | None
    response: TypeShape | None
    request_fields: tuple[FieldBinding, ...]
    response_fields: tuple[FieldBinding, ...]
    middlewares: tuple[str, ...]
    tags: tuple[str, ...]
    security: tuple[tuple[str, ...], ...]  # OR of AND-sets
    errors: tuple[ErrorRef, ...]
    group: str | None
    output_dir: str  # @group value, or the service name in the file case
    file_stem: str  # the method file name without `.go`
    status: int
    explicit_status: bool
    operation_id: str
    explicit_operation_id: bool
    summary: str | None
    doc: str | None
    deprecated: bool
    passthrough: bool
    timeout_ns: int | None
    max_body_size: int | None

    @property
    def has_request_body(self) -> bool:
        return any(b.location in (Location.BODY, Location.FORM) for b in self.request_fields)

    @property
    def is_multipart(self) -> bool:
        return any(b.location is Location.FORM for b in self.request_fields)

    @property
    def declared_file_bytes(self) -> int:
        """The bytes the design lets the request's files take: each file's `@maxSize`, an
        array of files counted `@maxItems` times (once without it); a file without
        `@maxSize` declares nothing. A method without `@maxBodySize` has the default body
        cap raised by it, so the default never refuses an upload the design allows."""
        total = 0
        for b in self.request_fields:
            size = first_int(b.field.field.decorators, "maxSize")
            if size is None:
                continue
            count = first_int(b.field.field.decorators, "maxItems") if b.field.shape.is_array else None
            total += size * max(count or 1, 1)
        return total

    @property
    def has_response_body(self) -> bool:
        return any(b.location is Location.BODY for b in self.response_fields)

    def bound(self, location: Location) -> tuple[FieldBinding, ...]:
        return tuple(b for b in self.request_fields if b.location is location)


@dataclass(frozen=True, slots=True)
class HttpModel:
    methods: tuple[MethodInfo, ...]
    groups: dict[str, tuple[MethodInfo, ...]] = field(default_factory=dict)  # by output_dir


# --------------------------------------------------------------------------- helpers


def decorator_strings(decorators: Iterable[Decorator], name: str) -> list[str]:
    """Values of every `@name(...)` (variadic or one array), in order."""
    return [literal_text(a) for d in decorators if d.name == name for a in flat_args(d)]


def first_string(decorators: Sequence[Decorator], name: str) -> str | None:
    for d in decorators:
        if d.name == name and d.args and d.args[0].kind in (LiteralKind.STRING, LiteralKind.RAW_STRING):
            return str(d.args[0].value)
    return None


def first_int(decorators: Sequence[Decorator], name: str, scale: int = 1) -> int | None:
    """An int argument; a bare INT is multiplied by ``scale`` (seconds -> ns for @timeout)."""
    for d in decorators:
        if d.name == name and d.args:
            lit = d.args[0]
            if lit.kind is LiteralKind.INT and isinstance(lit.value, int):
                return lit.value * scale
            if lit.kind in (LiteralKind.DURATION, LiteralKind.SIZE) and isinstance(lit.value, int | float):
                return int(lit.value)
    return None


def bare_name(name: str) -> str:
    """A middleware's name without its package (`shared.Auth` -> `Auth`): middleware names
    are project-wide, a qualifier only says which package declares it."""
    return name.rpartition(".")[2]


def dedupe(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def clean_group(value: str) -> str:
    return posixpath.normpath(value.strip().strip("/")) if value.strip().strip("/") else value


def route_vars(route: str) -> tuple[str, ...]:
    out = []
    for seg in route.split("/"):
        if seg.startswith("{") and seg.endswith("}"):
            out.append(seg[1:-1].removesuffix("..."))
    return tuple(out)


def join_route(base: str, prefix: str, route: str) -> str:
    """basePath + @prefix + route; a root route under a prefix is the prefix itself."""
    base = base.rstrip("/")
    head = base + prefix.rstrip("/")
    if route in ("", "/"):
        return head or "/"
    return head + route


def mux_pattern(verb: str, full_route: str) -> str:
    """Go 1.22 ServeMux pattern; the root becomes `/{$}` so it does not match every path."""
    return f"{verb} {'/{$}' if full_route == '/' else full_route}"


def success_status(verb: str, has_body: bool, explicit: int | None) -> int:
    if explicit is not None:
        return explicit
    if not has_body:
        return 204
    return 201 if verb == "post" else 200


# --------------------------------------------------------------------------- bindings


def request_bindings(fields: Sequence[EffectiveField], verb: str) -> tuple[FieldBinding, ...]:
    default = Location.BODY if verb in BODY_VERBS else Location.QUERY
    return tuple(_bind(ef, default) for ef in fields)


def response_bindings(fields: Sequence[EffectiveField]) -> tuple[FieldBinding, ...]:
    out = []
    for ef in fields:
        dec = binding_decorator(ef.field)
        if is_sensitive(ef.field):
            out.append(FieldBinding(ef, Location.NONE, ef.name, False))
        elif dec is not None and dec.name in ("header", "cookie"):
            out.append(FieldBinding(ef, Location(dec.name), _wire(ef, dec), True, dec))
        else:
            out.append(FieldBinding(ef, Location.BODY, json_key(ef.field), False))
    return tuple(out)


def _bind(ef: EffectiveField, default: Location) -> FieldBinding:
    if is_sensitive(ef.field):
        return FieldBinding(ef, Location.NONE, ef.name, False)
    dec = binding_decorator(ef.field)
    if dec is None:
        loc = Location.FORM if is_file(ef.shape) else default
        wire = json_key(ef.field)
        return FieldBinding(ef, loc, wire, False)
    return FieldBinding(ef, Location(dec.name), _wire(ef, dec), True, dec)


def is_file(shape: TypeShape) -> bool:
    """`file` or `file[]` (a multipart upload)."""
    return shape.kind is Kind.PRIMITIVE and shape.name == "file"


def _wire(ef: EffectiveField, dec: Decorator) -> str:
    if dec.args and dec.args[0].is_string and str(dec.args[0].value):
        return str(dec.args[0].value)
    return json_key(ef.field)


# --------------------------------------------------------------------------- chains


def _chain(
    kind: str, primary: ServiceDecl | None, block: ServiceDecl, method: Method, extra: Sequence[str] = ()
) -> tuple[str, ...]:
    inherited = decorator_strings(primary.decorators if primary else (), kind)
    if block is not primary:
        inherited += decorator_strings(block.decorators, kind)
    inherited += list(extra)
    ignore = _IGNORE_OF.get(kind)
    if ignore and method.decorator(ignore) is not None:
        inherited = []
    return dedupe(inherited + decorator_strings(method.decorators, kind))


_IGNORE_OF = {spec.clears: spec.name for spec in REGISTRY.values() if spec.clears}


def _security(primary: ServiceDecl | None, block: ServiceDecl, method: Method) -> tuple[tuple[str, ...], ...]:
    def sets(decs: Iterable[Decorator]) -> list[tuple[str, ...]]:
        found = find_decorators(tuple(decs), "security")
        return [tuple(literal_text(a) for a in flat_args(d)) for d in found]

    inherited = sets(primary.decorators if primary else ())
    if block is not primary:
        inherited += sets(block.decorators)
    if method.decorator(_IGNORE_OF["security"]) is not None:
        inherited = []
    return tuple(dict.fromkeys(inherited + sets(method.decorators)))


# --------------------------------------------------------------------------- the model


class HttpBuilder:
    """Builds the model method by method; `method()` can be overridden to reuse results."""

    def __init__(self, symbols: SymbolTable, manifest: Manifest | None, index: TypeIndex) -> None:
        self.symbols = symbols
        self.index = index
        self.base = (manifest.openapi.base_path or "") if manifest else ""
        self.case = manifest.output.file_case if manifest else "snake"

    def build(self) -> HttpModel:
        methods: list[MethodInfo] = []
        for pkg_name in sorted(self.symbols.packages):
            pkg = self.symbols.packages[pkg_name]
            for svc_name, blocks in pkg.services.items():
                primary = next((b for b in blocks if not b.extend), None)
                for block in blocks:
                    for method in block.methods:
                        methods.append(self.method(pkg_name, svc_name, primary, block, method))
        methods = qualify_operation_ids(methods)
        groups: dict[str, list[MethodInfo]] = {}
        for m in methods:
            groups.setdefault(m.output_dir, []).append(m)
        return HttpModel(tuple(methods), {k: tuple(v) for k, v in groups.items()})

    def method(
        self, package: str, service: str, primary: ServiceDecl | None, block: ServiceDecl, method: Method
    ) -> MethodInfo:
        prefix = first_string(primary.decorators, "prefix") if primary else None
        route = method.route.text if method.route else route_from_method(method.name)
        full = join_route(self.base, prefix or "", route)
        request = self.index.shape(method.request, package) if method.request else None
        response = self.index.shape(method.response, package) if method.response else None
        req_fields = request_bindings(self.index.fields_of(request), method.verb) if request else ()
        resp_fields = response_bindings(self.index.fields_of(response)) if response else ()
        group_value = first_string(block.decorators, "group")
        if group_value is None and primary is not None:
            group_value = first_string(primary.decorators, "group")
        group = clean_group(group_value) if group_value else None
        explicit_status = first_int(method.decorators, "status")
        has_body = any(b.location is Location.BODY for b in resp_fields)
        op_id = first_string(method.decorators, "operationId")
        file = self.symbols.packages[package].file_of(block)
        return MethodInfo(
            package=package,
            service=service,
            method=method,
            block=block,
            primary=primary,
            file=file,
            verb=method.verb.upper(),
            route=route,
            full_route=full,
            mux_pattern=mux_pattern(method.verb.upper(), full),
            path_vars=route_vars((prefix or "") + route),
            base_vars=route_vars(self.base),
            request=request,
            response=response,
            request_fields=req_fields,
            response_fields=resp_fields,
            middlewares=dedupe(bare_name(n) for n in _chain("middlewares", primary, block, method)),
            tags=_chain("tags", primary, block, method, [group] if group else []),
            security=_security(primary, block, method),
            errors=self.errors(package, method),
            group=group,
            output_dir=group or file_case(service, self.case),
            file_stem=file_case(method.name, self.case),
            status=success_status(method.verb, has_body, explicit_status),
            explicit_status=explicit_status is not None,
            operation_id=op_id or f"{service}_{method.name}",
            explicit_operation_id=op_id is not None,
            summary=first_string(method.decorators, "summary"),
            doc=method.doc,
            deprecated=any(d is not None and d.decorator("deprecated") is not None for d in (method, block, primary)),
            passthrough=method.decorator("passthrough") is not None,
            timeout_ns=first_int(method.decorators, "timeout", 1_000_000_000),
            max_body_size=first_int(method.decorators, "maxBodySize"),
        )

    def errors(self, package: str, method: Method) -> tuple[ErrorRef, ...]:
        out: dict[tuple[str, str], ErrorRef] = {}
        for dec in find_decorators(method.decorators, "errors"):
            for lit in flat_args(dec):
                if lit.kind is not LiteralKind.IDENT:
                    continue
                pkg_name, _, name = str(lit.value).rpartition(".")
                pkg = self.symbols.packages.get(pkg_name or package)
                decl = pkg.errors.get(name) if pkg else None
                if pkg is not None and decl is not None:
                    ref = ErrorRef(name, pkg.name, decl, category_status(decl.category))
                    out.setdefault((pkg.name, name), ref)
        return tuple(out.values())


def qualify_operation_ids(methods: list[MethodInfo]) -> list[MethodInfo]:
    """Default operationIds are `<Service>_<Method>`; where services of one name in several
    packages would share one, each becomes `<package>_<Service>_<Method>`."""
    counts: dict[str, int] = {}
    for m in methods:
        if not m.explicit_operation_id:
            counts[m.operation_id] = counts.get(m.operation_id, 0) + 1
    return [
        replace(m, operation_id=f"{m.package}_{m.operation_id}")
        if not m.explicit_operation_id and counts[m.operation_id] > 1 and _packages_differ(methods, m)
        else m
        for m in methods
    ]


def _packages_differ(methods: list[MethodInfo], m: MethodInfo) -> bool:
    return any(o.operation_id == m.operation_id and o.package != m.package for o in methods)


def http_model(symbols: SymbolTable, manifest: Manifest | None = None, index: TypeIndex | None = None) -> HttpModel:
    """Every method of the design with its route, bindings, chains and output names."""
    return HttpBuilder(symbols, manifest, index or TypeIndex(symbols)).build()
