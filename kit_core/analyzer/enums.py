"""Enums: one value form per enum, no empty enums, unique names, wire values and Go constants."""

from __future__ import annotations

from kit_core.analyzer.context import Ctx, related
from kit_core.model import Decl, EnumDecl, EnumValue, LiteralKind, SourceFile
from kit_core.naming import enum_const


def check_file(ctx: Ctx, file: SourceFile) -> None:
    for decl in file.declarations:
        check_decl(ctx, file, decl)


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    if isinstance(decl, EnumDecl):
        check_enum(ctx, decl)


def form(v: EnumValue) -> str:
    if v.value is None:
        return "bare"
    return "int" if v.value.kind is LiteralKind.INT else "string"


def wire(v: EnumValue) -> object:
    return v.name if v.value is None else v.value.value


def check_enum(ctx: Ctx, decl: EnumDecl) -> None:
    if not decl.values:
        ctx.report("enum/empty-values", decl.name_span, name=decl.name)
        return
    first_form = form(decl.values[0])
    names: dict[str, EnumValue] = {}
    literals: dict[object, EnumValue] = {}
    consts: dict[str, EnumValue] = {}
    for v in decl.values:
        if form(v) != first_form and not {form(v), first_form} <= {"bare", "string"}:
            ctx.report(
                "enum/mixed-types",
                v.span,
                name=decl.name,
                first=first_form,
                second=form(v),
                related=related(decl.values[0].span, f"the first value is {first_form}"),
            )
            continue
        prev = names.setdefault(v.name, v)
        if prev is not v:
            ctx.report(
                "enum/duplicate-name",
                v.name_span,
                value=v.name,
                name=decl.name,
                related=related(prev.name_span, "first declared here"),
            )
            continue
        key = (form(v) == "int", wire(v))
        prev = literals.setdefault(key, v)
        if prev is not v:
            ctx.report(
                "enum/duplicate-literal",
                (v.value or v).span,
                name=decl.name,
                value=v.name,
                other=prev.name,
                literal=str(wire(v)),
                related=related(prev.span, f"{prev.name} is declared here"),
            )
        const = enum_const(decl.name, v.name)
        prev = consts.setdefault(const, v)
        if prev is not v:
            ctx.warn(
                "enum/value-collision",
                v.name_span,
                value=prev.name,
                other=v.name,
                const=const,
                related=related(prev.name_span, f"{prev.name} is declared here"),
            )
