"""Events (spec "Events" 1-4): a payload that is a declared type or a one-dimensional
array of one, no bound fields in the payload, one wire identity per event."""

from __future__ import annotations

from functools import partial

from kit_core.analyzer.context import Ctx, related
from kit_core.decorators import BINDINGS
from kit_core.model import Decl, EventDecl, SourceFile
from kit_core.semantics.types import EffectiveField, TypeShape
from kit_core.symbols import Kind

PAYLOAD_BINDINGS = BINDINGS - {"body"}


def check_file(ctx: Ctx, file: SourceFile) -> None:
    for decl in file.declarations:
        check_decl(ctx, file, decl)


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    if file.package is not None and isinstance(decl, EventDecl):
        _event(ctx, decl, file.package)


def contract_of(decl: EventDecl, package: str) -> str:
    d = decl.decorator("contract")
    if d is not None and d.args and d.args[0].is_string:
        return str(d.args[0].value)
    return f"{package}.{decl.name}"


def _event(ctx: Ctx, decl: EventDecl, package: str) -> None:
    d = decl.decorator("contract")
    if d is not None and d.args and d.args[0].is_string:
        value = str(d.args[0].value)
        if not value.strip():
            ctx.report("event/contract-format", d.args[0].span, value=d.args[0].text, reason="is empty")
        elif any(c.isspace() for c in value):
            ctx.report(
                "event/contract-format",
                d.args[0].span,
                value=d.args[0].text,
                reason='contains whitespace; a subject is one token such as "orders.placed.v1"',
            )
    if decl.payload is None:
        ctx.report("event/payload-missing", decl.name_span, name=decl.name)
        return
    shape = ctx.shape(decl.payload, package)
    if shape.kind is None:
        return  # ref/unknown-symbol
    if shape.kind is Kind.ERROR:
        ctx.report(
            "ref/unknown-symbol",
            decl.payload.name_span,
            what="payload type",
            name=decl.payload.text(),
            hint=f" - {shape.name} is an error; a payload must be a type",
        )
        return
    reason = _kind_problem(shape)
    if reason:
        ctx.report("event/payload-kind", decl.payload.span, name=decl.name, type=decl.payload.text(), reason=reason)
        return
    bound = _bound_field(ctx, shape)
    if bound is not None:
        binding = next(d.name for d in bound.field.decorators if d.name in PAYLOAD_BINDINGS)
        ctx.report(
            "event/payload-binding",
            decl.payload.span,
            name=decl.name,
            field=bound.name,
            binding=binding,
            related=related(bound.field.span, f"{bound.name} is bound here"),
        )


def _kind_problem(shape: TypeShape) -> str | None:
    if shape.optional:
        return "cannot be optional"
    if shape.array_dims > 1:
        return "may be an array of one dimension only"
    if shape.kind is Kind.TYPE:
        return None
    words = {
        Kind.PRIMITIVE: "a built-in type",
        Kind.ENUM: "an enum",
        Kind.SCALAR: "a scalar",
        Kind.MAP: "a map",
    }
    return f"is {words.get(shape.kind, 'not a type')}; a payload must be a declared type"  # type: ignore[arg-type]


def _bound_field(ctx: Ctx, shape: TypeShape) -> EffectiveField | None:
    return _reach(ctx, shape.base(), set())[0]


def _reach(ctx: Ctx, base: TypeShape, visiting: set[TypeShape]) -> tuple[EffectiveField | None, bool]:
    """(the first field bound outside the body reachable from a struct, whether a cycle was
    cut on the way); results found without cutting a cycle are memoised per analysis."""
    if base in visiting:
        return None, True
    key = ("bound-field", base)
    found, value = ctx.recall(key)
    if found:
        return value, False  # type: ignore[return-value]
    (result, cut), deps = ctx.tracked(lambda: _search(ctx, base, visiting | {base}))
    if result is not None or not cut:
        ctx.memo[key] = (result, deps)
    return result, cut


def _search(ctx: Ctx, shape: TypeShape, visiting: set[TypeShape]) -> tuple[EffectiveField | None, bool]:
    cut = False
    for ef in ctx.index.fields_of(shape):
        if any(d.name in PAYLOAD_BINDINGS for d in ef.field.decorators):
            return ef, cut
        for inner in _structs(ef.shape):
            found, inner_cut = _reach(ctx, inner, visiting)
            cut = cut or inner_cut
            if found is not None:
                return found, cut
    return None, cut


def _structs(shape: TypeShape) -> list[TypeShape]:
    out = []
    base = shape.base()
    if base.kind is Kind.TYPE:
        out.append(base)
    for a in shape.args:
        out.extend(_structs(a))
    return out


def check_design(ctx: Ctx) -> None:
    """Contracts are project-wide; replayed while no edit changed an event's contract."""
    ctx.design_part(("events",), _events_print, partial(_contracts, ctx))


def _events_print(f: SourceFile) -> object:
    package = f.package or ""
    return (package, tuple(contract_of(d, package) for d in f.declarations if type(d) is EventDecl))


def _contracts(ctx: Ctx) -> None:
    seen: dict[str, tuple[str, EventDecl]] = {}
    for pkg_name in sorted(ctx.symbols.packages):
        for decl in ctx.symbols.packages[pkg_name].events.values():  # repeats: event/duplicate-name
            contract = contract_of(decl, pkg_name)
            prev = seen.setdefault(contract, (pkg_name, decl))
            if prev[1] is not decl:
                ctx.report(
                    "event/contract-collision",
                    decl.name_span,
                    name=f"{pkg_name}.{decl.name}",
                    other=f"{prev[0]}.{prev[1].name}",
                    contract=contract,
                    related=related(prev[1].name_span, "the other event is declared here"),
                )
