"""Where every Go artefact goes: output keys of the manifest, file case, import paths."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any

from kit_core import naming


def clean(path: str) -> str:
    p = posixpath.normpath(path)
    return "" if p == "." else p


@dataclass(frozen=True, slots=True)
class Layout:
    module: str
    kind: str  # application | contracts
    file_case: str
    types: str
    transport: str
    routes: str
    wiring: str
    service: str
    middleware: str
    config: str
    svccontext_file: str
    main_file: str | None  # None: `output.main: "-"` (no entry point, config or svccontext.go)
    openapi_file: str | None
    client: str | None = None  # None: `output.client: "-"` (no Go client of the HTTP API)

    @classmethod
    def from_manifest(cls, manifest: Any, module: str) -> Layout:
        out = manifest.output

        def opt(value: str) -> str | None:
            return None if value == "-" else clean(value)

        return cls(
            module=module,
            kind=out.kind,
            file_case=out.file_case,
            types=clean(out.types),
            transport=clean(out.transport),
            routes=clean(out.routes),
            wiring=clean(out.wiring),
            service=clean(out.service),
            middleware=clean(out.middleware),
            config=clean(out.config),
            svccontext_file=clean(out.svccontext),
            main_file=opt(out.main),
            openapi_file=opt(out.openapi),
            client=opt(getattr(out, "client", "-")),
        )

    # ---------------------------------------------------------------- paths

    def join(self, *parts: str) -> str:
        return posixpath.normpath(posixpath.join(*[p for p in parts if p])) if any(parts) else ""

    def import_path(self, directory: str) -> str:
        return self.module if directory in ("", ".") else f"{self.module}/{directory}"

    def types_dir(self, package: str) -> str:
        return self.join(self.types, package)

    def seg(self, service: str, group: str | None) -> str:
        """`<service-dir>`: the service name in file case, or the `@group` path verbatim."""
        if group:
            return clean(group.strip("/"))
        return naming.file_case(service, self.file_case)

    @property
    def svccontext_dir(self) -> str:
        return posixpath.dirname(self.svccontext_file)

    @property
    def main_dir(self) -> str:
        return posixpath.dirname(self.main_file) if self.main_file else ""
