"""`<events out>/<pkg>/events.go`: contract constants and typed descriptors (Events rule 6).

One file per DSL package that declares an event, under every Go `events.targets[].out`
(default `./internal/events`, `./gen/events` under `output.kind: contracts`; `-` skips).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go import instances
from kit_core.generators.go.align import align
from kit_core.generators.go.gocontext import GoGen, decl_doc
from kit_core.generators.go.imports import ImportSet
from kit_core.generators.go.layout import clean
from kit_core.generators.go.render import go_file, go_string
from kit_core.generators.go.typemap import TypeMapper
from kit_core.model import EventDecl, TypeRef
from kit_core.symbols import Kind, Package


@dataclass(frozen=True, slots=True)
class EventView:
    name: str
    contract: str
    doc: str
    constructor: str  # NewEvent / NewEventSlice
    payload: str  # Go type of the payload (of one element for an array payload)
    validate: str  # method expression, or nil


def out_dirs(g: GoGen) -> list[str]:
    """The Go events targets of the manifest (the default one when none is written)."""
    targets = g.manifest.events_targets
    if targets is None:
        return [clean(g.manifest.events_out_default())]
    return [clean(t.out) for t in targets if t.lang == "go" and t.out and t.out != "-"]


def generate(g: GoGen, pkg: Package) -> list[OutputFile]:
    if not pkg.events:
        return []
    return [_file(g, pkg, out) for out in out_dirs(g)]


def contract_of(decl: EventDecl, package: str) -> str:
    d = decl.decorator("contract")
    if d is not None and d.args and d.args[0].is_string:
        return str(d.args[0].value)
    return f"{package}.{decl.name}"


def _file(g: GoGen, pkg: Package, out: str) -> OutputFile:
    imports = g.imports()
    rt = g.rt(imports, "events")
    views = [event_view(g, imports, pkg.events[n], pkg.name) for n in sorted(pkg.events)]
    consts = align([(False, [f"{v.name}Contract", f"= {go_string(v.contract)}"]) for v in views])
    path = f"{g.layout.join(out, pkg.name)}/events.go"
    return go_file(
        path, Owner.REGEN, pkg.name, "events.go.j2", imports, events=views, consts=consts, rt=rt, pkg=pkg.name
    )


def _validate(g: GoGen, mapper: TypeMapper, ref: TypeRef, package: str, go_type: str) -> str:
    """The method expression, or the types package's function for a generic instance over
    slices or maps (whose own method cannot see into them)."""
    whole = instances.function_name(g, ref, package)
    return mapper.qualify(whole, package) if whole else f"(*{go_type}).Validate"


def event_view(g: GoGen, imports: ImportSet, decl: EventDecl, package: str) -> EventView:
    assert decl.payload is not None  # the analyzer refuses an event without a payload
    ref = replace(decl.payload, array_dims=0, optional=False)
    mapper = g.mapper(imports, package, "types")
    go_type = mapper.base(ref, package)
    r = g.design.resolve(ref, package)
    decl_t = g.design.type_decl(r)
    validates = decl_t is not None and r is not None and r.kind is Kind.TYPE and g.needs.validates(decl_t)
    array = decl.payload_array or decl.payload.array_dims > 0
    contract = contract_of(decl, package)
    plain = f"{decl.name} describes the {contract} event: it encodes, decodes and validates its payload."
    return EventView(
        name=decl.name,
        contract=contract,
        doc=decl_doc(decl, decl.name, plain),
        constructor="NewEventSlice" if array else "NewEvent",
        payload=go_type,
        validate=_validate(g, mapper, ref, package, go_type) if validates else "nil",
    )
