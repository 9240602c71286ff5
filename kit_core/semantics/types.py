"""Resolved types and effective fields: what the analyzer and the generators both need.

`TypeShape` is a `TypeRef` with its names resolved (and type parameters substituted), so
that a consumer never resolves a name twice or in the wrong package:

    index = TypeIndex(symbols)
    shape = index.shape(field.type, "users", params=("T",))   # T stays a parameter
    for ef in index.fields_of(request_shape):                 # mixins expanded, generics substituted
        ef.field.name, ef.shape, is_optional(ef), validators(index, ef)

A `TypeIndex` caches per declaration; build one per analysis (the analyzer exposes its own).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from kit_core.decorators import BINDINGS, VALIDATORS
from kit_core.fastnew import maker
from kit_core.graph import strongly_connected
from kit_core.model import (
    Decl,
    Decorator,
    EnumDecl,
    ErrorDecl,
    Field,
    LiteralKind,
    Mixin,
    ScalarDecl,
    TypeDecl,
    TypeRef,
)
from kit_core.symbols import FLOAT_PRIMITIVES, INT_PRIMITIVES, Kind, SymbolTable

Params = Mapping[str, "TypeShape | None"]
"""Type parameters in scope: a name maps to its argument, or to None while unsubstituted."""


class ValueClass(StrEnum):
    """What a value of a shape is at run time (enums and scalars by their backing primitive)."""

    STRING = "string"
    BYTES = "bytes"
    INT = "int"
    UINT = "uint"
    FLOAT = "float"
    BOOL = "bool"
    DATETIME = "datetime"
    FILE = "file"
    ANY = "any"
    ARRAY = "array"
    MAP = "map"
    STRUCT = "struct"  # a declared type or generic instance
    PARAM = "param"  # an unsubstituted type parameter
    UNKNOWN = "unknown"  # an unresolved name


@dataclass(frozen=True, slots=True)
class TypeShape:
    """A resolved type. ``kind`` is None when the name did not resolve.

    Equality and hashing look at the resolved identity only (kind, names, arguments,
    suffixes), not at the declaration object or where the reference was written.
    """

    kind: Kind | None
    name: str
    package: str | None = None  # declaring package of a TYPE/ENUM/SCALAR/ERROR
    decl: Decl | None = field(default=None, compare=False)
    args: tuple[TypeShape, ...] = ()  # generic arguments, or (key, value) of a map
    array_dims: int = 0
    optional: bool = False
    ref: TypeRef | None = field(default=None, compare=False)  # as written (None when synthesized)

    @property
    def is_array(self) -> bool:
        return self.array_dims > 0

    def element(self) -> TypeShape:
        """The shape one `[]` down, without the `?` (the shape itself when not an array)."""
        if not self.array_dims:
            return self
        return TypeShape(self.kind, self.name, self.package, self.decl, self.args, self.array_dims - 1, False, self.ref)

    def base(self) -> TypeShape:
        """The shape without array dimensions and `?`."""
        if not self.array_dims and not self.optional:
            return self
        return TypeShape(self.kind, self.name, self.package, self.decl, self.args, 0, False, self.ref)

    @property
    def primitive(self) -> str | None:
        """The primitive of a primitive, of a scalar, or the backing of an enum (`string`/`int64`)."""
        if self.array_dims:
            return None
        if self.kind is Kind.PRIMITIVE:
            return self.name
        if self.kind is Kind.SCALAR and isinstance(self.decl, ScalarDecl):
            return self.decl.primitive.name
        if self.kind is Kind.ENUM and isinstance(self.decl, EnumDecl):
            return "int64" if enum_is_int(self.decl) else "string"
        return None

    def text(self) -> str:
        if self.kind is Kind.MAP and len(self.args) == 2:
            base = f"map<{self.args[0].text()}, {self.args[1].text()}>"
        else:
            qualified = self.package and self.kind is not Kind.PRIMITIVE
            base = f"{self.package}.{self.name}" if qualified else self.name
            if self.args:
                base += "<" + ", ".join(a.text() for a in self.args) + ">"
        return base + "[]" * self.array_dims + ("?" if self.optional else "")


def enum_is_int(decl: EnumDecl) -> bool:
    """Int-valued enums: the first valued member decides (mixed forms are an error)."""
    for v in decl.values:
        if v.value is not None:
            return v.value.kind is LiteralKind.INT
    return False


def value_class(shape: TypeShape) -> ValueClass:
    # asked for every field by every step of the codec: one dict look-up by kind first
    if shape.array_dims:
        return ValueClass.ARRAY
    kind = shape.kind
    if kind is Kind.PRIMITIVE:
        return _PRIMITIVE_CLASS.get(shape.name, ValueClass.UNKNOWN)
    by_kind = _KIND_CLASS.get(kind)
    if by_kind is not None:
        return by_kind
    prim = shape.primitive
    if prim is None:
        return ValueClass.UNKNOWN
    return _PRIMITIVE_CLASS.get(prim, ValueClass.UNKNOWN)


_PRIMITIVE_CLASS: dict[str, ValueClass] = {
    "string": ValueClass.STRING,
    "bytes": ValueClass.BYTES,
    "bool": ValueClass.BOOL,
    "datetime": ValueClass.DATETIME,
    "file": ValueClass.FILE,
    "any": ValueClass.ANY,
    **{p: ValueClass.UINT if p.startswith("u") else ValueClass.INT for p in INT_PRIMITIVES},
    **{p: ValueClass.FLOAT for p in FLOAT_PRIMITIVES},
}

_KIND_CLASS: dict[Kind | None, ValueClass] = {
    Kind.MAP: ValueClass.MAP,
    Kind.TYPE: ValueClass.STRUCT,
    Kind.ERROR: ValueClass.STRUCT,
    Kind.PARAM: ValueClass.PARAM,
}

NUMBER_CLASSES = frozenset({ValueClass.INT, ValueClass.UINT, ValueClass.FLOAT})
STRING_CLASSES = frozenset({ValueClass.STRING, ValueClass.BYTES})
COLLECTION_CLASSES = frozenset({ValueClass.ARRAY, ValueClass.MAP, ValueClass.BYTES, ValueClass.ANY})


def holds_nil(shape: TypeShape) -> bool:
    """Whether the Go type already holds nil (slice, map, []byte, any, file header pointer)."""
    return value_class(shape) in (
        ValueClass.ARRAY,
        ValueClass.MAP,
        ValueClass.BYTES,
        ValueClass.ANY,
        ValueClass.FILE,
    )


# --------------------------------------------------------------------------- fields


@dataclass(frozen=True, slots=True)
class EffectiveField:
    """A field of a type as seen from outside: own or brought by a mixin, generics substituted."""

    field: Field
    shape: TypeShape
    owner: TypeDecl | ErrorDecl  # the declaration the field is written in
    owner_package: str
    via: tuple[Mixin, ...] = ()  # (the outer type's mixin that brings the field,) or () for an own field

    @property
    def name(self) -> str:
        return self.field.name

    def decorator(self, name: str) -> Decorator | None:
        return self.field.decorator(name)


def json_key(field: Field) -> str:
    d = field.decorator("json")
    if d and d.args and d.args[0].is_string:
        return str(d.args[0].value)
    return field.name


def is_sensitive(field: Field) -> bool:
    return field.decorator("sensitive") is not None


def is_nullable(field: Field) -> bool:
    return field.decorator("nullable") is not None


def is_optional(ef: EffectiveField) -> bool:
    """Optional on the wire: `?` or `@default` (which makes the field optional)."""
    return ef.shape.optional or ef.field.decorator("default") is not None


def binding_decorator(field: Field) -> Decorator | None:
    """The first binding decorator of a field (`@path`, `@query`, ...), if any."""
    for d in field.decorators:
        if d.name in BINDINGS:
            return d
    return None


def own_validators(decorators: Sequence[Decorator]) -> tuple[Decorator, ...]:
    return tuple(d for d in decorators if d.name in VALIDATORS)


def validators(ef: EffectiveField) -> tuple[Decorator, ...]:
    """Checks of a field in run order: the scalar's validators, then the field's own as written."""
    inherited: tuple[Decorator, ...] = ()
    if ef.shape.kind is Kind.SCALAR and not ef.shape.array_dims and isinstance(ef.shape.decl, ScalarDecl):
        inherited = own_validators(ef.shape.decl.decorators)
    return inherited + own_validators(ef.field.decorators)


# --------------------------------------------------------------------------- the index

_TypeShape = maker(TypeShape)
_EffectiveField = maker(EffectiveField)


def shape_key(ref: TypeRef, package: str, params: Params | Sequence[str]) -> tuple[object, ...]:
    """The cache key of a resolution: the reference (by identity), where it is written and
    the parameters in scope (their bindings when some are bound, else their names)."""
    if type(params) is tuple:
        return (id(ref), package, params)
    if type(params) is dict and any(v is not None for v in params.values()):
        return (id(ref), package, tuple(params.items()))
    return (id(ref), package, tuple(params))  # type: ignore[arg-type]


class TypeIndex:
    """Resolves type references and expands fields, with caches for one design."""

    def __init__(self, symbols: SymbolTable) -> None:
        self.symbols = symbols
        self._fields: dict[tuple[int, tuple[TypeShape, ...]], tuple[EffectiveField, ...]] = {}
        self._cycle_of: dict[int, int | None] = {}  # declaration -> its cycle of mixins (None: none)
        self._warming = False
        self._shapes: dict[tuple[object, ...], tuple[TypeRef, TypeShape]] = {}

    def shape(self, ref: TypeRef, package: str, params: Params | Sequence[str] = ()) -> TypeShape:
        """Resolve ``ref`` as written in ``package`` with the type parameters in scope."""
        key = shape_key(ref, package, params)
        hit = self._shapes.get(key)
        if hit is not None and hit[0] is ref:
            return hit[1]
        result = self.resolve(ref, package, params)
        self._shapes[key] = (ref, result)
        return result

    def resolve(self, ref: TypeRef, package: str, params: Params | Sequence[str] = ()) -> TypeShape:
        """`shape` without the cache."""
        if not ref.args and type(params) is tuple:  # the common case, without the scope dict
            found = self.symbols.resolve(ref, package, params)
            if found is None:
                return _TypeShape(None, ref.name, ref.package, None, (), ref.array_dims, ref.optional, ref)
            return _TypeShape(found.kind, found.name, found.package, found.decl, (), ref.array_dims, ref.optional, ref)
        scope: Params = params if type(params) is dict else dict.fromkeys(params)  # type: ignore[arg-type]
        try:
            return self._shape(ref, package, scope, 0)
        except RecursionError:  # absurdly deep nesting: give up on this ref, never raise
            return TypeShape(None, ref.name, ref=ref)

    def _shape(self, ref: TypeRef, package: str, scope: Params, depth: int) -> TypeShape:
        args = tuple([self._shape(a, package, scope, depth + 1) for a in ref.args]) if ref.args else ()
        resolved = self.symbols.resolve(ref, package, scope.keys())
        if resolved is None:
            return _TypeShape(None, ref.name, ref.package, None, args, ref.array_dims, ref.optional, ref)
        if resolved.kind is Kind.PARAM:
            bound = scope.get(ref.name)
            if bound is not None:
                return replace(
                    bound,
                    array_dims=bound.array_dims + ref.array_dims,
                    optional=bound.optional or ref.optional,
                    ref=ref,
                )
        return _TypeShape(
            resolved.kind,
            resolved.name,
            resolved.package,
            resolved.decl,
            args,
            ref.array_dims,
            ref.optional,
            ref,
        )

    def params_of(self, decl: TypeDecl | ErrorDecl, args: tuple[TypeShape, ...] = ()) -> dict[str, TypeShape | None]:
        names = [p.name for p in decl.params] if isinstance(decl, TypeDecl) else []
        return {n: (args[i] if i < len(args) else None) for i, n in enumerate(names)}

    def fields(
        self, decl: TypeDecl | ErrorDecl, package: str, args: tuple[TypeShape, ...] = ()
    ) -> tuple[EffectiveField, ...]:
        """Own and mixin fields of a declaration in member order; ``args`` instantiate it.

        A mixin within a cycle of mixins (mixin/cycle) brings nothing. The types a
        declaration mixes in are expanded first, deepest first, and spliced in: each type of
        a chain is expanded once and the call depth stays at one, however long the chain."""
        key = (id(decl), args)
        cached = self._fields.get(key)
        if cached is None:
            if not self._warming and any(type(m) is Mixin for m in decl.members):
                self._warming = True
                try:
                    self._warm(decl, package, args)
                finally:
                    self._warming = False
            cached = self._fields[key] = self._expand(decl, package, args)
        return cached

    def _warm(self, decl: TypeDecl | ErrorDecl, package: str, args: tuple[TypeShape, ...]) -> None:
        """Find the mixin cycles below a declaration, then expand the instances it mixes in,
        deepest first (explicit stacks: a chain of mixins may be thousands deep)."""
        graph: dict[int, list[int]] = {}
        todo = [(decl, package, args)]
        while todo:
            d, pkg, a = todo.pop()
            if id(d) in graph or id(d) in self._cycle_of:
                continue
            inner = list(self._mixins(d, pkg, a))
            graph[id(d)] = [id(m) for m, _, _ in inner]
            todo.extend(inner)
        for component in strongly_connected(list(graph), lambda n: graph.get(n, ())):
            for node in component:
                self._cycle_of[node] = component[0] if len(component) > 1 else None
        order: list[tuple[TypeDecl, str, tuple[TypeShape, ...]]] = []
        stack = [((decl, package, args), iter(self._mixins(decl, package, args)))]
        seen = {(id(decl), args)}
        while stack:
            (owner, _, _), below = stack[-1]
            for mixin in below:
                key = (id(mixin[0]), mixin[2])
                if key not in seen and key not in self._fields and not self._cyclic(owner, mixin[0]):
                    seen.add(key)
                    stack.append((mixin, iter(self._mixins(*mixin))))
                    break
            else:
                done = stack.pop()[0]
                if stack:
                    order.append(done)  # type: ignore[arg-type]
        for inner_decl, pkg, inner_args in order:
            self.fields(inner_decl, pkg, inner_args)

    def _cyclic(self, owner: TypeDecl | ErrorDecl, mixin: TypeDecl) -> bool:
        """Whether mixing ``mixin`` into ``owner`` closes a cycle of mixins."""
        cycle = self._cycle_of.get(id(owner))
        return owner is mixin or (cycle is not None and cycle == self._cycle_of.get(id(mixin)))

    def _mixins(
        self, decl: TypeDecl | ErrorDecl, package: str, args: tuple[TypeShape, ...]
    ) -> Iterator[tuple[TypeDecl, str, tuple[TypeShape, ...]]]:
        scope = self._scope(decl, args)
        for member in decl.members:
            if isinstance(member, Mixin):
                mixin = self.shape(member.ref, package, scope)
                if isinstance(mixin.decl, TypeDecl) and mixin.package is not None and not mixin.array_dims:
                    yield mixin.decl, mixin.package, mixin.args

    def fields_of(self, shape: TypeShape) -> tuple[EffectiveField, ...]:
        """Fields of a struct shape (a declared type or generic instance); () for anything else."""
        if shape.array_dims or not isinstance(shape.decl, TypeDecl | ErrorDecl) or shape.package is None:
            return ()
        return self.fields(shape.decl, shape.package, shape.args)

    def _expand(
        self, decl: TypeDecl | ErrorDecl, package: str, args: tuple[TypeShape, ...]
    ) -> tuple[EffectiveField, ...]:
        """Own fields, and the fields of each mixin (expanded by `_warm`) spliced in."""
        shape = self.shape
        scope = self._scope(decl, args)
        out: list[EffectiveField] = []
        for member in decl.members:
            if isinstance(member, Field):
                out.append(_EffectiveField(member, shape(member.type, package, scope), decl, package, ()))
                continue
            mixin = shape(member.ref, package, scope)
            inner = mixin.decl
            if (
                isinstance(inner, TypeDecl)
                and mixin.package is not None
                and not mixin.array_dims
                and not self._cyclic(decl, inner)
            ):
                brought = (member,)
                for ef in self.fields(inner, mixin.package, mixin.args):
                    out.append(_EffectiveField(ef.field, ef.shape, ef.owner, ef.owner_package, brought))
        return tuple(out)

    def _scope(self, decl: TypeDecl | ErrorDecl, args: tuple[TypeShape, ...]) -> Params | tuple[()]:
        return self.params_of(decl, args) if isinstance(decl, TypeDecl) and decl.params else ()
