"""Error categories (dsl-facts §2.7): `error <Category> <Name>` -> HTTP status and message."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ErrorCategory:
    name: str
    status: int
    message: str  # the default message: `Error()` and the body of an error with no JSON fields


ERROR_CATEGORIES: dict[str, ErrorCategory] = {
    c.name: c
    for c in (
        ErrorCategory("BadRequest", 400, "Bad request"),
        ErrorCategory("Unauthorized", 401, "Unauthorized"),
        ErrorCategory("PaymentRequired", 402, "Payment required"),
        ErrorCategory("Forbidden", 403, "Forbidden"),
        ErrorCategory("NotFound", 404, "Not found"),
        ErrorCategory("MethodNotAllowed", 405, "Method not allowed"),
        ErrorCategory("NotAcceptable", 406, "Not acceptable"),
        ErrorCategory("Conflict", 409, "Conflict"),
        ErrorCategory("Gone", 410, "Resource gone"),
        ErrorCategory("LengthRequired", 411, "Length required"),
        ErrorCategory("PreconditionFailed", 412, "Precondition failed"),
        ErrorCategory("PayloadTooLarge", 413, "Payload too large"),
        ErrorCategory("UnsupportedMediaType", 415, "Unsupported media type"),
        ErrorCategory("UnprocessableEntity", 422, "Unprocessable entity"),
        ErrorCategory("Locked", 423, "Resource locked"),
        ErrorCategory("TooManyRequests", 429, "Too many requests"),
        ErrorCategory("Internal", 500, "Internal server error"),
        ErrorCategory("NotImplemented", 501, "Not implemented"),
        ErrorCategory("BadGateway", 502, "Bad gateway"),
        ErrorCategory("ServiceUnavailable", 503, "Service unavailable"),
        ErrorCategory("GatewayTimeout", 504, "Gateway timeout"),
    )
}


def category_status(name: str) -> int | None:
    cat = ERROR_CATEGORIES.get(name)
    return cat.status if cat else None
