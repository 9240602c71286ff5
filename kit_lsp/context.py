"""Where the cursor is, read from the text (which is usually incomplete while typing).

`container` tells which body holds the cursor (from the braces before it, skipping
comments and strings); `decorator_call` finds the decorator whose argument list holds
the cursor and the argument index; `site` tells which decorator site a `@` at the cursor
would decorate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kit_core.decorators import Site
from kit_core.words import HTTP_VERBS

_TOKENS = re.compile(rb'//[^\n]*|"(?:\\.|[^"\\\n])*"?|`[^`]*`?|[{}]')
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")

TOP, TYPE_BODY, ERROR_BODY, ENUM_BODY, SERVICE_BODY, METHOD_BODY, EVENT_BODY, OTHER = (
    "top",
    "type_body",
    "error_body",
    "enum_body",
    "service_body",
    "method_body",
    "event_body",
    "other",
)

_BODY_OF = {
    "type": TYPE_BODY,
    "error": ERROR_BODY,
    "enum": ENUM_BODY,
    "service": SERVICE_BODY,
    "extend": SERVICE_BODY,
    "event": EVENT_BODY,
}


@dataclass(frozen=True, slots=True)
class Container:
    kind: str
    head: str  # the text before the opening brace, e.g. "type Page<T>"


def container(source: bytes, offset: int) -> Container:
    stack: list[int] = []
    for m in _TOKENS.finditer(source, 0, offset):
        tok = m.group()
        if tok == b"{":
            stack.append(m.start())
        elif tok == b"}" and stack:
            stack.pop()
    if not stack:
        return Container(TOP, "")
    brace = stack[-1]
    line_start = source.rfind(b"\n", 0, brace) + 1
    head = source[line_start:brace].decode("utf-8", "replace").strip()
    return Container(_kind(head), head)


def _kind(head: str) -> str:
    words = head.split()
    while words and words[0].startswith("@"):
        words.pop(0)
    if not words:
        return OTHER
    if words[0] in HTTP_VERBS:
        return METHOD_BODY
    return _BODY_OF.get(words[0], OTHER)


@dataclass(frozen=True, slots=True)
class Call:
    name: str  # the decorator
    index: int  # the argument the cursor is in (commas at the top level of the list)
    in_string: bool


def decorator_call(line_prefix: str) -> Call | None:
    """The innermost decorator argument list open at the end of ``line_prefix``."""
    frames: list[list[object]] = []  # [name or None, commas]
    i, n, in_string = 0, len(line_prefix), False
    while i < n:
        ch = line_prefix[i]
        if ch in '"`':
            end = _string_end(line_prefix, i)
            if end < 0:
                in_string = True
                break
            i = end + 1
            continue
        if ch == "@":
            m = re.match(r"@([A-Za-z_][A-Za-z0-9_]*)\s*\(", line_prefix[i:])
            if m:
                frames.append([m.group(1), 0])
                i += m.end()
                continue
        if ch in "([":
            frames.append([None, 0])
        elif ch in ")]" and frames:
            frames.pop()
        elif ch == "," and frames and frames[-1][0] is not None:
            frames[-1][1] = int(str(frames[-1][1])) + 1
        i += 1
    for frame in reversed(frames):
        if frame[0] is not None:
            return Call(str(frame[0]), int(str(frame[1])), in_string)
    return None


def _string_end(text: str, start: int) -> int:
    quote, i = text[start], start + 1
    while i < len(text):
        if quote == '"' and text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i
        i += 1
    return -1


def word_before(line_prefix: str) -> str:
    m = _WORD.search(line_prefix)
    return m.group() if m else ""


# --------------------------------------------------------------------------- decorator sites

_DECL_SITES = {
    "type": Site.TYPE,
    "enum": Site.ENUM,
    "error": Site.ERROR,
    "scalar": Site.SCALAR,
    "middleware": Site.MIDDLEWARE,
    "service": Site.SERVICE,
    "extend": Site.EXTEND_SERVICE,
    "event": Site.EVENT,
    "package": Site.FILE,
}


def decorator_sites(where: Container, line_prefix: str, following: str) -> frozenset[Site]:
    """Sites a decorator written at the cursor may decorate.

    ``line_prefix`` is the line up to the `@`; ``following`` the text after the cursor.
    """
    own_line = not line_prefix.strip()
    if where.kind == TYPE_BODY:
        return frozenset({Site.FIELD})
    if where.kind == ERROR_BODY:
        return frozenset({Site.ERROR_FIELD})
    if where.kind == ENUM_BODY:
        return frozenset({Site.ENUM_VALUE})
    if where.kind == SERVICE_BODY:
        return frozenset({Site.METHOD})
    if where.kind != TOP:
        return frozenset()
    if not own_line:
        first = line_prefix.split()[0] if line_prefix.split() else ""
        return frozenset({Site.SCALAR}) if first == "scalar" else frozenset()
    keyword = _next_keyword(following)
    if keyword in _DECL_SITES:
        return frozenset({_DECL_SITES[keyword]})
    return frozenset(_DECL_SITES.values())


def _next_keyword(following: str) -> str:
    for line in following.splitlines()[1:]:
        s = line.strip()
        if not s or s.startswith("@") or s.startswith("//"):
            continue
        return s.split()[0]
    return ""
