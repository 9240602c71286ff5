"""Enumerate every decorator-bearing node of a file with its site."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kit_core.decorators import Site
from kit_core.fastnew import maker
from kit_core.model import (
    Decl,
    Decorator,
    EnumDecl,
    ErrorDecl,
    EventDecl,
    Field,
    MiddlewareDecl,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    TypeDecl,
    TypeRef,
)
from kit_core.source import Span

_DECL_SITES: dict[type, Site] = {
    TypeDecl: Site.TYPE,
    EnumDecl: Site.ENUM,
    ErrorDecl: Site.ERROR,
    ScalarDecl: Site.SCALAR,
    MiddlewareDecl: Site.MIDDLEWARE,
    EventDecl: Site.EVENT,
}

DECL_KINDS: dict[type, str] = {
    TypeDecl: "type",
    EnumDecl: "enum",
    ErrorDecl: "error",
    ScalarDecl: "scalar",
    MiddlewareDecl: "middleware",
    ServiceDecl: "service",
    EventDecl: "event",
}


@dataclass(frozen=True, slots=True)
class SiteNode:
    site: Site
    decorators: tuple[Decorator, ...]
    span: Span  # the decorated node's name (or the file start)
    decl: Decl | None = None  # the enclosing declaration
    node: object = None  # the Field / Method / EnumValue itself


_SiteNode = maker(SiteNode)


def decl_site(decl: Decl) -> Site:
    if isinstance(decl, ServiceDecl):
        return Site.EXTEND_SERVICE if decl.extend else Site.SERVICE
    return _DECL_SITES[type(decl)]


def file_sites(file: SourceFile) -> Iterator[SiteNode]:
    """The file's own decorators (above `package`), if any."""
    if file.decorators:
        span = file.package_span or file.decorators[0].span
        yield _SiteNode(Site.FILE, file.decorators, span, None, None)


_last_sites: tuple[object, tuple[SiteNode, ...]] = (None, ())


def decl_sites(decl: Decl) -> tuple[SiteNode, ...]:
    """A declaration and its members (fields, enum values, methods). Several rule
    families ask in turn about the same declaration: the last answer is kept."""
    global _last_sites
    last = _last_sites
    if last[0] is decl:
        return last[1]
    sites = (_SiteNode(decl_site(decl), decl.decorators, decl.name_span, decl, decl), *_members(decl))
    _last_sites = (decl, sites)
    return sites


def _members(decl: Decl) -> Iterator[SiteNode]:
    if isinstance(decl, TypeDecl | ErrorDecl):
        site = Site.FIELD if isinstance(decl, TypeDecl) else Site.ERROR_FIELD
        for f in decl.members:
            if isinstance(f, Field):
                yield _SiteNode(site, f.decorators, f.name_span, decl, f)
    elif isinstance(decl, EnumDecl):
        for v in decl.values:
            yield _SiteNode(Site.ENUM_VALUE, v.decorators, v.name_span, decl, v)
    elif isinstance(decl, ServiceDecl):
        for m in decl.methods:
            yield _SiteNode(Site.METHOD, m.decorators, m.name_span, decl, m)


@dataclass(frozen=True, slots=True)
class RefSite:
    """A written type reference with what encloses it."""

    ref: TypeRef
    package: str
    params: tuple[str, ...]
    decl: Decl
    role: str  # "field", "mixin", "scalar", "request", "response", "payload"


_RefSite = maker(RefSite)


def refs_of(file: SourceFile) -> Iterator[RefSite]:
    pkg = file.package
    if pkg is None:
        return
    for decl in file.declarations:
        yield from decl_refs(decl, pkg)


def decl_refs(decl: Decl, pkg: str) -> Iterator[RefSite]:
    """The type references written in one declaration of package ``pkg``."""
    if isinstance(decl, TypeDecl | ErrorDecl):
        params = tuple(p.name for p in decl.params) if isinstance(decl, TypeDecl) else ()
        for m in decl.members:
            if isinstance(m, Field):
                yield _RefSite(m.type, pkg, params, decl, "field")
            else:
                yield _RefSite(m.ref, pkg, params, decl, "mixin")
    elif isinstance(decl, ScalarDecl):
        yield RefSite(decl.primitive, pkg, (), decl, "scalar")
    elif isinstance(decl, ServiceDecl):
        for method in decl.methods:
            if method.request:
                yield RefSite(method.request, pkg, (), decl, "request")
            if method.response:
                yield RefSite(method.response, pkg, (), decl, "response")
    elif isinstance(decl, EventDecl) and decl.payload:
        yield RefSite(decl.payload, pkg, (), decl, "payload")


def walk_ref(ref: TypeRef) -> Iterator[TypeRef]:
    """A reference and every reference nested in it (generic and map arguments)."""
    yield ref
    for a in ref.args:
        yield from walk_ref(a)
