"""Per method (and per RPC): where its generated files are and how far its stub is, for code
lenses ("stub: implemented / TODO", "open handler", "open stub", "open in OpenAPI") and for
go to definition from a method to its Go stub. Paths are project-relative, as the
generators write them (`kit_core.generators.go.layout`, `kit_core.generators.grpc.view`).
The generator modules are imported inside the functions, deliberately: they load when a
lens is first asked for, so that kit-lsp's start-up does not wait for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kit_core.model import Method, ServiceDecl
from kit_core.naming import file_case
from kit_core.source import Span
from kit_core.stubs.expected import method_in, rpc_span

MISSING, TODO, IMPLEMENTED, DRIFTED = "not generated yet", "TODO", "implemented", "signature drifted"


@dataclass(frozen=True, slots=True)
class MethodFacts:
    span: Span  # the method's (or RPC's) name in the design
    label: str  # "TodoService.CreateTodo", "/shop.v1.Orders/Get"
    receiver: str  # the logic struct
    method: str  # the logic method
    stub: str  # project-relative path of the logic stub
    handler: str  # project-relative path of the HTTP handler, or of the RPC's server-layer file
    operation_id: str | None = None  # HTTP: as the OpenAPI document names the operation
    openapi: str | None = None  # HTTP: the document's project-relative path


def http_facts(analysis: Any, manifest: Any, path: str) -> list[MethodFacts]:
    """The methods declared in one `.kit` file."""
    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.go.layout import Layout

    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.openapi.document import operation_ids

    layout = Layout.from_manifest(manifest, "")
    methods = analysis.http.methods
    ids = operation_ids(methods)
    doc = layout.openapi_file if manifest.output.kind != "contracts" else None
    out = []
    for m in methods:
        if m.file is None or m.file.path != path:
            continue
        name = m.method.name
        out.append(
            MethodFacts(
                m.method.name_span,
                f"{m.service}.{name}",
                f"{name}Service",
                name,
                f"{layout.join(layout.service, m.output_dir)}/{m.file_stem}.go",
                f"{layout.join(layout.transport, m.output_dir)}/{m.file_stem}.go",
                ids[id(m)],
                doc,
            )
        )
    return out


def rpc_facts(pd: Any, manifest: Any, path: str) -> list[MethodFacts]:
    """The RPCs declared in one `.proto` file of a compiled design (`ProtoDesign`)."""
    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.grpc.view import services

    # deferred: proto support (protobuf) loads only for a design with protos
    from kit_core.proto import ProtoSet

    if pd is None or not pd.compiled or manifest.output.kind == "contracts":
        return []
    ps = ProtoSet.build(pd.files, pd.names, manifest, "module")
    out = []
    for v in services(ps, manifest, "module", "runtime"):
        for r in v.service.rpcs:
            span = rpc_span(pd, v.service, r.name)
            if span.path != path:
                continue
            out.append(
                MethodFacts(
                    span,
                    r.full_method,
                    f"{r.go_name}Logic",
                    r.go_name,
                    f"{v.logic_dir}/{v.rpc_file(r)}",
                    f"{v.server_dir}/{v.rpc_file(r)}",
                )
            )
    return out


def stub_status(data: bytes | None, facts: MethodFacts) -> tuple[str, int]:
    """(status, 0-based line of the logic method in the stub, 0 when unknown)."""
    if data is None:
        return MISSING, 0
    m = method_in(data, facts.receiver, facts.method)
    if m is None or m.sig is None or m.sig.body_start < 0:
        return DRIFTED, 0
    body = data[m.sig.body_start : m.sig.body_end]
    return (TODO if f"TODO: implement {facts.method}".encode() in body else IMPLEMENTED), m.line


def openapi_line(text: str, operation_id: str) -> int | None:
    """The 0-based line of `operationId: <id>` in the generated document (kit writes one
    operation per id, unquoted unless YAML needs quotes)."""
    wanted = {f"operationId: {operation_id}", f"operationId: '{operation_id}'", f'operationId: "{operation_id}"'}
    for i, line in enumerate(text.splitlines()):
        if line.strip() in wanted:
            return i
    return None


def renamed_stubs(analysis: Any, manifest: Any, node: Any, new: str) -> dict[str, str]:
    """Old stub path -> new stub path when ``node`` (a method, or a service without `@group`)
    is renamed to ``new``: what the writer needs to carry the code even when the method's
    types change in the same edit (`kit_core.stubs.carry`)."""
    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.go.layout import Layout

    layout = Layout.from_manifest(manifest, "")
    case = manifest.output.file_case
    out: dict[str, str] = {}
    for m in analysis.http.methods:
        old_dir = layout.join(layout.service, m.output_dir)
        if isinstance(node, Method) and m.method.name_span == node.name_span:
            out[f"{old_dir}/{m.file_stem}.go"] = f"{old_dir}/{file_case(new, case)}.go"
        elif isinstance(node, ServiceDecl) and m.service == node.name and m.group is None:
            new_dir = layout.join(layout.service, file_case(new, case))
            out[f"{old_dir}/{m.file_stem}.go"] = f"{new_dir}/{m.file_stem}.go"
    return {old: new_path for old, new_path in out.items() if old != new_path}
