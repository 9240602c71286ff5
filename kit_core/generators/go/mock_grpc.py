"""The gRPC side of `kit mock`: every gRPC logic stub answers messages built from its type.

Only under `kit mock`. The server layer (`internal/grpc/`, which validates each request as
the real service does) is kept; each logic stub is replaced by one answering
`mockanswers.Message(new(pb.Resp))`: unary calls with one message, server streams with
`StreamItems` of them, client streams once the stream ends, bidirectional streams one
answer per request. `Message` (`mock_proto.go.j2`) fills a message through protoreflect;
the fields with protovalidate rules take the values `mock_proto_rules` built to pass them.
"""

from __future__ import annotations

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.mock_proto_rules import field_rules
from kit_core.generators.go.render import go_file
from kit_core.generators.grpc.files import logic_names, logic_signature
from kit_core.generators.grpc.view import ServiceView, services
from kit_core.proto.model import Rpc

PROTOREFLECT = "google.golang.org/protobuf/reflect/protoreflect"


def generate(g: GoGen, answers_dir: str, answers_package: str) -> list[OutputFile]:
    """`<answers_dir>/proto.go` and one mock logic stub per RPC (at its stub's path); nothing
    for a design without gRPC services."""
    if not g.has_grpc:
        return []
    imports = g.imports()
    imports.std("strconv")
    imports.std("google.golang.org/protobuf/proto")
    imports.std(PROTOREFLECT)
    rules = field_rules(g.protos)
    out = [go_file(f"{answers_dir}/proto.go", Owner.REGEN, answers_package, "mock_proto.go.j2", imports, rules=rules)]
    for v in services(g.protos, g.manifest, g.layout.module, g.runtime):
        out.extend(_stub(g, v, r, answers_dir) for r in v.service.rpcs)
    return out


def _stub(g: GoGen, v: ServiceView, r: Rpc, answers_dir: str) -> OutputFile:
    n, log = logic_names(v, r)
    if r.kind in ("client", "bidi"):
        n.std("errors")
        n.std("io")
    answers = n.std(g.layout.import_path(answers_dir))
    params, results = logic_signature(n, r)
    resp = n.type(r.response)
    path = f"{v.logic_dir}/{v.rpc_file(r)}"
    return go_file(
        path,
        Owner.REGEN,
        v.package,
        "mock_grpc_logic.go.j2",
        n.imports,
        r=r,
        log=log,
        params=params,
        results=results,
        resp=resp,
        answers=answers,
    )
