"""Routes and request bindings (decorator rules 14-16, "Generated HTTP routes" 1):
route syntax, path variables against `@path` fields, verbs without a body, wire-name
clashes, `@form` without a file, health paths and routes the Go mux cannot both hold."""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache, partial

from kit_core.analyzer.context import Ctx, related
from kit_core.analyzer.fieldopts import binding_type_problem
from kit_core.diagnostics import Fix
from kit_core.model import PathSegment, TypeDecl
from kit_core.semantics.http import BODY_VERBS, HEALTH_PATHS, FieldBinding, Location, MethodInfo, is_file
from kit_core.source import Span, end_of

_ONCE_PER_FIELD = frozenset(
    {"binding/verb", "path/param-orphan", "binding/form-without-file", "binding/duplicate-wire-name"}
)


def check_design(ctx: Ctx) -> None:
    """Everything here reads the methods' infos only: while they are the same objects
    (no method, nor anything its bindings looked up, changed) the result is too."""
    http = ctx.delta is None or ctx.delta.http
    ctx.design_part(("routes",), _nothing, partial(_routes, ctx), rerun=http)


def _nothing(_: object) -> None:
    """The routes read no file, only the methods' infos (the session says when they change)."""


def _routes(ctx: Ctx) -> None:
    ctx.reuse(("routes",), tuple(ctx.http.methods), partial(_check_methods, ctx))


def _check_methods(ctx: Ctx) -> None:
    start = len(ctx.diags)
    for m in ctx.http.methods:
        ctx.reuse(("route", id(m.method)), (m,), partial(_method, ctx, m))
    # a field shared by several requests is reported once, at its first method
    seen: set[tuple[str, str, int]] = set()
    kept = ctx.diags[:start]
    for d in ctx.diags[start:]:
        key = (d.code, d.span.path, d.span.start_byte)
        if d.code in _ONCE_PER_FIELD and key in seen:
            continue
        seen.add(key)
        kept.append(d)
    ctx.diags[:] = kept
    _collisions(ctx, ctx.http.methods)


def _method(ctx: Ctx, m: MethodInfo) -> None:
    if _route_syntax(ctx, m):
        _path_vars(ctx, m)
    _bindings(ctx, m)
    _body_size(ctx, m)
    if m.full_route in HEALTH_PATHS:
        what = "liveness" if m.full_route == "/healthz" else "readiness"
        ctx.report("path/health-conflict", _route_span(m), route=m.full_route, method=_name(m), what=what)


def _body_size(ctx: Ctx, m: MethodInfo) -> None:
    """Without `@maxBodySize` the default cap is raised by what the files declare (the
    generated route's `DeclaredFileSize`); a written `@maxBodySize` is taken as it is, so one
    below the files' `@maxSize` refuses uploads the design allows."""
    d = m.method.decorator("maxBodySize")
    files = m.declared_file_bytes
    if d is None or m.max_body_size is None or files <= m.max_body_size:
        return
    ctx.report("route/body-size-below-files", d.span, size=d.args[0].text, method=_name(m), files=_size_text(files))


def _size_text(n: int) -> str:
    """A byte count as a size literal (`8MB`), as a design writes it."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n % scale == 0:
            return f"{n // scale}{unit}"
    return f"{n}B"


def _name(m: MethodInfo) -> str:
    return f"{m.service}.{m.method.name}"


def _route_span(m: MethodInfo) -> Span:
    return m.method.route.span if m.method.route else m.method.name_span


# --------------------------------------------------------------------------- syntax


def _route_syntax(ctx: Ctx, m: MethodInfo) -> bool:
    """Report malformed routes; True when the route is well formed (its variables are known)."""
    route = m.method.route
    if route is None:
        return True
    count = len(ctx.diags)
    if len(route.text) > 1 and route.text.endswith("/"):
        ctx.report("route/pattern", route.span, segment=route.text, reason="a route does not end with /")
    if "//" in route.text:
        ctx.report("route/pattern", route.span, segment=route.text, reason="a route has no empty segment (//)")
    seen: dict[str, PathSegment] = {}
    for i, seg in enumerate(route.segments):
        problem = _segment_problem(seg, last=i == len(route.segments) - 1)
        if problem:
            ctx.report("route/pattern", seg.span, segment=seg.text, reason=problem)
        if seg.var:
            prev = seen.setdefault(seg.var, seg)
            if prev is not seg:
                ctx.report(
                    "route/duplicate-path-var",
                    seg.span,
                    var=seg.var,
                    route=route.text,
                    related=related(prev.span, "first used here"),
                )
    return len(ctx.diags) == count


def _segment_problem(seg: PathSegment, last: bool) -> str | None:
    if seg.var is None and ("{" in seg.text or "}" in seg.text):
        return "a variable must be a whole segment, such as /{org}"
    if seg.var is None and seg.text.endswith("-"):
        return "a segment does not end with -"
    if seg.wildcard and not last:
        return "a {name...} wildcard must be the last segment"
    return None


# --------------------------------------------------------------------------- path variables


def _var_span(m: MethodInfo, var: str) -> Span:
    if m.method.route:
        for seg in m.method.route.segments:
            if seg.var == var:
                return seg.span
    prefix = m.primary.decorator("prefix") if m.primary else None
    if prefix is not None and prefix.args:
        return prefix.args[0].span
    return _route_span(m)


def _add_path_field(m: MethodInfo, var: str) -> tuple[Fix, ...]:
    """A field `<var> string @path` written into the request type, before its closing brace."""
    decl = m.request.decl if m.request is not None else None
    if not isinstance(decl, TypeDecl):
        return ()
    s = decl.span
    title = f"Add the field `{var} string @path` to {decl.name}"
    if s.start_line == s.end_line:  # `type T {}` or a one-line body
        at = Span(s.path, s.end_byte - 1, s.end_byte - 1, s.end_line, s.end_col - 1, s.end_line, s.end_col - 1,
                  s.end_col16 - 1, s.end_col16 - 1)  # fmt: skip
        return (Fix(title, at, f" {var} string @path "),)
    line = Span(s.path, s.end_byte - s.end_col, s.end_byte - s.end_col, s.end_line, 0, s.end_line, 0, 0, 0)
    return (Fix(title, line, f"\t{var} string @path\n"),)


def _path_vars(ctx: Ctx, m: MethodInfo) -> None:
    path_fields = {b.wire_name: b for b in m.request_fields if b.location is Location.PATH}
    by_name = {b.field.name: b for b in m.request_fields}
    req = m.method.request.text() if m.method.request else None
    for var in m.path_vars:
        if var in path_fields:
            continue
        other = by_name.get(var)
        fixes: tuple[Fix, ...] = ()
        if m.request is None:
            reason = f"the method has no request type - add one with a field `{var} string @path`"
        elif m.request.kind is None:
            continue
        elif other is not None and other.location is Location.NONE:
            reason = f"field {var} of {req} is @sensitive and may not be named by a path variable"
        elif other is not None:
            reason = f"field {var} of {req} is not bound with @path - add @path"
            fixes = (Fix(f"Add @path to {var}", end_of(other.field.field.type.span), " @path"),)
        else:
            reason = f"request {req} has no @path field {var}"
            fixes = _add_path_field(m, var)
        ctx.report("path/param-missing", _var_span(m, var), var=var, method=_name(m), reason=reason, fixes=fixes)
    allowed = set(m.path_vars) | set(m.base_vars)
    for wire, b in path_fields.items():
        if wire not in allowed:
            span = b.decorator.span if b.decorator else b.field.field.name_span
            ctx.report(
                "path/param-orphan",
                span,
                field=b.field.name,
                method=_name(m),
                route=m.route,
                related=related(_route_span(m), "the route"),
            )


# --------------------------------------------------------------------------- bindings


def _bindings(ctx: Ctx, m: MethodInfo) -> None:
    if m.verb.lower() not in BODY_VERBS:
        for b in m.request_fields:
            if b.explicit and b.location in (Location.BODY, Location.FORM):
                assert b.decorator is not None
                ctx.report(
                    "binding/verb",
                    b.decorator.name_span,
                    binding=b.location.value,
                    field=b.field.name,
                    verb=m.verb,
                    related=related(_route_span(m), f"used by {_name(m)}"),
                )
            elif not b.explicit and b.location is Location.QUERY:
                _implicit_query(ctx, m, b)
    _wire_names(ctx, m)
    has_file = any(is_file(b.field.shape) for b in m.request_fields)
    if not has_file:
        for b in m.request_fields:
            if b.explicit and b.location is Location.FORM:
                assert b.decorator is not None
                ctx.report(
                    "binding/form-without-file",
                    b.decorator.name_span,
                    field=b.field.name,
                    request=m.method.request.text() if m.method.request else "?",
                )


def _implicit_query(ctx: Ctx, m: MethodInfo, b: FieldBinding) -> None:
    """A field without a binding is read from the query for GET, DELETE, HEAD and OPTIONS."""
    if b.field.shape.kind is None:
        return
    reason = binding_type_problem("query", b.field.shape)
    if reason:
        ctx.report(
            "binding/type",
            b.field.field.name_span,
            field=b.field.name,
            type=b.field.field.type.text(),
            binding=f"travel in the query (where {m.verb} reads unbound fields)",
            reason=f"{reason}; use a body verb or another request type",
            related=related(_route_span(m), f"used by {_name(m)}"),
        )


def _wire_names(ctx: Ctx, m: MethodInfo) -> None:
    seen: dict[tuple[Location, str], FieldBinding] = {}
    for b in m.request_fields:
        if b.location in (Location.BODY, Location.NONE):
            continue
        wire = b.wire_name.lower() if b.location is Location.HEADER else b.wire_name
        prev = seen.setdefault((b.location, wire), b)
        if prev is not b:
            span = b.decorator.span if b.decorator else b.field.field.name_span
            ctx.report(
                "binding/duplicate-wire-name",
                span,
                field=prev.field.name,
                other=b.field.name,
                location=b.location.value,
                wire=b.wire_name,
                related=related(prev.field.field.name_span, f"{prev.field.name} is declared here"),
            )


# --------------------------------------------------------------------------- collisions


@lru_cache(maxsize=16384)
def _segments(route: str) -> tuple[str, ...]:
    """`*` for a `{var}`, `**` for a `{var...}`, the literal otherwise."""
    out = []
    for s in route.strip("/").split("/") if route != "/" else ():
        if s.startswith("{") and s.endswith("}"):
            out.append("**" if s.endswith("...}") else "*")
        else:
            out.append(s)
    return tuple(out)


def _compare_paths(a: tuple[str, ...], b: tuple[str, ...]) -> str:
    """Go ServeMux path relationship: equivalent, more-specific, more-general, overlaps, disjoint."""
    rel = "equivalent"
    i = 0
    while i < len(a) and i < len(b) and a[i] != "**" and b[i] != "**":
        x, y = a[i], b[i]
        if x != "*" and y != "*":
            if x != y:
                return "disjoint"
        elif x == "*" and y != "*":
            rel = _combine(rel, "more-general")
        elif y == "*" and x != "*":
            rel = _combine(rel, "more-specific")
        i += 1
    ra, rb = a[i:], b[i:]
    if not ra and not rb:
        return rel
    if ra == ("**",) and rb == ("**",):
        return rel
    if ra and ra[0] == "**":
        return _combine(rel, "more-general")
    if rb and rb[0] == "**":
        return _combine(rel, "more-specific")
    return "disjoint"


def _combine(r1: str, r2: str) -> str:
    if "disjoint" in (r1, r2):
        return "disjoint"
    if r1 == "equivalent":
        return r2
    if r2 == "equivalent" or r1 == r2:
        return r1
    return "overlaps"


def _method_rel(a: str, b: str) -> str | None:
    if a == b:
        return "equivalent"
    if (a, b) == ("HEAD", "GET"):
        return "more-specific"
    if (a, b) == ("GET", "HEAD"):
        return "more-general"
    return None


def conflicts(a: MethodInfo, b: MethodInfo) -> bool:
    mrel = _method_rel(a.verb, b.verb)
    if mrel is None:
        return False
    prel = _compare_paths(_segments(a.full_route), _segments(b.full_route))
    if prel == "disjoint":
        return False
    return _combine(mrel, prel) in ("equivalent", "overlaps")


def _collisions(ctx: Ctx, methods: tuple[MethodInfo, ...]) -> None:
    """Compare only routes that can match one request: split by segment count (wildcard
    routes aside), then segment by segment by literal, a variable joining every branch."""
    reported: set[int] = set()
    by_len: dict[int, list[tuple[tuple[str, ...], MethodInfo]]] = defaultdict(list)
    wild: list[MethodInfo] = []
    for m in methods:
        segs = _segments(m.full_route)
        if "**" in segs:
            wild.append(m)
        else:
            by_len[len(segs)].append((segs, m))
    for group in by_len.values():
        _partition(ctx, group, 0, reported)
    seen: set[int] = set()
    for a in wild:
        seen.add(id(a))
        for b in methods:
            if id(b) not in seen:
                _check_pair(ctx, a, b, reported)


def _partition(ctx: Ctx, group: list[tuple[tuple[str, ...], MethodInfo]], i: int, reported: set[int]) -> None:
    if len(group) < 2:
        return
    if i >= len(group[0][0]):
        for x, (_, a) in enumerate(group):
            for _, b in group[x + 1 :]:
                _check_pair(ctx, a, b, reported)
        return
    literal: dict[str, list[tuple[tuple[str, ...], MethodInfo]]] = defaultdict(list)
    variable: list[tuple[tuple[str, ...], MethodInfo]] = []
    for item in group:
        (variable if item[0][i] == "*" else literal[item[0][i]]).append(item)
    if not variable:
        for bucket in literal.values():
            _partition(ctx, bucket, i + 1, reported)
        return
    if len(literal) <= 1:
        _partition(ctx, group, i + 1, reported)
        return
    _partition(ctx, variable, i + 1, reported)
    for bucket in literal.values():
        _partition(ctx, bucket, i + 1, reported)
        for _, a in variable:
            for _, b in bucket:
                _check_pair(ctx, a, b, reported)


def _check_pair(ctx: Ctx, a: MethodInfo, b: MethodInfo, reported: set[int]) -> None:
    if not conflicts(a, b):
        return
    later, earlier = (b, a) if _pos(a) <= _pos(b) else (a, b)
    if id(later) not in reported:
        reported.add(id(later))
        _report_collision(ctx, later, earlier)


def _pos(m: MethodInfo) -> tuple[str, int]:
    return (m.file.path if m.file else "", m.method.span.start_byte)


def _report_collision(ctx: Ctx, m: MethodInfo, other: MethodInfo) -> None:
    rel = related(_route_span(other), f"{_name(other)} is declared here")
    if (
        m.package == other.package
        and m.service == other.service
        and m.verb == other.verb
        and _segments(m.full_route) == _segments(other.full_route)
    ):
        ctx.report(
            "service/duplicate-route",
            _route_span(m),
            method=m.method.name,
            other=other.method.name,
            service=m.service,
            pattern=m.mux_pattern,
            related=rel,
        )
    else:
        ctx.report(
            "path/collision",
            _route_span(m),
            pattern=m.mux_pattern,
            method=_name(m),
            other_pattern=other.mux_pattern,
            other=_name(other),
            related=rel,
        )
