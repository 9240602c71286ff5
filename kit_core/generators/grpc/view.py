"""Where each service's files go and what its Go names are."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any

from kit_core import naming
from kit_core.gowords import KEYWORDS
from kit_core.proto.model import ProtoSet, Rpc, Service


@dataclass(frozen=True, slots=True)
class ServiceView:
    service: Service
    module: str
    runtime: str
    file_case: str
    server_dir: str  # <output.grpc>/<service-dir>
    logic_dir: str  # <output.service>/<service-dir>
    package: str  # Go package name of both directories
    svccontext_dir: str

    def import_path(self, directory: str) -> str:
        return self.module if directory in ("", ".") else f"{self.module}/{directory}"

    def rpc_file(self, r: Rpc) -> str:
        return naming.file_case(r.go_name, self.file_case) + ".go"


def go_package_name(service_go_name: str) -> str:
    """Package of a service's directories: its Go name in lower case (`Orders` -> `orders`)."""
    name = "".join(ch for ch in service_go_name.lower() if ch.isalnum() or ch == "_") or "service"
    if name in KEYWORDS or not name[0].isalpha():
        name = "svc" + name
    return name


def services(ps: ProtoSet, manifest: Any, module: str, runtime: str) -> list[ServiceView]:
    out = manifest.output
    case = out.file_case
    grpc_root, logic_root = out.path("grpc") or "", out.path("service") or ""
    svc_dir = posixpath.dirname(out.path("svccontext") or "svccontext/svccontext.go")
    views = []
    for s in ps.services:
        d = naming.file_case(s.go_name, case)
        views.append(
            ServiceView(
                service=s,
                module=module,
                runtime=runtime,
                file_case=case,
                server_dir=_join(grpc_root, d),
                logic_dir=_join(logic_root, d),
                package=go_package_name(s.go_name),
                svccontext_dir=svc_dir,
            )
        )
    return views


def _join(a: str, b: str) -> str:
    return posixpath.normpath(posixpath.join(a, b)) if a not in ("", ".") else b
