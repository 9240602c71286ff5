"""Validators against the type they check: families (decorator rule 1), `@uniqueItems`
element typing, fractional bounds on ints, bound overflow, reversed and empty ranges
(with the bounds a scalar brings)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from kit_core.analyzer.context import Ctx
from kit_core.analyzer.decorators import usable
from kit_core.decorators import REGISTRY, Family, Site
from kit_core.decorators.checks import bounds_reversed, exact
from kit_core.diagnostics import Related
from kit_core.model import (
    Decl,
    Decorator,
    ErrorDecl,
    Field,
    ScalarDecl,
    SourceFile,
    TypeDecl,
)
from kit_core.semantics.types import (
    COLLECTION_CLASSES,
    NUMBER_CLASSES,
    STRING_CLASSES,
    TypeShape,
    ValueClass,
    is_nullable,
    value_class,
)
from kit_core.symbols import INT_RANGES, Kind

FLOAT_MAX = {"float32": 3.4028234663852886e38, "float64": 1.7976931348623157e308}
Number = int | Fraction
BOUNDS = frozenset({"gte", "gt", "lte", "lt", "range", "multipleOf"})
_FAMILY_CLASSES = {
    Family.STRING: STRING_CLASSES,
    Family.NUMBER: NUMBER_CLASSES,
    Family.ARRAY: frozenset({ValueClass.ARRAY, ValueClass.MAP}),
    Family.FILE: frozenset({ValueClass.FILE}),
}
_FAMILY_WORDS = {
    Family.STRING: "string and bytes values",
    Family.NUMBER: "numbers",
    Family.ARRAY: "arrays and maps",
    Family.FILE: "uploaded files (`file` fields)",
}


def check_file(ctx: Ctx, file: SourceFile) -> None:
    for decl in file.declarations:
        check_decl(ctx, file, decl)


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    if file.package is None:
        return
    if isinstance(decl, TypeDecl | ErrorDecl):
        site = Site.FIELD if isinstance(decl, TypeDecl) else Site.ERROR_FIELD
        for facts in field_facts(ctx, decl, file.package):
            if facts.validators:
                _check_validators(ctx, facts.validators, facts.validator_sigs, facts.shape, site, facts.field, facts)
    elif isinstance(decl, ScalarDecl):
        shape = ctx.shape(decl.primitive, file.package)
        check_field(ctx, decl.decorators, shape, Site.SCALAR, None)


def field_validators(decorators: Sequence[Decorator], site: Site) -> list[Decorator]:
    return [d for d in decorators if (s := usable(d, site)) is not None and s.is_validator]


def scalar_validators(shape: TypeShape) -> list[Decorator]:
    if shape.kind is Kind.SCALAR and not shape.array_dims and isinstance(shape.decl, ScalarDecl):
        return field_validators(shape.decl.decorators, Site.SCALAR)
    return []


_CLEAN: set[tuple[object, ...]] = set()
"""Validator sets found fine on a shape: everything `check_field` reads is in the key -
the site, the validators and the scalar's as written, the shape (kind, names, arguments,
suffixes) and the primitive under it. @uniqueItems (which reads the element type's
fields) is never remembered."""


def decorator_sig(decs: Sequence[Decorator]) -> tuple[object, ...]:
    """Decorators as written (names, argument kinds and spellings), for memo keys."""
    return tuple([(d.name, tuple([(a.kind, a.text) for a in d.args])) for d in decs])


def shape_sig(shape: TypeShape) -> tuple[object, ...]:
    """What makes shapes equal, as plain values (a key keeps no model alive)."""
    args = tuple([shape_sig(a) for a in shape.args]) if shape.args else ()
    return (shape.kind, shape.name, shape.package, args, shape.array_dims, shape.optional)


@dataclass(frozen=True, slots=True)
class FieldFacts:
    """What the per-field rules of a type or error read, gathered once per declaration."""

    field: Field
    shape: TypeShape
    decorators: list[Decorator]  # the usable ones (known, placed, well-formed)
    sigs: tuple[object, ...]  # `decorator_sig` of those
    validators: list[Decorator]  # the validators among them
    validator_sigs: tuple[object, ...]
    shape_sig: tuple[object, ...]
    primitive: str | None  # under the shape's array dimensions and `?`


_last_facts: tuple[object, object, list[FieldFacts]] = (None, None, [])


def field_facts(ctx: Ctx, decl: TypeDecl | ErrorDecl, package: str) -> list[FieldFacts]:
    """The fields with usable decorators, their shapes and signatures. The validator and
    field-option rules ask in turn about the same declaration of the same analysis: the
    last answer is kept (resolving records the same names either way)."""
    global _last_facts
    last = _last_facts
    if last[0] is decl and last[1] is ctx:
        return last[2]
    params = tuple(p.name for p in decl.params) if isinstance(decl, TypeDecl) else ()
    site = Site.FIELD if isinstance(decl, TypeDecl) else Site.ERROR_FIELD
    out: list[FieldFacts] = []
    for f in decl.fields:
        if not f.decorators:
            continue  # nothing to check (the types rule recorded what its type looks up)
        decs: list[Decorator] = []
        sigs: list[object] = []
        vals: list[Decorator] = []
        vsigs: list[object] = []
        for d in f.decorators:
            spec = usable(d, site)
            if spec is None:
                continue
            sig = (d.name, tuple([(a.kind, a.text) for a in d.args]))
            decs.append(d)
            sigs.append(sig)
            if spec.is_validator:
                vals.append(d)
                vsigs.append(sig)
        if decs:
            shape = ctx.shape(f.type, package, params)
            out.append(
                FieldFacts(f, shape, decs, tuple(sigs), vals, tuple(vsigs), shape_sig(shape), shape.base().primitive)
            )
    _last_facts = (decl, ctx, out)
    return out


def check_field(ctx: Ctx, decorators: Sequence[Decorator], shape: TypeShape, site: Site, field: Field | None) -> None:
    own = field_validators(decorators, site)
    if own:  # (scalar validators alone were checked on the scalar)
        _check_validators(ctx, own, decorator_sig(own), shape, site, field, None)


def _check_validators(
    ctx: Ctx,
    own: list[Decorator],
    own_sig: tuple[object, ...],
    shape: TypeShape,
    site: Site,
    field: Field | None,
    facts: FieldFacts | None,
) -> None:
    inherited = scalar_validators(shape) if site is not Site.SCALAR else []
    if facts is not None:
        key = (site, own_sig, decorator_sig(inherited), facts.shape_sig, facts.primitive)
    else:
        key = (site, own_sig, decorator_sig(inherited), shape_sig(shape), shape.base().primitive)
    if key in _CLEAN:
        return
    before = len(ctx.diags)
    cls = value_class(shape)
    fitting = [d for d in own if _fits(ctx, d, shape, cls)]
    for d in fitting:
        _overflow(ctx, d, shape)
    if len(fitting) == len(own):
        _empty_ranges(ctx, inherited, fitting, shape, field)
    if len(ctx.diags) == before and not any(d.name == "uniqueItems" for d in own):
        if len(_CLEAN) > 100_000:
            _CLEAN.clear()
        _CLEAN.add(key)


def _type_words(shape: TypeShape) -> str:
    return shape.text() if shape.kind is not None else shape.name


def _fits(ctx: Ctx, dec: Decorator, shape: TypeShape, cls: ValueClass) -> bool:
    spec = REGISTRY[dec.name]
    if cls is ValueClass.UNKNOWN:
        return False
    reason = _mismatch(spec.family, dec, shape, cls)
    if reason is None and dec.name == "uniqueItems":
        reason = _unique_items(ctx, shape, cls)
    if reason is None and cls in (ValueClass.INT, ValueClass.UINT):
        reason = _fraction(dec, shape)
    if reason:
        ctx.report("decorator/typemismatch", dec.name_span, name=dec.name, reason=reason)
        return False
    return True


def _mismatch(family: Family | None, dec: Decorator, shape: TypeShape, cls: ValueClass) -> str | None:
    if family is None:
        return None
    if cls is ValueClass.DATETIME:
        return "cannot apply to a datetime field: datetime takes no validators"
    if cls is ValueClass.PARAM:
        return f"cannot apply to a field typed by the type parameter {shape.name}"
    if cls in (ValueClass.STRUCT, ValueClass.ANY):
        what = "a generic instance" if shape.args else ("any" if cls is ValueClass.ANY else "a struct")
        return f"cannot apply to {_type_words(shape)} ({what}); constraints apply to primitive values"
    if family is Family.FILE and cls is ValueClass.ARRAY and shape.element().primitive == "file":
        return None
    if cls not in _FAMILY_CLASSES[family]:
        words = _type_words(shape)
        if shape.kind is Kind.ENUM:
            words += f" (an enum backed by {cls.value})"
        elif words != cls.value:
            words += f" ({cls.value})"
        return f"does not apply to {words}; it checks {_FAMILY_WORDS[family]}"
    return None


def _unique_items(ctx: Ctx, shape: TypeShape, cls: ValueClass) -> str | None:
    if cls is ValueClass.MAP:
        return "applies to arrays only, not maps (map keys are already unique)"
    elem = shape.element()
    ecls = value_class(elem)
    if elem.optional:
        return f"needs comparable elements; {elem.text()} is optional"
    if ecls in COLLECTION_CLASSES or ecls in (ValueClass.DATETIME, ValueClass.FILE, ValueClass.PARAM):
        return f"needs comparable elements; {_type_words(elem)} elements cannot be compared"
    if ecls is ValueClass.STRUCT:
        for ef in ctx.index.fields_of(elem):
            fcls = value_class(ef.shape)
            if ef.shape.optional or is_nullable(ef.field):
                return f"needs comparable elements; {elem.text()} has the optional or @nullable field {ef.name}"
            if fcls in COLLECTION_CLASSES or fcls in (ValueClass.DATETIME, ValueClass.FILE):
                return f"needs comparable elements; field {ef.name} of {elem.text()} cannot be compared"
    return None


def _fraction(dec: Decorator, shape: TypeShape) -> str | None:
    if dec.name not in BOUNDS:
        return None
    for lit in dec.args:
        value = exact(lit)
        if isinstance(value, Fraction) and value.denominator != 1:
            what = "an int enum" if shape.kind is Kind.ENUM else f"an integer field ({_type_words(shape)})"
            return f"has the fractional bound {lit.text} on {what}"
    return None


def type_range(prim: str | None) -> tuple[Number, Number] | None:
    """The values a primitive holds, exactly (floats: their largest finite magnitude)."""
    if prim in INT_RANGES:
        return INT_RANGES[prim]  # type: ignore[index]
    if prim in FLOAT_MAX:
        high = Fraction(FLOAT_MAX[prim])  # type: ignore[index]
        return -high, high
    return None


def _overflow(ctx: Ctx, dec: Decorator, shape: TypeShape) -> None:
    if dec.name not in BOUNDS:
        return
    prim = shape.primitive
    limits = type_range(prim)
    if limits is None:
        return
    low, high = limits
    for lit in dec.args:
        value = exact(lit)
        if value is not None and not low <= value <= high:
            ctx.report(
                "decorator/bound-overflow",
                lit.span,
                name=dec.name,
                value=lit.text,
                type=prim,
                low=_shown(low),
                high=_shown(high),
            )


def _shown(bound: Number) -> str:
    """A type's limit as the message shows it (a float type's as the float it is)."""
    return str(bound) if isinstance(bound, int) else str(float(bound))


# --------------------------------------------------------------------------- ranges


@dataclass
class _Bounds:
    """An interval of exact numbers (None: unbounded on that side)."""

    low: Number | None = None
    low_strict: bool = False
    high: Number | None = None
    high_strict: bool = False

    def raise_low(self, value: Number, strict: bool) -> None:
        if self.low is None or value > self.low or (value == self.low and strict):
            self.low, self.low_strict = value, strict

    def lower_high(self, value: Number, strict: bool) -> None:
        if self.high is None or value < self.high or (value == self.high and strict):
            self.high, self.high_strict = value, strict

    def empty(self, integer: bool) -> bool:
        if self.low is None or self.high is None:
            return False
        if integer:
            low = math.floor(self.low) + 1 if self.low_strict else math.ceil(self.low)
            high = math.ceil(self.high) - 1 if self.high_strict else math.floor(self.high)
            return low > high
        return self.low > self.high or (self.low == self.high and (self.low_strict or self.high_strict))


def _num(dec: Decorator, i: int = 0) -> Number | None:
    return exact(dec.args[i]) if i < len(dec.args) else None


def number_bounds(decs: Sequence[Decorator], shape: TypeShape) -> _Bounds:
    b = _Bounds()
    if shape.primitive in INT_RANGES:
        low, high = INT_RANGES[shape.primitive]  # type: ignore[index]
        b.raise_low(low, False)
        b.lower_high(high, False)
    for d in decs:
        n, m = _num(d), _num(d, 1)
        if d.name in ("gte", "gt") and n is not None:
            b.raise_low(n, d.name == "gt")
        elif d.name in ("lte", "lt") and n is not None:
            b.lower_high(n, d.name == "lt")
        elif d.name == "range" and n is not None and m is not None:
            b.raise_low(n, False)
            b.lower_high(m, False)
        elif d.name == "positive":
            b.raise_low(0, True)
        elif d.name == "negative":
            b.lower_high(0, True)
    return b


def count_bounds(decs: Sequence[Decorator], pair: str, low: str, high: str) -> _Bounds:
    b = _Bounds(0)
    for d in decs:
        n, m = _num(d), _num(d, 1)
        if d.name == pair and n is not None and m is not None:
            b.raise_low(n, False)
            b.lower_high(m, False)
        elif d.name == low and n is not None:
            b.raise_low(n, False)
        elif d.name == high and n is not None:
            b.lower_high(n, False)
    return b


_GROUPS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"gte", "gt", "lte", "lt", "range", "positive", "negative"}), "number"),
    (frozenset({"length", "minLength", "maxLength"}), "length"),
    (frozenset({"minItems", "maxItems"}), "items"),
)


def _reversed(decs: Sequence[Decorator]) -> bool:
    return any(REGISTRY[d.name].ordered and bounds_reversed(d) for d in decs)


def _empty_ranges(
    ctx: Ctx, inherited: list[Decorator], own: list[Decorator], shape: TypeShape, field: Field | None
) -> None:
    if not own or _reversed(inherited + own):
        return
    integer = shape.primitive in INT_RANGES
    for names, kind in _GROUPS:
        decs = [d for d in inherited + own if d.name in names]
        if not any(d in own for d in decs):
            continue
        if kind == "number":
            bounds = number_bounds(decs, shape)
        elif kind == "length":
            bounds = count_bounds(decs, "length", "minLength", "maxLength")
        else:
            bounds = count_bounds(decs, "", "minItems", "maxItems")
        if bounds.empty(integer or kind != "number"):
            _report_empty(ctx, decs, own, shape, field, inherited)


def _report_empty(
    ctx: Ctx,
    decs: list[Decorator],
    own: list[Decorator],
    shape: TypeShape,
    field: Field | None,
    inherited: list[Decorator],
) -> None:

    last = [d for d in decs if d in own][-1]
    constraints = " ".join(_text(d) for d in decs)
    where = f" on field {field.name}" if field else ""
    if any(d in inherited for d in decs):
        where += f" (the bounds of scalar {shape.name} included)"
    elif shape.primitive in INT_RANGES and len(decs) == 1:
        where += f" of type {shape.primitive}"
    rel = tuple(Related(d.span, "constraint here") for d in decs if d is not last)
    ctx.report("decorator/empty-range", last.span, constraints=constraints, where=where, related=rel)


def _text(d: Decorator) -> str:
    return f"@{d.name}" + (f"({', '.join(a.text for a in d.args)})" if d.args else "")
