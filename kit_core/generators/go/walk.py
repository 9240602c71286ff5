"""Checks below a field's own value: elements of arrays, map keys and values, and what a
generic instance's own `Validate()` cannot reach.

A generic type validates a value of a type parameter dynamically (`any(&x).(interface{
Validate() error })`). That covers an argument with its own method (a type, a scalar with
validators, an enum) but not a slice or a map, which have no methods: in `Page<Item[]>` the
items of `Page[T].Validate()` are `[]Item` values it cannot look into. So wherever an
instance is written whose arguments hold such slices or maps, the enclosing `Validate()`
also walks the instance's fields that hold the parameter, with the arguments substituted
(`expand`), and checks there what the dynamic call skipped (`rest`).

Map keys typed by an enum or a scalar with validators are checked in the same loops (message
`<label>: key <key>: <reason>`); a map value or array element by `<label>[<index>]: ...`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from kit_core.generators.go.design import GoDesign, nilable_resolved
from kit_core.generators.go.emit import Emitter
from kit_core.generators.go.needs import Needs, scalar_validates
from kit_core.model import Mixin, ScalarDecl, TypeDecl, TypeRef
from kit_core.symbols import Kind, Resolved


@dataclass(frozen=True)
class Scope:
    """Where a written reference is read: its package, the type parameters in scope and,
    inside an instance being walked, what each parameter stands for (the argument as
    written and the scope it was written in)."""

    package: str
    params: tuple[str, ...] = ()
    bound: dict[str, tuple[TypeRef, Scope]] = field(default_factory=dict)


def element(ref: TypeRef) -> TypeRef:
    """One `[]` down (an element is never optional)."""
    return replace(ref, array_dims=ref.array_dims - 1, optional=False)


def _bare(value: str) -> str:
    """`(*x)` as a range expression needs no parentheses."""
    return value[1:-1] if value.startswith("(*") and value.endswith(")") else value


def esc(label: str) -> str:
    return label.replace("%", "%%")


@dataclass
class Walker:
    design: GoDesign
    needs: Needs

    # ---------------------------------------------------------------- questions

    def resolve(self, ref: TypeRef, scope: Scope) -> Resolved | None:
        return self.design.resolve(ref, scope.package, scope.params)

    def checks_key(self, key: TypeRef, scope: Scope) -> bool:
        """A map key whose type has a `Validate()`: an enum or a scalar with validators."""
        r = self.resolve(key, scope)
        if r is None or key.array_dims:
            return False
        if r.kind is Kind.SCALAR:
            return isinstance(r.decl, ScalarDecl) and scalar_validates(r.decl)
        return r.kind is Kind.ENUM

    def checks_anything(self, ref: TypeRef, scope: Scope) -> bool:
        """Whether checking a value of this type completely emits any statement."""
        if ref.array_dims:
            return self.checks_anything(element(ref), scope)
        r = self.resolve(ref, scope)
        if r is None:
            return False
        if r.kind is Kind.MAP:
            return self.checks_key(ref.args[0], scope) or self.checks_anything(ref.args[1], scope)
        if r.kind is Kind.PARAM:
            bound = scope.bound.get(r.name)
            return self.checks_anything(*bound) if bound else True
        return self.needs.leaf_validates(r) or (bool(ref.args) and self.misses(ref, scope))

    def misses(self, ref: TypeRef, scope: Scope) -> bool:
        """Whether a dynamic `Validate()` on a value of this type misses checks: a slice or
        map with something to check, or an instance of a generic type over one."""
        if ref.array_dims:
            return self.checks_anything(ref, scope)
        r = self.resolve(ref, scope)
        if r is None:
            return False
        if r.kind is Kind.MAP:
            return self.checks_anything(ref, scope)
        if r.kind is Kind.PARAM:
            bound = scope.bound.get(r.name)
            return self.misses(*bound) if bound else False
        return r.kind is Kind.TYPE and any(self.misses(a, scope) for a in ref.args)

    def _rest_anything(self, ref: TypeRef, scope: Scope) -> bool:
        """Whether `rest` emits anything for a value of this type."""
        if ref.array_dims:
            return self._rest_anything(element(ref), scope)
        r = self.resolve(ref, scope)
        if r is None:
            return False
        if r.kind is Kind.MAP:
            return self._rest_anything(ref.args[1], scope)
        if r.kind is Kind.PARAM:
            bound = scope.bound.get(r.name)
            return bound is not None and self.misses(*bound)
        return r.kind is Kind.TYPE and bool(ref.args) and self.misses(ref, scope)

    def _nilable(self, ref: TypeRef, scope: Scope) -> bool:
        if ref.array_dims:
            return True
        r = self.resolve(ref, scope)
        return r is not None and nilable_resolved(self.design, r)

    # ---------------------------------------------------------------- statements

    def below(self, out: Emitter, ref: TypeRef, scope: Scope, value: str, label: str) -> None:
        """A field's checks below its own value (the caller checked the value itself)."""
        r = self.resolve(ref, scope)
        if ref.array_dims or (r is not None and r.kind is Kind.MAP):
            self.full(out, ref, scope, value, label, [])
        elif r is not None and r.kind is Kind.TYPE and ref.args and self.misses(ref, scope):
            self.expand(out, ref, scope, value, label, [])

    def full(self, out: Emitter, ref: TypeRef, scope: Scope, value: str, label: str, args: list[str]) -> None:
        """Everything about a value (an element of an array or map)."""
        if ref.array_dims:
            self._loop(out, ref, scope, value, label, args, self.full, self.checks_anything)
            return
        r = self.resolve(ref, scope)
        if r is None:
            return
        if r.kind is Kind.MAP:
            self._map(out, ref, scope, value, label, args, rest=False)
        elif r.kind is Kind.PARAM:
            bound = scope.bound.get(r.name)
            if bound is not None:
                self.full(out, bound[0], bound[1], value, label, args)
            else:
                out.dynamic(f"&{value}", label, *args)
        elif self.needs.leaf_validates(r):
            out.wrap(f"{value}.Validate()", label, *args)
            if r.kind is Kind.TYPE and ref.args and self.misses(ref, scope):
                self.expand(out, ref, scope, value, label, args)

    def rest(self, out: Emitter, ref: TypeRef, scope: Scope, value: str, label: str, args: list[str]) -> None:
        """What the instance's own `Validate()` skipped in a value of one of its fields."""
        if ref.array_dims:
            self._loop(out, ref, scope, value, label, args, self.rest, self._rest_anything)
            return
        r = self.resolve(ref, scope)
        if r is None:
            return
        if r.kind is Kind.MAP:
            self._map(out, ref, scope, value, label, args, rest=True)
        elif r.kind is Kind.PARAM and r.name in scope.bound:
            self._argument(out, *scope.bound[r.name], value, label, args)
        elif r.kind is Kind.TYPE and ref.args and self.misses(ref, scope):
            self.expand(out, ref, scope, value, label, args)

    def _argument(self, out: Emitter, arg: TypeRef, scope: Scope, value: str, label: str, args: list[str]) -> None:
        """A value at a type parameter's place, already given to its dynamic `Validate()`."""
        r = self.resolve(arg, scope)
        if r is None:
            return
        if arg.array_dims or r.kind is Kind.MAP:
            self.full(out, arg, scope, value, label, args)  # a slice or map: nothing was checked
        elif r.kind is Kind.PARAM and r.name in scope.bound:
            self._argument(out, *scope.bound[r.name], value, label, args)
        elif r.kind is Kind.TYPE and arg.args and self.misses(arg, scope):
            self.expand(out, arg, scope, value, label, args)

    def expand(self, out: Emitter, ref: TypeRef, scope: Scope, value: str, label: str, args: list[str]) -> None:
        """The fields of an instance that hold a parameter whose argument its `Validate()`
        cannot see into, with the arguments substituted."""
        r = self.resolve(ref, scope)
        if r is None or not isinstance(r.decl, TypeDecl) or r.package is None:
            return
        decl = r.decl
        params = tuple(p.name for p in decl.params)
        inner = Scope(r.package, params, {p: (a, scope) for p, a in zip(params, ref.args, strict=False)})
        for m in self.design.members(decl, r.package):
            if isinstance(m, Mixin):
                mixed = self.resolve(m.ref, inner)
                if mixed is not None and mixed.kind is Kind.TYPE and m.ref.args and self.misses(m.ref, inner):
                    self.expand(out, m.ref, inner, f"{value}.{m.ref.name}", label, args)
                continue
            if m.sensitive or not self._rest_anything(m.ref, inner):
                continue
            member = f"{value}.{m.go_name}"
            own = f"{label}: {esc(m.label)}" if label else esc(m.label)
            if m.pointer:
                out.open(f"if {member} != nil")
                self.rest(out, m.ref, inner, f"(*{member})", own, args)
                out.close()
            else:
                self.rest(out, m.ref, inner, member, own, args)

    # ---------------------------------------------------------------- loops

    def _loop(
        self,
        out: Emitter,
        ref: TypeRef,
        scope: Scope,
        value: str,
        label: str,
        args: list[str],
        step: Callable[[Emitter, TypeRef, Scope, str, str, list[str]], None],
        anything: Callable[[TypeRef, Scope], bool],
    ) -> None:
        if not anything(ref, scope):
            return
        i = f"i{len(args)}"
        out.open(f"for {i} := range {_bare(value)}")
        step(out, element(ref), scope, f"{value}[{i}]", label + "[%d]", [*args, i])
        out.close()

    def _map(
        self, out: Emitter, ref: TypeRef, scope: Scope, value: str, label: str, args: list[str], rest: bool
    ) -> None:
        key, vref = ref.args
        check_key = not rest and self.checks_key(key, scope)  # (an instance's own Validate checked its keys)
        check_value = self._rest_anything(vref, scope) if rest else self.checks_anything(vref, scope)
        if not (check_key or check_value):
            return
        n = len(args)
        k, e = f"k{n}", f"e{n}"
        out.open(f"for {k}, {e} := range {_bare(value)}" if check_value else f"for {k} := range {_bare(value)}")
        if check_key:
            out.wrap(f"{k}.Validate()", label + ": key %v", *args, k)
        if check_value:
            pointer = vref.optional and not self._nilable(vref, scope)
            if pointer:
                out.open(f"if {e} != nil")
            step = self.rest if rest else self.full
            step(out, vref, scope, f"(*{e})" if pointer else e, label + "[%v]", [*args, k])
            if pointer:
                out.close()
        out.close()
