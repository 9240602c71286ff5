"""Enumerate every decorator-bearing node of a file with its site."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kit_core.decorators import Site
from kit_core.model import (
    Decl,
    Decorator,
    EnumDecl,
    ErrorDecl,
    EventDecl,
    Field,
    Method,
    MiddlewareDecl,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    TypeDecl,
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


def decl_site(decl: Decl) -> Site:
    if isinstance(decl, ServiceDecl):
        return Site.EXTEND_SERVICE if decl.extend else Site.SERVICE
    return _DECL_SITES[type(decl)]


def sites_of(file: SourceFile) -> Iterator[SiteNode]:
    if file.decorators:
        span = file.package_span or file.decorators[0].span
        yield SiteNode(Site.FILE, file.decorators, span)
    for decl in file.declarations:
        yield SiteNode(decl_site(decl), decl.decorators, decl.name_span, decl, decl)
        yield from _members(decl)


def _members(decl: Decl) -> Iterator[SiteNode]:
    if isinstance(decl, TypeDecl | ErrorDecl):
        site = Site.FIELD if isinstance(decl, TypeDecl) else Site.ERROR_FIELD
        for f in decl.members:
            if isinstance(f, Field):
                yield SiteNode(site, f.decorators, f.name_span, decl, f)
    elif isinstance(decl, EnumDecl):
        for v in decl.values:
            yield SiteNode(Site.ENUM_VALUE, v.decorators, v.name_span, decl, v)
    elif isinstance(decl, ServiceDecl):
        for m in decl.methods:
            yield SiteNode(Site.METHOD, m.decorators, m.name_span, decl, m)


def methods_of(file: SourceFile) -> Iterator[tuple[ServiceDecl, Method]]:
    for decl in file.declarations:
        if isinstance(decl, ServiceDecl):
            for m in decl.methods:
                yield decl, m
