"""Bodies of types and errors: duplicate fields, mixins (kind, cycles, conflicts), JSON key
and Go name collisions between own and mixin fields, reserved Go names."""

from __future__ import annotations

from functools import lru_cache, partial

from kit_core.analyzer.context import Ctx, related
from kit_core.graph import strongly_connected
from kit_core.model import Decl, ErrorDecl, Field, Mixin, SourceFile, TypeDecl
from kit_core.naming import go_name as _go_name
from kit_core.semantics.types import EffectiveField, json_key
from kit_core.symbols import Kind

go_name = lru_cache(maxsize=65536)(_go_name)

ERROR_RESERVED = {
    "Error": "the Error() method",
    "ErrCode": "the ErrCode() method",
    "HTTPStatus": "the HTTPStatus() method",
    "WriteResponseHeaders": "the WriteResponseHeaders() method",
    "MarshalJSON": "the MarshalJSON() method",
}
TYPE_RESERVED = {
    "Validate": "the generated Validate() method",
    "FillEmpty": "the generated FillEmpty() method",
    "ReadKitJSON": "the generated ReadKitJSON() method (its JSON decoder)",
    "WriteKitJSON": "the generated WriteKitJSON() method (its JSON encoder)",
}
_KIND_WORDS = {
    Kind.ENUM: "an enum",
    Kind.SCALAR: "a scalar",
    Kind.ERROR: "an error",
    Kind.PRIMITIVE: "a built-in type",
    Kind.MAP: "a map",
}


def check_file(ctx: Ctx, file: SourceFile) -> None:
    for decl in file.declarations:
        check_decl(ctx, file, decl)


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    if file.package is not None and isinstance(decl, TypeDecl | ErrorDecl):
        _own_fields(ctx, decl)
        _mixins(ctx, decl, file.package)
        fields = ctx.index.fields(decl, file.package)
        _collisions(ctx, decl, fields)
        _go_names(ctx, decl, fields)


def _owner(decl: TypeDecl | ErrorDecl) -> str:
    return f"{'error' if isinstance(decl, ErrorDecl) else 'type'} {decl.name}"


def _own_fields(ctx: Ctx, decl: TypeDecl | ErrorDecl) -> None:
    seen: dict[str, Field] = {}
    for f in decl.fields:
        first = seen.setdefault(f.name, f)
        if first is not f:
            ctx.report(
                "field/duplicate",
                f.name_span,
                name=f.name,
                owner=_owner(decl),
                related=related(first.name_span, "first declared here"),
            )


def _mixins(ctx: Ctx, decl: TypeDecl | ErrorDecl, package: str) -> None:
    params = tuple(p.name for p in decl.params) if isinstance(decl, TypeDecl) else ()
    seen: dict[str, Mixin] = {}
    for m in decl.mixins:
        shape = ctx.shape(m.ref, package, params)
        if shape.kind is Kind.PARAM:
            ctx.report(
                "mixin/conflict",
                m.span,
                detail=f"type parameter {m.ref.name} cannot be mixed in - add a field of that type instead",
            )
            continue
        if shape.kind is None:
            continue  # reported as ref/unknown-symbol
        if shape.kind is not Kind.TYPE or m.ref.array_dims or m.ref.optional:
            kind = "an array" if m.ref.array_dims else _KIND_WORDS.get(shape.kind, "not a type")
            ctx.report("mixin/non-type", m.span, name=m.ref.text(), kind=kind)
            continue
        key = f"{shape.package}.{shape.name}"
        first = seen.setdefault(key, m)
        if first is not m:
            ctx.report(
                "mixin/conflict",
                m.span,
                detail=f"{m.ref.text()} is mixed in twice - remove one of them",
                related=related(first.span, "first mixed in here"),
            )


# --------------------------------------------------------------------------- mixin cycles

_SHOWN_PATH = 16  # a longer way around a cycle is shown abbreviated (finding it costs its length)


def check_design(ctx: Ctx, files: list[SourceFile]) -> None:
    """`mixin/cycle`, replayed while no edit changed which types mix which others in."""
    ctx.design_part(("mixin cycles",), partial(_mixin_print, ctx), partial(_mixin_cycles, ctx, files))


def _mixin_print(ctx: Ctx, f: SourceFile) -> object:
    summary = ctx.summary(f)
    return (f.package, summary.mixing, frozenset(named for _, _, named in summary.mixins))


def _mixin_cycles(ctx: Ctx, files: list[SourceFile]) -> None:
    """`mixin/cycle` at every mixin that leads back to its own type: one pass over the graph
    of types that mix others in (its strongly connected components), however long the chain.
    The types come from each file's cached summary and the graph's edges decide the result:
    while they are the same the last result is replayed (an edit elsewhere costs little)."""
    names: set[tuple[str, str]] = set()  # the types that mix others in: an edge must name one
    summaries = []
    for f in files:
        summary = ctx.summary(f)
        if summary.mixins and f.package is not None:
            names |= summary.mixing
            summaries.append((f.package, summary))
    nodes: dict[int, tuple[TypeDecl, str]] = {}
    edges: dict[int, list[tuple[Mixin, int]]] = {}
    for package, summary in summaries:
        if names.isdisjoint(summary.mixed):
            continue
        for decl, m, named in summary.mixins:
            if named not in names:
                continue
            found = ctx.symbols.resolve(m.ref, package, tuple(p.name for p in decl.params))
            target = found.decl if found is not None else None
            if isinstance(target, TypeDecl) and found is not None and found.package and target.mixins:
                nodes[id(decl)] = (decl, package)
                nodes.setdefault(id(target), (target, found.package))
                edges.setdefault(id(decl), []).append((m, id(target)))
    pins: list[object] = []
    for key, out in edges.items():
        pins.append(nodes[key][0])
        for m, to in out:
            pins += (m, nodes[to][0])
    ctx.reuse(("mixin cycles",), tuple(pins), partial(_cycles, ctx, nodes, edges))


def _cycles(ctx: Ctx, nodes: dict[int, tuple[TypeDecl, str]], edges: dict[int, list[tuple[Mixin, int]]]) -> None:
    for component in strongly_connected(list(edges), lambda k: [t for _, t in edges.get(k, ())]):
        members = set(component)
        for key in component:
            for m, target in edges.get(key, ()):
                if target in members and _is_mixin(ctx, m, nodes[key]):
                    path = _way_back(edges, nodes, target, key, members)
                    ctx.report("mixin/cycle", m.span, cycle=" -> ".join([nodes[key][0].name, *path]))


def _is_mixin(ctx: Ctx, m: Mixin, owner: tuple[TypeDecl, str]) -> bool:
    """A well-formed mixin (the others are reported as mixin/non-type or mixin/conflict)."""
    shape = ctx.shape(m.ref, owner[1], tuple(p.name for p in owner[0].params))
    return shape.kind is Kind.TYPE and not m.ref.array_dims and not m.ref.optional


def _way_back(
    edges: dict[int, list[tuple[Mixin, int]]],
    nodes: dict[int, tuple[TypeDecl, str]],
    start: int,
    goal: int,
    members: set[int],
) -> list[str]:
    """Names from ``start`` back to ``goal`` along mixins (breadth first within the cycle's
    component, giving up after a few steps: then the path is shown abbreviated)."""
    parent: dict[int, int | None] = {start: None}
    queue = [start]
    for node in queue:
        if node == goal or len(parent) > _SHOWN_PATH:
            break
        for _, nxt in edges.get(node, ()):
            if nxt in members and nxt not in parent:
                parent[nxt] = node
                queue.append(nxt)
    if goal not in parent:
        return [nodes[start][0].name, f"... ({len(members)} types)", nodes[goal][0].name]
    path: list[str] = []
    step: int | None = goal
    while step is not None:
        path.append(nodes[step][0].name)
        step = parent[step]
    return path[::-1]


def _collisions(ctx: Ctx, decl: TypeDecl | ErrorDecl, fields: tuple[EffectiveField, ...]) -> None:
    by_key: dict[str, EffectiveField] = {}
    by_go: dict[str, EffectiveField] = {}
    for ef in fields:
        key = json_key(ef.field)
        first = by_key.setdefault(key, ef)
        if first.field is ef.field and first is not ef:
            continue  # the same mixin twice: reported as such
        if first is not ef and not (first.field.name == ef.field.name and not first.via and not ef.via):
            if not _one_mixin(first, ef):
                _collision(ctx, decl, first, ef, "JSON key", key)
            continue
        gname = go_name(ef.field.name)
        first = by_go.setdefault(gname, ef)
        if first is not ef and first.field.name != ef.field.name and not _one_mixin(first, ef):
            ctx.warn(
                "field/name-collision",
                _where(decl, ef),
                name=first.field.name,
                other=ef.field.name,
                owner=_owner(decl),
                what="Go name",
                key=gname,
                hint=f"; the later one becomes {gname}_2",
                related=related(first.field.name_span, f"{first.field.name} is declared here"),
            )


def _one_mixin(first: EffectiveField, ef: EffectiveField) -> bool:
    """Both fields come through one mixin: the mixed-in type reports the clash (once)."""
    return bool(first.via) and bool(ef.via) and first.via[0] is ef.via[0]


def _collision(
    ctx: Ctx, decl: TypeDecl | ErrorDecl, first: EffectiveField, ef: EffectiveField, what: str, key: str
) -> None:
    rel = related(first.field.name_span, f"{first.field.name} is declared here")
    if first.via and ef.via:
        ctx.report(
            "mixin/conflict",
            _where(decl, ef),
            detail=f"mixins bring two fields with the JSON key {key} into {_owner(decl)} - remove or rename one",
            related=rel,
        )
    else:
        ctx.report(
            "field/name-collision",
            _where(decl, ef),
            name=_label(first),
            other=_label(ef),
            owner=_owner(decl),
            what=what,
            key=key,
            hint=" - rename one or give it another @json key",
            related=rel,
        )


def _label(ef: EffectiveField) -> str:
    return f"{ef.name} (from mixin {ef.via[0].ref.text()})" if ef.via else ef.name


def _where(decl: TypeDecl | ErrorDecl, ef: EffectiveField):  # type: ignore[no-untyped-def]
    """A field of this declaration is reported at its name, a mixin's at the mixin."""
    return ef.via[0].span if ef.via else ef.field.name_span


def _go_names(ctx: Ctx, decl: TypeDecl | ErrorDecl, fields: tuple[EffectiveField, ...]) -> None:
    """Go names no field may take. A type's mixed-in fields were checked, against the same
    names, in the type that declares them (one report per field); an error reserves more."""
    reserved = dict(TYPE_RESERVED)
    if isinstance(decl, ErrorDecl):
        reserved |= ERROR_RESERVED | {f"{decl.name}Body": "the generated body type"}
    else:
        fields = tuple(ef for ef in fields if not ef.via)
    for ef in fields:
        gname = go_name(ef.field.name)
        if not gname or not (gname[0].isalpha()):
            reason = "which is not a Go identifier"
        elif gname in reserved:
            reason = f"which clashes with {reserved[gname]}"
        else:
            continue
        ctx.report(
            "field/invalid-go-name",
            _where(decl, ef),
            name=ef.field.name,
            owner=_owner(decl),
            go_name=gname or '""',
            reason=reason,
        )
