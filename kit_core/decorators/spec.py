"""The shape of one decorator entry: sites, parameters, role, validator family, checks.

Everything any stage needs to know about a decorator is a field of `DecoratorSpec`; the
table itself lives in `kit_core.decorators.table`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from kit_core.model import Decorator, Literal, LiteralKind
from kit_core.source import Span


class Site(StrEnum):
    """Where a decorator may be written (the spec's site names)."""

    FILE = "file"
    TYPE = "type"
    FIELD = "field"
    ENUM = "enum"
    ENUM_VALUE = "enumValue"
    ERROR = "error"
    ERROR_FIELD = "errorField"
    SCALAR = "scalar"
    SERVICE = "service"
    EXTEND_SERVICE = "extendService"
    METHOD = "method"
    MIDDLEWARE = "middleware"
    EVENT = "event"


SITE_LABELS: dict[Site, str] = {
    Site.FILE: "a file (above `package`)",
    Site.TYPE: "a type",
    Site.FIELD: "a field",
    Site.ENUM: "an enum",
    Site.ENUM_VALUE: "an enum value",
    Site.ERROR: "an error",
    Site.ERROR_FIELD: "an error body field",
    Site.SCALAR: "a scalar",
    Site.SERVICE: "a service",
    Site.EXTEND_SERVICE: "an `extend service` block",
    Site.METHOD: "a method",
    Site.MIDDLEWARE: "a middleware",
    Site.EVENT: "an event",
}


class ArgKind(StrEnum):
    """What one argument may be written as."""

    STRING = "string"  # "..." or `...`
    INT = "int"
    NUMBER = "number"  # int or float, signed
    BOOL = "bool"
    NULL = "null"
    IDENT = "ident"  # bare identifier, possibly `pkg.Name`
    DURATION = "duration"  # 5s, 100ms; a bare int counts as seconds
    SIZE = "size"  # 2MB, 8KB; a bare int counts as bytes
    ARRAY = "array"  # [a, b, ...]


_ACCEPTS: dict[ArgKind, frozenset[LiteralKind]] = {
    ArgKind.STRING: frozenset({LiteralKind.STRING, LiteralKind.RAW_STRING}),
    ArgKind.INT: frozenset({LiteralKind.INT}),
    ArgKind.NUMBER: frozenset({LiteralKind.INT, LiteralKind.FLOAT}),
    ArgKind.BOOL: frozenset({LiteralKind.BOOL}),
    ArgKind.NULL: frozenset({LiteralKind.NULL}),
    ArgKind.IDENT: frozenset({LiteralKind.IDENT}),
    ArgKind.DURATION: frozenset({LiteralKind.DURATION, LiteralKind.INT}),
    ArgKind.SIZE: frozenset({LiteralKind.SIZE, LiteralKind.INT}),
    ArgKind.ARRAY: frozenset({LiteralKind.ARRAY}),
}


def kind_accepts(kind: ArgKind, lit: Literal) -> bool:
    """Whether a literal is written in a form this argument kind accepts."""
    return lit.kind in _ACCEPTS[kind]


class Role(StrEnum):
    """What a decorator is for; generators and the formatter group decorators by it."""

    DOC = "doc"  # documentation only (@doc @deprecated @example @summary @version)
    VALIDATOR = "validator"  # a per-field value check (@length, @gte, ...)
    CROSS_FIELD = "cross-field"  # @requiresOneOf @mutuallyExclusive
    FIELD_OPTION = "field-option"  # @nullable @default @sensitive @json
    BINDING = "binding"  # @body @path @query @header @cookie @form
    ROUTING = "routing"  # @prefix @group
    CHAIN = "chain"  # inherited and appended lists: @middlewares @tags @security
    IGNORE = "ignore"  # @ignoreMiddleware @ignoreSecurity @ignoreTags
    OPERATION = "operation"  # @operationId @status @errors @passthrough @timeout @maxBodySize
    EVENT = "event"  # @contract


class Family(StrEnum):
    """The primitive family a validator applies to (decorator rule 1)."""

    STRING = "string"  # string, bytes and scalars over them
    NUMBER = "number"  # int/uint/float widths and scalars over them
    ARRAY = "array"  # arrays and maps (element count)
    FILE = "file"  # `file` fields bound with @form


class RefKind(StrEnum):
    """What an identifier argument must name (unknown -> `decorator/ref`)."""

    MIDDLEWARE = "middleware"
    ERROR = "error"
    FIELD = "field"
    SCHEME = "security scheme"
    ENUM_VALUE = "enum value"
    FORMAT = "format"


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    kinds: tuple[ArgKind, ...]
    doc: str
    optional: bool = False
    refers: RefKind | None = None

    @property
    def label(self) -> str:
        kinds = " | ".join(k.value for k in self.kinds)
        return f"{self.name}{'?' if self.optional else ''}: {kinds}"


@dataclass(frozen=True, slots=True)
class ArgProblem:
    """An invalid argument value found by a check (reported as `decorator/argvalue`)."""

    span: Span
    message: str


ArgCheck = Callable[[Decorator], Iterable[ArgProblem]]


@dataclass(frozen=True, slots=True)
class DecoratorSpec:
    """One decorator of the closed set.

    ``params``: positional parameters; when ``variadic`` the last one repeats and the
    decorator also accepts a single array literal holding the items. ``family``: the
    primitive family of a validator (None for non-validators). ``checks``: argument value
    checks run after the argument kinds are known to be right. ``binding`` names the wire
    location of a binding decorator; ``clears`` names the chain an `@ignore*` clears.
    """

    name: str
    summary: str
    doc: str
    sites: frozenset[Site]
    role: Role
    params: tuple[Param, ...] = ()
    variadic: bool = False
    repeatable: bool = False
    family: Family | None = None
    checks: tuple[ArgCheck, ...] = ()
    binding: str | None = None
    clears: str | None = None
    ordered: bool = False  # (min, max) arguments: min > max is `decorator/range`
    example: str = ""
    min_args: int | None = None  # computed in __post_init__ when None
    extra: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.min_args is None:
            required = sum(1 for p in self.params if not p.optional)
            object.__setattr__(self, "min_args", required)

    @property
    def is_flag(self) -> bool:
        """Takes no arguments at all (`@positive`); `()` after it is a warning."""
        return not self.params

    @property
    def is_validator(self) -> bool:
        return self.role is Role.VALIDATOR

    @property
    def signature(self) -> str:
        """`@length(min: int, max: int)`, `@middlewares(names: ident...)`, `@positive`."""
        if not self.params:
            return f"@{self.name}"
        parts = [p.label for p in self.params]
        if self.variadic:
            parts[-1] += "..."
        return f"@{self.name}(" + ", ".join(parts) + ")"

    def param_for(self, index: int) -> Param | None:
        """The parameter an argument position fills (the last one repeats when variadic)."""
        if index < len(self.params):
            return self.params[index]
        if self.variadic and self.params:
            return self.params[-1]
        return None

    def hover(self) -> str:
        """Markdown for hover and completion documentation."""
        sites = ", ".join(SITE_LABELS[s] for s in sorted(self.sites, key=lambda s: list(Site).index(s)))
        lines = [f"```kit\n{self.signature}\n```", self.doc, f"**Sites:** {sites}"]
        if self.params:
            args = [f"- `{p.label}` — {p.doc}" for p in self.params]
            if self.variadic:
                args.append("- also accepts one array literal holding the items")
            lines.append("**Arguments:**\n" + "\n".join(args))
        if self.example:
            lines.append(f"**Example:** `{self.example}`")
        return "\n\n".join(lines)
