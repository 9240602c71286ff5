"""`binding/file-position` (Rules on types 5, Events 4): a `file` only as a top-level field
(or a mixin's field) of a type used as the request of a method in the type's own package;
never in a response, error body, event payload, map value, generic argument or a nested
type. A well-placed file must be bound with `@form`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from kit_core.analyzer.context import Ctx, related
from kit_core.analyzer.walk import RefSite, refs_of
from kit_core.analyzer.walk import walk_ref as _walk
from kit_core.diagnostics import Fix
from kit_core.model import ErrorDecl, Field, SourceFile, TypeDecl, TypeRef
from kit_core.source import end_of
from kit_core.symbols import Kind


@dataclass
class _Carrier:
    """A type that holds a file at its top level (own field or through a mixin)."""

    package: str  # of the carrying type
    field: Field  # its first file field (named in related locations)
    decl: TypeDecl  # the carrying type itself


def _is_file(ref: TypeRef) -> bool:
    return ref.package is None and ref.name == "file" and not ref.args


_KEY = ("file position",)


def check_design(ctx: Ctx, files: list[SourceFile]) -> None:
    """Replayed while no file mentions `file` and no edit made one mention it; a design
    that uses files runs it on every analysis (its carriers reach across the design)."""
    last = ctx.parts.get(_KEY)
    uses_files = last is not None and True in last.prints.values()
    ctx.design_part(_KEY, lambda f: ctx.summary(f).mentions_file, partial(_check, ctx, files), rerun=uses_files)


def _check(ctx: Ctx, files: list[SourceFile]) -> None:
    if not any(ctx.summary(f).mentions_file for f in files):
        return
    sites = [s for f in files for s in refs_of(f)]
    carriers = _carriers(ctx, sites)
    requests: set[int] = set()
    for site in sites:
        _site(ctx, site, carriers, requests)
    _form(ctx, carriers, requests)


def _carriers(ctx: Ctx, sites: list[RefSite]) -> dict[int, _Carrier]:
    out: dict[int, _Carrier] = {}
    for s in sites:
        if s.role == "field" and isinstance(s.decl, TypeDecl) and _is_file(s.ref) and s.ref.array_dims <= 1:
            field = next(f for f in s.decl.fields if f.type is s.ref)
            out.setdefault(id(s.decl), _Carrier(s.package, field, s.decl))
    changed = True
    while changed:
        changed = False
        for s in sites:
            if s.role == "mixin" and isinstance(s.decl, TypeDecl) and id(s.decl) not in out:
                shape = ctx.shape(s.ref, s.package, s.params)
                if shape.decl is not None and id(shape.decl) in out:
                    out[id(s.decl)] = _Carrier(s.package, out[id(shape.decl)].field, s.decl)
                    changed = True
    return out


def _report(ctx: Ctx, ref: TypeRef, where: str, carrier: _Carrier | None = None) -> None:
    rel = related(carrier.field.span, f"the file field {carrier.field.name}") if carrier else ()
    ctx.report("binding/file-position", ref.span, where=where, related=rel)


def _site(ctx: Ctx, site: RefSite, carriers: dict[int, _Carrier], requests: set[int]) -> None:
    top = site.ref
    for inner in list(_walk(top))[1:]:
        _nested(ctx, site, inner, carriers)
    if _is_file(top):
        if site.role == "field" and isinstance(site.decl, ErrorDecl):
            _report(ctx, top, f"error {site.decl.name} has it in its body")
        elif site.role == "field" and top.array_dims > 1:
            _report(ctx, top, "only file and file[] can be uploaded")
        elif site.role in ("response", "payload", "request"):
            return  # service/message-type, event/payload-kind
        return
    shape = ctx.shape(top, site.package, site.params)
    carrier = carriers.get(id(shape.decl)) if shape.decl is not None else None
    if carrier is None:
        return
    name = shape.text()
    if site.role == "request":
        if carrier.package != site.package:
            _report(
                ctx,
                top,
                f"{name} is a type of package {carrier.package}, used as a request in package {site.package}",
                carrier,
            )
        elif top.array_dims:
            _report(ctx, top, f"{name} holds a file and cannot be an array", carrier)
        else:
            requests.add(id(shape.decl))
    elif site.role == "mixin" and isinstance(site.decl, TypeDecl):
        return  # the mixing type carries the file on
    else:
        where = {
            "response": f"{name} holds a file and is used as a response",
            "payload": f"{name} holds a file and is an event payload",
            "mixin": f"{name} holds a file and is mixed into error {site.decl.name}",
        }.get(site.role, f"{name} holds a file and is nested in {site.decl.name}")
        _report(ctx, top, where, carrier)


def _nested(ctx: Ctx, site: RefSite, ref: TypeRef, carriers: dict[int, _Carrier]) -> None:
    if _is_file(ref):
        _report(ctx, ref, "a map value or generic argument cannot be a file")
        return
    shape = ctx.shape(ref, site.package, site.params)
    if shape.kind is Kind.TYPE and shape.decl is not None and id(shape.decl) in carriers:
        _report(
            ctx,
            ref,
            f"{shape.text()} holds a file and cannot be a map value or generic argument",
            carriers[id(shape.decl)],
        )


def _form(ctx: Ctx, carriers: dict[int, _Carrier], requests: set[int]) -> None:
    """Every file field of a request (own or mixed in) without @form, each reported once."""
    done: set[int] = set()
    for key in sorted(requests, key=lambda k: _order(carriers[k])):
        carrier = carriers[key]
        for ef in ctx.index.fields(carrier.decl, carrier.package):
            f = ef.field
            if id(f) in done or not _is_file(f.type) or f.type.array_dims > 1:
                continue
            done.add(id(f))
            if (
                f.decorator("form") is None
                and f.decorator("sensitive") is None
                and not any(d.name in ("body", "path", "query", "header", "cookie") for d in f.decorators)
            ):
                ctx.report(
                    "binding/type",
                    f.name_span,
                    field=f.name,
                    type=f.type.text(),
                    binding="travel in the body",
                    reason="a file travels only in a multipart form - add @form",
                    fixes=(Fix(f"Add @form to {f.name}", end_of(f.type.span), " @form"),),
                )


def _order(carrier: _Carrier) -> tuple[str, int]:
    span = carrier.field.span
    return (span.path, span.start_byte)
