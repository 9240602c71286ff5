"""Schemathesis checks for kit's generated services, loaded by `st run` (SCHEMATHESIS_HOOKS).

Four built-in checks are replaced by narrower versions of themselves; each exclusion is one
the spec sanctions, or a request whose invalid value did not survive serialization (the
request on the wire is valid), named with its reason. Everything else schemathesis checks
is kept.
"""

from __future__ import annotations

import base64
import json
import os
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

import schemathesis
from hypothesis import strategies as st
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


# kit's `@format` names that JSON Schema does not define and the document cannot state as a
# pattern (docs/ lists what each accepts): values a client would send, so that valid data is
# valid. phone, creditcard and hexcolor carry their regex as a pattern in the document.
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
KIT_FORMATS = {
    "cidr": st.tuples(st.ip_addresses(v=4), st.integers(0, 32)).map(lambda t: f"{t[0]}/{t[1]}"),
    "mac": st.binary(min_size=6, max_size=6).map(lambda b: ":".join(f"{x:02x}" for x in b)),
    "base64": st.binary(max_size=24).map(lambda b: base64.b64encode(b).decode()),
    "base64url": st.binary(max_size=24).map(lambda b: base64.urlsafe_b64encode(b).decode()),
    "json": _JSON.map(json.dumps),
}
for _name, _strategy in KIT_FORMATS.items():
    schemathesis.openapi.format(_name, _strategy)


def _operations(env: str) -> set[str]:
    return {op.strip() for op in os.environ.get(env, "").split(",") if op.strip()}


@schemathesis.check
def kit_status_code_conformance(ctx: Any, response: Any, case: Any) -> bool | None:
    """status_code_conformance, except a framework error at a status the document does not
    list: validation failures (400), refused media types (415), body limits (413), a deadline
    (504) and middleware refusals (401) are framework or middleware answers, kept out of the
    document by the spec. A status the document lists is checked against its schema, and a
    5xx by the server-error check, as usual."""
    listed = case.operation.responses.status_codes
    if str(response.status_code) not in listed and is_framework_error(response):
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
    if response.status_code == 413 and is_framework_error(response):
        return None
    if getattr(location, "name", "") == "COOKIE" and _mutated_cookie_not_sent(response, case):
        return None
    if getattr(location, "name", "") == "HEADER" and _empty_list_header_sent(response, case, description):
        return None
    files = _file_parts_sent(response, case)
    if not files:
        return builtin.negative_data_rejection(ctx, response, case)
    generated = case.body
    case.body = {**generated, **files}  # judge the body as sent (restored below)
    try:
        return builtin.negative_data_rejection(ctx, response, case)
    finally:
        case.body = generated


def _mutated_cookie_not_sent(response: Any, case: Any) -> bool:
    """A cookie parameter mutated to null, an object or an array that never reached the server:
    schemathesis drops a null cookie and sends an object's members as cookies of their own
    names (form style), so the request on the wire holds no invalid value of that parameter,
    only cookies the service ignores, as it ignores every cookie that is not its business."""
    header = _first(response.request.headers.get("Cookie")) or ""
    sent = {pair.split("=", 1)[0].strip() for pair in header.split(";")}  # names as the service reads them
    mutated = [name for name, v in (case.cookies or {}).items() if v is None or isinstance(v, (dict, list))]
    return bool(mutated) and all(name not in sent for name in mutated)


def _empty_list_header_sent(response: Any, case: Any, description: str) -> bool:
    """An array header whose mutated items schemathesis serialized to an empty value: on the
    wire that is an empty list, which the document allows (no `minItems`), not the mutation."""
    sent = {k.lower(): _first(v) for k, v in response.request.headers.items()}
    for param in case.operation.headers:
        schema = param.definition.get("schema") or {}
        value = sent.get(param.name.lower())
        named = param.name.lower() in description.lower()  # the mutated header, not another one
        if (
            named
            and schema.get("type") == "array"
            and not schema.get("minItems")
            and value is not None
            and not value.strip()
        ):
            return True
    return False


def _file_parts_sent(response: Any, case: Any) -> dict[str, Any]:
    """Binary (`file`) properties schemathesis mutated to a non-string and then sent as file
    parts (with a filename), mapped to the text of what was sent: a file part carries bytes,
    and any bytes are a valid binary string, so the mutation did not survive serialization.
    The built-in check then judges the rest of the body as sent, as it does for text parts."""
    if not _is_multipart(case) or not isinstance(case.body, dict):
        return {}
    body = response.request.body
    ctype = response.request.headers.get("Content-Type", "")
    if not isinstance(body, bytes):
        return {}
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {ctype}\r\n\r\n".encode() + body)
    sent: dict[str, list[str]] = {}
    for part in message.iter_parts():
        if part.get_filename() is not None:
            name = str(part.get_param("name", header="content-disposition"))
            sent.setdefault(name, []).append(bytes(part.get_payload(decode=True) or b"").decode(errors="replace"))
    out: dict[str, Any] = {}
    for name, contents in sent.items():
        value = case.body.get(name)
        if isinstance(value, (str, bytes)) or _binary_property(case, name) is None:
            continue
        out[name] = contents if _binary_property(case, name) == "array" else contents[0]
    return out


def _binary_property(case: Any, name: str) -> str | None:
    """ "single" or "array" when the multipart schema declares `name` a file (or files)."""
    body = case.operation.get_body_for_media_type(case.media_type)
    schema = body.raw_schema if body is not None else {}
    prop = (schema.get("properties") or {}).get(name) or {}
    if _is_file_schema(prop):
        return "single"
    if prop.get("type") == "array" and _is_file_schema(prop.get("items") or {}):
        return "array"
    return None


def _is_file_schema(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "string" and (schema.get("format") == "binary" or "contentMediaType" in schema)


def _is_multipart(case: Any) -> bool:
    return "multipart/form-data" in str(getattr(case, "media_type", "") or "")


@schemathesis.check
def kit_positive_data_acceptance(ctx: Any, response: Any, case: Any) -> bool | None:
    """positive_data_acceptance, except the framework's 413: `@maxBodySize` caps the body in
    bytes, which JSON Schema cannot say (spec, Limits: an over-cap body answers 413)."""
    if response.status_code == 413 and is_framework_error(response):
        return None
    if _multipart_parser_refusal(response) or _bytes_length_refusal(response, case):
        return None
    return builtin.positive_data_acceptance(ctx, response, case)


def _multipart_parser_refusal(response: Any) -> bool:
    """A multipart body Go's parser refuses (spec, Errors: "multipart body the parser refuses:
    400"): schemathesis writes part names with control characters into MIME headers, which
    the document's schema cannot forbid and no MIME parser takes."""
    if response.status_code != 400 or not is_framework_error(response):
        return False
    return bool(json.loads(response.content)["message"].startswith("body: invalid multipart form: malformed MIME"))


def _bytes_length_refusal(response: Any, case: Any) -> bool:
    """A length validator on a `bytes` field counts bytes and "is not advertised in OpenAPI"
    (spec, decorator rule 3): its refusal names a base64 (`contentEncoding`) member."""
    if response.status_code != 400 or not is_framework_error(response):
        return False
    message = json.loads(response.content)["message"]
    names = _base64_members(case.operation.schema.raw_schema)
    return any(message.startswith(f"{name}: length") or f": {name}: length" in message for name in names)


def _base64_members(doc: Any) -> set[str]:
    """Members that are `bytes`, inline or through a scalar component (`scalar Blob bytes`)."""
    components = (doc.get("components") or {}).get("schemas") or {}
    scalars = {f"#/components/schemas/{n}" for n, s in components.items() if s.get("contentEncoding") == "base64"}
    found: set[str] = set()
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in (node.get("properties") or {}).items():
                if isinstance(value, dict) and (
                    value.get("contentEncoding") == "base64" or value.get("$ref") in scalars
                ):
                    found.add(key)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found
