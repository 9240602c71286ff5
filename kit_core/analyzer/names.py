"""Names: package clauses, declaration name case, built-in names, duplicates, generated
Go name collisions and middleware collisions."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from kit_core.analyzer.context import Ctx, related
from kit_core.analyzer.walk import DECL_KINDS
from kit_core.gowords import KEYWORDS, PREDECLARED
from kit_core.model import (
    Decl,
    EnumDecl,
    ErrorDecl,
    EventDecl,
    MiddlewareDecl,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    TypeDecl,
)
from kit_core.naming import enum_const, error_go_type, middleware_file
from kit_core.source import Span
from kit_core.symbols import PRIMITIVES, Package

RESERVED_MIDDLEWARE = frozenset({"Config", "Middlewares"})


def is_upper(name: str) -> bool:
    return bool(name) and "A" <= name[0] <= "Z"


def suggestion(name: str) -> str:
    stripped = name.lstrip("_")
    return (stripped[:1].upper() + stripped[1:]) or "Name"


# --------------------------------------------------------------------------- per file


def check_file(ctx: Ctx, file: SourceFile) -> None:
    check_header(ctx, file)
    for decl in file.declarations:
        check_decl(ctx, file, decl)


def check_header(ctx: Ctx, file: SourceFile) -> None:
    _package_clause(ctx, file)


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    _decl_name(ctx, decl)


def _package_clause(ctx: Ctx, file: SourceFile) -> None:
    if file.package is None:
        what = _what_file_holds(file)
        if what:
            ctx.report("package/missing", what[1], what=what[0])
        return
    reason = package_name_problem(file.package)
    if reason and file.package_span is not None:
        ctx.report("package/name", file.package_span, name=file.package, reason=reason)


def _what_file_holds(file: SourceFile) -> tuple[str, Span] | None:
    if file.imports:
        return "imports a folder", file.imports[0].span
    if file.declarations:
        decl = file.declarations[0]
        return f"declares {DECL_KINDS[type(decl)]} {decl.name}", decl.name_span
    if file.decorators:
        return "has file decorators", file.decorators[0].span
    return None


def package_name_problem(name: str) -> str | None:
    if name in ("init", "main", "_"):
        return f"`{name}` has a special meaning in Go"
    if name in KEYWORDS:
        return "it is a Go keyword"
    if name in PREDECLARED:
        return "it is a predeclared Go name"
    return None


def _decl_name(ctx: Ctx, decl: Decl) -> None:
    kind = DECL_KINDS[type(decl)]
    if decl.name in PRIMITIVES and not isinstance(decl, ServiceDecl | MiddlewareDecl | EventDecl):
        ctx.report("decl/builtin-name", decl.name_span, kind=kind, name=decl.name)
    elif not is_upper(decl.name):
        if isinstance(decl, ServiceDecl):
            ctx.warn("decl/name-case", decl.name_span, kind=kind, name=decl.name, suggestion=suggestion(decl.name))
        else:
            ctx.report("decl/name-case", decl.name_span, kind=kind, name=decl.name, suggestion=suggestion(decl.name))
    if isinstance(decl, MiddlewareDecl) and decl.name in RESERVED_MIDDLEWARE:
        ctx.report(
            "decl/go-name-collision",
            decl.name_span,
            kind=kind,
            name=decl.name,
            go_name=decl.name,
            other="is a field of the generated ServiceContext",
        )
    if isinstance(decl, TypeDecl):
        for p in decl.params:
            if not is_upper(p.name):
                ctx.report(
                    "decl/name-case",
                    p.span,
                    kind="type parameter",
                    name=p.name,
                    suggestion=suggestion(p.name),
                )
    if isinstance(decl, ServiceDecl):
        for m in decl.methods:
            if not is_upper(m.name):
                ctx.report("decl/name-case", m.name_span, kind="method", name=m.name, suggestion=suggestion(m.name))


# --------------------------------------------------------------------------- whole design


def check_design(ctx: Ctx) -> None:
    """Duplicates and Go-name collisions, package by package; replayed while no edit
    changed a name (see `Ctx.design_part`)."""
    ctx.design_part(("names",), _names_print, partial(_packages, ctx))


def _packages(ctx: Ctx) -> None:
    for pkg in ctx.symbols.packages.values():
        ctx.reuse(("names", pkg.name), tuple(pkg.files), partial(_package, ctx, pkg))


def _names_print(f: SourceFile) -> object:
    """What the names rules read of a file: its package and its declarations' kinds and
    names, with what their Go names derive from."""
    return (f.package, tuple(_decl_print(d) for d in f.declarations))


def _decl_print(decl: Decl) -> object:
    if isinstance(decl, ServiceDecl):
        return (ServiceDecl, decl.name, decl.extend)
    if isinstance(decl, ErrorDecl):
        return (ErrorDecl, decl.name, bool(decl.members))
    if isinstance(decl, EnumDecl):
        return (EnumDecl, decl.name, tuple(v.name for v in decl.values))
    return (type(decl), decl.name)


def check_middlewares(ctx: Ctx) -> None:
    """Middleware names are project-wide: a design rule of its own (a partial analysis
    cannot decide it; see `kit_core.analyzer.partial`)."""
    ctx.design_part(("middleware names",), _middlewares_print, partial(_middlewares, ctx))


def _middlewares_print(f: SourceFile) -> object:
    return (f.package, tuple(d.name for d in f.declarations if type(d) is MiddlewareDecl))


def _package(ctx: Ctx, pkg: Package) -> None:
    decls = [(f, d) for f in pkg.files for d in f.declarations]
    _duplicates(ctx, pkg, decls)
    _go_names(ctx, pkg, decls)


_NAMESPACE = {TypeDecl: "T", EnumDecl: "T", ErrorDecl: "T", EventDecl: "E", MiddlewareDecl: "M"}


def _duplicates(ctx: Ctx, pkg: Package, decls: list[tuple[SourceFile, Decl]]) -> None:
    seen: dict[tuple[str, str], Decl] = {}
    for _, decl in decls:
        if isinstance(decl, ServiceDecl):
            if decl.extend:
                continue
            ns = "S"
        else:
            ns = _NAMESPACE.get(type(decl), "T")
        first = seen.setdefault((ns, decl.name), decl)
        if first is decl:
            continue
        rel = related(first.name_span, f"first declared here as {DECL_KINDS[type(first)]} {first.name}")
        if ns == "S":
            ctx.report("service/duplicate", decl.name_span, name=decl.name, package=pkg.name, related=rel)
        elif ns == "E":
            ctx.report("event/duplicate-name", decl.name_span, name=decl.name, package=pkg.name, related=rel)
        else:
            ctx.report(
                "decl/duplicate",
                decl.name_span,
                kind=DECL_KINDS[type(decl)],
                name=decl.name,
                where=f"package {pkg.name}",
                related=rel,
            )


def _generated(decl: Decl) -> Iterable[tuple[str, str]]:
    """(Go name, what it is) of every name a declaration puts in its types package."""
    if isinstance(decl, ErrorDecl):
        go = error_go_type(decl.name)
        yield go, f"the Go type of error {decl.name}"
        yield f"ErrCode{decl.name}", f"the code constant of error {decl.name}"
        yield f"New{go}", f"the constructor of error {decl.name}"
        if decl.members:
            yield f"{decl.name}Body", f"the body type of error {decl.name}"
    elif isinstance(decl, EnumDecl):
        yield decl.name, f"enum {decl.name}"
        for v in decl.values:
            yield enum_const(decl.name, v.name), f"the constant of {decl.name}.{v.name}"
    elif isinstance(decl, TypeDecl | ScalarDecl):
        yield decl.name, f"{DECL_KINDS[type(decl)]} {decl.name}"


def _go_names(ctx: Ctx, pkg: Package, decls: list[tuple[SourceFile, Decl]]) -> None:
    taken: dict[str, tuple[Decl, str]] = {}
    events: dict[str, tuple[Decl, str]] = {}
    for _, decl in decls:
        if isinstance(decl, EventDecl):
            names = [
                (decl.name, f"event {decl.name}"),
                (f"{decl.name}Contract", f"the contract of {decl.name}"),
            ]
            _claim(ctx, decl, names, events)
        elif not isinstance(decl, ServiceDecl | MiddlewareDecl):
            _claim(ctx, decl, list(_generated(decl)), taken)


def _claim(ctx: Ctx, decl: Decl, names: list[tuple[str, str]], taken: dict[str, tuple[Decl, str]]) -> None:
    for go, what in names:
        prev = taken.get(go)
        if prev is None:
            taken[go] = (decl, what)
        elif prev[0] is not decl and prev[0].name != decl.name:
            ctx.report(
                "decl/go-name-collision",
                decl.name_span,
                kind=DECL_KINDS[type(decl)],
                name=decl.name,
                go_name=go,
                other=f"is also {prev[1]}",
                related=related(prev[0].name_span, f"{prev[1]} is declared here"),
            )
            return


def _middlewares(ctx: Ctx) -> None:
    by_name: dict[str, tuple[str, MiddlewareDecl]] = {}
    by_file: dict[str, tuple[str, MiddlewareDecl]] = {}
    for pkg_name in sorted(ctx.symbols.packages):
        pkg = ctx.symbols.packages[pkg_name]
        for decl in pkg.middlewares.values():  # a repeat within a package is decl/duplicate
            _middleware(ctx, pkg_name, decl, by_name, by_file)


def _middleware(
    ctx: Ctx,
    pkg: str,
    decl: MiddlewareDecl,
    by_name: dict[str, tuple[str, MiddlewareDecl]],
    by_file: dict[str, tuple[str, MiddlewareDecl]],
) -> None:
    prev = by_name.get(decl.name)
    if prev is not None and prev[0] != pkg:
        ctx.report(
            "middleware/collision",
            decl.name_span,
            name=decl.name,
            other=f"{prev[0]}.{decl.name}",
            reason=f"middleware names are project-wide, and package {prev[0]} declares it too",
            related=related(prev[1].name_span, "declared here too"),
        )
        return
    by_name.setdefault(decl.name, (pkg, decl))
    file = middleware_file(decl.name, ctx.file_case)
    prev = by_file.get(file)
    if prev is not None and prev[1].name != decl.name:
        ctx.report(
            "middleware/collision",
            decl.name_span,
            name=decl.name,
            other=prev[1].name,
            reason=f"both scaffolds would be written to {file}",
            related=related(prev[1].name_span, f"{prev[1].name} is declared here"),
        )
        return
    by_file.setdefault(file, (pkg, decl))
