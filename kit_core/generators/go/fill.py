"""`FillEmpty()`: required nil lists, maps and bytes become `[]`, `{}` and `""` before encoding."""

from __future__ import annotations

from dataclasses import dataclass, replace

from kit_core.generators.go.design import FieldFacts, GoDesign
from kit_core.generators.go.needs import Needs, fills_empty
from kit_core.generators.go.render import block
from kit_core.generators.go.typemap import TypeMapper
from kit_core.model import ErrorDecl, Mixin, TypeDecl, TypeRef
from kit_core.symbols import Kind

DYNAMIC = "if f, ok := any({addr}).(interface{{ FillEmpty() }}); ok {{\n\tf.FillEmpty()\n}}"


@dataclass
class Filler:
    design: GoDesign
    needs: Needs
    mapper: TypeMapper

    def statements(self, decl: TypeDecl | ErrorDecl, package: str, recv: str = "v") -> list[str]:
        params = tuple(p.name for p in decl.params) if isinstance(decl, TypeDecl) else ()
        out: list[str] = []
        for m in self.design.members(decl, package):
            if isinstance(m, Mixin):
                r = self.design.resolve(m.ref, package, params)
                if self.needs.leaf_fills(r):
                    out.append(f"{recv}.{m.ref.name}.FillEmpty()")
                continue
            out.extend(self._field(m, f"{recv}.{m.go_name}"))
        return out

    def _field(self, f: FieldFacts, expr: str) -> list[str]:
        if f.sensitive or f.explicit_binding not in (None, "body"):
            return []
        out: list[str] = []
        if fills_empty(self.design, f):
            empty = self.mapper.base(f.ref, f.owner_package, f.params) + "{}"
            out.append(f"if {expr} == nil {{\n\t{expr} = {empty}\n}}")
        leaf = f.leaf
        if not self.needs.leaf_fills(leaf.resolved):
            return out
        pointer = f.pointer
        nested = self._value(f.ref, expr, pointer, leaf.resolved is not None and leaf.resolved.kind is Kind.PARAM, 0)
        if nested:
            out.append(nested)
        return out

    def _value(self, ref: TypeRef, expr: str, pointer: bool, dynamic: bool, depth: int) -> str:
        if ref.array_dims:
            var = f"i{depth}"
            inner = replace(ref, array_dims=ref.array_dims - 1, optional=False)
            body = self._value(inner, f"{expr}[{var}]", False, dynamic, depth + 1)
            return block(f"for {var} := range {expr}", body)
        if ref.is_map:
            key, val = f"k{depth}", f"e{depth}"
            vref = ref.args[1]
            vptr = vref.optional
            body = self._value(replace(vref, optional=False), val, vptr, dynamic, depth + 1)
            stmts = [body] if vptr else [body, f"{expr}[{key}] = {val}"]
            return block(f"for {key}, {val} := range {expr}", *stmts)
        if dynamic:
            return DYNAMIC.format(addr=expr if pointer else f"&{expr}")
        if pointer:
            return f"if {expr} != nil {{\n\t{expr}.FillEmpty()\n}}"
        return f"{expr}.FillEmpty()"
