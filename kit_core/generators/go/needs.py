"""Which types need a `Validate()` or a `FillEmpty()` method (fixed points over the design)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from kit_core.generators.go.design import VALIDATORS, FieldFacts, GoDesign
from kit_core.model import EnumDecl, LiteralKind, ScalarDecl, TypeDecl
from kit_core.symbols import Kind, Resolved

CROSS_FIELD = ("requiresOneOf", "mutuallyExclusive")

Direct = Callable[[TypeDecl, str], bool]
LeafNeed = Callable[[Resolved | None], bool]


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
    """Which types need `Validate()`, `FillEmpty()` or a pre-filling `UnmarshalJSON` (a type
    needs one when it, or a type it reaches, needs it directly). Answered on demand, each type
    once (`_Reach`): a run that renders one package looks only at what that package reaches."""

    def __init__(self, design: GoDesign) -> None:
        self.design = design
        self._package: dict[int, str] | None = None  # type -> its package, for the public queries
        self._leaf_cache: dict[tuple[int, bool], list[Resolved | None]] = {}
        self._validate = _Reach(self, self._direct_validate, self._static_validates, mixins_only=False)
        self._fill = _Reach(self, self._direct_fill, self._static_fills, mixins_only=False)
        self._unmarshal = _Reach(self, self._direct_unmarshal, lambda r: False, mixins_only=True)

    def validates(self, decl: TypeDecl) -> bool:
        return self._validate(decl, self._package_of(decl))

    def fills(self, decl: TypeDecl) -> bool:
        return self._fill(decl, self._package_of(decl))

    def unmarshals(self, decl: TypeDecl) -> bool:
        """A type with `@default` fields, or embedding one (whose method would be promoted)."""
        return self._unmarshal(decl, self._package_of(decl))

    def leaf_validates(self, r: Resolved | None) -> bool:
        if r is not None and r.kind is Kind.TYPE and isinstance(r.decl, TypeDecl):
            return self._validate(r.decl, r.package or self._package_of(r.decl))
        return self._static_validates(r)

    def leaf_fills(self, r: Resolved | None) -> bool:
        if r is not None and r.kind is Kind.TYPE and isinstance(r.decl, TypeDecl):
            return self._fill(r.decl, r.package or self._package_of(r.decl))
        return self._static_fills(r)

    def _package_of(self, decl: TypeDecl) -> str:
        if self._package is None:
            self._package = {id(t): pkg.name for pkg in self.design.packages() for t in pkg.types.values()}
        return self._package[id(decl)]

    # ---------------------------------------------------------------- what a type reads

    def leaves(self, t: TypeDecl, pkg: str, mixins_only: bool) -> list[Resolved | None]:
        """What a type's need depends on: its mixins and (unless mixins only) its fields' leaves."""
        key = (id(t), mixins_only)
        if key in self._leaf_cache:
            return self._leaf_cache[key]
        params = tuple(p.name for p in t.params)
        out = [self.design.resolve(m.ref, pkg, params) for m in t.mixins]
        if not mixins_only:
            out += [f.leaf.resolved for f in self.design.fields_of(t, pkg) if not f.sensitive]
        self._leaf_cache[key] = out
        return out

    @staticmethod
    def _static_validates(r: Resolved | None) -> bool:
        """A leaf that is not a type: enums and type parameters validate, scalars with validators."""
        if r is None or r.kind is Kind.TYPE:
            return False
        if r.kind is Kind.SCALAR:
            return isinstance(r.decl, ScalarDecl) and scalar_validates(r.decl)
        return r.kind in (Kind.ENUM, Kind.PARAM)

    @staticmethod
    def _static_fills(r: Resolved | None) -> bool:
        return r is not None and r.kind is Kind.PARAM

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

    def _direct_unmarshal(self, t: TypeDecl, pkg: str) -> bool:
        return any(prefills(f) for f in self.design.fields_of(t, pkg))

    def _direct_fill(self, t: TypeDecl, pkg: str) -> bool:
        return any(fills_empty(self.design, f) for f in self.design.fields_of(t, pkg))


class _Reach:
    """Whether a type, or a type it reaches through its leaves, needs something: on demand,
    each type solved once. Types referencing each other in a cycle share one answer: an
    iterative Tarjan walk finds each strongly connected component and gives all of its types
    the answer of the whole component (linear in what the queried type reaches)."""

    def __init__(self, needs: Needs, direct: Direct, static: LeafNeed, mixins_only: bool) -> None:
        self.needs, self.direct, self.static, self.mixins_only = needs, direct, static, mixins_only
        self.value: dict[int, bool] = {}

    def __call__(self, t: TypeDecl, pkg: str) -> bool:
        found = self.value.get(id(t))
        if found is None:
            self._solve(t, pkg)
            found = self.value[id(t)]
        return found

    def _edges(self, t: TypeDecl, pkg: str) -> tuple[bool, list[tuple[TypeDecl, str]]]:
        """(needs it by itself or through a non-type leaf, the types it reaches)."""
        own = self.direct(t, pkg)
        out: list[tuple[TypeDecl, str]] = []
        for r in self.needs.leaves(t, pkg, self.mixins_only):
            if r is not None and r.kind is Kind.TYPE and isinstance(r.decl, TypeDecl):
                out.append((r.decl, r.package or pkg))
            elif not own and self.static(r):
                own = True
        return own, out

    def _solve(self, root: TypeDecl, pkg: str) -> None:
        index: dict[int, int] = {}
        low: dict[int, int] = {}
        truth: dict[int, bool] = {}
        stack: list[int] = []
        on_stack: set[int] = set()
        frames: list[tuple[int, Iterator[tuple[TypeDecl, str]]]] = []

        def enter(t: TypeDecl, p: str) -> None:
            tid = id(t)
            index[tid] = low[tid] = len(index)
            own, out = self._edges(t, p)
            truth[tid] = own
            stack.append(tid)
            on_stack.add(tid)
            frames.append((tid, iter(out)))

        enter(root, pkg)
        while frames:
            tid, edges = frames[-1]
            for u, upkg in edges:
                uid = id(u)
                if uid in self.value:
                    truth[tid] = truth[tid] or self.value[uid]
                elif uid not in index:
                    enter(u, upkg)
                    break
                elif uid in on_stack:
                    low[tid] = min(low[tid], index[uid])
            else:
                frames.pop()
                if low[tid] == index[tid]:  # the root of a component: all of it is answered
                    members = stack[stack.index(tid) :]
                    del stack[len(stack) - len(members) :]
                    answer = any(truth[m] for m in members)
                    for m in members:
                        on_stack.discard(m)
                        self.value[m] = answer
                if frames:
                    parent = frames[-1][0]
                    low[parent] = min(low[parent], low[tid])
                    truth[parent] = truth[parent] or self.value.get(tid, truth[tid])


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
