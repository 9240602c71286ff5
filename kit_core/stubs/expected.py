"""The logic stubs kit would write now, one per HTTP method and per RPC, rendered by the
generators themselves (what the design generates, not a second description of it)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kit_core.gosource import GoFunc, GoSource
from kit_core.proto.places import FILE_SERVICE, NAME, SERVICE_METHOD
from kit_core.source import Span, file_span

HTTP = "http"
LOGIC_SUFFIXES = ("Service", "Logic")  # HTTP stubs: <Method>Service; gRPC stubs: <Rpc>Logic


@dataclass(frozen=True, slots=True)
class Expected:
    path: str  # project-relative POSIX path of the stub
    receiver: str  # the logic struct: "CreateTodoService", "GetOrderLogic"
    method: str  # the Go method kit calls
    text: str  # the stub as kit would write it now
    label: str  # how the design names it: "TodoService.CreateTodo", "/shop.v1.Orders/Get"
    span: Span  # where the design declares it (the method's or the RPC's name)
    kind: str  # "http", or the RPC kind: unary, server, client, bidi

    def parsed(self) -> GoFunc | None:
        return method_in(self.text.encode("utf-8"), self.receiver, self.method)


def logic_method(src: GoSource, receiver: str, method: str) -> GoFunc | None:
    return next((m for m in src.methods(receiver) if m.name == method), None)


@lru_cache(maxsize=8192)
def method_in(data: bytes, receiver: str, method: str) -> GoFunc | None:
    """`logic_method` of a file's bytes, remembered: the editor asks again after every pause
    in typing, and stubs (on disk and as kit would write them) rarely change."""
    return logic_method(GoSource.parse(data), receiver, method)


def expected_stubs(ctx: Any, protos: Any = None) -> list[Expected]:
    """Every logic stub of a design (``ctx``: a `GenContext`); ``protos`` is the compiled
    `ProtoDesign`, for the places of RPCs in the `.proto` files."""
    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.go.gocontext import GoGen

    g = GoGen.build(ctx)
    if g.layout.kind == "contracts":
        return []
    return http_expected(g) + grpc_expected(g, protos)


def http_expected(g: Any) -> list[Expected]:
    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.go import stubs

    out = []
    for m in g.http.methods:
        f = stubs.generate(g, m)
        name = m.method.name
        label = f"{m.service}.{name}"
        out.append(Expected(f.path, f"{name}Service", name, f.content, label, m.method.name_span, HTTP))
    return out


def grpc_expected(g: Any, pd: Any) -> list[Expected]:
    if g.protos is None or not g.protos.services:
        return []
    from kit_core.generators.grpc import files  # deferred: loads protobuf, with protos only

    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.grpc.view import services

    out = []
    for v in services(g.protos, g.manifest, g.layout.module, g.runtime):
        for r in v.service.rpcs:
            f = files.logic_stub(v, r)
            span = rpc_span(pd, v.service, r.name)
            out.append(Expected(f.path, f"{r.go_name}Logic", r.go_name, f.content, r.full_method, span, r.kind))
    return out


def rpc_span(pd: Any, service: Any, rpc: str) -> Span:
    """The RPC's name in its `.proto` file (the file's start when the place is unknown)."""

    fdp = pd.file(service.file) if pd is not None else None
    if fdp is None:
        return file_span(service.file)
    for si, svc in enumerate(fdp.service):
        if svc.name != service.name:
            continue
        for mi, m in enumerate(svc.method):
            if m.name == rpc:
                return pd.text(service.file).located(fdp, [FILE_SERVICE, si, SERVICE_METHOD, mi, NAME])
    return pd.text(service.file).located(fdp, [])
