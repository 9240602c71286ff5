"""Type references: resolution, qualification, generics, maps, scalars, message types and
package cycles."""

from __future__ import annotations

from functools import partial

from kit_core.analyzer.context import Ctx, related
from kit_core.analyzer.walk import RefSite, decl_refs
from kit_core.analyzer.walk import walk_ref as _walk
from kit_core.diagnostics import Fix
from kit_core.fastnew import maker
from kit_core.graph import strongly_connected
from kit_core.model import (
    Decl,
    ErrorDecl,
    Field,
    SourceFile,
    TypeDecl,
    TypeRef,
)
from kit_core.semantics.types import TypeShape
from kit_core.symbols import INT_PRIMITIVES, NUMBER_PRIMITIVES, PRIMITIVES, Kind

SCALAR_PRIMITIVES = NUMBER_PRIMITIVES | {"string", "bytes", "bool"}
_RefSite = maker(RefSite)
_KIND_WORDS = {
    Kind.ENUM: "an enum",
    Kind.SCALAR: "a scalar",
    Kind.ERROR: "an error",
    Kind.TYPE: "a type",
    Kind.PRIMITIVE: "a built-in type",
    Kind.PARAM: "a type parameter",
    Kind.MAP: "a map",
}


def check_file(ctx: Ctx, file: SourceFile) -> None:
    for decl in file.declarations:
        check_decl(ctx, file, decl)


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    if file.package is not None and isinstance(decl, TypeDecl | ErrorDecl) and not getattr(decl, "params", ()):
        _members(ctx, decl, file.package)
    elif file.package is not None:
        for site in decl_refs(decl, file.package):
            if site.role == "scalar":
                _scalar(ctx, site)
            else:
                _ref(ctx, site, site.ref, top=True)
            if isinstance(site.decl, TypeDecl) and site.decl.params:
                _instantiation_cycle(ctx, site.decl, site.ref)
    if isinstance(decl, TypeDecl):
        _param_duplicates(ctx, decl)


def _members(ctx: Ctx, decl: TypeDecl | ErrorDecl, package: str) -> None:
    """The field and mixin references of a non-generic body: a bare name that resolves to
    something other than a generic type needs no further check (what `_ref` would find)."""
    for m in decl.members:
        is_field = isinstance(m, Field)
        ref = m.type if isinstance(m, Field) else m.ref
        if not ref.args and ref.package is None:
            shape = ctx.shape(ref, package, ())
            if shape.kind is not None and not (isinstance(shape.decl, TypeDecl) and shape.decl.params):
                continue
        _ref(ctx, _RefSite(ref, package, (), decl, "field" if is_field else "mixin"), ref, top=True)


def _param_duplicates(ctx: Ctx, decl: TypeDecl) -> None:
    seen: dict[str, object] = {}
    for p in decl.params:
        if p.name in seen:
            ctx.report(
                "decl/duplicate",
                p.span,
                kind="type parameter",
                name=p.name,
                where=f"the parameters of type {decl.name}",
            )
        seen[p.name] = p


def _scalar(ctx: Ctx, site: RefSite) -> None:
    ref = site.ref
    if (
        ref.package is None
        and not ref.args
        and not ref.array_dims
        and not ref.optional
        and ref.name in SCALAR_PRIMITIVES
    ):
        return
    ctx.report("scalar/bad-primitive", ref.span, name=site.decl.name, primitive=ref.text())


def _ref(ctx: Ctx, site: RefSite, ref: TypeRef, top: bool) -> None:
    shape = ctx.shape(ref, site.package, site.params)
    if ref.is_map:
        _map(ctx, site, ref)
    elif shape.kind is None:
        _unresolved(ctx, site, ref)
    else:
        if ref.package is not None and ref.package == site.package:
            ctx.report(
                "ref/qualified",
                ref.name_span,
                name=ref.qualified,
                reason=f"a name of the own package {site.package} is written unqualified - write {ref.name}",
            )
        _generic(ctx, site, ref, shape, top)
        if top and site.role in ("request", "response"):
            _message(ctx, site, ref, shape)
    for arg in ref.args:
        _ref(ctx, site, arg, top=False)


def _unresolved(ctx: Ctx, site: RefSite, ref: TypeRef) -> None:
    if ref.package is not None and ref.package not in ctx.symbols.packages:
        ctx.dep("P", ref.package, "")
        ctx.report("ref/unknown-package", ref.name_span, package=ref.package, name=ref.qualified)
        return
    owner = ref.package or site.package
    ctx.dep("N", owner, "")  # the hint reads every name of the package
    close = ctx.suggester(("types", owner, ref.package is None), partial(_type_names, ctx, owner, ref.package is None))
    found = close.suggest(ref.name)
    hint = f" - did you mean {found}?" if found else ""
    what = "mixin" if site.role == "mixin" else "type"
    fixes = (Fix(f"Change to {found}", ref.name_span, found),) if found else ()
    ctx.report("ref/unknown-symbol", ref.name_span, what=what, name=ref.qualified, hint=hint, fixes=fixes)


def _type_names(ctx: Ctx, package: str, with_builtins: bool) -> list[str]:
    pkg = ctx.symbols.packages.get(package)
    names = [*pkg.types, *pkg.enums, *pkg.scalars, *pkg.errors] if pkg else []
    return names + sorted(PRIMITIVES) if with_builtins else names


def _map(ctx: Ctx, site: RefSite, ref: TypeRef) -> None:
    if len(ref.args) != 2:
        return
    key, value = ref.args
    key_shape = ctx.shape(key, site.package, site.params)
    prim = key_shape.primitive
    if key_shape.kind is not None and (
        key.array_dims or key.optional or prim is None or (prim != "string" and prim not in INT_PRIMITIVES)
    ):
        ctx.report("type/map-key", key.span, type=key.text())
    if value.optional and (value.array_dims or value.is_map):
        ctx.report("type/map-value", value.span, type=value.text())


def _generic(ctx: Ctx, site: RefSite, ref: TypeRef, shape: TypeShape, top: bool) -> None:
    decl = shape.decl
    if (
        ref.args
        and shape.kind in (Kind.PRIMITIVE, Kind.PARAM)
        or (ref.args and not (isinstance(decl, TypeDecl) and decl.params))
    ):
        reason = {Kind.PRIMITIVE: "is a built-in type", Kind.PARAM: "is a type parameter"}.get(
            shape.kind or Kind.TYPE, "is not generic"
        )
        ctx.report(
            "generic/non-generic",
            ref.span,
            name=ref.qualified,
            reason=reason,
            args=", ".join(a.text() for a in ref.args),
        )
        return
    if isinstance(decl, TypeDecl) and len(decl.params) != len(ref.args):
        code = "mixin/arity" if site.role == "mixin" and top else "generic/arity"
        ctx.report(
            code,
            ref.span,
            name=ref.qualified,
            expected=str(len(decl.params)),
            got=str(len(ref.args)),
            related=related(decl.name_span, f"{decl.name} is declared here"),
        )
    for arg in ref.args:
        if arg.optional:
            ctx.report("generic/optional-arg", arg.span, type=arg.text())


def _message(ctx: Ctx, site: RefSite, ref: TypeRef, shape: TypeShape) -> None:
    reason = _message_problem(site.role, shape)
    if reason is not None:
        ctx.report("service/message-type", ref.span, clause=site.role, type=ref.text(), reason=reason)


def _message_problem(clause: str, shape: TypeShape) -> str | None:
    """Why a type cannot be a request or response (`service/message-type`), None when it can."""
    if shape.kind is Kind.PRIMITIVE:
        return "is a built-in type - wrap it in a declared type"
    if clause == "request" and shape.kind in (Kind.ENUM, Kind.SCALAR):
        return f"is {_KIND_WORDS[shape.kind]}; a request must be a declared type"
    if shape.kind is Kind.ERROR:
        return "is an error; declare it in @errors instead"
    return None


def _instantiation_cycle(ctx: Ctx, decl: TypeDecl, ref: TypeRef) -> None:
    params = {p.name for p in decl.params}
    for inner in _walk(ref):
        if inner.package is None and inner.name == decl.name and inner.args:
            for arg in inner.args:
                if _mentions(arg, params) and not (arg.name in params and not arg.args and not arg.array_dims):
                    ctx.report("generic/instantiation-cycle", arg.span, name=decl.name, arg=arg.text())


def _mentions(ref: TypeRef, params: set[str]) -> bool:
    return any(r.package is None and r.name in params for r in _walk(ref))


# --------------------------------------------------------------------------- package cycles


def check_design(ctx: Ctx) -> None:
    """Package cycles read each file's cross-package references and which packages exist
    (the session forgets reused results when the set of packages changes)."""
    ctx.design_part(("package cycles",), partial(_edges_print, ctx), partial(_cycles_check, ctx))


def _edges_print(ctx: Ctx, f: SourceFile) -> object:
    return (f.package, tuple(ctx.summary(f).edges))


def _cycles_check(ctx: Ctx) -> None:
    edges: dict[str, dict[str, TypeRef]] = {}
    for pkg in ctx.symbols.packages.values():
        out = edges.setdefault(pkg.name, {})
        for f in pkg.files:
            for other, ref in ctx.summary(f).edges.items():
                if other in ctx.symbols.packages:
                    out.setdefault(other, ref)
    for component in _cycles(edges):
        first = component[0]
        nxt = next(p for p in component[1:] + component[:1] if p in edges[first])
        ref = edges[first][nxt]
        rel = tuple(
            related(edges[a][b].span, f"{a} references {b} here")[0]
            for a in component
            for b in component
            if b != a and b in edges[a] and (a, b) != (first, nxt)
        )
        ctx.report("ref/package-cycle", ref.span, cycle=" -> ".join([*component, first]), related=rel)


def _cycles(edges: dict[str, dict[str, TypeRef]]) -> list[list[str]]:
    """Strongly connected components with more than one package."""
    components = strongly_connected(sorted(edges), lambda p: [q for q in sorted(edges[p]) if q in edges])
    return [sorted(c) for c in components if len(c) > 1]
