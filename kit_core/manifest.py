"""`kit.design.yaml`: the manifest model (keys, defaults and removed keys come from the one
table, `manifest_keys.py`), the starter manifest.

Reading one (unknown-key warnings, removed keys, checks: `parse_manifest`, `load_manifest`)
is `manifest_reader.py`, which imports this model; what only needs the model (the writer, a
run that finds nothing changed) does not load PyYAML or the diagnostics registry.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kit_core.designfiles import MANIFEST_NAME  # noqa: F401 - one spelling of the name, re-exported
from kit_core.manifest_keys import BY_NAME, OUTPUT_KEYS, SCALAR_KEYS, SECTION_KEYS
from kit_core.manifest_keys import REMOVED_KEYS as REMOVED_KEYS  # re-exported (the reader imports it from here)

if TYPE_CHECKING:
    from kit_core.source import Span

FILE_CASES = BY_NAME["output.fileCase"].values
KINDS = BY_NAME["output.kind"].values

# Output keys: (default under application, default under contracts, accepts "-").
_OUTPUT_KEYS: dict[str, tuple[str, str, bool]] = {
    k.leaf: (k.default or "", k.contracts_default or k.default or "", k.dash) for k in OUTPUT_KEYS
}
_FILE_OUTPUTS = frozenset({"svccontext", "main", "openapi"})  # file paths, not directories

_KNOWN_SCALARS = SCALAR_KEYS
_KNOWN_SECTIONS = SECTION_KEYS


@dataclass(frozen=True, slots=True)
class OpenAPIConfig:
    title: str | None = None
    version: str = "0.1.0"
    description: str | None = None
    base_path: str | None = None
    security_schemes: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class OutputConfig:
    kind: str = "application"
    types: str = "./internal/types"
    transport: str = "./internal/transport"
    routes: str = "./internal/routes"
    wiring: str = "./internal/wiring"
    service: str = "./internal/service"
    middleware: str = "./internal/middleware"
    config: str = "./config"
    svccontext: str = "./svccontext/svccontext.go"
    main: str = "./main.go"
    openapi: str = "./docs/openapi.yaml"
    pb: str = "./internal/pb"
    grpc: str = "./internal/grpc"
    client: str = "./client"
    tsClient: str = "-"  # noqa: N815 - the manifest key's spelling (fields are filled by key)
    file_case: str = "snake"

    def path(self, key: str) -> str | None:
        """Project-relative POSIX path of an output key, None when disabled (`-`)."""
        value = str(getattr(self, key))
        if value == "-":
            return None
        return posixpath.normpath(value)


@dataclass(frozen=True, slots=True)
class EventTarget:
    lang: str
    out: str


@dataclass(frozen=True, slots=True)
class ProtoConfig:
    includes: tuple[str, ...] = ()
    plugin_go: str = ""
    plugin_go_grpc: str = ""


@dataclass(frozen=True, slots=True)
class Manifest:
    path: str
    openapi: OpenAPIConfig = field(default_factory=OpenAPIConfig)
    output: OutputConfig = field(default_factory=OutputConfig)
    events_targets: tuple[EventTarget, ...] | None = None  # None: not written in the manifest
    proto: ProtoConfig = field(default_factory=ProtoConfig)
    key_spans: dict[str, Span] = field(default_factory=dict, compare=False, repr=False)

    def events_out_default(self) -> str:
        return "./gen/events" if self.output.kind == "contracts" else "./internal/events"


def default_manifest(path: str = MANIFEST_NAME) -> Manifest:
    return Manifest(path=path)


# --------------------------------------------------------------------------- kit init

STARTER = """\
# kit design manifest. Paths are relative to the project root (the folder holding go.mod).
output:
  types:      ./internal/types
  transport:  ./internal/transport
  routes:     ./internal/routes
  wiring:     ./internal/wiring
  service:    ./internal/service
  middleware: ./internal/middleware
  svccontext: ./svccontext/svccontext.go
  openapi:    ./docs/openapi.yaml
  config:     ./config
  # kind: contracts           # only payload types and the events library, for designs others import
  # main: ./cmd/server/main.go # or "-" to write no entry point, config or service context
  # pb: ./internal/pb          # "-" runs no protobuf plugin
  # grpc: ./internal/grpc
  # client: ./client           # the Go client of the HTTP API; "-" writes none
  # fileCase: snake            # snake | kebab | camel
openapi:
  title:    My API
  version:  1.0.0
  basePath: /api
  # securitySchemes:
  #   bearer:
  #     type: http
  #     scheme: bearer
  #     bearerFormat: JWT
  #   oauth:
  #     type: oauth2
  #     flows:
  #       clientCredentials:
  #         tokenUrl: https://auth.example.com/token
  #         scopes: {}
  #   apiKey:
  #     type: apiKey
  #     in: header
  #     name: X-API-Key
# events:
#   targets:
#     - lang: go
#       out: ./internal/events
# proto:
#   includes: []
#   plugins:
#     go: ""       # empty: `go tool protoc-gen-go` pinned in go.mod
#     goGrpc: ""
"""
