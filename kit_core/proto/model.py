"""The compiled protos as the Go side sees them: packages, message types, services, RPCs.

    ps = ProtoSet.build(pd.files, pd.names, manifest, module)

A pure function of the compiled descriptors, the manifest and the module path: the gRPC
generator and the plugin runner read only this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf import descriptor_pb2

from kit_core.proto import gopkg
from kit_core.proto.gonames import go_camel_case, message_go_name
from kit_core.proto.places import FILE_SERVICE, SERVICE_METHOD


@dataclass(frozen=True, slots=True)
class GoPackage:
    import_path: str
    name: str


@dataclass(frozen=True, slots=True)
class GoType:
    package: GoPackage
    name: str


@dataclass(frozen=True, slots=True)
class Rpc:
    name: str  # as declared
    go_name: str  # as protoc-gen-go-grpc names the method
    full_method: str  # "/shop.v1.Orders/Get"
    request: GoType
    response: GoType
    client_streaming: bool
    server_streaming: bool
    doc: str

    @property
    def kind(self) -> str:
        """unary, server (streaming), client (streaming) or bidi."""
        if self.client_streaming and self.server_streaming:
            return "bidi"
        if self.client_streaming:
            return "client"
        return "server" if self.server_streaming else "unary"


@dataclass(frozen=True, slots=True)
class Service:
    name: str
    go_name: str
    full_name: str  # "shop.v1.Orders"
    file: str  # import name of the proto declaring it
    package: GoPackage  # the pb package holding its generated server interface
    rpcs: tuple[Rpc, ...]
    doc: str


@dataclass(frozen=True, slots=True)
class ProtoSet:
    files: tuple[descriptor_pb2.FileDescriptorProto, ...]  # every compiled file, dependency order
    design: tuple[str, ...]  # the design's own protos (import names)
    packages: dict[str, GoPackage]  # every file's Go package, by import name
    pb_dirs: dict[str, str]  # design proto -> project-relative directory of its pb code ({} with `pb: -`)
    services: tuple[Service, ...]

    @classmethod
    def build(
        cls,
        files: Sequence[descriptor_pb2.FileDescriptorProto],
        design: Sequence[str],
        manifest: Any,
        module: str,
    ) -> ProtoSet:
        pb = manifest.output.path("pb")
        own = set(design)
        packages: dict[str, GoPackage] = {}
        pb_dirs: dict[str, str] = {}
        for f in files:
            if f.name in own and pb is not None:
                pb_dirs[f.name] = gopkg.pb_dir(f.name, pb)
                path = module if pb_dirs[f.name] in ("", ".") else f"{module}/{pb_dirs[f.name]}"
                packages[f.name] = GoPackage(path, gopkg.design_package_name(f, pb))
            elif f.name in own:
                packages[f.name] = GoPackage(gopkg.written_go_package(f)[0], gopkg.design_package_name(f, None))
            else:
                packages[f.name] = GoPackage(*gopkg.foreign_package(f))
        types = _message_types(files, packages)
        services = tuple(
            _service(f, si, packages[f.name], types) for f in files if f.name in own for si in range(len(f.service))
        )
        return cls(tuple(files), tuple(design), packages, pb_dirs, services)

    def go_mappings(self) -> list[str]:
        """`M<file>=<import path>;<name>` for each design proto: where the plugins put it."""
        return [f"M{name}={self.packages[name].import_path};{self.packages[name].name}" for name in self.design]


def _message_types(
    files: Sequence[descriptor_pb2.FileDescriptorProto], packages: dict[str, GoPackage]
) -> dict[str, GoType]:
    """Every message's Go type by full name (".shop.v1.Order"), nested ones included."""
    out: dict[str, GoType] = {}

    def walk(f: descriptor_pb2.FileDescriptorProto, prefix: str, msgs: Any) -> None:
        for m in msgs:
            full = f"{prefix}.{m.name}"
            out[full] = GoType(packages[f.name], message_go_name(full, f.package))
            walk(f, full, m.nested_type)

    for f in files:
        walk(f, f".{f.package}" if f.package else "", f.message_type)
    return out


def _service(f: descriptor_pb2.FileDescriptorProto, si: int, package: GoPackage, types: dict[str, GoType]) -> Service:

    svc = f.service[si]
    full = f"{f.package}.{svc.name}" if f.package else svc.name
    comments = _comments(f)
    rpcs = tuple(
        Rpc(
            name=m.name,
            go_name=go_camel_case(m.name),
            full_method=f"/{full}/{m.name}",
            request=types[m.input_type],
            response=types[m.output_type],
            client_streaming=m.client_streaming,
            server_streaming=m.server_streaming,
            doc=comments.get((FILE_SERVICE, si, SERVICE_METHOD, mi), ""),
        )
        for mi, m in enumerate(svc.method)
    )
    return Service(svc.name, go_camel_case(svc.name), full, f.name, package, rpcs, comments.get((FILE_SERVICE, si), ""))


def _comments(f: descriptor_pb2.FileDescriptorProto) -> dict[tuple[int, ...], str]:
    return {
        tuple(loc.path): "\n".join(line.strip() for line in loc.leading_comments.strip().splitlines())
        for loc in f.source_code_info.location
        if loc.leading_comments.strip()
    }
