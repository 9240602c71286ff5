"""Authentication rules 1 and 3: `@security` names schemes declared in the manifest (an
unknown name is rejected, also when the manifest declares none; a lone file analysed
without a manifest is not checked); each scheme has the fields its type needs when the
OpenAPI document is written. Also the basePath format warning."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import yaml

from kit_core.analyzer.context import Ctx
from kit_core.analyzer.decorators import usable
from kit_core.analyzer.walk import SiteNode, decl_sites, file_sites
from kit_core.decorators import flat_args, literal_text
from kit_core.model import Decl, SourceFile
from kit_core.source import Span, file_span

SCHEME_TYPES = ("http", "apiKey", "oauth2", "openIdConnect", "mutualTLS")
_FLOW_URLS = {
    "implicit": ("authorizationUrl",),
    "password": ("tokenUrl",),
    "clientCredentials": ("tokenUrl",),
    "authorizationCode": ("authorizationUrl", "tokenUrl"),
}


def check_file(ctx: Ctx, file: SourceFile) -> None:
    check_header(ctx, file)
    for decl in file.declarations:
        check_decl(ctx, file, decl)


def check_header(ctx: Ctx, file: SourceFile) -> None:
    _check_sites(ctx, file_sites(file))


def check_decl(ctx: Ctx, file: SourceFile, decl: Decl) -> None:
    _check_sites(ctx, decl_sites(decl))


def _check_sites(ctx: Ctx, nodes: Iterable[SiteNode]) -> None:
    schemes = ctx.schemes
    if schemes is None:
        return
    for node in nodes:
        for d in node.decorators:
            if d.name != "security" or usable(d, node.site) is None:
                continue
            for lit in flat_args(d):
                name = literal_text(lit)
                if name not in schemes:
                    declared = f"declared: {', '.join(sorted(schemes))}" if schemes else "the manifest declares none"
                    ctx.report(
                        "decorator/ref",
                        lit.span,
                        name="security",
                        what="security scheme",
                        value=name,
                        hint=f" in openapi.securitySchemes - {declared}",
                    )


def check_design(ctx: Ctx) -> None:
    m = ctx.manifest
    if m is None:
        return
    _base_path(ctx)
    if m.output.openapi == "-":
        return
    span = m.key_spans.get("openapi.securitySchemes", file_span(m.path))
    names = scheme_name_spans(m.path)
    for name, scheme in sorted(m.openapi.security_schemes.items()):
        missing = scheme_problems(scheme)
        if missing:
            kind = scheme.get("type") if isinstance(scheme, dict) else None
            where = m.key_spans.get(f"openapi.securitySchemes.{name}") or names.get(name, span)
            ctx.report(
                "openapi/security-scheme", where, scheme=name, type=kind or "no type", field=" and ".join(missing)
            )


@lru_cache(maxsize=8)
def _scheme_spans_of(path: str, text: str) -> dict[str, Span]:
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return {}
    node = _child(_child(root, "openapi"), "securitySchemes")
    out: dict[str, Span] = {}
    if isinstance(node, yaml.MappingNode):
        for key, _ in node.value:
            sm, em = key.start_mark, key.end_mark
            out[str(key.value)] = Span(
                path, sm.index, em.index, sm.line, sm.column, em.line, em.column, sm.column, em.column
            )
    return out


def _child(node: yaml.Node | None, name: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == name:
                return value
    return None


def scheme_name_spans(path: str) -> dict[str, Span]:
    """Where each scheme name is written in the manifest (the Manifest keeps no span for
    entries of `openapi.securitySchemes`); empty when the file cannot be read."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        return {}
    return _scheme_spans_of(path, text)


def scheme_problems(scheme: object) -> list[str]:
    """The fields a scheme lacks (empty when the document can be written)."""
    if not isinstance(scheme, dict):
        return ["a mapping with a type"]
    kind = scheme.get("type")
    if kind not in SCHEME_TYPES:
        return [f"a type (one of {', '.join(SCHEME_TYPES)})"]
    required = {"http": ["scheme"], "apiKey": ["in", "name"], "openIdConnect": ["openIdConnectUrl"]}.get(kind, [])
    out = [f for f in required if not scheme.get(f)]
    if kind == "oauth2":
        out += _oauth_problems(scheme.get("flows"))
    return out


def _oauth_problems(flows: object) -> list[str]:
    if not isinstance(flows, dict) or not flows:
        return ["flows (implicit, password, clientCredentials or authorizationCode)"]
    out = []
    for flow, body in flows.items():
        for url in _FLOW_URLS.get(str(flow), ()):
            if not isinstance(body, dict) or not body.get(url):
                out.append(f"flows.{flow}.{url}")
    return out


def _base_path(ctx: Ctx) -> None:
    m = ctx.manifest
    assert m is not None
    base = m.openapi.base_path
    if not base:
        return
    reason = None
    if not base.startswith("/"):
        reason = "start with /"
    elif base != "/" and base.endswith("/"):
        reason = "not end with /"
    elif "//" in base:
        reason = "not contain //"
    if reason:
        ctx.warn(
            "path/base-format",
            m.key_spans.get("openapi.basePath", file_span(m.path)),
            path=base,
            reason=reason,
        )
