"""Facts about the design that the Go generator needs, read from the symbol table.

Effective optionality, bindings, wire names, validators in written order, inherited
service chains. (The analyzer's semantics package computes the same facts for the
OpenAPI generator and the editor; this module keeps the Go side self-contained where
the analysis does not expose them.)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from kit_core import naming
from kit_core.fastnew import maker
from kit_core.model import Decorator, ErrorDecl, Field, Literal, LiteralKind, Mixin, TypeDecl, TypeRef
from kit_core.symbols import Kind, Package, Resolved, SymbolTable

BINDINGS = ("body", "path", "query", "header", "cookie", "form")
VALIDATORS = frozenset(
    (
        "length minLength maxLength pattern format gte gt lte lt range positive negative multipleOf "
        "minItems maxItems uniqueItems maxSize mimeTypes"
    ).split()
)
NILABLE_PRIMITIVES = frozenset({"bytes", "any", "file"})


def arg_strings(d: Decorator | None) -> list[str]:
    """Identifier or string arguments of a variadic decorator (`(A, B)` or `([A, B])`)."""
    if d is None:
        return []
    args: tuple[Literal, ...] = d.args
    if len(args) == 1 and args[0].kind is LiteralKind.ARRAY:
        args = args[0].items
    return [str(a.value) for a in args]


def first_arg(d: Decorator | None) -> Literal | None:
    return d.args[0] if d is not None and d.args else None


@dataclass(frozen=True, slots=True)
class Leaf:
    """The element type under a field's arrays and maps."""

    ref: TypeRef
    resolved: Resolved | None
    package: str
    params: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FieldFacts:
    """One field of a type or error body, as declared (mixins are separate).

    The facts every generator asks for (decorators, Go name, pointer-ness) are computed
    once, when `GoDesign.fields_of` builds the facts of a declaration's fields.
    """

    field: Field
    owner_package: str
    params: tuple[str, ...]
    resolved: Resolved | None
    names: frozenset[str]  # names of the field's decorators
    explicit_binding: str | None
    validators: tuple[Decorator, ...]  # in written order
    json_key: str  # the `@json` key, else the DSL name
    default: Literal | None  # the `@default` value
    name: str  # the DSL name
    ref: TypeRef
    optional: bool  # `?`, or an `@default` (which makes the field optional)
    nullable: bool
    sensitive: bool
    kind: Kind | None
    go_name: str  # unique among the declaration's own fields (a later clash gets `_2`)
    pointer: bool  # the Go type gets a `*`: optional, nullable or a required type parameter
    leaf: Leaf  # the element type under the field's arrays and maps

    @classmethod
    def make(
        cls,
        f: Field,
        package: str,
        params: tuple[str, ...],
        resolved: Resolved | None,
        go: str,
        nilable: bool,
        leaf: Leaf,
    ) -> FieldFacts:
        decorators = f.decorators
        if decorators:  # a set test first: most fields have no binding and many no validator
            names = frozenset([d.name for d in decorators])
            binding = None if names.isdisjoint(BINDINGS) else next(b for b in BINDINGS if b in names)
            validators = () if names.isdisjoint(VALIDATORS) else tuple([d for d in decorators if d.name in VALIDATORS])
        else:
            names, binding, validators = frozenset(), None, ()
        key = first_arg(f.decorator("json")) if "json" in names else None
        default = first_arg(f.decorator("default")) if "default" in names else None
        json_key = str(key.value) if key is not None else f.name
        ref = f.type
        optional = ref.optional or "default" in names
        nullable = "nullable" in names
        kind = resolved.kind if resolved else None
        param = kind is Kind.PARAM and ref.array_dims == 0
        pointer = not nilable and (optional or nullable or param)
        return _new_facts(
            f, package, params, resolved, names, binding, validators, json_key, default,
            f.name, ref, optional, nullable, "sensitive" in names, kind, go, pointer, leaf,
        )  # fmt: skip

    def wire_name(self, binding: str | None) -> str:
        """The label of messages and the wire key: binding name, `@json` key, else the DSL name."""
        if binding and binding != "body":
            lit = first_arg(self.field.decorator(binding))
            if lit is not None and lit.is_string:
                return str(lit.value)
        return self.json_key

    @property
    def label(self) -> str:
        return self.wire_name(self.explicit_binding)

    @property
    def is_file(self) -> bool:
        return self.kind is Kind.PRIMITIVE and self.ref.name == "file"


@dataclass
class GoDesign:
    """The analysed design seen from the Go generator."""

    symbols: SymbolTable
    _fields: dict[int, list[FieldFacts]] = field(default_factory=dict)
    _facts: dict[int, FieldFacts] = field(default_factory=dict)  # by id of the field
    _resolved: dict[tuple[str, str | None, str, tuple[str, ...]], Resolved | None] = field(default_factory=dict)
    _members: dict[int, list[FieldFacts | Mixin]] = field(default_factory=dict)

    # ---------------------------------------------------------------- lookups

    def packages(self) -> list[Package]:
        return [self.symbols.packages[n] for n in sorted(self.symbols.packages)]

    def resolve(self, ref: TypeRef, package: str, params: tuple[str, ...] = ()) -> Resolved | None:
        """`SymbolTable.resolve`, memoised: it depends on the name, qualifier and scope only."""
        key = (ref.name, ref.package, package, params)
        try:
            return self._resolved[key]
        except KeyError:
            r = self._resolved[key] = self.symbols.resolve(ref, package, params)
            return r

    def fields_of(self, decl: TypeDecl | ErrorDecl, package: str) -> list[FieldFacts]:
        key = id(decl)
        if key not in self._fields:
            params = tuple(p.name for p in decl.params) if isinstance(decl, TypeDecl) else ()
            go = unique_go_names([f.name for f in decl.fields])
            facts = self._fields[key] = []
            for f, name in zip(decl.fields, go, strict=True):
                r = self.resolve(f.type, package, params)
                nilable = f.type.array_dims > 0 or (r is not None and nilable_resolved(self, r))
                ref = f.type
                if ref.array_dims or ref.is_map:
                    leaf = self._leaf(ref, package, params)
                else:
                    leaf = Leaf(ref, r, package, params)
                facts.append(FieldFacts.make(f, package, params, r, name, nilable, leaf))
            for ff in facts:
                self._facts[id(ff.field)] = ff
        return self._fields[key]

    def _leaf(self, ref: TypeRef, package: str, params: tuple[str, ...]) -> Leaf:
        while True:
            if ref.array_dims:
                ref = replace(ref, array_dims=0, optional=False)
            elif ref.is_map:
                ref = ref.args[1]
            else:
                return Leaf(ref, self.resolve(ref, package, params), package, params)

    def facts(self, owner: TypeDecl | ErrorDecl, package: str, f: Field) -> FieldFacts:
        """The facts of one field of a declaration (an effective field's own declaration)."""
        found = self._facts.get(id(f))
        if found is None:
            self.fields_of(owner, package)
            found = self._facts[id(f)]
        return found

    def members(self, decl: TypeDecl | ErrorDecl, package: str) -> list[FieldFacts | Mixin]:
        """Fields (as facts) and mixins in declaration order (memoised: every generator walks
        them; the list is shared, so callers only read it)."""
        found = self._members.get(id(decl))
        if found is None:
            facts = iter(self.fields_of(decl, package))
            found = self._members[id(decl)] = [next(facts) if isinstance(m, Field) else m for m in decl.members]
        return found

    def type_decl(self, resolved: Resolved | None) -> TypeDecl | None:
        if resolved and resolved.kind is Kind.TYPE and isinstance(resolved.decl, TypeDecl):
            return resolved.decl
        return None

    def flat_fields(self, decl: TypeDecl | ErrorDecl, package: str) -> list[FieldFacts]:
        """Every field including those of mixins (recursively), in declaration order; a
        mixin already being expanded is skipped (explicit stack: chains may be deep)."""
        out: list[FieldFacts] = []
        on_path = {id(decl)}
        stack = [(decl, iter(self.members(decl, package)), package)]
        while stack:
            owner, members, pkg = stack[-1]
            for m in members:
                if isinstance(m, FieldFacts):
                    out.append(m)
                    continue
                r = self.resolve(m.ref, pkg, _params(owner))
                mixin = self.type_decl(r)
                if mixin is not None and r is not None and id(mixin) not in on_path:
                    on_path.add(id(mixin))
                    stack.append((mixin, iter(self.members(mixin, r.package or pkg)), r.package or pkg))
                    break
            else:
                stack.pop()
                on_path.discard(id(owner))
        return out


def nilable_resolved(design: GoDesign, r: Resolved) -> bool:
    """Whether a resolved type's Go type already holds nil (map, []byte, any, file header)."""
    if r.kind is Kind.MAP:
        return True
    if r.kind is Kind.PRIMITIVE:
        return r.name in NILABLE_PRIMITIVES
    if r.kind is Kind.SCALAR:
        return design.symbols.scalar_primitive(r) == "bytes"
    return False


def _params(decl: TypeDecl | ErrorDecl) -> tuple[str, ...]:
    return tuple(p.name for p in decl.params) if isinstance(decl, TypeDecl) else ()


go_name = naming.go_name
unique_go_names = naming.unique_go_names
_new_facts = maker(FieldFacts)
