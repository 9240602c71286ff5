"""Go statements of one field's checks: presence, the type's own checks, decorators, elements.

Each validator compiles to a plain `if` on the value (no reflection, no struct tags at run
time). Messages follow dsl-facts §7: `<label>: <reason>`, nested labels joined by `: `.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from kit_core import naming
from kit_core.decorators.checks import exact_text
from kit_core.decorators.formats import FORMATS
from kit_core.generators.go.design import FieldFacts, GoDesign, Leaf
from kit_core.generators.go.emit import Emitter
from kit_core.generators.go.needs import Needs, enum_is_int, presence
from kit_core.generators.go.render import go_string
from kit_core.generators.go.walk import Scope, Walker, esc
from kit_core.model import Decorator, EnumDecl, LiteralKind, TypeRef
from kit_core.symbols import FLOAT_PRIMITIVES, INT_RANGES, Kind

# Helper functions of validate.go (template blocks) and the imports each needs.
HELPER_IMPORTS: dict[str, tuple[str, ...]] = {
    "email": ("net/mail",),
    "url": ("net/url",),
    "uri": ("net/url",),
    "uuid": ("regexp",),
    "datetime": ("time",),
    "date": ("time",),
    "time": (),
    "phone": ("regexp",),
    "ipv4": ("net/netip",),
    "ipv6": ("net/netip",),
    "cidr": ("net/netip",),
    "mac": ("net",),
    "creditcard": ("regexp",),
    "base64": ("encoding/base64",),
    "base64url": ("encoding/base64",),
    "hexcolor": ("regexp",),
    "json": ("encoding/json",),
    "unique": (),
    "multipleOf": ("math",),
    "mime": ("mime", "mime/multipart", "strings"),
}


@dataclass
class PackageHelpers:
    """Helper functions and compiled patterns one validate.go needs."""

    names: set[str] = field(default_factory=set)
    patterns: dict[str, str] = field(default_factory=dict)  # regex source -> var name
    imports: set[str] = field(default_factory=set)

    def use(self, name: str) -> str:
        self.names.add(name)
        self.imports.update(HELPER_IMPORTS[name])
        return "kit" + naming.go_name(name)  # `kitUUID`: Go spells initialisms in capitals

    def pattern(self, source: str) -> str:
        if source not in self.patterns:
            self.patterns[source] = f"kitPattern{len(self.patterns)}"
            self.imports.add("regexp")
        return self.patterns[source]


def _m(label: str, reason: str) -> str:
    """`<label>: <reason>`; a scalar's own checks have no label (the caller prefixes it)."""
    return f"{label}: {reason}" if label else reason


@dataclass
class FieldChecks:
    """Builds the checks of fields of one types package."""

    design: GoDesign
    needs: Needs
    helpers: PackageHelpers

    @cached_property
    def walker(self) -> Walker:
        return Walker(self.design, self.needs)

    def field(self, out: Emitter, f: FieldFacts, expr: str, pointer: bool, label: str) -> None:
        absent = presence(f)
        if absent is not None:
            out.fail(absent % expr, _m(label, "required"))
        guarded = (pointer or f.optional or f.nullable) and not (absent and "nil" in absent)
        scope = Scope(f.owner_package, f.params)
        if guarded and not self._has_value_checks(f, scope):
            return
        if guarded:
            out.open(f"if {expr} != nil")
        value = f"*{expr}" if pointer else expr
        leaf = f.leaf
        if not f.ref.array_dims and not f.ref.is_map:
            self._own(out, leaf, expr if pointer else value, value, label)
        for d in f.validators:
            self.decorator(out, d, value, f.ref, leaf, label)
        # selectors and indexes read through a pointer: the expression itself, not `*expr`
        self.walker.below(out, f.ref, scope, expr, esc(label))
        if guarded:
            out.close()

    def _has_value_checks(self, f: FieldFacts, scope: Scope) -> bool:
        return bool(f.validators) or self.walker.checks_anything(f.ref, scope)

    # ---------------------------------------------------------------- the type's own checks

    def _own(self, out: Emitter, leaf: Leaf, ref_expr: str, value: str, label: str) -> None:
        r = leaf.resolved
        if r is None or not self.needs.leaf_validates(r):
            return
        if r.kind is Kind.PARAM:
            out.dynamic(ref_expr if ref_expr != value else f"&{value}", esc(label))
            return
        out.wrap(f"{ref_expr}.Validate()", esc(label))

    # ---------------------------------------------------------------- decorators

    def decorator(self, out: Emitter, d: Decorator, value: str, ref: TypeRef, leaf: Leaf, label: str) -> None:
        prim = self._primitive(leaf)
        texts = [a.text for a in d.args]
        name = d.name
        if name in ("minItems", "maxItems", "uniqueItems") or (ref.array_dims and name not in ("maxSize", "mimeTypes")):
            self._items(out, name, texts, value, label)
            return
        if name in ("maxSize", "mimeTypes"):
            self._file(out, d, value, ref, label)
            return
        if prim in ("string", "bytes"):
            self._string(out, name, d, value, prim, leaf, label)
            return
        self._number(out, name, texts, value, prim, label)

    def _primitive(self, leaf: Leaf) -> str:
        r = leaf.resolved
        if r is None:
            return "any"
        if r.kind is Kind.ENUM and isinstance(r.decl, EnumDecl):
            return "int64" if enum_is_int(r.decl) else "string"
        return self.design.symbols.scalar_primitive(r) or "any"

    def _items(self, out: Emitter, name: str, texts: list[str], value: str, label: str) -> None:
        if name == "minItems" and texts[0] != "0":
            out.fail(f"len({value}) < {texts[0]}", _m(label, f"minItems {texts[0]}"))
        elif name == "maxItems":
            out.fail(f"len({value}) > {texts[0]}", _m(label, f"maxItems {texts[0]}"))
        elif name == "uniqueItems":
            out.fail(f"!{self.helpers.use('unique')}({value})", _m(label, "items must be unique"))

    def _file(self, out: Emitter, d: Decorator, value: str, ref: TypeRef, label: str) -> None:
        if ref.array_dims:
            out.open(f"for _, fh := range {value}")
            self._file(out, d, "fh", TypeRef(ref.name, ref.span, ref.name_span), label)
            out.close()
            return
        if d.name == "maxSize":
            size = int(d.args[0].value)  # type: ignore[call-overload]
            out.fail(f"{value} != nil && {value}.Size > {size}", _m(label, f"file size exceeds {size} bytes"))
            return
        items = d.args[0].items if len(d.args) == 1 and d.args[0].kind is LiteralKind.ARRAY else d.args
        allowed = ", ".join(go_string(str(i.value)) for i in items)
        fn = self.helpers.use("mime")
        out.fail(f"{value} != nil && !{fn}({value}, []string{{{allowed}}})", _m(label, "disallowed content type"))

    def _string(self, out: Emitter, name: str, d: Decorator, value: str, prim: str, leaf: Leaf, label: str) -> None:
        as_str = value if prim == "string" and self._is_plain(leaf) else f"string({value})"
        if prim == "bytes":
            as_str = f"string({value})"
        count = f"len({value})" if prim == "bytes" else f"utf8.RuneCountInString({as_str})"
        texts = [a.text for a in d.args]
        if name == "length":
            if prim != "bytes":
                out.std.add("unicode/utf8")
            out.fail(
                f"n := {count}; n < {texts[0]} || n > {texts[1]}",
                _m(label, f"length out of range [{texts[0]}, {texts[1]}]"),
            )
        elif name in ("minLength", "maxLength"):
            if prim != "bytes":
                out.std.add("unicode/utf8")
            op, word = ("<", "less") if name == "minLength" else (">", "greater")
            out.fail(f"{count} {op} {texts[0]}", _m(label, f"length {word} than {texts[0]}"))
        elif name == "pattern":
            var = self.helpers.pattern(str(d.args[0].value))
            out.fail(f"!{var}.MatchString({as_str})", _m(label, "does not match pattern"))
        elif name == "format":
            fmt_name = str(d.args[0].value)
            fn = self.helpers.use(fmt_name)
            out.fail(f"!{fn}({as_str})", _m(label, f"not a valid {FORMATS[fmt_name].label}"))

    def _is_plain(self, leaf: Leaf) -> bool:
        return leaf.resolved is not None and leaf.resolved.kind is Kind.PRIMITIVE

    def _number(self, out: Emitter, name: str, texts: list[str], value: str, prim: str, label: str) -> None:
        lo, hi = INT_RANGES.get(prim, (None, None))

        def needed_low(bound: str) -> bool:  # a lower bound the Go type does not already enforce
            return lo is None or _num(bound) > lo

        def needed_high(bound: str) -> bool:
            return hi is None or _num(bound) < hi

        if name == "gt":
            out.fail(f"{value} <= {texts[0]}", _m(label, f"must be greater than {texts[0]}"))
        elif name == "gte" and needed_low(texts[0]):
            out.fail(f"{value} < {texts[0]}", _m(label, f"below minimum {texts[0]}"))
        elif name == "lt":
            out.fail(f"{value} >= {texts[0]}", _m(label, f"must be less than {texts[0]}"))
        elif name == "lte" and needed_high(texts[0]):
            out.fail(f"{value} > {texts[0]}", _m(label, f"above maximum {texts[0]}"))
        elif name == "range":
            conds = [
                c
                for c, need in (
                    (f"{value} < {texts[0]}", needed_low(texts[0])),
                    (f"{value} > {texts[1]}", needed_high(texts[1])),
                )
                if need
            ]
            if conds:
                out.fail(" || ".join(conds), _m(label, f"out of range [{texts[0]}, {texts[1]}]"))
        elif name == "positive":
            out.fail(f"{value} <= 0", _m(label, "must be positive"))
        elif name == "negative":
            out.fail(f"{value} >= 0", _m(label, "must be negative"))
        elif name == "multipleOf":
            if prim in FLOAT_PRIMITIVES:
                fn = self.helpers.use("multipleOf")
                out.fail(f"!{fn}(float64({value}), {texts[0]})", _m(label, f"must be a multiple of {texts[0]}"))
            else:
                out.fail(f"{value}%{texts[0]} != 0", _m(label, f"must be a multiple of {texts[0]}"))


def _num(text: str) -> int | Fraction:
    """A bound as written, exactly (a float would call `@lte(2^63 - 2)` on an int64 redundant)."""
    value = exact_text(text)
    return value if value is not None else Fraction(0)
