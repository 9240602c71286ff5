"""The one table of `kit.design.yaml` keys: what each does, its default, its values.

The manifest reader (`kit_core.manifest`) takes its known, removed and output keys from
here; the language server's hover, completion and key diagnostics read the same rows.

Key names are dotted paths. A list of mappings is written `events.targets[].out`; a
mapping whose keys the user chooses (a security scheme's name, an oauth2 flow body) is
written with `*`: `openapi.securitySchemes.*.type`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class KeyKind(str, Enum):
    SECTION = "section"  # a mapping of known keys
    SCALAR = "scalar"  # one value
    LIST = "list"  # a list of values (`proto.includes`)
    ITEMS = "items"  # a list of mappings of known keys (`events.targets`)
    NAMED = "named"  # a mapping whose keys the user names (`openapi.securitySchemes`)
    FREE = "free"  # any YAML (oauth2 `scopes`)


@dataclass(frozen=True, slots=True)
class Key:
    name: str
    kind: KeyKind
    doc: str
    default: str | None = None  # as the user would write it; None: no default (or not set)
    values: tuple[str, ...] = ()  # the closed set of accepted values, when there is one
    dash: bool = False  # accepts "-" (disabled)
    contracts_default: str | None = None  # the default under `output.kind: contracts`, when different

    @property
    def leaf(self) -> str:
        return self.name.rsplit(".", 1)[-1].removesuffix("[]")

    @property
    def section(self) -> str:
        return self.name.rsplit(".", 1)[0] if "." in self.name else ""


def _out(name: str, default: str, doc: str, dash: bool = False, contracts: str | None = None) -> Key:
    return Key(f"output.{name}", KeyKind.SCALAR, doc, default, (), dash, contracts)


_S = "openapi.securitySchemes.*"
_F = f"{_S}.flows"

KEYS: tuple[Key, ...] = (
    Key(
        "output",
        KeyKind.SECTION,
        "Where generated files go. Paths are relative to the project root (the "
        "folder holding `go.mod`) and must stay inside it.",
    ),
    Key(
        "output.kind",
        KeyKind.SCALAR,
        "`application` generates a whole service; `contracts` generates only "
        "payload types and the events library (pb code with its client to `./gen/pb`, events to "
        "`./gen/events`) for a design several deployables import.",
        "application",
        ("application", "contracts"),
    ),
    _out(
        "types",
        "./internal/types",
        "Typed structs, `Validate()` methods, enums and errors, one Go package "
        "per design package (`<types>/<package>/`). REGEN.",
        contracts="./gen/types",
    ),
    _out(
        "transport",
        "./internal/transport",
        "One HTTP handler per method (`<transport>/<service-dir>/<method-file>.go`). REGEN.",
    ),
    _out(
        "routes",
        "./internal/routes",
        "Route registration: one routes file per service directory and the umbrella `RegisterAll`. REGEN.",
    ),
    _out(
        "wiring",
        "./internal/wiring",
        "The wiring package: `Register(ctx, srv, svcCtx)` and, while a proto "
        "declares a service, `RegisterGRPC`. REGEN.",
    ),
    _out("service", "./internal/service", "Logic stubs, one per method and RPC. GEN-ONCE: yours to edit, never swept."),
    _out(
        "middleware",
        "./internal/middleware",
        "One scaffold per declared middleware (`<name>_middleware.go`). GEN-ONCE.",
    ),
    _out("config", "./config", "`config.go`, `config.yaml` and `example.config.yaml`. GEN-ONCE."),
    _out("svccontext", "./svccontext/svccontext.go", "The service context file (a file path). GEN-ONCE."),
    _out(
        "main",
        "./main.go",
        'The entry point (a file path); `"-"` writes no entry point, config or service context.',
        dash=True,
    ),
    _out("openapi", "./docs/openapi.yaml", 'The OpenAPI 3.1 document (a file path); `"-"` writes none.', dash=True),
    _out(
        "pb",
        "./internal/pb",
        'pb code of the design\'s protos, mirroring their directories; `"-"` runs no '
        "protobuf plugin (every proto then needs `option go_package`).",
        dash=True,
        contracts="./gen/pb",
    ),
    _out(
        "tsClient",
        "-",
        "The TypeScript client of the HTTP API (a directory): `types.ts` and `client.ts`, "
        'an ES module over `fetch` with no dependency. Opt-in: `"-"` (the default) writes none. REGEN.',
        dash=True,
    ),
    _out("grpc", "./internal/grpc", "The gRPC server layer: `server.go` and one file per RPC per service. REGEN."),
    _out(
        "client",
        "./client",
        "The Go client of the HTTP API: one method per design method, taking and "
        "returning the design's types, typed errors (`errors.As`). Other modules import it, so it lives outside "
        '`internal/`. REGEN; `"-"` writes none. Under `output.kind: contracts` it is off unless set (`./gen/client`); '
        "when set, the types packages there carry every declaration, with their JSON codec and errors.",
        dash=True,
        contracts="-",
    ),
    Key(
        "output.fileCase",
        KeyKind.SCALAR,
        "Case of generated file and directory names (method and RPC files, "
        "service directories, middleware scaffolds). Routes, Go identifiers and package names are not "
        "affected.",
        "snake",
        ("snake", "kebab", "camel"),
    ),
    Key("openapi", KeyKind.SECTION, "The OpenAPI document and the routes' base path."),
    Key(
        "openapi.title",
        KeyKind.SCALAR,
        "The document title (`info.title`).",
        "the first design package's name, alphabetically",
    ),
    Key("openapi.version", KeyKind.SCALAR, "The document version (`info.version`); a file's `@version` wins.", "0.1.0"),
    Key("openapi.description", KeyKind.SCALAR, "`info.description`; a file's `@doc` wins."),
    Key(
        "openapi.basePath",
        KeyKind.SCALAR,
        "Path prefix of every route (`/api`); a `{variable}` in it becomes "
        "an OpenAPI server variable. Starts with `/`, does not end with one.",
    ),
    Key(
        "openapi.securitySchemes",
        KeyKind.NAMED,
        "Named security schemes; `@security(Name)` must name one "
        "of them. Each becomes an OpenAPI `components.securitySchemes` entry.",
    ),
    Key(
        f"{_S}.type",
        KeyKind.SCALAR,
        "The scheme type; each type needs its own fields.",
        None,
        ("http", "apiKey", "oauth2", "openIdConnect", "mutualTLS"),
    ),
    Key(f"{_S}.description", KeyKind.SCALAR, "A description of the scheme."),
    Key(
        f"{_S}.scheme",
        KeyKind.SCALAR,
        "`http` schemes: the HTTP authentication scheme.",
        None,
        ("bearer", "basic", "digest"),
    ),
    Key(f"{_S}.bearerFormat", KeyKind.SCALAR, "`http` bearer schemes: a hint of the token format (`JWT`)."),
    Key(f"{_S}.in", KeyKind.SCALAR, "`apiKey` schemes: where the key travels.", None, ("header", "query", "cookie")),
    Key(f"{_S}.name", KeyKind.SCALAR, "`apiKey` schemes: the header, query parameter or cookie name."),
    Key(f"{_S}.openIdConnectUrl", KeyKind.SCALAR, "`openIdConnect` schemes: the discovery document URL."),
    Key(f"{_S}.flows", KeyKind.SECTION, "`oauth2` schemes: the grant flows, at least one."),
    Key(f"{_F}.implicit", KeyKind.SECTION, "The implicit flow: needs `authorizationUrl`."),
    Key(f"{_F}.password", KeyKind.SECTION, "The resource owner password flow: needs `tokenUrl`."),
    Key(f"{_F}.clientCredentials", KeyKind.SECTION, "The client credentials flow: needs `tokenUrl`."),
    Key(
        f"{_F}.authorizationCode",
        KeyKind.SECTION,
        "The authorization code flow: needs `authorizationUrl` and `tokenUrl`.",
    ),
    Key(f"{_F}.*.authorizationUrl", KeyKind.SCALAR, "The authorization endpoint URL."),
    Key(f"{_F}.*.tokenUrl", KeyKind.SCALAR, "The token endpoint URL."),
    Key(f"{_F}.*.refreshUrl", KeyKind.SCALAR, "The refresh endpoint URL."),
    Key(f"{_F}.*.scopes", KeyKind.FREE, "Scope names and their descriptions.", "{}"),
    Key("proto", KeyKind.SECTION, "How the design's protos are compiled and which plugins write their Go code."),
    Key(
        "proto.includes",
        KeyKind.LIST,
        "Extra import roots (project-relative), searched after the design "
        "folder; protos found there need `option go_package`.",
        "[]",
    ),
    Key("proto.plugins", KeyKind.SECTION, "The protobuf Go plugins."),
    Key(
        "proto.plugins.go",
        KeyKind.SCALAR,
        "protoc-gen-go: a bare name is looked up on PATH, a path is run as "
        "given; empty runs `go tool protoc-gen-go` pinned in go.mod.",
        '""',
    ),
    Key(
        "proto.plugins.goGrpc",
        KeyKind.SCALAR,
        "protoc-gen-go-grpc: a bare name is looked up on PATH, a path is "
        "run as given; empty runs `go tool protoc-gen-go-grpc` pinned in go.mod.",
        '""',
    ),
    Key("events", KeyKind.SECTION, "Event artefacts."),
    Key(
        "events.targets",
        KeyKind.ITEMS,
        "Languages of event artefacts, each with `out`. When omitted and a "
        "design declares events: one Go target at `./internal/events` (`./gen/events` under contracts).",
    ),
    Key(
        "events.targets[].lang", KeyKind.SCALAR, "The language of the target (one target per language).", None, ("go",)
    ),
    Key(
        "events.targets[].out",
        KeyKind.SCALAR,
        'Where the target\'s files go; `"-"` skips the target.',
        "./internal/events",
        dash=True,
        contracts_default="./gen/events",
    ),
)

BY_NAME: dict[str, Key] = {k.name: k for k in KEYS}

REMOVED_KEYS: dict[str, str] = {
    "design": "the folder holding kit.design.yaml is the design folder",
    "output.services": "logic stubs go to output.service",
    "output.consumeMiddleware": "consumer middleware is set with bus.Use where the bus is built",
    "events.asyncapi": "no AsyncAPI document is generated",
    "events.targets[].layout": "the application owns the folder layout of its consumers",
}

SCHEME_TYPES: dict[str, tuple[str, ...]] = {
    "http": ("scheme",),
    "apiKey": ("in", "name"),
    "oauth2": ("flows",),
    "openIdConnect": ("openIdConnectUrl",),
    "mutualTLS": (),
}
"""Security scheme types and the fields each needs before the OpenAPI document is written."""

FLOW_URLS: dict[str, tuple[str, ...]] = {
    "implicit": ("authorizationUrl",),
    "password": ("tokenUrl",),
    "clientCredentials": ("tokenUrl",),
    "authorizationCode": ("authorizationUrl", "tokenUrl"),
}
"""oauth2 flows and the URLs each needs."""

OUTPUT_KEYS: tuple[Key, ...] = tuple(
    k for k in KEYS if k.section == "output" and k.name not in ("output.kind", "output.fileCase")
)
SCALAR_KEYS: frozenset[str] = frozenset(
    k.name for k in KEYS if k.kind is KeyKind.SCALAR and "*" not in k.name and "[]" not in k.name
)
SECTION_KEYS: frozenset[str] = frozenset(k.name for k in KEYS if k.kind is KeyKind.SECTION and "*" not in k.name)


def lookup(path: str) -> Key | None:
    """The row of a dotted path as written (`openapi.securitySchemes.bearer.type`)."""
    return BY_NAME.get(pattern_of(path))


def pattern_of(path: str) -> str:
    """A written path in the table's spelling: user-named segments become `*`
    (`openapi.securitySchemes.oauth.flows.password.tokenUrl` ->
    `openapi.securitySchemes.*.flows.*.tokenUrl`)."""
    parts = path.split(".")
    if parts[:2] == ["openapi", "securitySchemes"] and len(parts) > 2:
        parts[2] = "*"
        if len(parts) > 5 and parts[3] == "flows":
            parts[4] = "*"
    return ".".join(parts)


def children(section: str) -> list[Key]:
    """The rows directly inside a section path as written ("" for the top level)."""
    if not section:
        return [k for k in KEYS if "." not in k.name]
    prefix = pattern_of(section + ".x").rsplit(".", 1)[0]
    row = BY_NAME.get(pattern_of(section))
    if row is not None and row.kind is KeyKind.ITEMS:
        prefix += "[]"
    return [k for k in KEYS if k.section == prefix]
