"""A proto's text without its custom option values, every other byte where it was.

    stripped = strip_custom_options(data)   # bytes in, bytes out (None: not sure, don't use)

Interpreting custom option values (protovalidate rules, `google.api.http`, ...) is most of
what protoc spends on a large proto (a 5 MB proto with ~100,000 rule values: 6-8 s of its
CPU, 1.7 s without them). The language server's first pass at a large proto compiles this
text: its syntax errors, unresolved types and duplicate names come out as they would from
the whole text, at the same line and column, and the full compile adds the option errors.

What goes: `option (name)... = value;` statements, and `(name)... = value` entries of a
`[...]` option list (the list itself when nothing else is left in it); and the built-in
options no error depends on but their own value's (`deprecated = true|false`, and the file
options naming another language's package: `go_package`, `java_package`, ...): protoc
rewrites a file's whole source info once it has interpreted any option in it (a fifth of
its time on a large proto), which a file with no option left does not pay. The other
built-in options (`json_name`, `allow_alias`, `packed`, `features.*`, ...) stay: they decide
errors of their own (an alias, a JSON name clash). Blanked bytes become spaces; newlines,
carriage returns and tabs stay, so that every line keeps its bytes and protoc's columns
(which count a tab to the next multiple of 8) stay right.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# What the scan stops at: strings and comments (skipped whole: nothing in them counts),
# the `option` keyword, the brackets and separators of option lists and values, and an
# unterminated string or comment. Between option lists only `option` and `[` matter: the
# rest, strings and comments included, is consumed inside the regex (``_OUTER``), as most
# of a large proto is.
_STRING = rb""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'"""
_COMMENT = rb"//[^\n]*+|/\*(?:[^*]|\*(?!/))*+\*/"
_KEYWORD = rb"(?<![\w.])option(?![\w.])"
_OUTER = re.compile(
    rb"(?:[^\"'/\[o]++|/(?![/*])|" + _STRING + rb"|" + _COMMENT + rb"|(?<=[\w.])o|o(?!ption(?![\w.])))*+"
    rb"(?P<tok>" + _KEYWORD + rb"|\[|[\"']|/\*|\Z)"
)
_INNER = re.compile(
    rb"(?:\s++|" + _COMMENT + rb")*+(?P<tok>" + _STRING + rb"|" + _KEYWORD + rb"|[\[\]{}()<>;,\"']|/\*)"
)
# The option lists and statements most protos are made of, matched whole (the token by
# token scan costs ~5 times as much): one custom entry or statement whose value is a
# scalar, a string or a flat aggregate (blanked whole), and a list without comments,
# brackets nor custom entries (kept). Anything else is scanned token by token.
_FLAT = rb"\{(?:[^\[\]{}\"'/;]|" + _STRING + rb")*\}"
_VALUE = rb"\s*\([\w.\s]*\)(?:[^\[\]{}()\"'/;,]|" + _STRING + rb"|" + _FLAT + rb")*"
_ONE_CUSTOM = re.compile(rb"\[" + _VALUE + rb"\]")
_CUSTOM_STATEMENT = re.compile(rb"option" + _VALUE + rb";")
_PLAIN = re.compile(rb"\[(?:[^\[\]{}()\"'/;<>]|" + _STRING + rb")*\]")
# built-in options that decide no error but their own value's (see above)
_HARMLESS_FILE = rb"go_package|java_package|java_outer_classname|java_multiple_files|csharp_namespace"
_HARMLESS_FILE += rb"|objc_class_prefix|php_namespace|php_class_prefix|php_metadata_namespace|ruby_package|swift_prefix"
_HARMLESS_STATEMENT = re.compile(
    rb"option\s+(?:deprecated|" + _HARMLESS_FILE + rb")\s*=\s*(?:" + _STRING + rb"|[\w.+-]+)\s*;"
)
_HARMLESS_ENTRY = re.compile(rb"\s*deprecated\s*=\s*(?:true|false)\s*")
_HAS_HARMLESS_ENTRY = re.compile(rb"[\[,]\s*deprecated\s*=")
_ONE_HARMLESS = re.compile(rb"\[" + _HARMLESS_ENTRY.pattern + rb"\]")  # the usual form, matched whole
_OPEN = {b"[": b"]", b"{": b"}", b"(": b")", b"<": b">"}
_CLOSE = frozenset(_OPEN.values())
# every byte to a space but newline, carriage return and tab
_BLANK = bytes(b if b in b"\n\r\t" else 0x20 for b in range(256))


class _Unsure(Exception):
    """The text does not scan as the transform expects (a syntax error in an option)."""


def strip_custom_options(data: bytes) -> bytes | None:
    """``data`` with its custom option values blanked; None when the text does not scan
    as expected (an unbalanced bracket or an unterminated string in an option): the
    caller then has no stripped text, rather than one whose errors differ."""
    try:
        cuts = list(_cuts(data))
    except _Unsure:
        return None
    if not cuts:
        return data
    out: list[bytes] = []
    at = 0
    for start, end in cuts:
        out.append(data[at:start])
        out.append(data[start:end].translate(_BLANK))
        at = end
    out.append(data[at:])
    return b"".join(out)


class _Tok(NamedTuple):
    text: bytes
    start: int
    end: int


class _Tokens:
    """The significant tokens of a text (comments skipped), one at a time: ``outer`` between
    option lists, ``next`` inside one."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._pos = 0

    def skip_to(self, pos: int) -> None:
        self._pos = pos

    def outer(self) -> _Tok | None:
        return self._next(_OUTER)

    def next(self) -> _Tok | None:
        return self._next(_INNER)

    def _next(self, pattern: re.Pattern[bytes]) -> _Tok | None:
        m = pattern.search(self.data, self._pos)
        if m is None:
            return None
        self._pos = m.end()
        tok = m.group("tok")
        if not tok:
            return None  # the end
        if tok in (b'"', b"'", b"/*"):
            raise _Unsure()  # an unterminated string or comment
        return _Tok(tok, m.start("tok"), m.end())


def _cuts(data: bytes) -> list[tuple[int, int]]:
    """The byte ranges to blank, in order."""
    cuts: list[tuple[int, int]] = []
    toks = _Tokens(data)
    pending: _Tok | None = None
    while True:
        m = pending or toks.outer()
        pending = None
        if m is None:
            return cuts
        tok = m.text
        if tok == b"option":
            whole = _CUSTOM_STATEMENT.match(data, m.start) or _HARMLESS_STATEMENT.match(data, m.start)
            if whole is not None:
                cuts.append(whole.span())
                toks.skip_to(whole.end())
                continue
            nxt = toks.next()
            if nxt is not None and nxt.text == b"(" and not data[m.end : nxt.start].strip():
                end = _statement_end(toks)
                cuts.append((m.start, end))
            else:
                pending = nxt
        elif tok == b"[":
            if (whole := _ONE_CUSTOM.match(data, m.start) or _ONE_HARMLESS.match(data, m.start)) is not None:
                cuts.append(whole.span())
                toks.skip_to(whole.end())
            elif (whole := _PLAIN.match(data, m.start)) is not None and not _HAS_HARMLESS_ENTRY.search(
                data, m.start, whole.end()
            ):
                toks.skip_to(whole.end())
            else:
                cuts += _option_list(toks, m.start)


def _skip_nested(toks: _Tokens, closer: bytes) -> None:
    """Skip to the ``closer`` that balances an opening bracket just read."""
    stack = [closer]
    while stack:
        m = toks.next()
        if m is None:
            raise _Unsure()
        tok = m.text
        if tok in _OPEN:
            stack.append(_OPEN[tok])
        elif tok in _CLOSE:
            if tok != stack.pop():
                raise _Unsure()
        elif tok == b";" and stack[-1] != b">" and stack[-1] != b"}":
            raise _Unsure()  # a statement ended inside a name or a list: not an option value


def _statement_end(toks: _Tokens) -> int:
    """After `option (`: the end of the statement's `;`."""
    _skip_nested(toks, b")")
    while True:
        m = toks.next()
        if m is None:
            raise _Unsure()
        tok = m.text
        if tok == b";":
            return m.end
        if tok in _OPEN:
            _skip_nested(toks, _OPEN[tok])
        elif tok in _CLOSE:
            raise _Unsure()


def _option_list(toks: _Tokens, start: int) -> list[tuple[int, int]]:
    """After a `[` at ``start``: the ranges to blank in the option list it opens."""
    entries: list[tuple[int, int, bool]] = []  # (start, end, blanked) of each entry
    commas: list[tuple[int, int]] = []  # the comma after each entry but the last
    entry_start, custom, first = start + 1, False, True
    while True:
        m = toks.next()
        if m is None:
            raise _Unsure()
        tok = m.text
        if tok in (b",", b"]"):
            blank = custom or _HARMLESS_ENTRY.fullmatch(toks.data, entry_start, m.start) is not None
            entries.append((entry_start, m.start, blank))
            if tok == b"]":
                end = m.end
                break
            commas.append((m.start, m.end))
            entry_start, custom, first = m.end, False, True
            continue
        if tok == b"(" and first and not toks.data[entry_start : m.start].strip():
            custom = True
        first = False
        if tok in _OPEN:
            _skip_nested(toks, _OPEN[tok])
        elif tok in _CLOSE or tok in (b";", b"option"):
            raise _Unsure()
    kept = [i for i, e in enumerate(entries) if not e[2]]
    if len(kept) == len(entries):
        return []
    if not kept:
        return [(start, end)]
    # blank the entries that go and every comma that no longer sits between two kept entries
    cuts = [(s, e) for s, e, c in entries if c]
    last = kept[-1]
    cuts += [commas[i] for i in range(len(commas)) if i not in kept or i >= last]
    return sorted(cuts)
