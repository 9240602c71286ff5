"""Field options and bindings on one field: `@default` (kind, enum value, binding, type,
validators), `@sensitive` conflicts, redundant `@nullable`, two bindings on one field,
types a binding cannot carry, and the cross-field decorators of a type."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from kit_core.analyzer.context import Ctx, related
from kit_core.analyzer.decorators import usable
from kit_core.analyzer.validators import INT_RANGES, Number, field_facts, field_validators, scalar_validators
from kit_core.decorators import BINDINGS, FORMATS, VALIDATORS, Site, flat_args, literal_text
from kit_core.decorators.checks import exact
from kit_core.model import Decl, Decorator, EnumDecl, ErrorDecl, Field, Literal, LiteralKind, SourceFile, TypeDecl
from kit_core.regex import matches
from kit_core.semantics.types import (
    COLLECTION_CLASSES,
    EffectiveField,
    TypeShape,
    ValueClass,
    is_nullable,
    value_class,
)
from kit_core.symbols import Kind

SIMPLE = frozenset(
    {ValueClass.STRING, ValueClass.BYTES, ValueClass.INT, ValueClass.UINT, ValueClass.FLOAT, ValueClass.BOOL}
)


def check_file(ctx: Ctx, file: SourceFile) -> None:
    for decl in file.declarations:
        check_decl(ctx, file, decl)


_CLEAN: set[tuple[object, ...]] = set()
"""A field's decorators found fine on a shape (not an enum): what the per-field checks
read is the site, the decorators as written, the shape and the primitive under it."""


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    if file.package is None or not isinstance(decl, TypeDecl | ErrorDecl):
        return
    site = Site.FIELD if isinstance(decl, TypeDecl) else Site.ERROR_FIELD
    for facts in field_facts(ctx, decl, file.package):
        f, shape, decs = facts.field, facts.shape, facts.decorators
        key = None
        if shape.kind is not Kind.ENUM:  # an enum default is checked against the enum's values
            key = (site, facts.sigs, facts.shape_sig, facts.primitive)
            if key in _CLEAN:
                continue
        before = len(ctx.diags)
        _sensitive(ctx, decs, f)
        _bindings(ctx, decs, f, shape)
        _nullable(ctx, decs, shape)
        _default(ctx, decs, f, shape, site)
        if key is not None and len(ctx.diags) == before:
            if len(_CLEAN) > 100_000:
                _CLEAN.clear()
            _CLEAN.add(key)
    if isinstance(decl, TypeDecl):
        _cross_field(ctx, decl, file.package)


def _find(decs: Sequence[Decorator], name: str) -> Decorator | None:
    return next((d for d in decs if d.name == name), None)


# --------------------------------------------------------------------------- sensitive / nullable


def _sensitive(ctx: Ctx, decs: list[Decorator], f: Field) -> None:
    if _find(decs, "sensitive") is None:
        return
    for d in decs:
        if d.name in BINDINGS or d.name in ("nullable", "default") or _is_validator(d):
            ctx.report(
                "decorator/conflict",
                d.name_span,
                name="sensitive",
                other=f"@{d.name}",
                reason=f"field {f.name} is server-only and never read from or written to the wire",
            )


def _is_validator(d: Decorator) -> bool:

    return d.name in VALIDATORS


def _nullable(ctx: Ctx, decs: list[Decorator], shape: TypeShape) -> None:
    d = _find(decs, "nullable")
    if d is not None and shape.optional:
        ctx.warn(
            "decorator/redundant",
            d.name_span,
            name="nullable",
            reason="the type already carries `?`, so an absent or null value is accepted",
        )


# --------------------------------------------------------------------------- bindings


def _bindings(ctx: Ctx, decs: list[Decorator], f: Field, shape: TypeShape) -> None:
    bound = [d for d in decs if d.name in BINDINGS]
    for extra in bound[1:]:
        ctx.report(
            "binding/conflict",
            extra.name_span,
            field=f.name,
            first=bound[0].name,
            second=extra.name,
            related=related(bound[0].span, f"@{bound[0].name} here"),
        )
    if bound:
        reason = binding_type_problem(bound[0].name, shape)
        if reason:
            ctx.report(
                "binding/type",
                bound[0].name_span,
                field=f.name,
                type=shape.text() if shape.kind else f.type.text(),
                binding=f"be bound with @{bound[0].name}",
                reason=reason,
            )


def binding_type_problem(binding: str, shape: TypeShape) -> str | None:
    """Why a value of this shape cannot travel in the binding's location (None: it can)."""
    if shape.kind is None or binding == "body":
        return None
    cls = value_class(shape)
    is_file = shape.base().primitive == "file"
    if is_file:
        if binding != "form":
            return "a file travels only in a multipart form - bind it with @form"
        return None if shape.array_dims <= 1 else "only file and file[] can be uploaded"
    if cls is ValueClass.DATETIME or value_class(shape.element()) is ValueClass.DATETIME:
        return "datetime fields travel in the JSON body only"
    if binding == "path":
        if shape.optional:
            return "a path variable is always present - drop the ?"
        return None if cls in SIMPLE else "a path variable holds one string, number or bool value"
    elem = value_class(shape.element()) if shape.array_dims == 1 else cls
    if binding == "cookie" and cls not in SIMPLE:
        return "a cookie holds one string, number or bool value"
    if elem not in SIMPLE:
        return f"@{binding} values are strings, numbers, bools or one-dimensional arrays of them"
    return None


# --------------------------------------------------------------------------- default


def _default(ctx: Ctx, decs: list[Decorator], f: Field, shape: TypeShape, site: Site) -> None:
    d = _find(decs, "default")
    if d is None or not d.args or shape.kind is None:
        return
    binding = next((b for b in decs if b.name in BINDINGS), None)
    if binding is not None:
        ctx.report(
            "decorator/conflict",
            d.name_span,
            name="default",
            other=f"@{binding.name}",
            reason="a default applies to the JSON body before decoding; bound fields take none",
        )
        return
    cls = value_class(shape)
    if cls in (ValueClass.STRUCT, ValueClass.MAP, ValueClass.PARAM, ValueClass.FILE, ValueClass.DATETIME) or (
        cls is ValueClass.ARRAY and value_class(shape.element()) not in SIMPLE
    ):
        what = {
            ValueClass.DATETIME: "a datetime field",
            ValueClass.FILE: "a file field",
            ValueClass.PARAM: "a field typed by a type parameter",
            ValueClass.MAP: "a map field",
        }.get(cls, "a struct or generic field")
        ctx.report("decorator/typemismatch", d.name_span, name="default", reason=f"cannot apply to {what}")
        return
    if not _default_value(ctx, d, d.args[0], shape, f):
        return
    _default_vs_validators(ctx, d, d.args[0], shape, field_validators(f.decorators, site))
    if not shape.optional:
        ctx.warn("decorator/default-needs-optional", f.type.span, field=f.name, type=f.type.text())


def _default_value(ctx: Ctx, d: Decorator, lit: Literal, shape: TypeShape, f: Field) -> bool:
    """Kind of the default against the type; enum names resolve. True when the value is usable."""
    if lit.kind is LiteralKind.NULL:
        if is_nullable(f):
            return False
        return _argtype(ctx, d, lit, "a value of the field's type (null needs @nullable)")
    cls = value_class(shape)
    if cls is ValueClass.ANY:
        return True
    if cls is ValueClass.ARRAY:
        if lit.kind is not LiteralKind.ARRAY:
            return _argtype(ctx, d, lit, f"an array literal for {shape.text()}")
        return all(_default_value(ctx, d, item, shape.element(), f) for item in lit.items)
    if shape.kind is Kind.ENUM and isinstance(shape.decl, EnumDecl):
        return _enum_default(ctx, d, lit, shape.decl)
    ok = {
        ValueClass.STRING: lit.is_string,
        ValueClass.BYTES: lit.is_string,
        ValueClass.BOOL: lit.kind is LiteralKind.BOOL,
        ValueClass.FLOAT: lit.is_number,
    }.get(cls, lit.kind is LiteralKind.INT)
    if not ok:
        article = "an" if (shape.primitive or "x")[0] in "aeiou" else "a"
        return _argtype(ctx, d, lit, f"{article} {shape.primitive} literal")
    prim = shape.primitive or ""
    if prim in INT_RANGES and isinstance(lit.value, int):
        low, high = INT_RANGES[prim]
        if not low <= lit.value <= high:
            ctx.report("decorator/argvalue", lit.span, message=f"default {lit.text} does not fit {prim}")
            return False
    return True


def _argtype(ctx: Ctx, d: Decorator, lit: Literal, expected: str) -> bool:
    ctx.report(
        "decorator/argtype",
        lit.span,
        name=d.name,
        position="1",
        expected=expected,
        got=f"{lit.kind.value} {lit.text}",
    )
    return False


def _enum_default(ctx: Ctx, d: Decorator, lit: Literal, enum: EnumDecl) -> bool:
    names = [v.name for v in enum.values]
    if lit.kind is LiteralKind.IDENT:
        if str(lit.value) in names:
            return True
        ctx.report(
            "decorator/ref",
            lit.span,
            name="default",
            what=f"{enum.name} value",
            value=lit.text,
            hint=f" - use one of {', '.join(names)}",
        )
        return False
    if lit.is_string and str(lit.value) in names:
        ctx.warn("decorator/arg-prefer-ident", lit.span, name="default", value=str(lit.value))
        return True
    return _argtype(ctx, d, lit, f"a value name of enum {enum.name}")


def _default_vs_validators(ctx: Ctx, d: Decorator, lit: Literal, shape: TypeShape, own: list[Decorator]) -> None:
    for v in scalar_validators(shape) + own:
        reason = _breaks(v, lit, shape)
        if reason:
            ctx.report(
                "decorator/conflict",
                lit.span,
                name="default",
                other=_text(v),
                reason=reason,
                related=related(v.span, "the validator is here"),
            )
            return


def _text(d: Decorator) -> str:
    return f"@{d.name}" + (f"({', '.join(a.text for a in d.args)})" if d.args else "")


def _breaks(v: Decorator, lit: Literal, shape: TypeShape) -> str | None:
    value = lit.value
    args = [a.value for a in v.args]
    if isinstance(value, str) and lit.is_string:
        return _string_breaks(v.name, value, args, shape.primitive == "bytes")
    number = exact(lit)
    if number is not None:
        return _number_breaks(v, number, lit.text)
    if lit.kind is LiteralKind.ARRAY:
        n = len(lit.items)
        if v.name == "minItems" and args and isinstance(args[0], int) and n < args[0]:
            return f"the default has {n} elements, fewer than {args[0]}"
        if v.name == "maxItems" and args and isinstance(args[0], int) and n > args[0]:
            return f"the default has {n} elements, more than {args[0]}"
        if v.name == "uniqueItems" and len({i.text for i in lit.items}) != n:
            return "the default repeats an element"
    return None


def _string_breaks(name: str, value: str, args: list[object], count_bytes: bool) -> str | None:
    n = len(value.encode()) if count_bytes else len(value)
    ints = [a for a in args if isinstance(a, int)]
    if name == "length" and len(ints) == 2 and not ints[0] <= n <= ints[1]:
        return f"the default's length {n} is outside [{ints[0]}, {ints[1]}]"
    if name == "minLength" and ints and n < ints[0]:
        return f"the default's length {n} is less than {ints[0]}"
    if name == "maxLength" and ints and n > ints[0]:
        return f"the default's length {n} is greater than {ints[0]}"
    if name == "pattern" and args and isinstance(args[0], str) and not _matches(args[0], value):
        return "the default does not match the pattern"
    if name == "format" and args:
        fmt = FORMATS.get(str(args[0]))
        if fmt is not None and not fmt.check(value):
            return f"the default is not a valid {fmt.label}"
    return None


def _matches(pattern: str, value: str) -> bool:
    return matches(pattern, value) is not False  # a pattern RE2 refuses is reported on its own


def _number_breaks(v: Decorator, value: Number, text: str) -> str | None:
    """Whether a number default fails a bound, compared exactly (`@gte(2^63 - 1)`,
    `@multipleOf(0.1)` of `0.3` are exact questions; floats get both wrong)."""
    name = v.name
    args = [exact(a) for a in v.args]
    bound = args[0] if args else None
    checks = {
        "gte": lambda b: value >= b,
        "gt": lambda b: value > b,
        "lte": lambda b: value <= b,
        "lt": lambda b: value < b,
        "multipleOf": lambda b: b == 0 or (Fraction(value) / b).denominator == 1,
    }
    if name in checks and bound is not None and not checks[name](bound):
        return f"the default {text} fails it"
    if name == "range" and len(args) == 2 and args[0] is not None and args[1] is not None:
        if not args[0] <= value <= args[1]:
            return f"the default {text} is outside [{v.args[0].text}, {v.args[1].text}]"
    if (name == "positive" and value <= 0) or (name == "negative" and value >= 0):
        return f"the default {text} fails it"
    return None


# --------------------------------------------------------------------------- cross-field


def _cross_field(ctx: Ctx, decl: TypeDecl, package: str) -> None:
    if not any(d.name in ("requiresOneOf", "mutuallyExclusive") for d in decl.decorators):
        return
    fields = {ef.name: ef for ef in reversed(ctx.index.fields(decl, package))}
    for d in decl.decorators:
        if d.name not in ("requiresOneOf", "mutuallyExclusive") or usable(d, Site.TYPE) is None:
            continue
        items = flat_args(d)
        seen: set[str] = set()
        for lit in items:
            name = literal_text(lit)
            if name in seen:
                ctx.warn("decorator/duplicate-group-field", lit.span, name=d.name, field=name)
                continue
            seen.add(name)
            ef = fields.get(name)
            if ef is None:
                ctx.report(
                    "decorator/ref",
                    lit.span,
                    name=d.name,
                    what="field",
                    value=name,
                    hint=f" in type {decl.name}",
                )
                continue
            reason = _group_member_problem(ef)
            if reason:
                ctx.report(
                    "decorator/cross-field-not-optional",
                    lit.span,
                    field=name,
                    name=d.name,
                    reason=reason,
                    related=related(ef.field.name_span, f"{name} is declared here"),
                )
        if len(seen) == 1:
            ctx.warn("decorator/single-field-mutex", d.name_span, name=d.name)


def _group_member_problem(ef: EffectiveField) -> str | None:
    f = ef.field
    if f.decorator("sensitive"):
        return "it is @sensitive (never on the wire)"
    binding = next((d for d in f.decorators if d.name in BINDINGS and d.name != "body"), None)
    if binding is not None:
        return f"it is bound with @{binding.name}; only body fields can be checked together"
    if f.decorator("default"):
        return "it has @default, so it is always present"
    if value_class(ef.shape) in COLLECTION_CLASSES:
        return f"{ef.shape.text()} is a collection; an empty one cannot be told apart from an absent one"
    if not ef.shape.optional and not is_nullable(f):
        return f"it is required - write its type as {f.type.text()}? or mark it @nullable"
    return None
