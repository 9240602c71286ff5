"""The Go generator of the HTTP side: `generate(ctx) -> (files, notices)`.

One module per artefact; each renders a precomputed view with strict jinja2 templates
(`kit_core/generators/templates/go/`). Every `.go` file goes through gofmt, which starts on
the first files while the rest are rendered (`gofmt.py`), and the list is sorted by path:
the output is byte-identical across runs.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from kit_core.generators import grpc
from kit_core.generators.base import GenContext, Notice, OutputFile
from kit_core.generators.go import (
    binding_file,
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
from kit_core.symbols import Package

__all__ = ["generate"]


def generate(ctx: GenContext) -> tuple[list[OutputFile], list[Notice]]:
    with paused_gc(), Gofmt() as fmt:
        g = GoGen.build(ctx)
        files: list[OutputFile] = []
        for part in parts(g):
            fmt.add(part)  # gofmt starts on the first files while the rest are rendered
            files.extend(part)
        files = fmt.result(sorted(files, key=lambda f: f.path))
    return files, []  # stale-stub and gRPC notices come from the writer, which sees the disk


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection while generating: the run makes little cyclic garbage, and a
    full collection over a large design's syntax trees and analysis costs about half a second."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parts(g: GoGen) -> Iterator[list[OutputFile]]:
    """The files of the run, in chunks (a chunk per types package first: they are the bulk)."""
    if g.layout.kind == "contracts":
        yield from contract_files(g)
        yield events_files(g)
        return
    for pkg in g.design.packages():
        yield package_types(g, pkg)
    yield http_files(g)
    yield grpc.generate(g.protos, g.manifest, g.layout.module, g.runtime)
    yield project_files(g)
    yield events_files(g)


def package_types(g: GoGen, pkg: Package) -> list[OutputFile]:
    modules = [types, validate, enums, errors]
    if g.layout.kind != "contracts":  # the JSON codec serves HTTP handlers
        modules.append(codec)
    out = [module.generate(g, pkg) for module in modules]
    return [f for f in out if f is not None]


def contract_files(g: GoGen) -> Iterator[list[OutputFile]]:
    """Per package: only the declarations event payloads reach, and no errors."""
    keep = contracts.reachable(g)
    for pkg in g.design.packages():
        yield package_types(g, contracts.payload_package(pkg, keep))


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
