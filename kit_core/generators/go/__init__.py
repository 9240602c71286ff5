"""The Go generator of the HTTP side: `units(ctx)` (render units, `kit_core.generators.units`)
and `generate(ctx) -> (files, notices)` (every unit rendered and formatted).

One module per artefact; each renders a precomputed view with strict jinja2 templates
(`kit_core/generators/templates/go/`). Every `.go` file goes through gofmt (`gofmt.py`)
unless its template writes gofmt's layout itself, and the list is sorted by path: the
output is byte-identical across runs.

Units and what they read:

* `go/types/<pkg>`: types, validate, enums and errors files of a package (its own
  declarations and those they reference);
* `go/events/<pkg>`: its events file (plus the events targets, in the manifest);
* `go/http/<dir>`: handlers, logic stubs and the routes file of one service directory (the
  packages of its methods; middlewares are named in those packages' text);
* `go/http`: the routes umbrella and the binding helpers (the list of directories);
* `go/middleware/<Name>`: one middleware scaffold; `go/slots`: `middlewares.go`;
  `go/wiring`: the wiring file (the middlewares routes apply); `go/scaffold`: service
  context, config and entry point (the middleware names);
* under `output.kind: contracts`, `go/contracts/<pkg>` per package (the whole design: what
  event payloads reach).
"""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

from kit_core.gcpause import paused_gc
from kit_core.generators.base import GenContext, Notice, OutputFile
from kit_core.generators.go import (
    binding_file,
    client,
    codec,
    contracts,
    enums,
    errors,
    events,
    handlers,
    middleware,
    routes,
    scaffold,
    stubs,
    types,
    validate,
    wiring,
)
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.gofmt import Gofmt
from kit_core.generators.units import RenderUnit
from kit_core.model import MiddlewareDecl
from kit_core.semantics import MethodInfo
from kit_core.symbols import Package

__all__ = ["generate", "units"]


def generate(ctx: GenContext) -> tuple[list[OutputFile], list[Notice]]:
    # generating makes little cyclic garbage, and a full collection over a large design's
    # trees and analysis costs about half a second: none meanwhile (its outputs are not kept)
    with paused_gc(freeze=False), Gofmt() as fmt:
        files: list[OutputFile] = []
        for unit in units(ctx):
            part = unit.render()
            fmt.add(part)  # gofmt starts on the first files while the rest are rendered
            files.extend(part)
        files = fmt.result(sorted(files, key=lambda f: f.path))
    return files, []  # stale-stub and gRPC notices come from the writer, which sees the disk


def units(ctx: GenContext) -> list[RenderUnit]:
    g = GoGen.build(ctx)
    if g.layout.kind == "contracts":
        return [*contract_units(g), *client.units(g), *events_units(g)]
    return [
        *types_units(g),
        *http_units(g),
        *client.units(g),
        *grpc_units(g),
        *project_units(g),
        *events_units(g),
    ]


def _weight(pkg: Package) -> int:
    return 1 + len(pkg.types) + len(pkg.enums) + len(pkg.errors) + len(pkg.scalars)


def types_units(g: GoGen) -> list[RenderUnit]:
    return [
        RenderUnit(f"go/types/{pkg.name}", partial(package_types, g, pkg), (pkg.name,), weight=_weight(pkg))
        for pkg in g.design.packages()
    ]


def package_types(g: GoGen, pkg: Package) -> list[OutputFile]:
    modules = [types, validate, enums, errors]
    if g.layout.kind != "contracts" or g.layout.client is not None:  # the JSON codec serves HTTP handlers and clients
        modules.append(codec)
    out = [module.generate(g, pkg) for module in modules]
    return [f for f in out if f is not None]


def contract_units(g: GoGen) -> list[RenderUnit]:
    """Per package: only the declarations event payloads reach, and no errors; every
    declaration when the design's Go client is written (`output.client`), which takes and
    returns them all."""
    if g.layout.client is not None:
        return types_units(g)
    keep = contracts.reachable(g)
    return [
        RenderUnit(
            f"go/contracts/{pkg.name}",
            partial(_contract_types, g, pkg, keep),
            whole_design=True,
            weight=_weight(pkg),
        )
        for pkg in g.design.packages()
    ]


def _contract_types(g: GoGen, pkg: Package, keep: Any) -> list[OutputFile]:
    return package_types(g, contracts.payload_package(pkg, keep))


def events_units(g: GoGen) -> list[RenderUnit]:
    targets = tuple(events.out_dirs(g))
    return [
        RenderUnit(f"go/events/{pkg.name}", partial(events.generate, g, pkg), (pkg.name,), extra=targets)
        for pkg in g.design.packages()
        if pkg.events
    ]


def http_units(g: GoGen) -> list[RenderUnit]:
    out = [
        RenderUnit(
            f"go/http/{seg}",
            partial(http_dir, g, seg, methods),
            tuple(sorted({m.package for m in methods})),
            weight=1 + len(methods) // 4,  # a handler and a stub cost about a quarter of a type
        )
        for seg, methods in sorted(g.http.groups.items())
    ]
    if g.http.methods:
        segs = sorted(g.http.groups)
        out.append(RenderUnit("go/http", lambda: http_shared(g, segs), extra=tuple(segs)))
    return out


def http_dir(g: GoGen, seg: str, methods: tuple[MethodInfo, ...]) -> list[OutputFile]:
    files = [f for m in methods for f in (handlers.generate(g, m), stubs.generate(g, m))]
    files.append(routes.generate_dir(g, seg, methods))
    return files


def http_shared(g: GoGen, segs: list[str]) -> list[OutputFile]:
    return [routes.generate_umbrella(g, segs), binding_file.generate(g)]


def grpc_units(g: GoGen) -> list[RenderUnit]:
    """The gRPC server layer around the pb code: it reads the compiled protos."""
    if not g.has_grpc:
        return []
    from kit_core.generators import grpc  # deferred: with protos only (it loads protobuf)

    render = partial(grpc.generate, g.protos, g.manifest, g.layout.module, g.runtime)
    return [RenderUnit("go/grpc", render, extra=(protos_key(g.protos),), weight=1 + len(g.protos.services))]


def protos_key(protos: Any) -> str:
    """Digest of the compiled protos (`kit_core.proto.ProtoSet`): every file the compiler read,
    the design's and those of `proto.includes`, comments included (pb code carries them)."""
    h = hashlib.blake2b(digest_size=16)
    for f in protos.files:
        data = f.SerializeToString(deterministic=True)
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    h.update(",".join(protos.design).encode())
    return h.hexdigest()


def project_units(g: GoGen) -> list[RenderUnit]:
    decls = middleware.declared(g)
    owners = {d.name: pkg.name for pkg in g.design.packages() for d in pkg.middlewares.values()}
    names = tuple(d.name for d in decls)
    applied = tuple(sorted({mw for m in g.http.methods for mw in m.middlewares}))
    has_routes = bool(g.http.methods)
    out = [RenderUnit(f"go/middleware/{d.name}", partial(_scaffold, g, d), (owners[d.name],)) for d in decls]
    out.append(RenderUnit("go/slots", lambda: [middleware.slots(g, decls)], tuple(sorted(set(owners.values())))))
    out.append(
        RenderUnit("go/wiring", lambda: [wiring.generate(g, has_routes)], extra=(*applied, f"routes={has_routes}"))
    )
    if g.layout.main_file is not None:
        listeners = f"http={g.has_http} grpc={g.has_grpc}"
        out.append(RenderUnit("go/scaffold", partial(project_scaffold, g, decls), extra=(*names, listeners)))
    return out


def _scaffold(g: GoGen, decl: MiddlewareDecl) -> list[OutputFile]:
    return [middleware.scaffold(g, decl)]


def project_scaffold(g: GoGen, decls: list[MiddlewareDecl]) -> list[OutputFile]:
    assert g.layout.main_file is not None
    out = [scaffold.svccontext(g), scaffold.config_go(g)]
    out.extend(scaffold.config_yaml(g))
    out.append(scaffold.main_go(g, g.layout.main_file))
    return out
