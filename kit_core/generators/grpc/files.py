"""Render the server layer's files: one function per kind of file."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.imports import ImportSet
from kit_core.generators.go.render import go_file
from kit_core.generators.grpc.view import ServiceView
from kit_core.proto.model import GoType, Rpc

GRPC = "google.golang.org/grpc"


class Names:
    """The imports of one file and the Go spelling of message and stream types in it."""

    def __init__(self, v: ServiceView) -> None:
        self.v = v
        self.imports = ImportSet(v.module)

    def std(self, path: str) -> str:
        return self.imports.std(path)

    def rt(self, pkg: str) -> str:
        return self.imports.std(f"{self.v.runtime}/{pkg}")

    def pb(self) -> str:
        """The service's own pb package, imported first so it keeps its name."""
        p = self.v.service.package
        return self.imports.pb(p.import_path, p.name)

    def pb_of(self, r: Rpc) -> None:
        """`pb` when the RPC's messages use it (they may all come from other packages)."""
        own = self.v.service.package.import_path
        if own in (r.request.package.import_path, r.response.package.import_path):
            self.pb()

    def type(self, t: GoType) -> str:
        return f"{self.imports.pb(t.package.import_path, t.package.name)}.{t.name}"

    def stream(self, r: Rpc) -> str:
        grpc = self.std(GRPC)
        req, resp = self.type(r.request), self.type(r.response)
        if r.kind == "server":
            return f"{grpc}.ServerStreamingServer[{resp}]"
        if r.kind == "client":
            return f"{grpc}.ClientStreamingServer[{req}, {resp}]"
        return f"{grpc}.BidiStreamingServer[{req}, {resp}]"

    def svccontext(self) -> None:
        self.std(self.v.import_path(self.v.svccontext_dir))


def server(v: ServiceView) -> OutputFile:
    n = Names(v)
    pb = n.pb()
    n.svccontext()
    path = posixpath.join(v.server_dir, "server.go")
    return go_file(path, Owner.REGEN, v.package, "grpc_server.go.j2", n.imports, s=v.service, pb=pb)


def rpc_method(v: ServiceView, r: Rpc) -> OutputFile:
    n = Names(v)
    n.pb_of(r)
    n.rt("rpc")
    n.imports.alias(v.import_path(v.logic_dir), "logic")
    if r.kind == "unary":
        n.std("context")
    req, resp = f"*{n.type(r.request)}", f"*{n.type(r.response)}"
    stream = n.stream(r) if r.kind != "unary" else ""
    path = posixpath.join(v.server_dir, v.rpc_file(r))
    return go_file(path, Owner.REGEN, v.package, "grpc_rpc.go.j2", n.imports, r=r, req=req, resp=resp, stream=stream)


def logic_signature(n: Names, r: Rpc) -> tuple[str, str]:
    """(params, results) of the logic method, by RPC kind (spec "gRPC endpoints")."""
    req = f"req *{n.type(r.request)}"
    if r.kind == "unary":
        return req, f"(*{n.type(r.response)}, error)"
    if r.kind == "server":
        return f"{req}, stream {n.stream(r)}", "error"
    return f"stream {n.stream(r)}", "error"


def logic_names(v: ServiceView, r: Rpc) -> tuple[Names, str]:
    """The imports of a logic file of ``r`` (its messages, context, log, the service context)
    and the runtime log package's name: the stub's, and the mock's (`kit mock`)."""
    n = Names(v)
    n.pb_of(r)
    n.std("context")
    log = n.rt("log")
    n.svccontext()
    return n, log


def logic_stub(v: ServiceView, r: Rpc) -> OutputFile:
    n, log = logic_names(v, r)
    params, results = logic_signature(n, r)
    doc = f"{r.go_name} implements {r.full_method}." + (f"\n\n{r.doc}" if r.doc else "")
    path = posixpath.join(v.logic_dir, v.rpc_file(r))
    return go_file(
        path,
        Owner.GEN_ONCE,
        v.package,
        "grpc_logic.go.j2",
        n.imports,
        r=r,
        log=log,
        params=params,
        results=results,
        doc=doc,
    )


@dataclass(frozen=True, slots=True)
class Registration:
    pb: str
    go_name: str
    pkg: str


def wiring(views: Sequence[ServiceView], manifest: Any, module: str, runtime: str) -> OutputFile:
    wiring_dir = manifest.output.path("wiring") or "internal/wiring"
    imports = ImportSet(module)
    for std in ("context", "errors"):
        imports.std(std)
    imports.std(f"{runtime}/rpc")
    if views:
        imports.std(views[0].import_path(views[0].svccontext_dir))
    regs = []
    for v in views:
        pkg = imports.named(v.import_path(v.server_dir), v.package, v.package + "grpc")
        pb = imports.pb(v.service.package.import_path, v.service.package.name)
        regs.append(Registration(pb, v.service.go_name, pkg))
    path = posixpath.join(wiring_dir, "grpc.go")
    return go_file(path, Owner.REGEN, "wiring", "grpc_wiring.go.j2", imports, registrations=regs)
