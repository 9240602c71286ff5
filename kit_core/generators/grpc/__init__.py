"""The gRPC server layer around the plugins' pb code: `generate(protos, manifest, module)`.

A pure function of the compiled protos (`kit_core.proto.ProtoSet`), the manifest and the
module path; one file per unit:

| file | owner |
|---|---|
| `<output.grpc>/<service>/server.go`: `Server` embedding the unimplemented server, `NewServer(svcCtx)` | REGEN |
| `<output.grpc>/<service>/<rpc>.go`: validate, call logic, `rpc.Error` | REGEN |
| `<output.service>/<service>/<rpc>.go`: the logic stub, one of four signature shapes | GEN-ONCE |
| `<output.wiring>/grpc.go`: `RegisterGRPC(ctx, srv, svcCtx)`, only while a service exists | REGEN |
"""

from __future__ import annotations

from typing import Any

from kit_core.generators.base import OutputFile
from kit_core.generators.grpc import files
from kit_core.generators.grpc.view import ServiceView, services

__all__ = ["generate"]


def generate(protos: Any, manifest: Any, module: str, runtime: str) -> list[OutputFile]:
    """Every server-layer file; nothing when there is no service (or under `kind: contracts`)."""
    if protos is None or manifest.output.kind == "contracts" or not protos.services:
        return []
    views = services(protos, manifest, module, runtime)
    out: list[OutputFile] = []
    for v in views:
        out.extend(service_files(v))
    out.append(files.wiring(views, manifest, module, runtime))
    return out


def service_files(v: ServiceView) -> list[OutputFile]:
    out = [files.server(v)]
    for r in v.service.rpcs:
        out.append(files.rpc_method(v, r))
        out.append(files.logic_stub(v, r))
    return out
