"""Which types need a `Validate()` or a `FillEmpty()` method (fixed points over the design)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from kit_core.generators.go.design import VALIDATORS, FieldFacts, GoDesign
from kit_core.model import EnumDecl, LiteralKind, ScalarDecl, TypeDecl, TypeRef
from kit_core.symbols import Kind, Resolved

CROSS_FIELD = ("requiresOneOf", "mutuallyExclusive")

Direct = Callable[[TypeDecl, str], bool]
LeafNeed = Callable[[Resolved | None], bool]


@dataclass(frozen=True, slots=True)
class Leaf:
    """The element type under a field's arrays and maps."""

    ref: TypeRef
    resolved: Resolved | None
    package: str
    params: tuple[str, ...]


def leaf_of(design: GoDesign, ref: TypeRef, package: str, params: tuple[str, ...]) -> Leaf:
    """Memoised per written reference (model objects live as long as the design)."""
    key = (id(ref), package, params)
    leaf = design.leaves.get(key)
    if leaf is None:
        leaf = design.leaves[key] = _leaf_of(design, ref, package, params)
    return leaf


def _leaf_of(design: GoDesign, ref: TypeRef, package: str, params: tuple[str, ...]) -> Leaf:
    while True:
        if ref.array_dims:
            ref = replace(ref, array_dims=0, optional=False)
            continue
        if ref.is_map:
            ref = ref.args[1]
            continue
        return Leaf(ref, design.resolve(ref, package, params), package, params)


def enum_is_int(decl: EnumDecl) -> bool:
    return any(v.value is not None and v.value.kind is LiteralKind.INT for v in decl.values)


def scalar_validates(decl: ScalarDecl) -> bool:
    return any(d.name in VALIDATORS for d in decl.decorators)


def presence(f: FieldFacts) -> str | None:
    """Go condition (on `%s`, the field expression) that means "absent", when one is emitted."""
    if f.optional or f.nullable or f.sensitive:
        return None
    kind, ref = f.kind, f.ref
    if kind is Kind.PRIMITIVE and ref.name == "file":
        return "len(%s) == 0" if ref.array_dims else "%s == nil"
    if ref.array_dims:
        return None
    if kind is Kind.PRIMITIVE and ref.name == "any":
        return "%s == nil"
    if kind is Kind.PARAM:
        return "%s == nil"
    if kind is Kind.ENUM and f.resolved is not None and isinstance(f.resolved.decl, EnumDecl):
        decl = f.resolved.decl
        if not enum_is_int(decl):
            return '%s == ""'
        if all(v.value is None or v.value.value != 0 for v in decl.values):
            return "%s == 0"
    return None


class Needs:
    def __init__(self, design: GoDesign) -> None:
        self.design = design
        self.types: list[tuple[TypeDecl, str]] = [
            (t, pkg.name) for pkg in design.packages() for t in pkg.types.values()
        ]
        self._leaf_cache: dict[tuple[int, bool], list[Resolved | None]] = {}
        self._validate: set[int] = set()
        self._fill: set[int] = set()
        self._fixed_point(self._validate, self._direct_validate, self.leaf_validates)
        self._fixed_point(self._fill, self._direct_fill, self.leaf_fills)
        self._unmarshal: set[int] = set()
        self._fixed_point(self._unmarshal, self._direct_unmarshal, self._leaf_unmarshals, mixins_only=True)

    def validates(self, decl: TypeDecl) -> bool:
        return id(decl) in self._validate

    def fills(self, decl: TypeDecl) -> bool:
        return id(decl) in self._fill

    def unmarshals(self, decl: TypeDecl) -> bool:
        """A type with `@default` fields, or embedding one (whose method would be promoted)."""
        return id(decl) in self._unmarshal

    def leaf_validates(self, r: Resolved | None) -> bool:
        if r is None:
            return False
        if r.kind is Kind.TYPE:
            return id(r.decl) in self._validate
        if r.kind is Kind.SCALAR:
            return isinstance(r.decl, ScalarDecl) and scalar_validates(r.decl)
        return r.kind in (Kind.ENUM, Kind.PARAM)

    def leaf_fills(self, r: Resolved | None) -> bool:
        if r is None:
            return False
        if r.kind is Kind.TYPE:
            return id(r.decl) in self._fill
        return r.kind is Kind.PARAM

    # ---------------------------------------------------------------- fixed points

    def _leaves(self, t: TypeDecl, pkg: str, mixins_only: bool) -> list[Resolved | None]:
        """What a type's need depends on: its mixins and (unless mixins only) its fields' leaves."""
        key = (id(t), mixins_only)
        if key in self._leaf_cache:
            return self._leaf_cache[key]
        params = tuple(p.name for p in t.params)
        out = [self.design.resolve(m.ref, pkg, params) for m in t.mixins]
        if not mixins_only:
            out += [
                leaf_of(self.design, f.ref, pkg, params).resolved
                for f in self.design.fields_of(t, pkg)
                if not f.sensitive
            ]
        self._leaf_cache[key] = out
        return out

    def _fixed_point(self, found: set[int], direct: Direct, leaf_need: LeafNeed, mixins_only: bool = False) -> None:
        """Types needing a method: direct ones, those with a leaf that needs it statically (enum,
        scalar, type parameter), then every user of a found type (a worklist over reverse edges)."""
        users: dict[int, list[int]] = {}
        for t, pkg in self.types:
            if direct(t, pkg):
                found.add(id(t))
            for r in self._leaves(t, pkg, mixins_only):
                if r is not None and r.kind is Kind.TYPE:
                    users.setdefault(id(r.decl), []).append(id(t))
                elif leaf_need(r):
                    found.add(id(t))
        work = list(found)
        while work:
            for user in users.get(work.pop(), ()):
                if user not in found:
                    found.add(user)
                    work.append(user)

    def _direct_validate(self, t: TypeDecl, pkg: str) -> bool:
        if any(t.decorator(n) for n in CROSS_FIELD):
            return True
        fields = self.design.fields_of(t, pkg)
        return any(f.validators or presence(f) or (not f.sensitive and self._checked_key(f)) for f in fields)

    def _checked_key(self, f: FieldFacts) -> bool:
        """A map (at any depth of arrays and map values) keyed by an enum or a validated scalar."""
        ref = f.ref
        while True:
            if ref.array_dims:
                ref = replace(ref, array_dims=0, optional=False)
            elif ref.is_map and len(ref.args) == 2:
                key = self.design.resolve(ref.args[0], f.owner_package, f.params)
                if key is not None and (
                    key.kind is Kind.ENUM or (isinstance(key.decl, ScalarDecl) and scalar_validates(key.decl))
                ):
                    return True
                ref = ref.args[1]
            else:
                return False

    def _leaf_unmarshals(self, r: Resolved | None) -> bool:
        return r is not None and r.kind is Kind.TYPE and id(r.decl) in self._unmarshal

    def _direct_unmarshal(self, t: TypeDecl, pkg: str) -> bool:
        return any(prefills(f) for f in self.design.fields_of(t, pkg))

    def _direct_fill(self, t: TypeDecl, pkg: str) -> bool:
        return any(fills_empty(self.design, f) for f in self.design.fields_of(t, pkg))


def fills_empty(design: GoDesign, f: FieldFacts) -> bool:
    """A required list, map or bytes on the JSON body: nil is written as `[]`, `{}` or `""`."""
    if f.optional or f.nullable or f.sensitive or f.explicit_binding not in (None, "body"):
        return False
    if f.ref.array_dims:
        return True
    r = f.resolved
    if r is None:
        return False
    if r.kind is Kind.MAP:
        return True
    return design.symbols.scalar_primitive(r) == "bytes"


def prefills(f: FieldFacts) -> bool:
    """A field whose `@default` is pre-filled before a JSON decode (a null default fills nothing)."""
    lit = f.default
    if lit is None or lit.kind is LiteralKind.NULL or f.sensitive:
        return False
    return f.explicit_binding in (None, "body")
