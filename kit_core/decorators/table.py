"""The closed decorator set of the spec, one entry each. Nothing about a decorator is
written anywhere else: the analyzer, generators, formatter and language server read this."""

from __future__ import annotations

from kit_core.decorators import checks as c
from kit_core.decorators.spec import ArgKind as K
from kit_core.decorators.spec import DecoratorSpec, Family, Param, RefKind, Role, Site

S = Site
_VALIDATOR_SITES = frozenset({S.FIELD, S.ERROR_FIELD, S.SCALAR})
_FIELD_LIKE = frozenset({S.FIELD, S.ERROR_FIELD})
_CHAIN_SITES = frozenset({S.SERVICE, S.EXTEND_SERVICE, S.METHOD})
_METHOD = frozenset({S.METHOD})
_FIELD = frozenset({S.FIELD})

_LITERALS = (K.STRING, K.NUMBER, K.BOOL, K.NULL)


def _p(name: str, *kinds: K, doc: str, optional: bool = False, refers: RefKind | None = None) -> Param:
    return Param(name, kinds, doc, optional, refers)


def _validator(
    name: str, family: Family, summary: str, doc: str, params: tuple[Param, ...] = (), **kw: object
) -> DecoratorSpec:
    return DecoratorSpec(name, summary, doc, _VALIDATOR_SITES, Role.VALIDATOR, params, family=family, **kw)  # type: ignore[arg-type]


def _binding(name: str, where: str, sites: frozenset[Site] = _FIELD) -> DecoratorSpec:
    return DecoratorSpec(
        name,
        f"bind the field to the request {where}",
        f"Binds the field to the {where} instead of the default location (the JSON body for POST, PUT "
        f"and PATCH, the query for GET, DELETE, HEAD and OPTIONS). The optional argument is the wire "
        f"name; without it the field's JSON key is used. Bound fields are not part of the JSON body.",
        sites,
        Role.BINDING,
        (_p("name", K.STRING, doc=f"wire name of the {where} value", optional=True),),
        binding=name,
        checks=(c.non_empty, c.wire_name),
        example=f'@{name}("{_EXAMPLE_WIRE[name]}")',
    )


_EXAMPLE_WIRE = {
    "body": "user",
    "path": "id",
    "query": "page",
    "header": "X-Request-Id",
    "cookie": "session",
    "form": "avatar",
}


def _ignore(name: str, chain: str) -> DecoratorSpec:
    return DecoratorSpec(
        name,
        f"drop the inherited @{chain} of the service",
        f"Clears the @{chain} inherited from the service (primary and extend block) before the "
        f"method's own @{chain} are appended. Takes no arguments.",
        _METHOD,
        Role.IGNORE,
        clears=chain,
        example=f"@{name}",
    )


DECORATORS: tuple[DecoratorSpec, ...] = (
    # ------------------------------------------------------------------ documentation
    DecoratorSpec(
        "doc",
        "documentation text",
        "Documentation for OpenAPI and for Go comments. A doc comment (`//` lines directly above) "
        "has the same effect; when both exist `@doc` wins.",
        frozenset(
            {
                S.FILE,
                S.TYPE,
                S.FIELD,
                S.SERVICE,
                S.EXTEND_SERVICE,
                S.METHOD,
                S.ENUM,
                S.ENUM_VALUE,
                S.ERROR,
                S.ERROR_FIELD,
                S.SCALAR,
                S.MIDDLEWARE,
                S.EVENT,
            }
        ),
        Role.DOC,
        (_p("text", K.STRING, doc="the documentation, Markdown allowed"),),
        example='@doc("A registered user")',
    ),
    DecoratorSpec(
        "deprecated",
        "mark as deprecated",
        "Marks the element deprecated: `deprecated: true` in OpenAPI and a `Deprecated:` Go comment. "
        "The optional string says what to use instead.",
        frozenset(
            {
                S.FILE,
                S.TYPE,
                S.FIELD,
                S.SERVICE,
                S.EXTEND_SERVICE,
                S.METHOD,
                S.ENUM_VALUE,
                S.ERROR_FIELD,
                S.MIDDLEWARE,
                S.EVENT,
            }
        ),
        Role.DOC,
        (_p("note", K.STRING, doc="what to use instead", optional=True),),
        example='@deprecated("use ListUsersV2")',
    ),
    DecoratorSpec(
        "example",
        "example value for OpenAPI",
        "An example value shown in the OpenAPI document: a string, number, bool or null literal, or "
        "an array of them. Object literals are not accepted.",
        _FIELD,
        Role.DOC,
        (_p("value", *_LITERALS, K.ARRAY, doc="the example literal"),),
        example='@example("ada@example.com")',
    ),
    DecoratorSpec(
        "version",
        "OpenAPI document version of the file",
        "Overrides the OpenAPI document version (`openapi.version` of the manifest) for this file. "
        "The title comes only from the manifest's `openapi.title`.",
        frozenset({S.FILE}),
        Role.DOC,
        (_p("version", K.STRING, doc='version string, e.g. "2.1.0"'),),
        checks=(c.non_empty,),
        example='@version("2.0.0")',
    ),
    DecoratorSpec(
        "summary",
        "OpenAPI summary of the operation",
        "A one-line summary of the operation in the OpenAPI document (`@doc` becomes its description).",
        _METHOD,
        Role.DOC,
        (_p("text", K.STRING, doc="one-line summary"),),
        example='@summary("Create a user")',
    ),
    # ------------------------------------------------------------------ cross-field
    DecoratorSpec(
        "requiresOneOf",
        "at least one of the listed fields is present",
        "Validation fails unless at least one of the listed fields is present. Each listed field "
        "must be optional (`?`) or `@nullable`, and not bound, defaulted, sensitive or a collection.",
        frozenset({S.TYPE}),
        Role.CROSS_FIELD,
        (_p("fields", K.IDENT, doc="names of fields of this type", refers=RefKind.FIELD),),
        variadic=True,
        example="@requiresOneOf(email, phone)",
    ),
    DecoratorSpec(
        "mutuallyExclusive",
        "at most one of the listed fields is present",
        "Validation fails when more than one of the listed fields is present. Each listed field must "
        "be optional (`?`) or `@nullable`, and not bound, defaulted, sensitive or a collection.",
        frozenset({S.TYPE}),
        Role.CROSS_FIELD,
        (_p("fields", K.IDENT, doc="names of fields of this type", refers=RefKind.FIELD),),
        variadic=True,
        example="@mutuallyExclusive(card, iban)",
    ),
    # ------------------------------------------------------------------ string validators
    _validator(
        "length",
        Family.STRING,
        "length within [min, max]",
        "The value's length lies in [min, max], both inclusive. Strings count Unicode characters, "
        "bytes count bytes (and are not advertised in OpenAPI).",
        (_p("min", K.INT, doc="smallest allowed length"), _p("max", K.INT, doc="largest allowed length")),
        checks=(c.non_negative,),
        ordered=True,
        example="@length(1, 64)",
    ),
    _validator(
        "minLength",
        Family.STRING,
        "length at least n",
        "The value's length is at least n (Unicode characters for strings, bytes for bytes).",
        (_p("n", K.INT, doc="smallest allowed length"),),
        checks=(c.non_negative,),
        example="@minLength(8)",
    ),
    _validator(
        "maxLength",
        Family.STRING,
        "length at most n",
        "The value's length is at most n (Unicode characters for strings, bytes for bytes).",
        (_p("n", K.INT, doc="largest allowed length"),),
        checks=(c.non_negative,),
        example="@maxLength(280)",
    ),
    _validator(
        "pattern",
        Family.STRING,
        "matches an RE2 regex",
        "The value matches the regular expression (Go RE2 syntax: no lookaround, no "
        "backreferences). Raw strings (`` `...` ``) avoid escaping backslashes.",
        (_p("regex", K.STRING, doc="RE2 regular expression"),),
        checks=(c.regex,),
        example="@pattern(`^[a-z0-9-]+$`)",
    ),
    _validator(
        "format",
        Family.STRING,
        "named format check",
        "The value has a named format: email, url, uri, uuid, datetime, date, time, phone, ipv4, "
        "ipv6, cidr, mac, creditcard, base64, base64url, hexcolor or json. Write the name bare.",
        (_p("name", K.IDENT, K.STRING, doc="format name", refers=RefKind.FORMAT),),
        checks=(c.format_name,),
        example="@format(email)",
    ),
    # ------------------------------------------------------------------ number validators
    _validator(
        "gte",
        Family.NUMBER,
        "value >= n",
        "The value is greater than or equal to n.",
        (_p("n", K.NUMBER, doc="inclusive lower bound"),),
        example="@gte(0)",
    ),
    _validator(
        "gt",
        Family.NUMBER,
        "value > n",
        "The value is strictly greater than n.",
        (_p("n", K.NUMBER, doc="exclusive lower bound"),),
        example="@gt(0)",
    ),
    _validator(
        "lte",
        Family.NUMBER,
        "value <= n",
        "The value is less than or equal to n.",
        (_p("n", K.NUMBER, doc="inclusive upper bound"),),
        example="@lte(100)",
    ),
    _validator(
        "lt",
        Family.NUMBER,
        "value < n",
        "The value is strictly less than n.",
        (_p("n", K.NUMBER, doc="exclusive upper bound"),),
        example="@lt(1)",
    ),
    _validator(
        "range",
        Family.NUMBER,
        "value within [min, max]",
        "The value lies in [min, max], both bounds inclusive.",
        (_p("min", K.NUMBER, doc="inclusive lower bound"), _p("max", K.NUMBER, doc="inclusive upper bound")),
        ordered=True,
        example="@range(1, 5)",
    ),
    _validator(
        "positive",
        Family.NUMBER,
        "value > 0",
        "The value is greater than zero. A flag: no arguments.",
        example="@positive",
    ),
    _validator(
        "negative",
        Family.NUMBER,
        "value < 0",
        "The value is less than zero. A flag: no arguments.",
        example="@negative",
    ),
    _validator(
        "multipleOf",
        Family.NUMBER,
        "value is a multiple of n",
        "The value is an exact multiple of n (n > 0).",
        (_p("n", K.NUMBER, doc="the divisor, greater than 0"),),
        checks=(c.positive,),
        example="@multipleOf(5)",
    ),
    # ------------------------------------------------------------------ array validators
    _validator(
        "minItems",
        Family.ARRAY,
        "at least n elements",
        "The array or map holds at least n elements. `@minItems(0)` checks nothing.",
        (_p("n", K.INT, doc="smallest element count"),),
        checks=(c.non_negative,),
        example="@minItems(1)",
    ),
    _validator(
        "maxItems",
        Family.ARRAY,
        "at most n elements",
        "The array or map holds at most n elements.",
        (_p("n", K.INT, doc="largest element count"),),
        checks=(c.non_negative,),
        example="@maxItems(100)",
    ),
    _validator(
        "uniqueItems",
        Family.ARRAY,
        "array elements are distinct",
        "The array's elements are pairwise distinct (arrays only, not maps). Elements must be "
        "comparable: no optional or `@nullable` members, `file`, `bytes`, `any`, arrays, maps or "
        "`datetime`.",
        example="@uniqueItems",
    ),
    # ------------------------------------------------------------------ file validators
    _validator(
        "maxSize",
        Family.FILE,
        "upload size cap",
        "Caps the size of an uploaded file (a `file` field bound with `@form`). A bare integer is "
        "a byte count; KB, MB and GB are binary units.",
        (_p("size", K.SIZE, doc="largest file size, e.g. 2MB"),),
        checks=(c.positive,),
        example="@maxSize(2MB)",
    ),
    _validator(
        "mimeTypes",
        Family.FILE,
        "allowed content types of an upload",
        "The uploaded file's content type is one of the listed types; `type/*` ranges are allowed, "
        "parameters and case are ignored.",
        (_p("types", K.STRING, doc='content type such as "image/png" or "image/*"'),),
        variadic=True,
        checks=(c.mime_types,),
        example='@mimeTypes("image/png", "image/jpeg")',
    ),
    # ------------------------------------------------------------------ field options
    DecoratorSpec(
        "nullable",
        "accept an explicit JSON null",
        "The field accepts an explicit JSON `null`; the Go field is a pointer unless its type already "
        "holds nil. A flag: no arguments.",
        _FIELD_LIKE,
        Role.FIELD_OPTION,
        example="@nullable",
    ),
    DecoratorSpec(
        "default",
        "value used when the field is absent",
        "Pre-fills the field before decoding, which makes it optional. The value is a literal of the "
        "field's primitive, a bare enum value name, or an array literal. Not with a binding, and not on "
        "map, struct, generic, `file` or `datetime` fields; it must satisfy the field's validators.",
        _FIELD_LIKE,
        Role.FIELD_OPTION,
        (_p("value", *_LITERALS, K.IDENT, K.ARRAY, doc="the default value", refers=RefKind.ENUM_VALUE),),
        example="@default(20)",
    ),
    DecoratorSpec(
        "sensitive",
        "server-only field",
        "The field stays on the server: never on the wire and not in OpenAPI. It cannot carry "
        "validators, bindings, `@nullable` or `@default`, and no path variable may name it. A flag.",
        _FIELD_LIKE,
        Role.FIELD_OPTION,
        example="@sensitive",
    ),
    DecoratorSpec(
        "json",
        "JSON key of the field",
        "Sets the field's JSON key; the Go tag, OpenAPI and validation messages follow it. "
        '`@json("-")` is refused: mark server-only fields with `@sensitive`.',
        _FIELD,
        Role.FIELD_OPTION,
        (_p("key", K.STRING, doc="the JSON key"),),
        checks=(c.json_key,),
        example='@json("user_id")',
    ),
    # ------------------------------------------------------------------ bindings
    _binding("body", "JSON body"),
    _binding("path", "path variable"),
    _binding("query", "query string"),
    _binding("header", "header", _FIELD_LIKE),
    _binding("cookie", "cookie", _FIELD_LIKE),
    _binding("form", "multipart form"),
    # ------------------------------------------------------------------ services and routes
    DecoratorSpec(
        "prefix",
        "route prefix of the service",
        "Prefixes every route of the service (primary declaration only): the full route is "
        "`basePath + @prefix + method route`.",
        frozenset({S.SERVICE}),
        Role.ROUTING,
        (_p("path", K.STRING, doc='prefix such as "/users"'),),
        checks=(c.route_prefix,),
        example='@prefix("/users")',
    ),
    DecoratorSpec(
        "group",
        "output directory of the service",
        "Replaces the service-name directory of handlers, logic stubs and the routes file with this "
        "relative path, and adds it as an OpenAPI tag. Services may share a group; all of a group's "
        "services must be in one DSL package.",
        frozenset({S.SERVICE, S.EXTEND_SERVICE}),
        Role.ROUTING,
        (_p("dir", K.STRING, doc='relative directory such as "admin/users"'),),
        checks=(c.relative_dir,),
        example='@group("admin")',
    ),
    DecoratorSpec(
        "middlewares",
        "middleware chain",
        "Middlewares applied to the methods, outermost first. Service-level chains apply to every "
        "method; method-level ones append; repeats are dropped keeping the first.",
        _CHAIN_SITES,
        Role.CHAIN,
        (_p("names", K.IDENT, doc="declared middleware names", refers=RefKind.MIDDLEWARE),),
        variadic=True,
        repeatable=True,
        example="@middlewares(Auth, RateLimit)",
    ),
    DecoratorSpec(
        "tags",
        "OpenAPI tags",
        "OpenAPI tags of the operations. Service-level tags apply to every method; method-level ones "
        "append; repeats are dropped.",
        _CHAIN_SITES,
        Role.CHAIN,
        (_p("tags", K.STRING, K.IDENT, doc="tag names"),),
        variadic=True,
        repeatable=True,
        checks=(c.non_empty,),
        example='@tags("users", admin)',
    ),
    DecoratorSpec(
        "security",
        "OpenAPI security requirement",
        "Names security schemes of the manifest's `openapi.securitySchemes`: names in one decorator "
        "are AND-combined, several decorators are OR-combined. Documentation only: it enforces "
        "nothing (use `@middlewares` for that).",
        _CHAIN_SITES,
        Role.CHAIN,
        (_p("schemes", K.IDENT, doc="scheme names from the manifest", refers=RefKind.SCHEME),),
        variadic=True,
        repeatable=True,
        example="@security(bearer)",
    ),
    _ignore("ignoreMiddleware", "middlewares"),
    _ignore("ignoreSecurity", "security"),
    _ignore("ignoreTags", "tags"),
    # ------------------------------------------------------------------ operations
    DecoratorSpec(
        "operationId",
        "OpenAPI operationId",
        "Overrides the operation's OpenAPI operationId (default `<Service>_<Method>`, prefixed with the "
        "package when services of one name exist in several packages). It must be "
        "unique in the design.",
        _METHOD,
        Role.OPERATION,
        (_p("id", K.STRING, doc="the operationId"),),
        checks=(c.non_empty, c.no_spaces),
        example='@operationId("createUser")',
    ),
    DecoratorSpec(
        "status",
        "success status code",
        "The status written on success instead of the implicit one (201 for POST with a body, 200 "
        "with a body, 204 without). OpenAPI lists the same code.",
        _METHOD,
        Role.OPERATION,
        (_p("code", K.INT, doc="HTTP status code"),),
        checks=(c.http_status,),
        example="@status(202)",
    ),
    DecoratorSpec(
        "errors",
        "errors the method may return",
        "Declares the typed errors the logic may return; each becomes an OpenAPI response with the error's status.",
        _METHOD,
        Role.OPERATION,
        (
            _p(
                "errors",
                K.IDENT,
                doc="declared error names (`pkg.Name` for another package)",
                refers=RefKind.ERROR,
            ),
        ),
        variadic=True,
        repeatable=True,
        example="@errors(UserNotFound, EmailTaken)",
    ),
    DecoratorSpec(
        "passthrough",
        "raw request and response writer",
        "The logic receives the raw response writer and request: no decode, validation or encode step runs. A flag.",
        _METHOD,
        Role.OPERATION,
        example="@passthrough",
    ),
    DecoratorSpec(
        "timeout",
        "per-method handler deadline",
        "Deadline of the method's handler, overriding `server.handlerTimeout` (shorter or longer). "
        "The request context is cancelled; no status is written automatically. A bare integer counts "
        "as seconds.",
        _METHOD,
        Role.OPERATION,
        (_p("duration", K.DURATION, doc="e.g. 5s, 100ms, 2m"),),
        checks=(c.positive,),
        example="@timeout(5s)",
    ),
    DecoratorSpec(
        "maxBodySize",
        "request body cap",
        "Caps the request body: a larger `Content-Length` or a read past the cap answers 413. A bare "
        "integer is a byte count.",
        _METHOD,
        Role.OPERATION,
        (_p("size", K.SIZE, doc="e.g. 1MB, 8KB, 100"),),
        checks=(c.positive,),
        example="@maxBodySize(1MB)",
    ),
    # ------------------------------------------------------------------ events
    DecoratorSpec(
        "contract",
        "wire identity of the event",
        "The event's wire identity (subject). Default `<package>.<Event>`. Must be unique across the design.",
        frozenset({S.EVENT}),
        Role.EVENT,
        (_p("subject", K.STRING, doc='subject such as "orders.placed.v1"'),),
        example='@contract("orders.placed.v1")',
    ),
)

REMOVED: dict[str, str] = {
    "required": "fields are required unless their type carries `?`",
    "key": "an ordering key is an argument of the publish call",
    "consumerGroup": "the consumer group is an argument of the subscribe call",
    "consumeMiddlewares": "consumer middleware is set with bus.Use where the bus is built",
}
"""Decorators of earlier releases: using one is `decorator/removed` with this note."""
