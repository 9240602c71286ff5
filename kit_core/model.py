"""The typed model of a design: what `lower.py` builds from the syntax tree.

Every stage after parsing (analyzer, generators, formatter, language server) reads these
values and never the text. All nodes are frozen; every node carries its source span.
Names are kept as written; resolution of references lives in the analyzer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Union

from kit_core.source import Span

# --------------------------------------------------------------------------- comments


@dataclass(frozen=True, slots=True)
class Comment:
    """One `//` line comment. ``text`` is the whole comment including the slashes."""

    text: str
    span: Span

    @property
    def body(self) -> str:
        """The comment text without `//` and one leading space."""
        body = self.text[2:]
        return body[1:] if body.startswith(" ") else body


@dataclass(frozen=True, slots=True)
class Trivia:
    """Comments attached to a node: the doc run directly above it and a trailing one."""

    doc: tuple[Comment, ...] = ()
    trailing: Comment | None = None

    @property
    def doc_text(self) -> str | None:
        if not self.doc:
            return None
        return "\n".join(c.body for c in self.doc)


NO_TRIVIA = Trivia()

# --------------------------------------------------------------------------- literals


class LiteralKind(str, Enum):
    STRING = "string"  # "..." ; value is the unescaped str
    RAW_STRING = "raw_string"  # `...` ; value is the str between backticks
    INT = "int"  # value is int (negative allowed)
    FLOAT = "float"  # value is float
    BOOL = "bool"
    NULL = "null"  # value is None
    IDENT = "ident"  # value is str, possibly qualified "pkg.Name"
    DURATION = "duration"  # value is nanoseconds (int)
    SIZE = "size"  # value is bytes (int)
    ARRAY = "array"  # value is None; see ``items``


@dataclass(frozen=True, slots=True)
class Literal:
    kind: LiteralKind
    text: str  # source spelling, kept verbatim by the formatter
    value: object
    span: Span
    items: tuple[Literal, ...] = ()  # only for ARRAY

    @property
    def is_string(self) -> bool:
        return self.kind in (LiteralKind.STRING, LiteralKind.RAW_STRING)

    @property
    def is_number(self) -> bool:
        return self.kind in (LiteralKind.INT, LiteralKind.FLOAT)


@dataclass(frozen=True, slots=True)
class Decorator:
    name: str
    args: tuple[Literal, ...]
    has_parens: bool  # `@flag()` vs `@flag`
    span: Span  # whole decorator
    name_span: Span  # the name after `@`
    trivia: Trivia = NO_TRIVIA


def find_decorator(decorators: tuple[Decorator, ...], name: str) -> Decorator | None:
    """The first decorator of that name, if any."""
    for d in decorators:
        if d.name == name:
            return d
    return None


def find_decorators(decorators: tuple[Decorator, ...], name: str) -> tuple[Decorator, ...]:
    return tuple(d for d in decorators if d.name == name)


def doc_of(decorators: tuple[Decorator, ...], trivia: Trivia) -> str | None:
    """The documentation of a node: `@doc` wins over the doc comment."""
    d = find_decorator(decorators, "doc")
    if d and d.args and d.args[0].is_string:
        return str(d.args[0].value)
    return trivia.doc_text


# --------------------------------------------------------------------------- types


@dataclass(frozen=True, slots=True)
class TypeRef:
    """A written type: `string`, `pkg.Name`, `Page<User>`, `map<string, T>`, `T[]?`.

    For a map, ``name`` is ``"map"``, ``package`` is None and ``args`` is (key, value).
    ``array_dims`` counts `[]` suffixes; ``optional`` is the trailing `?`.
    """

    name: str
    span: Span
    name_span: Span
    package: str | None = None
    args: tuple[TypeRef, ...] = ()
    array_dims: int = 0
    optional: bool = False

    @property
    def is_map(self) -> bool:
        return self.name == "map" and self.package is None

    @property
    def qualified(self) -> str:
        return f"{self.package}.{self.name}" if self.package else self.name

    def text(self) -> str:
        """Canonical spelling: `pkg.Name<A, B>[]?`, `map<K, V>`."""
        base = self.qualified
        if self.args:
            base += "<" + ", ".join(a.text() for a in self.args) + ">"
        return base + "[]" * self.array_dims + ("?" if self.optional else "")


# --------------------------------------------------------------------------- members


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type: TypeRef
    decorators: tuple[Decorator, ...]
    span: Span
    name_span: Span
    trivia: Trivia = NO_TRIVIA

    def decorator(self, name: str) -> Decorator | None:
        return find_decorator(self.decorators, name)


@dataclass(frozen=True, slots=True)
class Mixin:
    ref: TypeRef
    span: Span
    trivia: Trivia = NO_TRIVIA


Member = Union[Field, Mixin]


@dataclass(frozen=True, slots=True)
class TypeParam:
    name: str
    span: Span


# --------------------------------------------------------------------------- declarations


class Documented:
    """`decorator(name)` and `doc` of a declaration or method (its decorators and trivia)."""

    __slots__ = ()
    decorators: tuple[Decorator, ...]
    trivia: Trivia

    def decorator(self, name: str) -> Decorator | None:
        return find_decorator(self.decorators, name)

    @property
    def doc(self) -> str | None:
        return doc_of(self.decorators, self.trivia)


@dataclass(frozen=True, slots=True)
class DeclBase(Documented):
    name: str
    decorators: tuple[Decorator, ...]
    span: Span  # whole declaration including its decorators
    name_span: Span
    trivia: Trivia


@dataclass(frozen=True, slots=True)
class TypeDecl(DeclBase):
    params: tuple[TypeParam, ...]
    members: tuple[Member, ...]

    @property
    def fields(self) -> tuple[Field, ...]:
        return tuple(m for m in self.members if isinstance(m, Field))

    @property
    def mixins(self) -> tuple[Mixin, ...]:
        return tuple(m for m in self.members if isinstance(m, Mixin))


@dataclass(frozen=True, slots=True)
class EnumValue:
    name: str
    value: Literal | None  # None for a bare value (wire value = name)
    decorators: tuple[Decorator, ...]
    span: Span
    name_span: Span
    trivia: Trivia = NO_TRIVIA


@dataclass(frozen=True, slots=True)
class EnumDecl(DeclBase):
    values: tuple[EnumValue, ...]


@dataclass(frozen=True, slots=True)
class ScalarDecl(DeclBase):
    """`scalar Name prim @validators` ; ``decorators`` holds those above and after."""

    primitive: TypeRef


@dataclass(frozen=True, slots=True)
class ErrorDecl(DeclBase):
    category: str
    category_span: Span
    members: tuple[Member, ...]
    has_body: bool

    @property
    def fields(self) -> tuple[Field, ...]:
        return tuple(m for m in self.members if isinstance(m, Field))

    @property
    def mixins(self) -> tuple[Mixin, ...]:
        return tuple(m for m in self.members if isinstance(m, Mixin))


@dataclass(frozen=True, slots=True)
class MiddlewareDecl(DeclBase):
    pass


@dataclass(frozen=True, slots=True)
class PathSegment:
    """One `/`-separated segment: a literal word, `{var}` or `{var...}`."""

    text: str  # as written, e.g. "users", "{id}", "{rest...}"
    span: Span
    var: str | None = None  # variable name for `{var}` / `{var...}`
    wildcard: bool = False


@dataclass(frozen=True, slots=True)
class Route:
    text: str  # as written, e.g. "/users/{id}"
    segments: tuple[PathSegment, ...]  # empty for the root "/"
    span: Span


@dataclass(frozen=True, slots=True)
class Method(Documented):
    verb: str  # lower-case: get post put patch delete head options
    name: str
    route: Route | None  # None: route defaults to /<kebab-case name>
    request: TypeRef | None
    response: TypeRef | None
    decorators: tuple[Decorator, ...]
    span: Span
    name_span: Span
    trivia: Trivia = NO_TRIVIA
    body_comments: tuple[Comment, ...] = ()  # free comments inside the braces


@dataclass(frozen=True, slots=True)
class ServiceDecl(DeclBase):
    methods: tuple[Method, ...]
    extend: bool  # `extend service Name { ... }`


@dataclass(frozen=True, slots=True)
class EventDecl(DeclBase):
    payload: TypeRef | None  # None when the body names no payload
    payload_array: bool  # `payload T[]` (also visible as payload.array_dims == 1)


Decl = Union[TypeDecl, EnumDecl, ScalarDecl, ErrorDecl, MiddlewareDecl, ServiceDecl, EventDecl]


# --------------------------------------------------------------------------- files


@dataclass(frozen=True, slots=True)
class Import:
    path: str
    alias: str | None
    span: Span
    trivia: Trivia = NO_TRIVIA


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One `.kit` file.

    ``parse_diagnostics`` holds the syntax errors found while lowering (they are
    `kit_core.diagnostics.Diagnostic` values; typed loosely here to avoid a cycle).
    ``comments`` holds every comment of the file in order, for the formatter.
    """

    path: str  # as given to the parser (relative to the design root when loaded from one)
    package: str | None
    package_span: Span | None
    decorators: tuple[Decorator, ...]  # file-level: above `package`
    imports: tuple[Import, ...]
    declarations: tuple[Decl, ...]
    comments: tuple[Comment, ...]
    parse_diagnostics: tuple[object, ...] = ()
    package_trivia: Trivia = NO_TRIVIA
    source: str = field(default="", repr=False, compare=False)

    def decorator(self, name: str) -> Decorator | None:
        return find_decorator(self.decorators, name)
