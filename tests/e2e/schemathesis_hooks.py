"""Schemathesis checks for kit's generated services, loaded by `st run` (SCHEMATHESIS_HOOKS).

Three built-in checks are replaced by narrower versions of themselves; each exclusion is one
the spec sanctions, named with its reason. Everything else schemathesis checks is kept.
"""

from __future__ import annotations

import json
import os
from typing import Any

import schemathesis
from schemathesis import checks as core_checks
from schemathesis.specs.openapi import checks as builtin

# A framework error (spec "Framework error body"): JSON with one string member `message`,
# nosniff. "These responses are not in the OpenAPI document." The same shape is what the
# examples' middlewares answer (a 401 from an auth middleware is a middleware's response,
# which the document does not describe either).
FRAMEWORK_CONTENT_TYPE = "application/json; charset=utf-8"


def is_framework_error(response: Any) -> bool:
    headers = {k.lower(): v for k, v in response.headers.items()}
    ctype = _first(headers.get("content-type"))
    if ctype != FRAMEWORK_CONTENT_TYPE or _first(headers.get("x-content-type-options")) != "nosniff":
        return False
    try:
        body = json.loads(response.content)
    except ValueError:
        return False
    return isinstance(body, dict) and list(body) == ["message"] and isinstance(body["message"], str)


def _first(value: Any) -> str | None:
    return value[0] if isinstance(value, list) else value


def _operations(env: str) -> set[str]:
    return {op.strip() for op in os.environ.get(env, "").split(",") if op.strip()}


@schemathesis.check
def kit_status_code_conformance(ctx: Any, response: Any, case: Any) -> bool | None:
    """status_code_conformance, except a 4xx framework error at a status the document does not
    list: validation failures (400), refused media types (415), body limits (413) and
    middleware refusals (401) are framework or middleware answers, kept out of the document
    by the spec. A status the document lists is checked against its schema (and a 5xx by the
    server-error check) as usual."""
    listed = case.operation.responses.status_codes
    if 400 <= response.status_code < 500 and str(response.status_code) not in listed and is_framework_error(response):
        return None
    return builtin.status_code_conformance(ctx, response, case)


@schemathesis.check
def kit_not_a_server_error(ctx: Any, response: Any, case: Any) -> bool | None:
    """not_a_server_error, except on the operations named in KIT_ST_SERVER_ERRORS_BY_DESIGN:
    their logic answers a 5xx on purpose (an unknown error is 500, a deadline 504: spec, Errors
    / HTTP). Their responses are still checked against the document."""
    if case.operation.label in _operations("KIT_ST_SERVER_ERRORS_BY_DESIGN"):
        return None
    return core_checks.not_a_server_error(ctx, response, case)


@schemathesis.check
def kit_negative_data_rejection(ctx: Any, response: Any, case: Any) -> bool | None:
    """negative_data_rejection, except unexpected extra cookies: a cookie the design does not
    bind is ignored, as every HTTP server does with cookies that are not its business (the
    document's cookie parameters do not forbid others)."""
    meta = case.meta
    data = getattr(getattr(meta, "phase", None), "data", None)
    location = getattr(data, "parameter_location", None)
    description = getattr(data, "description", None) or ""
    if getattr(location, "name", "") == "COOKIE" and "unexpected properties" in description.lower():
        return None
    return builtin.negative_data_rejection(ctx, response, case)
