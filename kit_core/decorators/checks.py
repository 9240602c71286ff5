"""Argument value checks of the registry: each takes a decorator whose argument kinds are
already right and yields the values that are still invalid (`decorator/argvalue`).

Checks that need the rest of the design (does the middleware exist, does the field's type
take this validator) are the analyzer's; these look at the decorator alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction

from kit_core.decorators.formats import FORMATS
from kit_core.decorators.spec import ArgProblem
from kit_core.model import Decorator, Literal, LiteralKind
from kit_core.regex import pattern_problem


def flat_args(dec: Decorator) -> tuple[Literal, ...]:
    """The arguments with a single array literal unfolded (the variadic one-array form)."""
    if len(dec.args) == 1 and dec.args[0].kind is LiteralKind.ARRAY:
        return dec.args[0].items
    return dec.args


def literal_text(lit: Literal) -> str:
    """The string an ident or string argument stands for."""
    return str(lit.value) if lit.value is not None else lit.text


def exact(lit: Literal) -> int | Fraction | None:
    """The exact value of a number literal: an int, or the decimal as written as a
    `Fraction` (bounds are compared exactly; a float would round 2^63 - 1 up to 2^63)."""
    if lit.kind is LiteralKind.INT and isinstance(lit.value, int):
        return lit.value
    if lit.kind is LiteralKind.FLOAT:
        return exact_text(lit.text)
    return None


def exact_text(text: str) -> int | Fraction | None:
    """`exact` of a number as written (`3`, `-1.5`); None for anything else."""
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None
    return value.numerator if value.denominator == 1 and "." not in text else value


def bounds_reversed(dec: Decorator) -> bool:
    """Two number arguments, the first above the second (`@length(20, 5)`), compared exactly."""
    if len(dec.args) != 2:
        return False
    low, high = exact(dec.args[0]), exact(dec.args[1])
    return low is not None and high is not None and low > high


def number(lit: Literal) -> float | int | None:
    if lit.kind in (LiteralKind.INT, LiteralKind.FLOAT, LiteralKind.SIZE, LiteralKind.DURATION):
        value = lit.value
        return value if isinstance(value, int | float) else None
    return None


# --------------------------------------------------------------------------- numbers


def non_negative(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in dec.args:
        n = number(lit)
        if n is not None and n < 0:
            yield ArgProblem(lit.span, f"@{dec.name} needs a value of 0 or more, got {lit.text}")


def positive(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in dec.args:
        n = number(lit)
        if n is not None and n <= 0:
            yield ArgProblem(lit.span, f"@{dec.name} needs a value greater than 0, got {lit.text}")


def http_status(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in dec.args:
        n = number(lit)
        if n is not None and not 100 <= n <= 599:
            yield ArgProblem(lit.span, f"@{dec.name}({lit.text}) is not an HTTP status code (100-599)")


# --------------------------------------------------------------------------- strings


def _strings(dec: Decorator) -> Iterator[Literal]:
    for lit in flat_args(dec):
        if lit.kind in (LiteralKind.STRING, LiteralKind.RAW_STRING, LiteralKind.IDENT):
            yield lit


def non_empty(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in _strings(dec):
        if not literal_text(lit).strip():
            yield ArgProblem(lit.span, f"@{dec.name} needs a non-empty value")


def no_spaces(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in _strings(dec):
        if any(c.isspace() for c in literal_text(lit)):
            yield ArgProblem(lit.span, f"@{dec.name} value {lit.text} must not contain spaces")


def regex(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in _strings(dec):
        problem = pattern_problem(literal_text(lit))
        if problem:
            yield ArgProblem(lit.span, f"@{dec.name}({lit.text}) is not a valid RE2 regex: {problem}")


def format_name(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in _strings(dec):
        if literal_text(lit) not in FORMATS:
            names = ", ".join(FORMATS)
            yield ArgProblem(lit.span, f"unknown format {lit.text} - use one of {names}")


_MIME = re.compile(r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/(\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*)")


def mime_types(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in _strings(dec):
        if not _MIME.fullmatch(literal_text(lit)):
            yield ArgProblem(lit.span, f'{lit.text} is not a content type such as "image/png" or "image/*"')


def json_key(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in _strings(dec):
        text = literal_text(lit)
        if text == "-":
            yield ArgProblem(lit.span, '@json("-") is refused - mark a server-only field with @sensitive')
        elif not text:
            yield ArgProblem(lit.span, "@json needs a non-empty key")


_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def wire_name(dec: Decorator) -> Iterator[ArgProblem]:
    """A binding's wire name: a header/cookie token, an identifier for @path."""
    for lit in _strings(dec):
        text = literal_text(lit)
        pattern = _IDENT if dec.name == "path" else _TOKEN
        if not pattern.fullmatch(text):
            what = "a path variable name" if dec.name == "path" else "a header, cookie or parameter name"
            yield ArgProblem(lit.span, f"@{dec.name}({lit.text}) is not {what}")


_SEGMENT = re.compile(r"[A-Za-z0-9_.~-]+|\{[A-Za-z_][A-Za-z0-9_]*\}")


def route_prefix(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in _strings(dec):
        text = literal_text(lit)
        if not text.startswith("/") or text.endswith("/") or "//" in text:
            yield ArgProblem(
                lit.span,
                f'@prefix({lit.text}) must start with / and not end with / (for example "/v1/users")',
            )
        elif not all(_SEGMENT.fullmatch(s) for s in text[1:].split("/")):
            yield ArgProblem(lit.span, f"@prefix({lit.text}) holds a segment that is not a word or {{var}}")


def relative_dir(dec: Decorator) -> Iterator[ArgProblem]:
    for lit in _strings(dec):
        text = literal_text(lit)
        parts = [p for p in text.replace("\\", "/").split("/") if p not in ("", ".")]
        if text.startswith("/") or "\\" in text or ".." in parts or not parts:
            yield ArgProblem(
                lit.span,
                f'@{dec.name}({lit.text}) must be a relative directory path without .. (for example "admin/users")',
            )
