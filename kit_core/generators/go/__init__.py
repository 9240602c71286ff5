"""The Go generator of the HTTP side: `generate(ctx) -> (files, notices)`.

One module per artefact; each renders a precomputed view with strict jinja2 templates
(`kit_core/generators/templates/go/`). Every `.go` file goes through one gofmt run at the
end, and the list is sorted by path: the output is byte-identical across runs.
"""

from __future__ import annotations

from kit_core.generators.base import GenContext, Notice, OutputFile
from kit_core.generators.go import (
    binding_file,
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
from kit_core.generators.go.render import gofmt_all

__all__ = ["generate"]


def generate(ctx: GenContext) -> tuple[list[OutputFile], list[Notice]]:
    g = GoGen.build(ctx)
    if g.layout.kind == "contracts":
        files = [*contract_files(g), *events_files(g)]
    else:
        files = [*types_files(g), *http_files(g), *project_files(g), *events_files(g)]
    files = gofmt_all(sorted(files, key=lambda f: f.path))
    return files, []  # stale-stub and gRPC notices come from the writer, which sees the disk


def types_files(g: GoGen) -> list[OutputFile]:
    out: list[OutputFile] = []
    for pkg in g.design.packages():
        for module in (types, validate, enums, errors):
            f = module.generate(g, pkg)
            if f is not None:
                out.append(f)
    return out


def contract_files(g: GoGen) -> list[OutputFile]:
    keep = contracts.reachable(g)
    out: list[OutputFile] = []
    for pkg in g.design.packages():
        only = contracts.payload_package(pkg, keep)
        for module in (types, validate, enums):
            f = module.generate(g, only)
            if f is not None:
                out.append(f)
    return out


def events_files(g: GoGen) -> list[OutputFile]:
    return [f for pkg in g.design.packages() for f in events.generate(g, pkg)]


def http_files(g: GoGen) -> list[OutputFile]:
    methods = g.http.methods
    out: list[OutputFile] = []
    for m in methods:
        out.append(handlers.generate(g, m))
        out.append(stubs.generate(g, m))
    segs = sorted(g.http.groups)
    for seg in segs:
        out.append(routes.generate_dir(g, seg, g.http.groups[seg]))
    if methods:
        out.append(routes.generate_umbrella(g, segs))
        out.append(binding_file.generate(g))
    return out


def project_files(g: GoGen) -> list[OutputFile]:
    decls = middleware.declared(g)
    out = [middleware.scaffold(g, d) for d in decls]
    out.append(middleware.slots(g, decls))
    out.append(wiring.generate(g, bool(g.http.methods)))
    if g.layout.main_file is not None:
        out.append(scaffold.svccontext(g))
        out.append(scaffold.config_go(g))
        out.extend(scaffold.config_yaml(g))
        out.append(scaffold.main_go(g, g.layout.main_file))
    return out
