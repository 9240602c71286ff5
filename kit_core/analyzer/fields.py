"""Bodies of types and errors: duplicate fields, mixins (kind, cycles, conflicts), JSON key
and Go name collisions between own and mixin fields, reserved Go names."""

from __future__ import annotations

from functools import lru_cache

from kit_core.analyzer.context import Ctx, related
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
        cycle = _cycle(ctx, decl, shape.decl, shape.package)
        if cycle:
            ctx.report("mixin/cycle", m.span, cycle=" -> ".join([decl.name, *cycle]))


def _cycle(ctx: Ctx, start: TypeDecl | ErrorDecl, decl: object, package: str | None) -> list[str] | None:
    """The mixin path from ``decl`` back to ``start``, if there is one."""
    stack: list[tuple[object, str | None, list[str]]] = [(decl, package, [getattr(decl, "name", "?")])]
    seen: set[int] = set()
    while stack:
        cur, pkg, path = stack.pop()
        if cur is start:
            return path
        if not isinstance(cur, TypeDecl) or id(cur) in seen or pkg is None:
            continue
        seen.add(id(cur))
        for m in cur.mixins:
            shape = ctx.shape(m.ref, pkg, tuple(p.name for p in cur.params))
            if shape.decl is not None:
                stack.append((shape.decl, shape.package, [*path, shape.name]))
    return None


def _collisions(ctx: Ctx, decl: TypeDecl | ErrorDecl, fields: tuple[EffectiveField, ...]) -> None:
    by_key: dict[str, EffectiveField] = {}
    by_go: dict[str, EffectiveField] = {}
    for ef in fields:
        key = json_key(ef.field)
        first = by_key.setdefault(key, ef)
        if first.field is ef.field and first is not ef:
            continue  # the same mixin twice: reported as such
        if first is not ef and not (first.field.name == ef.field.name and not first.via and not ef.via):
            _collision(ctx, decl, first, ef, "JSON key", key)
            continue
        gname = go_name(ef.field.name)
        first = by_go.setdefault(gname, ef)
        if first is not ef and first.field.name != ef.field.name:
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
    reserved = dict(TYPE_RESERVED)
    if isinstance(decl, ErrorDecl):
        reserved |= ERROR_RESERVED | {f"{decl.name}Body": "the generated body type"}
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
