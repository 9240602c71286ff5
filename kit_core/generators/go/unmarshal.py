"""`UnmarshalJSON` for types with `@default` fields: pre-fill the defaults, then decode.

Decoding a value of such a type anywhere (request body, nested object, array element,
map value, event payload) starts from its defaults, so an absent member keeps its
default and an explicit `null` clears it. The method decodes into a method-less copy of
the type (`kitPlain<T>`), strictly like the server's default codec. A type that embeds
a mixin with this method gets one too: otherwise the mixin's method would be promoted
and decode only the mixin's members; its copy is then wrapped in a struct whose
`UnmarshalJSON` field hides the promoted method.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kit_core.generators.go.design import FieldFacts, go_name
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.needs import prefills
from kit_core.generators.go.render import go_string
from kit_core.generators.go.typemap import TypeMapper
from kit_core.model import Literal, LiteralKind, Mixin, TypeDecl, TypeRef
from kit_core.symbols import Kind, Resolved

PTR_HELPER = "kitPtr"


@dataclass(frozen=True, slots=True)
class UnmarshalView:
    recv: str  # "Line", "Page[T]"
    plain: str  # "kitPlainLine"
    plain_params: str  # "[T any]" or ""
    plain_recv: str  # "kitPlainLine", "kitPlainPage[T]"
    fills: list[str]
    shadow: bool  # a mixin's UnmarshalJSON must be hidden


def view(g: GoGen, mapper: TypeMapper, decl: TypeDecl, package: str) -> UnmarshalView | None:
    if not g.needs.unmarshals(decl):
        return None
    names = [p.name for p in decl.params]
    args = f"[{', '.join(names)}]" if names else ""
    plain = f"kitPlain{decl.name}"
    return UnmarshalView(
        recv=decl.name + args,
        plain=plain,
        plain_params=f"[{', '.join(names)} any]" if names else "",
        plain_recv=plain + args,
        fills=prefill(g, mapper, decl, package, "v"),
        shadow=any(_mixin_unmarshals(g, decl, package, m) for m in decl.mixins),
    )


def prefill(g: GoGen, mapper: TypeMapper, decl: TypeDecl, package: str, path: str) -> list[str]:
    """Assignments of every default of ``decl``, its mixins' included (through their field)."""
    out: list[str] = []
    params = tuple(p.name for p in decl.params)
    for m in g.design.members(decl, package):
        if isinstance(m, Mixin):
            r = g.design.resolve(m.ref, package, params)
            inner = g.design.type_decl(r)
            if inner is not None and r is not None and g.needs.unmarshals(inner):
                out.extend(prefill(g, mapper, inner, r.package or package, f"{path}.{m.ref.name}"))
        elif prefills(m):
            out.append(f"{path}.{m.go_name} = {default_expr(g, mapper, m)}")
    return out


def _mixin_unmarshals(g: GoGen, decl: TypeDecl, package: str, m: Mixin) -> bool:
    inner = g.design.type_decl(g.design.resolve(m.ref, package, tuple(p.name for p in decl.params)))
    return inner is not None and g.needs.unmarshals(inner)


def default_expr(g: GoGen, mapper: TypeMapper, f: FieldFacts) -> str:
    """The Go value of a field's `@default`, behind `kitPtr[T](...)` for a pointer field."""
    assert f.default is not None
    # `literal` never reads the reference's own `?` (only its arrays, name and arguments)
    value = literal(g, mapper, f.default, f.ref, f.owner_package, f.params)
    if f.pointer:
        return f"{PTR_HELPER}[{mapper.base(f.ref, f.owner_package, f.params)}]({value})"
    return value


def literal(g: GoGen, mapper: TypeMapper, lit: Literal, ref: TypeRef, package: str, params: tuple[str, ...]) -> str:
    if lit.kind is LiteralKind.ARRAY:
        elem = replace(ref, array_dims=max(ref.array_dims - 1, 0))
        items = ", ".join(literal(g, mapper, i, elem, package, params) for i in lit.items)
        return f"{mapper.base(ref, package, params)}{{{items}}}"
    r = g.design.resolve(ref, package, params)
    if lit.kind is LiteralKind.IDENT and r is not None and r.kind is Kind.ENUM:
        name = str(lit.value).rpartition(".")[2]
        return mapper.qualify(r.name + go_name(name), r.package)  # naming.enum_const, memoised
    if lit.is_string:
        text = go_string(str(lit.value))
        return f"[]byte({text})" if _is_bytes(g, r) else text
    return lit.text


def _is_bytes(g: GoGen, r: Resolved | None) -> bool:
    return r is not None and g.design.symbols.scalar_primitive(r) == "bytes"
