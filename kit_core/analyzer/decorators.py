"""Decorator rules that need only the decorator and its site: unknown, removed,
placement, `extend service` restrictions, repeats, argument count, kinds and values.

Rules that need the decorated field's type live in `validators.py`; references to
middlewares, errors, schemes and fields are checked where those are known.
"""

from __future__ import annotations

from collections.abc import Iterable

from kit_core.analyzer.context import Ctx, related
from kit_core.analyzer.suggest import Suggester
from kit_core.analyzer.walk import SiteNode, decl_sites, file_sites
from kit_core.decorators import (
    EXTEND_ALLOWED,
    FORMATS,
    IDENT_ARGS,
    REGISTRY,
    REMOVED,
    SITE_LABELS,
    DecoratorSpec,
    Site,
    kind_accepts,
)
from kit_core.decorators.checks import bounds_reversed, literal_text
from kit_core.diagnostics import Fix
from kit_core.model import Decl, Decorator, Literal, LiteralKind, ServiceDecl, SourceFile
from kit_core.words import KEYWORDS


def check_file(ctx: Ctx, file: SourceFile) -> None:
    check_header(ctx, file)
    for decl in file.declarations:
        check_decl(ctx, file, decl)


def check_header(ctx: Ctx, file: SourceFile) -> None:
    _check_sites(ctx, file_sites(file), _broken_ranges(file))


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    broken = _broken_ranges(file) if file.parse_diagnostics else []
    _check_sites(ctx, decl_sites(decl), broken)


_CLEAN: set[tuple[object, ...]] = set()
"""Decorators (by site, name and arguments as written) that every check but the repeat
check passed: what those checks read is the decorator itself and the registry."""


def _check_sites(ctx: Ctx, nodes: Iterable[SiteNode], broken: list[tuple[int, int]]) -> None:
    for node in nodes:
        if not node.decorators:
            continue
        seen: dict[str, Decorator] = {}
        for dec in node.decorators:
            sig = (node.site, dec.name, dec.has_parens, tuple([(a.kind, a.text) for a in dec.args]) if dec.args else ())
            if sig in _CLEAN:
                _repeat(ctx, dec, REGISTRY[dec.name], node, seen)
                continue
            before = len(ctx.diags)
            spec = _known(ctx, dec, node)
            if spec is None or not _placed(ctx, dec, spec, node):
                continue
            _repeat(ctx, dec, spec, node, seen)
            if _inside(dec, broken):
                continue  # the parser dropped part of its arguments and said so
            checked = len(ctx.diags)
            if _arguments(ctx, dec, spec):
                _values(ctx, dec, spec)
            if len(ctx.diags) == checked and checked - before <= 1:  # at most the repeat's report
                if checked == before or ctx.diags[-1].code == "decorator/duplicate":
                    if len(_CLEAN) > 100_000:
                        _CLEAN.clear()
                    _CLEAN.add(sig)


def _broken_ranges(file: SourceFile) -> list[tuple[int, int]]:
    out = []
    for d in file.parse_diagnostics:
        span = getattr(d, "span", None)
        if span is not None:
            out.append((span.start_byte, span.end_byte))
    return out


def _inside(dec: Decorator, broken: list[tuple[int, int]]) -> bool:
    return any(dec.span.start_byte <= start <= dec.span.end_byte for start, _ in broken)


_DECORATOR_NAMES = Suggester(REGISTRY)

_USABLE: dict[tuple[object, ...], DecoratorSpec | None] = {}
"""By site, name and arguments as written: plain values, so the memo keeps no model alive."""


def usable(dec: Decorator, site: Site) -> DecoratorSpec | None:
    """The spec of a decorator that is known, allowed on the site and has well-formed
    arguments (the later rule families look only at those)."""
    key = (site, dec.name, tuple([(a.kind, a.text) for a in dec.args]) if dec.args else ())
    try:
        return _USABLE[key]
    except KeyError:
        pass
    spec = REGISTRY.get(dec.name)
    result = spec if spec is not None and site in spec.sites and _shape_ok(dec, spec) else None
    if len(_USABLE) > 100_000:
        _USABLE.clear()
    _USABLE[key] = result
    return result


def _known(ctx: Ctx, dec: Decorator, node: SiteNode) -> DecoratorSpec | None:
    spec = REGISTRY.get(dec.name)
    if spec is not None:
        return spec
    if dec.name in REMOVED:
        ctx.report("decorator/removed", dec.name_span, name=dec.name, note=REMOVED[dec.name])
        return None
    close = _DECORATOR_NAMES.suggest(dec.name)
    ctx.report(
        "decorator/unknown",
        dec.name_span,
        name=dec.name,
        hint=f" - did you mean @{close}?" if close else "",
        fixes=(Fix(f"Change to @{close}", dec.name_span, close),) if close else (),
    )
    return None


def _placed(ctx: Ctx, dec: Decorator, spec: DecoratorSpec, node: SiteNode) -> bool:
    if node.site in spec.sites:
        return True
    if node.site is Site.EXTEND_SERVICE and (Site.METHOD in spec.sites or Site.SERVICE in spec.sites):
        name = node.decl.name if isinstance(node.decl, ServiceDecl) else "?"
        allowed = ", ".join(f"@{n}" for n in sorted(EXTEND_ALLOWED))
        where = (
            "put it on the primary service"
            if Site.SERVICE in spec.sites and Site.METHOD not in spec.sites
            else "put it on each method"
        )
        ctx.report(
            "service/extend-decorator-not-method",
            dec.name_span,
            name=dec.name,
            service=name,
            hint=f"{where}; an extend block takes only {allowed}",
        )
        return False
    sites = ", ".join(SITE_LABELS[s] for s in Site if s in spec.sites)
    ctx.report("decorator/placement", dec.name_span, name=dec.name, site=SITE_LABELS[node.site], sites=sites)
    return False


def _repeat(ctx: Ctx, dec: Decorator, spec: DecoratorSpec, node: SiteNode, seen: dict[str, Decorator]) -> None:
    first = seen.get(dec.name)
    if first is None:
        seen[dec.name] = dec
        return
    if not spec.repeatable:
        ctx.report(
            "decorator/duplicate",
            dec.name_span,
            name=dec.name,
            site=node.site.value,
            related=related(first.span, f"first @{dec.name} here"),
        )


# --------------------------------------------------------------------------- arguments


def _items(dec: Decorator, spec: DecoratorSpec) -> tuple[Literal, ...]:
    if spec.variadic and len(dec.args) == 1 and dec.args[0].kind is LiteralKind.ARRAY:
        return dec.args[0].items
    return dec.args


def _shape_ok(dec: Decorator, spec: DecoratorSpec) -> bool:
    items = _items(dec, spec)
    if spec.is_flag:
        return not dec.args
    if spec.variadic:
        return bool(items) and all(_kind_ok(spec, i, lit) for i, lit in enumerate(items))
    if not (spec.min_args or 0) <= len(items) <= len(spec.params):
        return False
    return all(_kind_ok(spec, i, lit) for i, lit in enumerate(items))


def _kind_ok(spec: DecoratorSpec, index: int, lit: Literal) -> bool:
    param = spec.param_for(index)
    if param is None:
        return False
    if not any(kind_accepts(k, lit) for k in param.kinds):
        return False
    if lit.kind is LiteralKind.ARRAY:
        return all(it.kind not in (LiteralKind.ARRAY, LiteralKind.IDENT) or spec.name == "default" for it in lit.items)
    return True


def _expected_count(spec: DecoratorSpec) -> str:
    if spec.variadic:
        return "one or more arguments (or one array literal)"
    lo, hi = spec.min_args or 0, len(spec.params)
    names = ", ".join(p.name for p in spec.params)
    if lo == hi:
        return f"{hi} argument{'s' if hi != 1 else ''} ({names})"
    return f"{lo} to {hi} arguments ({names})"


def _arguments(ctx: Ctx, dec: Decorator, spec: DecoratorSpec) -> bool:
    """Count and kinds; True when the values can be checked."""
    if spec.is_flag:
        if dec.args:
            ctx.report(
                "decorator/arity",
                dec.span,
                name=dec.name,
                expected="no arguments (it is a flag)",
                got=str(len(dec.args)),
            )
            return False
        if dec.has_parens:
            ctx.warn("decorator/flag-empty-parens", dec.span, name=dec.name)
        return True
    items = _items(dec, spec)
    count_ok = bool(items) if spec.variadic else (spec.min_args or 0) <= len(items) <= len(spec.params)
    if not count_ok:
        ctx.report("decorator/arity", dec.span, name=dec.name, expected=_expected_count(spec), got=str(len(items)))
        return False
    ok = True
    for i, lit in enumerate(items):
        if not _kind_ok(spec, i, lit):
            param = spec.param_for(i)
            expected = " or ".join(k.value for k in param.kinds) if param else "nothing"
            ctx.report(
                "decorator/argtype",
                lit.span,
                name=dec.name,
                position=str(i + 1),
                expected=expected,
                got=_describe(lit),
            )
            ok = False
    return ok


def _describe(lit: Literal) -> str:
    if lit.kind is LiteralKind.ARRAY:
        inner = {_describe(i) for i in lit.items}
        return "an array" + (f" of {', '.join(sorted(inner))}" if inner else "")
    return f"{lit.kind.value} {lit.text}"


def _values(ctx: Ctx, dec: Decorator, spec: DecoratorSpec) -> None:
    for check in spec.checks:
        for problem in check(dec):
            ctx.report("decorator/argvalue", problem.span, message=problem.message)
    if spec.ordered and bounds_reversed(dec):
        low, high = dec.args
        ctx.report("decorator/range", dec.span, name=dec.name, low=low.text, high=high.text)
    if spec.name in IDENT_ARGS:
        for lit in dec.args:
            text = literal_text(lit)
            if lit.is_string and text not in KEYWORDS and _registered_ident(spec, text):
                ctx.warn("decorator/arg-prefer-ident", lit.span, name=dec.name, value=text)


def _registered_ident(spec: DecoratorSpec, text: str) -> bool:

    return spec.name == "format" and text in FORMATS
