"""Security schemes (spec "Authentication" 1-3, dsl-facts §4.2).

The manifest's `openapi.securitySchemes` become `components.securitySchemes` (the analyzer
refuses a `@security` name that is not among them, also when none is declared).
A scheme missing a field its type needs stops the run, naming the scheme and the field:
the analyzer reports it as `openapi/security-scheme` (it can reuse `scheme_problems`);
the generator raises `SchemeError` if it is ever reached with such a scheme.
"""

from __future__ import annotations

from typing import Any

from kit_core.manifest_keys import FLOW_URLS, SCHEME_TYPES


def scheme_problems(name: str, scheme: Any) -> list[str]:
    """The missing fields of one scheme, as dotted paths (`flows.password.tokenUrl`)."""
    if not isinstance(scheme, dict) or not scheme.get("type"):
        return ["type"]
    kind = scheme["type"]
    if kind == "oauth2":
        return _oauth2_problems(scheme.get("flows"))
    return [f for f in SCHEME_TYPES.get(kind, ()) if not scheme.get(f)]


def _oauth2_problems(flows: Any) -> list[str]:
    if not isinstance(flows, dict) or not flows:
        return ["flows"]
    out: list[str] = []
    for flow, urls in FLOW_URLS.items():
        body = flows.get(flow)
        if body is None:
            continue
        out += [f"flows.{flow}.{u}" for u in urls if not (isinstance(body, dict) and body.get(u))]
    return out


class SchemeError(ValueError):
    """Raised by the generator when the check stage was skipped and a scheme is incomplete."""


def security_schemes(manifest: Any) -> dict[str, Any]:
    declared = manifest.openapi.security_schemes or {}
    problems = [f"security scheme {n} needs {f}" for n in sorted(declared) for f in scheme_problems(n, declared[n])]
    if problems:
        raise SchemeError("; ".join(problems))
    return {name: _complete(declared[name]) for name in sorted(declared)}


def _complete(scheme: dict[str, Any]) -> dict[str, Any]:
    """OpenAPI requires `scopes` on every oauth2 flow; the manifest may leave it out."""
    out = dict(scheme)
    if out.get("type") == "oauth2" and isinstance(out.get("flows"), dict):
        out["flows"] = {k: {"scopes": {}, **v} if isinstance(v, dict) else v for k, v in out["flows"].items()}
    return out
