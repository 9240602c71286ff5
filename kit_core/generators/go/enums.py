"""`internal/types/<pkg>/enums.go`: one defined type per enum, its constants and `Validate()`."""

from __future__ import annotations

from dataclasses import dataclass, replace

from kit_core import naming
from kit_core.generators.base import OutputFile, Owner
from kit_core.generators.go.align import align
from kit_core.generators.go.gocontext import GoGen, decl_doc, defined, doc_comment
from kit_core.generators.go.needs import enum_is_int
from kit_core.generators.go.render import go_file, go_string
from kit_core.model import EnumDecl
from kit_core.symbols import Package


@dataclass(frozen=True, slots=True)
class ValueView:
    const: str
    literal: str  # Go literal of the wire value
    doc: str
    line: str = ""  # `<const> <Enum> = <literal>`, aligned as gofmt aligns the block


@dataclass(frozen=True, slots=True)
class EnumView:
    name: str
    base: str  # string | int64
    doc: str
    values: list[ValueView]
    message: str  # "must be one of [a b]"


def wire_values(decl: EnumDecl) -> list[str]:
    """Wire values in declaration order (a bare value's wire value is its name)."""
    return [str(v.value.value) if v.value is not None else v.name for v in decl.values]


def enum_view(decl: EnumDecl, package: str) -> EnumView:
    is_int = enum_is_int(decl)
    wires = wire_values(decl)
    values = [
        ValueView(
            naming.enum_const(decl.name, v.name),
            wire if is_int else go_string(wire),
            doc_comment(_value_doc(v.decorators, v.trivia.doc_text), v.decorators),
        )
        for v, wire in zip(decl.values, wires, strict=True)
    ]
    rows = [(bool(v.doc), [v.const, decl.name, f"= {v.literal}"]) for v in values]
    values = [replace(v, line=line) for v, line in zip(values, align(rows), strict=True)]
    return EnumView(
        decl.name,
        "int" if is_int else "string",
        decl_doc(decl, decl.name, defined(decl.name, package, "enum"), True),
        values,
        f"must be one of [{' '.join(wires)}]",
    )


def _value_doc(decorators: tuple, fallback: str | None) -> str | None:  # type: ignore[type-arg]
    d = next((d for d in decorators if d.name == "doc"), None)
    return str(d.args[0].value) if d is not None and d.args else fallback


def generate(g: GoGen, pkg: Package) -> OutputFile | None:
    if not pkg.enums:
        return None
    imports = g.imports()
    imports.std("errors")
    enums = [enum_view(pkg.enums[n], pkg.name) for n in sorted(pkg.enums)]
    path = f"{g.layout.types_dir(pkg.name)}/enums.go"
    return go_file(path, Owner.REGEN, pkg.name, "enums.go.j2", imports, enums=enums)
