"""`internal/types/<pkg>/types.go`: structs (mixins embedded, generics), scalars, `FillEmpty`."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.fastnew import maker
from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.align import align
from kit_core.generators.go.design import FieldFacts
from kit_core.generators.go.fill import Filler
from kit_core.generators.go.gocontext import GoGen, decl_doc, defined, field_doc, struct_tag
from kit_core.generators.go.render import go_file
from kit_core.generators.go.typemap import TypeMapper
from kit_core.generators.go.unmarshal import PTR_HELPER, UnmarshalView
from kit_core.generators.go.unmarshal import view as unmarshal_view
from kit_core.model import Mixin, TypeDecl
from kit_core.symbols import Package


@dataclass(frozen=True, slots=True)
class MemberView:
    doc: str
    name: str  # empty for an embedded mixin
    type: str
    tag: str
    line: str = ""  # the member's line, aligned with its neighbours (`aligned`)


def aligned(members: list[MemberView]) -> list[MemberView]:
    """The members with their struct lines laid out as gofmt aligns them."""
    rows = [(bool(m.doc), [c for c in (m.name, m.type, m.tag) if c]) for m in members]
    lines = align(rows)
    return [_new_member(m.doc, m.name, m.type, m.tag, line) for m, line in zip(members, lines, strict=True)]


@dataclass(frozen=True, slots=True)
class StructView:
    name: str
    params: str  # "[T any]" or ""
    recv: str  # "Page[T]"
    doc: str
    members: list[MemberView]
    fill: list[str]
    unmarshal: UnmarshalView | None


@dataclass(frozen=True, slots=True)
class ScalarView:
    name: str
    type: str
    doc: str


def generate(g: GoGen, pkg: Package) -> OutputFile | None:
    if not pkg.types and not pkg.scalars:
        return None
    imports = g.imports()
    mapper = g.mapper(imports, pkg.name)
    filler = Filler(g.design, g.needs, mapper)
    structs = [struct_view(g, mapper, filler, pkg.types[n], pkg.name) for n in sorted(pkg.types)]
    scalars = [
        ScalarView(n, mapper.base(s.primitive, pkg.name), decl_doc(s, n, defined(n, pkg.name, "scalar"), True))
        for n, s in sorted(pkg.scalars.items())
    ]
    decoders = [t.unmarshal for t in structs if t.unmarshal is not None]
    if decoders:
        for std in ("bytes", "encoding/json", "errors", "strings"):
            imports.std(std)
    pointer = any(PTR_HELPER + "[" in f for d in decoders for f in d.fills)
    path = f"{g.layout.types_dir(pkg.name)}/types.go"
    return go_file(
        path,
        Owner.REGEN,
        pkg.name,
        "types.go.j2",
        imports,
        structs=structs,
        scalars=scalars,
        decode_helper=bool(decoders),
        ptr_helper=PTR_HELPER if pointer else "",
    )


def struct_view(g: GoGen, mapper: TypeMapper, filler: Filler, decl: TypeDecl, package: str) -> StructView:
    params = [p.name for p in decl.params]
    members: list[MemberView] = []
    for m in g.design.members(decl, package):
        if isinstance(m, Mixin):
            members.append(MemberView("", "", mapper.base(m.ref, package, tuple(params)), ""))
        else:
            members.append(field_view(g, mapper, m))
    fill = filler.statements(decl, package) if g.needs.fills(decl) else []
    return StructView(
        name=decl.name,
        params=f"[{', '.join(params)} any]" if params else "",
        recv=f"{decl.name}[{', '.join(params)}]" if params else decl.name,
        doc=decl_doc(decl, decl.name, defined(decl.name, package, "type"), True),
        members=aligned(members),
        fill=fill,
        unmarshal=unmarshal_view(g, mapper, decl, package),
    )


def field_view(g: GoGen, mapper: TypeMapper, f: FieldFacts) -> MemberView:
    pointer = f.pointer
    return _new_member(field_doc(f.field), f.go_name, mapper.field_type(f), struct_tag(f, pointer), "")


_new_member = maker(MemberView)  # ~24,000 members on a large design: no frozen __init__
