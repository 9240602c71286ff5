"""Generic instances written as a whole request or event payload (`request Page<Item[]>`).

A field holding such an instance is walked by its type's `Validate()` (see `walk`); a
request or payload has no enclosing type. So its types package gets one function per such
instance, `Validate<Name>(v *Page[[]Item]) error`, which runs the instance's own
`Validate()` and then checks what that generic method cannot see; the handler and the
event descriptor call it instead of the method. Names follow the OpenAPI component names
(`PageOfArrayOfItem`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kit_core.generators.go.checks import FieldChecks
from kit_core.generators.go.emit import Emitter
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.imports import ImportSet
from kit_core.generators.go.walk import Scope, Walker
from kit_core.generators.openapi.names import DeclNames
from kit_core.model import EventDecl, ServiceDecl, TypeRef
from kit_core.symbols import Kind, Package


@dataclass(frozen=True, slots=True)
class InstanceCheck:
    name: str  # ValidatePageOfArrayOfItem
    param: str  # v *Page[[]Item]
    body: list[str]


def function_name(g: GoGen, ref: TypeRef, package: str) -> str | None:
    """The function validating a request or payload instance completely, when one is needed."""
    ref = replace(ref, array_dims=0, optional=False)
    r = g.design.resolve(ref, package)
    if r is None or r.kind is not Kind.TYPE or not ref.args:
        return None
    walker = Walker(g.design, g.needs)
    if not walker.misses(ref, Scope(package)):
        return None
    return "Validate" + DeclNames(g.design.symbols).of(g.index.shape(ref, package))


def _clauses(pkg: Package) -> list[TypeRef]:
    refs: list[TypeRef] = []
    for blocks in pkg.services.values():
        for block in blocks:
            if isinstance(block, ServiceDecl):
                refs += [m.request for m in block.methods if m.request is not None]
    refs += [e.payload for e in pkg.events.values() if isinstance(e, EventDecl) and e.payload is not None]
    return refs


def views(g: GoGen, checks: FieldChecks, pkg: Package, imports: ImportSet, std: set[str]) -> list[InstanceCheck]:
    """The functions of one types package, one per instance its clauses write."""
    mapper = g.mapper(imports, pkg.name)
    out: dict[str, InstanceCheck] = {}
    for ref in _clauses(pkg):
        name = function_name(g, ref, pkg.name)
        if name is None or name in out:
            continue
        bare = replace(ref, array_dims=0, optional=False)
        em = Emitter()
        em.add("if err := v.Validate(); err != nil {\n\treturn err\n}")
        checks.walker.expand(em, bare, Scope(pkg.name), "v", "", [])
        em.add("return nil")
        std.update(em.std)
        out[name] = InstanceCheck(name, f"v *{mapper.base(bare, pkg.name)}", em.lines)
    return [out[n] for n in sorted(out)]
