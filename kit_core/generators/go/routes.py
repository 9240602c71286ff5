"""`internal/routes/<service-dir>/routes.go` per directory and the umbrella `internal/routes/routes.go`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.imports import clashes
from kit_core.generators.go.render import go_file
from kit_core.generators.go.sizes import duration_expr, size_expr
from kit_core.semantics import MethodInfo


@dataclass(frozen=True, slots=True)
class RouteView:
    pattern: str
    handler: str  # "handler.CreateTodo(svcCtx)" possibly wrapped in server.WithLimits
    middlewares: list[str]  # "svcCtx.Auth"


@dataclass(frozen=True, slots=True)
class DirView:
    alias: str
    path: str


def generate_dir(g: GoGen, seg: str, methods: tuple[MethodInfo, ...]) -> OutputFile:
    imports = g.imports()
    server = imports.std(f"{g.runtime}/server")
    imports.alias(g.layout.import_path(g.layout.join(g.layout.transport, seg)), "handler")
    imports.std(g.layout.import_path(g.layout.svccontext_dir))
    routes = []
    for m in methods:
        handler = f"handler.{m.method.name}(svcCtx)"
        limits = []
        if m.timeout_ns:
            imports.std("time")
            limits.append(f"Timeout: {duration_expr(m.timeout_ns)}")
        if m.max_body_size:
            limits.append(f"MaxBodySize: {size_expr(m.max_body_size)}")
        elif m.declared_file_bytes:
            limits.append(f"DeclaredFileSize: {size_expr(m.declared_file_bytes)}")
        if m.passthrough:
            limits.append("Streaming: true")  # the logic owns the answer: no write timeout cuts it
        if limits:
            handler = f"{server}.WithLimits({handler}, {server}.Limits{{{', '.join(limits)}}})"
        routes.append(RouteView(m.mux_pattern, handler, [f"svcCtx.{mw}" for mw in m.middlewares]))
    path = f"{g.layout.join(g.layout.routes, seg)}/routes.go"
    return go_file(path, Owner.REGEN, methods[0].package, "routes.go.j2", imports, routes=routes, seg=seg)


def route_alias(seg: str) -> str:
    """Import name of a routes directory, letters and digits only (Go spells no underscore in
    a name): `admin/users` -> `adminusers`, `todo_service` -> `todoservice`."""
    alias = re.sub(r"[^A-Za-z0-9]", "", seg).lower()
    if alias[:1].isdigit() or not alias or clashes(alias):
        alias = "routes" + alias
    return alias


def generate_umbrella(g: GoGen, segs: list[str]) -> OutputFile:
    imports = g.imports()
    imports.std(f"{g.runtime}/server")
    imports.std(g.layout.import_path(g.layout.svccontext_dir))
    dirs = []
    used: set[str] = set()
    for seg in segs:
        path = g.layout.import_path(g.layout.join(g.layout.routes, seg))
        package = g.http.groups[seg][0].package  # a routes directory's package is its methods'
        alias, n = route_alias(seg), 2
        while alias in used:
            alias, n = f"{route_alias(seg)}{n}", n + 1
        used.add(alias)
        # no alias where it would repeat the package's own name (`shop ".../routes/shop"`)
        name = imports.package(path, alias) if alias == package else imports.alias(path, alias)
        dirs.append(DirView(name, seg))
    path = f"{g.layout.routes}/routes.go"
    return go_file(path, Owner.REGEN, "routes", "routes_all.go.j2", imports, dirs=dirs)
