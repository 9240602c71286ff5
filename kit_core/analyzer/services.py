"""Services and methods: middleware and error references, duplicate methods, orphan
extends, method file names, name clashes in one directory, groups (rule 13), operationIds."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from kit_core.analyzer.context import Ctx, related
from kit_core.analyzer.decorators import usable
from kit_core.analyzer.walk import SiteNode, decl_sites, file_sites
from kit_core.decorators import flat_args, literal_text
from kit_core.diagnostics import Fix
from kit_core.model import Decl, Decorator, Literal, ServiceDecl, SourceFile
from kit_core.naming import go_file_is_special
from kit_core.semantics.http import MethodInfo
from kit_core.source import Span
from kit_core.symbols import Package


def check_file(ctx: Ctx, file: SourceFile) -> None:
    check_header(ctx, file)
    for decl in file.declarations:
        check_decl(ctx, file, decl)


def check_header(ctx: Ctx, file: SourceFile) -> None:
    _check_sites(ctx, file, file_sites(file))


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    _check_sites(ctx, file, decl_sites(decl))


def _check_sites(ctx: Ctx, file: SourceFile, nodes: Iterable[SiteNode]) -> None:
    if file.package is None:
        return
    for node in nodes:
        for d in node.decorators:
            if d.name == "middlewares" and usable(d, node.site):
                _middlewares(ctx, d, file.package)
            elif d.name == "errors" and usable(d, node.site):
                _errors(ctx, d, file.package)


def _middlewares(ctx: Ctx, d: Decorator, package: str) -> None:
    for lit in flat_args(d):
        text = literal_text(lit)
        if "." in text:
            _qualified(ctx, lit, package, "middleware", lambda pkg, name: name in pkg.middlewares)
            continue
        ctx.dep("M", "*", text)  # middleware names are project-wide
        if ctx.symbols.middleware(text) is None:
            ctx.dep("N", "*", "")  # the hint reads every middleware name
            found = ctx.suggester("middlewares", partial(_middleware_names, ctx)).suggest(text)
            hint = f" - did you mean {found}?" if found else f" - declare it with `middleware {text}`"
            fixes = (Fix(f"Change to {found}", lit.span, found),) if found else ()
            ctx.report(
                "decorator/ref", lit.span, name="middlewares", what="middleware", value=text, hint=hint, fixes=fixes
            )


def _middleware_names(ctx: Ctx, package: str | None = None) -> list[str]:
    pkgs = [ctx.symbols.packages[package]] if package else list(ctx.symbols.packages.values())
    return [m for p in pkgs for m in p.middlewares]


def _errors(ctx: Ctx, d: Decorator, package: str) -> None:
    for lit in flat_args(d):
        text = literal_text(lit)
        if "." in text:
            _qualified(ctx, lit, package, "error", lambda pkg, name: name in pkg.errors)
            continue
        ctx.dep("T", package, text)
        pkg = ctx.symbols.packages.get(package)
        if pkg is not None and text in pkg.errors:
            continue
        ctx.report("decorator/ref", lit.span, name="errors", what="error", value=text, hint=_not_an_error(pkg, text))


def _not_an_error(pkg: Package | None, name: str) -> str:
    other = pkg.lookup(name) if pkg else None
    return f" - {name} is a {type(other).__name__.removesuffix('Decl').lower()}, not an error" if other else ""


def _qualified(ctx: Ctx, lit: Literal, package: str, what: str, declares: Callable[[Package, str], bool]) -> None:
    """A `pkg.Name` argument naming a middleware or error of another package, checked the way
    a qualified type reference is (`ref/qualified`, `ref/unknown-package`, `ref/unknown-symbol`)."""
    text = literal_text(lit)
    owner, _, name = text.rpartition(".")
    if owner == package:
        ctx.report(
            "ref/qualified",
            lit.span,
            name=text,
            reason=f"a name of the own package {package} is written unqualified - write {name}",
        )
    pkg = ctx.symbols.packages.get(owner)
    if pkg is None:
        ctx.dep("P", owner, "")
        ctx.report("ref/unknown-package", lit.span, package=owner, name=text)
        return
    ctx.dep(*(("M", "*", name) if what == "middleware" else ("T", owner, name)))
    if declares(pkg, name):
        return
    ctx.dep("N", "*" if what == "middleware" else owner, "")  # the hint reads the declared names
    hint, instead = _hint(ctx, pkg, name, what)
    fixes = (Fix(f"Change to {instead}", lit.span, instead),) if instead else ()
    ctx.report("ref/unknown-symbol", lit.span, what=what, name=text, hint=hint, fixes=fixes)


def _hint(ctx: Ctx, pkg: Package, name: str, what: str) -> tuple[str, str | None]:
    """The hint, and the name it suggests writing instead (if it suggests one)."""
    if what == "error":
        hint = _not_an_error(pkg, name)
        found = ctx.suggester(("errors", pkg.name), lambda: list(pkg.errors)).suggest(name)
    else:
        elsewhere = ctx.symbols.middleware(name)
        if elsewhere is not None:
            home = next(p.name for p in ctx.symbols.packages.values() if p.middlewares.get(name) is elsewhere)
            return f" - package {home} declares it", f"{home}.{name}"
        hint = ""
        found = ctx.suggester(("middlewares", pkg.name), partial(_middleware_names, ctx, pkg.name)).suggest(name)
    if hint or not found:
        return hint, None
    return f" - did you mean {pkg.name}.{found}?", f"{pkg.name}.{found}"


# --------------------------------------------------------------------------- whole design


def check_design(ctx: Ctx) -> None:
    """Reads the service blocks and the methods' infos: replayed while no edit changed a
    service or a method's binding (see `Ctx.design_part`)."""
    http = ctx.delta is None or ctx.delta.http
    ctx.design_part(("services",), _services_print, partial(_blocks, ctx), rerun=http)


def _blocks(ctx: Ctx) -> None:
    blocks = tuple(b for pkg in ctx.symbols.packages.values() for bs in pkg.services.values() for b in bs)
    ctx.reuse(("services",), (*blocks, None, *ctx.http.methods), partial(_check_services, ctx))


def _services_print(f: SourceFile) -> object:
    return (f.package, tuple((d.name, d.extend) for d in f.declarations if type(d) is ServiceDecl))


def _check_services(ctx: Ctx) -> None:
    for pkg in ctx.symbols.packages.values():
        for name, blocks in pkg.services.items():
            _service(ctx, pkg.name, name, blocks)
    methods = ctx.http.methods
    for m in methods:
        _file_name(ctx, m)
    for directory, members in ctx.http.groups.items():
        _directory(ctx, directory, members)
    _operation_ids(ctx, methods)


def _service(ctx: Ctx, package: str, name: str, blocks: list[ServiceDecl]) -> None:
    if not any(not b.extend for b in blocks):
        elsewhere = [
            p.name
            for p in ctx.symbols.packages.values()
            if p.name != package and any(not b.extend for b in p.services.get(name, []))
        ]
        hint = (
            f" (it is declared in package {elsewhere[0]}; an extend must be in the primary's package)"
            if elsewhere
            else ""
        )
        for b in blocks:
            ctx.report("service/extend-orphan", b.name_span, name=name, package=package, hint=hint)
    seen: dict[str, Span] = {}
    for b in blocks:
        for m in b.methods:
            prev = seen.setdefault(m.name, m.name_span)
            if prev is not m.name_span:
                ctx.report(
                    "service/duplicate-method",
                    m.name_span,
                    method=m.name,
                    service=name,
                    related=related(prev, "first declared here"),
                )


def _file_name(ctx: Ctx, m: MethodInfo) -> None:
    if go_file_is_special(m.file_stem):
        what = "a test file" if m.file_stem.endswith("_test") else "specific to one OS or architecture"
        ctx.report(
            "service/method-file-name",
            m.method.name_span,
            method=m.method.name,
            file=f"{m.file_stem}.go",
            what=what,
        )
    if m.method.name == "Logger":
        ctx.report(
            "service/method-name-clash",
            m.method.name_span,
            method=m.method.name,
            reason="clashes with the logger every logic object embeds - rename it",
        )


def _label(m: MethodInfo) -> str:
    return f"{m.package}.{m.service}"


def _directory(ctx: Ctx, directory: str, members: tuple[MethodInfo, ...]) -> None:
    first_pkg = members[0]
    for m in members[1:]:
        if m.package != first_pkg.package and m.group is not None and first_pkg.group is not None:
            ctx.report(
                "group/package-straddle",
                m.block.name_span,
                group=f'"{directory}"',
                package=first_pkg.package,
                other=m.package,
                related=related(first_pkg.block.name_span, "the other contributor"),
            )
            return
    by_name: dict[str, MethodInfo] = {}
    by_file: dict[str, MethodInfo] = {}
    for m in members:
        prev = by_name.setdefault(m.method.name, m)
        if prev is not m and prev.service != m.service:
            ctx.report(
                "group/method-collision",
                m.method.name_span,
                method=m.method.name,
                service=_label(prev),
                other=_label(m),
                group=f'"{directory}"',
                related=related(prev.method.name_span, "the other method"),
            )
            continue
        if prev is not m:
            continue  # service/duplicate-method
        prev = by_file.setdefault(m.file_stem, m)
        if prev is not m:
            ctx.report(
                "service/method-name-clash",
                m.method.name_span,
                method=m.method.name,
                reason=f"and {prev.method.name} both write {m.file_stem}.go in {directory}",
                related=related(prev.method.name_span, f"{prev.method.name} is declared here"),
            )
    for m in members:
        other = by_name.get(m.method.name.removeprefix("New")) if m.method.name.startswith("New") else None
        if other is not None and other is not m:
            ctx.report(
                "service/method-name-clash",
                m.method.name_span,
                method=m.method.name,
                reason=f"and {other.method.name} both need the Go name {m.method.name}Service in {directory}",
                related=related(other.method.name_span, f"{other.method.name} is declared here"),
            )


def _operation_ids(ctx: Ctx, methods: tuple[MethodInfo, ...]) -> None:
    seen: dict[str, MethodInfo] = {}
    for m in methods:
        prev = seen.setdefault(m.operation_id, m)
        if prev is m:
            continue
        if prev.package == m.package and prev.service == m.service and prev.method.name == m.method.name:
            continue  # service/duplicate-method
        if not (prev.explicit_operation_id or m.explicit_operation_id):
            continue  # two defaults of one package: service/duplicate-method or duplicate services
        dec = m.method.decorator("operationId")
        span = dec.args[0].span if dec is not None and dec.args else m.method.name_span
        ctx.report(
            "operation/duplicate-id",
            span,
            id=m.operation_id,
            method=f"{_label(m)}.{m.method.name}",
            other=f"{_label(prev)}.{prev.method.name}",
            related=related(prev.method.name_span, "the other operation"),
        )
