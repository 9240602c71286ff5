"""One OpenAPI operation per method, from `kit_core.semantics.MethodInfo`.

Bindings, chains (tags with `@group`, security), success status and errors come from the
shared HTTP model, so the document says what the generated handlers do. Every `@errors`
entry is kept: errors sharing a status become a `oneOf`. Framework errors (404, 405, 408,
413, 415 for a body that is not JSON, 431, 400 validation, 500...) are not listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

from kit_core.decorators import ERROR_CATEGORIES, flat_args, literal_text
from kit_core.semantics import ErrorRef, FieldBinding, Location, MethodInfo, is_optional
from kit_core.semantics.http import response_bindings

from .schemas import Schema, Schemas, is_wire, ref_schema

PARAM_IN = (Location.PATH, Location.QUERY, Location.HEADER, Location.COOKIE)
_WILDCARD_SUFFIX = "...}"


def openapi_path(info: MethodInfo, base: str) -> str:
    """The route without `openapi.basePath` (a server URL), `{rest...}` written `{rest}`."""
    route = info.full_route
    if base and route.startswith(base):
        route = route[len(base) :] or "/"
    return route.replace(_WILDCARD_SUFFIX, "}")


class Operations:
    def __init__(self, schemas: Schemas, base: str, operation_ids: dict[int, str]) -> None:
        self.schemas = schemas
        self.base = base
        self.operation_ids = operation_ids

    def build(self, info: MethodInfo) -> tuple[str, str, dict[str, Any]]:
        """(OpenAPI path, verb, operation object)."""
        path = openapi_path(info, self.base)
        op: dict[str, Any] = {}
        if info.tags:
            op["tags"] = list(info.tags)
        if info.summary:
            op["summary"] = info.summary
        if info.doc:
            op["description"] = info.doc
        op["operationId"] = self.operation_ids[id(info)]
        params = self._parameters(info, path)
        if params:
            op["parameters"] = params
        body = self._request_body(info)
        if body:
            op["requestBody"] = body
        op["responses"] = {**self._success(info), **self._errors(info.errors, framework_statuses(info))}
        if info.deprecated or (info.file is not None and info.file.decorator("deprecated")):
            op["deprecated"] = True
        if info.security:
            op["security"] = [{name: [] for name in req} for req in info.security]
        return path, info.method.verb, op

    # ------------------------------------------------------------------ request

    def _parameters(self, info: MethodInfo, path: str) -> list[dict[str, Any]]:
        params: list[dict[str, Any]] = []
        named: set[str] = set()
        for b in info.request_fields:
            if b.location not in PARAM_IN or (b.location is Location.PATH and b.wire_name in info.base_vars):
                continue
            if b.location is Location.PATH:
                named.add(b.wire_name)
            params.append(self._parameter(b))
        for var in info.path_vars:
            if var not in named and "{" + var + "}" in path:  # refused by the analyzer; kept valid
                params.append({"name": var, "in": "path", "required": True, "schema": {"type": "string"}})
        return params

    def _parameter(self, b: FieldBinding) -> dict[str, Any]:
        schema = self.schemas.field_schema(b.field)
        required = b.location is Location.PATH or not is_optional(b.field)
        p: dict[str, Any] = {"name": b.wire_name, "in": b.location.value, "required": required}
        for key in ("description", "deprecated"):
            if key in schema:
                p[key] = schema.pop(key)
        p["schema"] = schema
        return p

    def _request_body(self, info: MethodInfo) -> dict[str, Any] | None:
        if info.request is None:
            return None
        if info.is_multipart:
            parts = [b for b in info.request_fields if b.location in (Location.BODY, Location.FORM)]
            return self._multipart(parts)
        if not any(b.location is Location.BODY for b in info.request_fields):
            return None  # nothing in the body: no request body, no component
        schema = self.schemas.of(info.request)
        # An absent body decodes as `{}`: the body is required only when `{}` is refused.
        required = self.schemas.refuses_empty_object(schema)
        return {"required": required, "content": {"application/json": {"schema": schema}}}

    def _multipart(self, parts: Sequence[FieldBinding]) -> dict[str, Any]:
        props = {b.wire_name: self.schemas.field_schema(b.field) for b in parts}
        schema: Schema = {"type": "object", "properties": props}
        required = [b.wire_name for b in parts if not is_optional(b.field)]
        if required:
            schema["required"] = required
        media: dict[str, Any] = {"schema": schema}
        encoding = {}
        for b in parts:
            mimes = b.field.decorator("mimeTypes")
            if mimes:
                encoding[b.wire_name] = {"contentType": ", ".join(literal_text(a) for a in flat_args(mimes))}
        if encoding:
            media["encoding"] = encoding
        return {"required": True, "content": {"multipart/form-data": media}}

    # ------------------------------------------------------------------ responses

    def _success(self, info: MethodInfo) -> dict[str, Any]:
        if info.passthrough and not info.explicit_status:
            # the logic writes the answer itself: any status (`@status` names one)
            return {"default": {"description": "Answered by the method's own logic (@passthrough)"}}
        resp: dict[str, Any] = {"description": _phrase(info.status)}
        headers = self._headers(info.response_fields)
        if headers:
            resp["headers"] = headers
        body = info.status not in (204, 304) and self._has_body(info) and not info.passthrough
        if info.response is not None and body:
            resp["content"] = {"application/json": {"schema": self.schemas.of(info.response)}}
        return {str(info.status): resp}

    def _has_body(self, info: MethodInfo) -> bool:
        """A struct response with a JSON field, or an enum/scalar response."""
        if info.response is None:
            return False
        if info.response_fields:
            return info.has_response_body
        return info.response.primitive is not None

    def _headers(self, bindings: Sequence[FieldBinding]) -> dict[str, Any]:
        headers: dict[str, Any] = {}
        for b in bindings:
            if b.location is Location.HEADER:
                schema = self.schemas.field_schema(b.field)
                h: dict[str, Any] = {"schema": schema}
                if "description" in schema:
                    h["description"] = schema.pop("description")
                headers[b.wire_name] = h
        cookies = [b.wire_name for b in bindings if b.location is Location.COOKIE]
        if cookies:
            names = ", ".join(f"`{c}`" for c in cookies)
            headers["Set-Cookie"] = {
                "description": f"Sets the cookie(s) {names}",
                "schema": {"type": "string"},
            }
        return headers

    def _errors(self, errors: Sequence[ErrorRef], framework: frozenset[int]) -> dict[str, Any]:
        by_status: dict[int, list[ErrorRef]] = {}
        for e in errors:
            by_status.setdefault(e.status or 500, []).append(e)
        return {str(s): self._error_response(errs, s in framework) for s, errs in sorted(by_status.items())}

    def _error_response(self, errs: list[ErrorRef], framework: bool) -> dict[str, Any]:
        refs: list[Schema] = []
        headers: dict[str, Any] = {}
        messages: list[str] = []
        for e in errs:
            name = self.schemas.names.decl(e.package, e.name)
            self.schemas.component(name, lambda e=e: self.schemas.error_schema(e.decl, e.package))  # type: ignore[misc]
            refs.append(ref_schema(name))
            fields = self.schemas.index.fields(e.decl, e.package)
            headers.update(self._headers(response_bindings([f for f in fields if not is_wire(f)])))
            category = ERROR_CATEGORIES.get(e.decl.category)
            messages.append(e.decl.doc or (category.message if category else e.name))
        if framework:
            messages.append(FRAMEWORK_ERROR_DOC)
        resp: dict[str, Any] = {"description": "; ".join(messages)}
        if headers:
            resp["headers"] = headers
        if framework:
            # anyOf, not oneOf: a typed error without body fields ({code, message}) also
            # matches the framework's {message}.
            schema: Schema = {"anyOf": [*refs, framework_error_schema()]}
        else:
            schema = refs[0] if len(refs) == 1 else {"oneOf": refs}
        resp["content"] = {"application/json": {"schema": schema}}
        return resp


FRAMEWORK_ERROR_DOC = "or an error answered by the framework itself, `{message}`"


def framework_error_schema() -> Schema:
    """The framework's error body (spec "Framework error body"), inlined so that no design name
    can collide with it."""
    return {
        "type": "object",
        "description": "Error answered by the framework (validation, limits, unknown errors)",
        "properties": {"message": {"type": "string"}},
        "required": ["message"],
    }


def framework_statuses(info: MethodInfo) -> frozenset[int]:
    """Statuses the framework itself may answer on this method (spec, Errors / HTTP): 500 for an
    unknown error, a panic or an unencodable response and 504 for a deadline error, on every
    method; 400 where a request is decoded or bound; 408 and 413 where a body is read; 415
    where it must be JSON. A declared error with one of these statuses shares it."""
    statuses = {500, 504}
    if info.request is not None and not info.passthrough:
        statuses.add(400)
        if info.has_request_body:
            statuses.update((408, 413))
            if not info.is_multipart:
                statuses.add(415)
    return frozenset(statuses)


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Success"
