"""Go expressions of the mock's answers: one value per design type, built at generation time.

A value is the field's `@example` when it passes the field's validators, otherwise a value
built to pass them: lengths, numeric bounds and `@multipleOf`, `@format`s, `@pattern`
(strings enumerated by `exrex` and kept when RE2 matches them), enums, item counts and
uniqueness, optional fields (filled; of a `@mutuallyExclusive` group only the first),
nested types, maps and generic instances. Nothing is random: the same design gives the same
expressions. A `@pattern` field with no example and no enumerated match gets the plain text
and a `mock/no-example` warning (its answer then fails validation: the mock says so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from kit_core import naming
from kit_core.decorators.checks import exact_text
from kit_core.decorators.formats import FORMATS
from kit_core.generators.go.design import FieldFacts, arg_strings
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.render import go_string
from kit_core.generators.go.typemap import TypeMapper
from kit_core.model import Decorator, EnumDecl, ErrorDecl, Literal, LiteralKind, Mixin, ScalarDecl, TypeDecl
from kit_core.regex import matches
from kit_core.semantics import TypeShape, holds_nil
from kit_core.semantics.types import own_validators
from kit_core.source import Span
from kit_core.symbols import FLOAT_PRIMITIVES, INT_RANGES, Kind

PTR = "kitMockPtr"  # the answers file's helper: a pointer to a copy of its argument

# One accepted value per `@format` (each passes kit's checks of that format).
FORMAT_SAMPLES = {
    "email": "ada@example.com",
    "url": "https://example.com/",
    "uri": "https://example.com/",
    "uuid": "123e4567-e89b-42d3-a456-426614174000",
    "datetime": "2024-01-02T03:04:05Z",
    "date": "2024-01-02",
    "time": "03:04:05",
    "phone": "+1 555 0100",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "cidr": "192.0.2.0/24",
    "mac": "00:00:5e:00:53:01",
    "creditcard": "4111111111111111",
    "base64": "a2l0",
    "base64url": "a2l0",
    "hexcolor": "#336699",
    "json": "{}",
}
PATTERN_TRIES = 200  # strings exrex enumerates per pattern before giving up


@dataclass(frozen=True, slots=True)
class Missing:
    """A `@pattern` field the mock cannot answer: no valid example, no generated match."""

    span: Span
    label: str
    pattern: str


@dataclass
class Builder:
    g: GoGen
    mapper: TypeMapper
    missing: list[Missing] = field(default_factory=list)
    _open: list[int] = field(default_factory=list)  # declarations being built (recursion)

    # ---------------------------------------------------------------- entry

    def value(
        self,
        shape: TypeShape,
        checks: tuple[Decorator, ...] = (),
        example: Literal | None = None,
        seed: int = 0,
        owner: FieldFacts | None = None,
    ) -> str:
        """A Go expression of ``shape`` (without its `?` pointer) passing ``checks``."""
        if shape.array_dims:
            return self._array(shape, checks, example, seed, owner)
        kind = shape.kind
        if kind is Kind.MAP:
            return self._map(shape, seed)
        if kind is Kind.TYPE and isinstance(shape.decl, TypeDecl):
            return self._struct(shape, seed)
        if kind is Kind.ENUM and isinstance(shape.decl, EnumDecl):
            return self._enum(shape, example, seed)
        if kind is Kind.SCALAR and isinstance(shape.decl, ScalarDecl):
            inner = self.g.index.shape(shape.decl.primitive, shape.package or "")
            own = own_validators(shape.decl.decorators)
            return f"{self.mapper.shape(shape)}({self._primitive(inner.name, own + checks, example, seed, owner)})"
        if kind is Kind.PRIMITIVE:
            return self._primitive(shape.name, checks, example, seed, owner)
        return "nil"

    # ---------------------------------------------------------------- containers

    def _array(
        self,
        shape: TypeShape,
        checks: tuple[Decorator, ...],
        example: Literal | None,
        seed: int,
        owner: FieldFacts | None,
    ) -> str:
        elem = shape.element()
        count = 1
        for d in checks:
            if d.name == "minItems":
                count = max(count, int(d.args[0].text))
        for d in checks:
            if d.name == "maxItems":
                count = min(count, int(d.args[0].text))
        if elem.kind is Kind.TYPE and self._recursive(elem):
            count = 0
        items = example.items if example is not None and example.kind is LiteralKind.ARRAY else ()
        if (
            items
            and len(items) >= count
            and not any(d.name == "maxItems" and len(items) > int(d.args[0].text) for d in checks)
        ):
            count = len(items)
        typ = self.mapper.shape(elem)
        values = [
            _elide(self.value(elem, (), items[i] if i < len(items) else None, seed + i, owner), typ)
            for i in range(count)
        ]
        return f"{self.mapper.shape(shape)}{{{', '.join(values)}}}"

    def _map(self, shape: TypeShape, seed: int) -> str:
        key, val = shape.args
        if val.kind is Kind.TYPE and self._recursive(val):
            return f"{self.mapper.shape(shape)}{{}}"
        k = self.value(key, seed=seed)
        v = self.value(val, seed=seed)
        if val.optional and not holds_nil(val):
            v = f"{PTR}({v})"
        else:
            v = _elide(v, self.mapper.shape(val))
        return f"{self.mapper.shape(shape)}{{{k}: {v}}}"

    def _recursive(self, shape: TypeShape) -> bool:
        return id(shape.decl) in self._open

    # ---------------------------------------------------------------- structs

    def _struct(self, shape: TypeShape, seed: int) -> str:
        decl = shape.decl
        assert isinstance(decl, TypeDecl)
        params = self.g.index.params_of(decl, shape.args)
        return self._composite(decl, shape.package or "", params, self.mapper.shape(shape.base()), seed)

    def error_body(self, decl: ErrorDecl, package: str) -> str:
        """`pkg.<Name>Body{...}`: the declared fields of an error, built like a type's."""
        body = self.mapper.qualify(f"{decl.name}Body", package)
        return self._composite(decl, package, {}, body, 0)

    def _composite(
        self, decl: TypeDecl | ErrorDecl, package: str, params: dict[str, TypeShape | None], typ: str, seed: int
    ) -> str:
        skipped = _exclusive_rest(decl) if isinstance(decl, TypeDecl) else set()
        self._open.append(id(decl))
        parts: list[str] = []
        try:
            for m in self.g.design.members(decl, package):
                if isinstance(m, Mixin):
                    mixin = self.g.index.shape(m.ref, package, params)
                    parts.append(f"{m.ref.name}: {self.value(mixin, seed=seed)}")
                    continue
                if m.sensitive or m.name in skipped or m.is_file:
                    continue
                expr = self._field(m, self.g.index.shape(m.ref, package, params), seed)
                if expr is not None:
                    parts.append(f"{m.go_name}: {expr}")
        finally:
            self._open.pop()
        return f"{typ}{{{', '.join(parts)}}}"

    def _field(self, f: FieldFacts, shape: TypeShape, seed: int) -> str | None:
        """The field's value, or None to leave it out (an optional field that would recurse)."""
        plain = TypeShape(
            shape.kind, shape.name, shape.package, shape.decl, shape.args, shape.array_dims, False, shape.ref
        )
        if not plain.array_dims and plain.kind is Kind.TYPE and self._recursive(plain):
            return None  # only an optional (pointer) field can hold its own type
        example = _example(f)
        checks = f.validators
        if shape.kind is Kind.SCALAR and shape.array_dims and isinstance(shape.decl, ScalarDecl):
            checks = tuple(d for d in checks if d.name in ("minItems", "maxItems", "uniqueItems"))
        expr = self.value(plain, checks, example, seed, f)
        return f"{PTR}({expr})" if f.pointer else expr

    # ---------------------------------------------------------------- leaves

    def _enum(self, shape: TypeShape, example: Literal | None, seed: int) -> str:
        decl = shape.decl
        assert isinstance(decl, EnumDecl)
        names = [v.name for v in decl.values]
        pick = names[seed % len(names)]
        if example is not None:
            wanted = str(example.value).rpartition(".")[2]
            for v in decl.values:
                wire = v.value.value if v.value is not None else v.name
                if wanted in (v.name, str(wire)):
                    pick = v.name
        return self.mapper.qualify(naming.enum_const(shape.name, pick), shape.package)

    def _primitive(
        self, prim: str, checks: tuple[Decorator, ...], example: Literal | None, seed: int, owner: FieldFacts | None
    ) -> str:
        if prim in ("string", "bytes"):
            text = self._string(checks, example, seed, owner)
            return f"[]byte({go_string(text)})" if prim == "bytes" else go_string(text)
        if prim == "bool":
            return "true" if example is None or example.value is not False else "false"
        if prim == "datetime":
            time = self.mapper.imports.std("time")
            return f"{time}.Date(2024, {time}.January, 2, 3, 4, {5 + seed % 50}, 0, {time}.UTC)"
        if prim in INT_RANGES or prim in FLOAT_PRIMITIVES:
            return _number(prim, checks, example, seed)
        if prim == "any":
            return go_string(str(example.value)) if example is not None and example.is_string else '"example"'
        return "nil"  # file: a response never carries one

    def _string(
        self, checks: tuple[Decorator, ...], example: Literal | None, seed: int, owner: FieldFacts | None
    ) -> str:
        if example is not None and example.is_string and _passes(str(example.value), checks):
            return str(example.value)
        formats = [str(d.args[0].value) for d in checks if d.name == "format"]
        patterns = [str(d.args[0].value) for d in checks if d.name == "pattern"]
        lo, hi = _lengths(checks)
        candidates: list[str] = []
        if formats:
            candidates.append(FORMAT_SAMPLES.get(formats[0], "example"))
        if patterns:
            candidates.extend(pattern_strings(patterns[0]))
        base = "example" if seed == 0 else f"example{seed}"
        candidates.append(_fit(base, lo, hi))
        for c in candidates:
            if _passes(c, checks):
                return c
        if patterns and owner is not None:
            self.missing.append(Missing(owner.field.span, owner.label, patterns[0]))
        return candidates[-1]


# -------------------------------------------------------------------- helpers


def _elide(expr: str, typ: str) -> str:
    """A composite literal inside a slice or map literal without its type (gofmt -s)."""
    return expr[len(typ) :] if expr.startswith(typ + "{") else expr


def _example(f: FieldFacts) -> Literal | None:
    d = f.field.decorator("example")
    return d.args[0] if d is not None and d.args else None


def _exclusive_rest(decl: TypeDecl) -> set[str]:
    """Fields of `@mutuallyExclusive` groups after the first: left out (at most one is set)."""
    out: set[str] = set()
    for d in decl.decorators:
        if d.name == "mutuallyExclusive":
            out.update(arg_strings(d)[1:])
    return out


def _lengths(checks: tuple[Decorator, ...]) -> tuple[int, int | None]:
    lo, hi = 0, None
    for d in checks:
        if d.name == "length":
            lo, hi = max(lo, int(d.args[0].text)), int(d.args[1].text)
        elif d.name == "minLength":
            lo = max(lo, int(d.args[0].text))
        elif d.name == "maxLength":
            hi = int(d.args[0].text) if hi is None else min(hi, int(d.args[0].text))
    return lo, hi


def _fit(text: str, lo: int, hi: int | None) -> str:
    while len(text) < lo:
        text += "x"
    return text if hi is None else text[:hi]


def _passes(text: str, checks: tuple[Decorator, ...]) -> bool:
    lo, hi = _lengths(checks)
    if len(text) < lo or (hi is not None and len(text) > hi):
        return False
    for d in checks:
        if d.name == "format" and str(d.args[0].value) in FORMATS:
            if not FORMATS[str(d.args[0].value)].check(text):
                return False
        elif d.name == "pattern" and not matches(str(d.args[0].value), text):
            return False
    return True


def pattern_strings(pattern: str) -> list[str]:
    """The first strings matching ``pattern`` in exrex's enumeration order (deterministic)."""
    try:
        # deferred: exrex is optional (a test extra); without it the mock falls back
        import exrex  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:  # without the generator: the field's @example, or the warning
        return []
    out: list[str] = []
    try:
        for s in exrex.generate(pattern, limit=8):
            out.append(s)
            if len(out) >= PATTERN_TRIES:
                break
    except Exception:  # noqa: BLE001 - a syntax exrex (Python's re) does not know: no candidates
        return out
    return out


def _number(prim: str, checks: tuple[Decorator, ...], example: Literal | None, seed: int) -> str:
    is_int = prim in INT_RANGES
    lo_i, hi_i = INT_RANGES.get(prim, (None, None))
    lo: Fraction | None = Fraction(lo_i) if lo_i is not None else None
    hi: Fraction | None = Fraction(hi_i) if hi_i is not None else None
    lo_open = hi_open = False
    step: Fraction | None = None
    for d in checks:
        vals = [_frac(a.text) for a in d.args]
        if d.name in ("gte", "gt"):
            if lo is None or vals[0] >= lo:
                lo, lo_open = vals[0], d.name == "gt"
        elif d.name in ("lte", "lt"):
            if hi is None or vals[0] <= hi:
                hi, hi_open = vals[0], d.name == "lt"
        elif d.name == "range":
            lo, hi, lo_open, hi_open = vals[0], vals[1], False, False
        elif d.name == "positive":
            lo, lo_open = Fraction(0), True
        elif d.name == "negative":
            hi, hi_open = Fraction(0), True
        elif d.name == "multipleOf":
            step = vals[0]

    def ok(v: Fraction) -> bool:
        if lo is not None and (v < lo or (lo_open and v == lo)):
            return False
        if hi is not None and (v > hi or (hi_open and v == hi)):
            return False
        return step is None or (v / step).denominator == 1

    if (
        example is not None
        and example.is_number
        and ok(_frac(example.text))
        and (not is_int or _frac(example.text).denominator == 1)
    ):
        return _go_number(prim, _frac(example.text))
    v = Fraction(1 + seed)
    if lo is not None and (v < lo or (lo_open and v == lo)):
        v = lo + (1 if is_int or hi is None else min(Fraction(1), (hi - lo) / 2)) if lo_open else lo
    if hi is not None and (v > hi or (hi_open and v == hi)):
        v = hi - (1 if is_int or lo is None else min(Fraction(1), (hi - lo) / 2)) if hi_open else hi
    if step is not None:
        up = Fraction(math.ceil(v / step)) * step
        v = up if ok(up) else Fraction(math.floor(v / step)) * step
    return _go_number(prim, v)


def _frac(text: str) -> Fraction:
    value = exact_text(text)
    return Fraction(value) if value is not None else Fraction(0)


def _go_number(prim: str, v: Fraction) -> str:
    text = str(v.numerator) if v.denominator == 1 else repr(float(v))
    return text if prim == "int" else f"{prim}({text})"
