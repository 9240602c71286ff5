"""`output.kind: contracts`: only event payload types (and what they reach) and the events files.

A contracts design is imported by several deployables: no handlers, stubs, routes, wiring,
errors, config or entry point are written, and a package's types file holds only the
declarations some event payload reaches (fields, mixins, generic arguments, map values,
enums and scalars, across packages).
"""

from __future__ import annotations

from dataclasses import replace

from kit_core.generators.go.gocontext import GoGen
from kit_core.model import TypeDecl, TypeRef
from kit_core.symbols import Kind, Package


def reachable(g: GoGen) -> set[int]:
    """ids of the type, enum and scalar declarations that event payloads reach."""
    seen: set[int] = set()
    stack: list[tuple[TypeRef, str, tuple[str, ...]]] = [
        (e.payload, pkg.name, ()) for pkg in g.design.packages() for e in pkg.events.values() if e.payload
    ]
    while stack:
        ref, package, params = stack.pop()
        stack.extend((a, package, params) for a in ref.args)
        r = g.design.resolve(ref, package, params)
        if r is None or r.decl is None or r.kind not in (Kind.TYPE, Kind.ENUM, Kind.SCALAR):
            continue
        if id(r.decl) in seen:
            continue
        seen.add(id(r.decl))
        if isinstance(r.decl, TypeDecl):
            inner = tuple(p.name for p in r.decl.params)
            owner = r.package or package
            stack.extend((m.ref, owner, inner) for m in r.decl.mixins)
            stack.extend((f.type, owner, inner) for f in r.decl.fields)
    return seen


def payload_package(pkg: Package, keep: set[int]) -> Package:
    """The package with only the declarations in ``keep`` (and no errors)."""
    return replace(
        pkg,
        types={n: d for n, d in pkg.types.items() if id(d) in keep},
        enums={n: d for n, d in pkg.enums.items() if id(d) in keep},
        scalars={n: d for n, d in pkg.scalars.items() if id(d) in keep},
        errors={},
    )
