"""One forgotten `}` is one diagnostic, where the brace is missing.

Without help, the parser reads on past the end of an unclosed body: the next declaration
becomes fields of the open one (keywords are valid field names), the error lands on the
next declaration's `{`, and every use of the swallowed declarations is reported unknown.
Here, when a file does not parse, indentation says where a body ended: a line (outside
strings and comments) as shallow as the line that opened the innermost open body that
does not close it, or a `}` shallower than that line (it closes an outer body), means
that body ended after its last line of content. A `}` line is supplied there and the text
parsed again (up to a few braces); if that parse is clean, its model is used, every
position mapped back to the text as written, with one `parse/syntax` diagnostic per
supplied brace at the end of the body's last line. Otherwise (the file has other
problems) nothing changes.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from tree_sitter import Tree

from kit_core import syntax
from kit_core.diagnostics import Diagnostic, make
from kit_core.model import DeclBase, SourceFile
from kit_core.shift import Shift
from kit_core.source import Span

MAX_BRACES = 3
_TOKENS = re.compile(rb'//[^\n]*|"(?:\\.|[^"\\\n])*"?|`[^`]*`?|[{}]')


@dataclasses.dataclass(frozen=True, slots=True)
class Supplied:
    at: int  # where the text was inserted (a line start), in the text it was inserted into
    end: int  # end of the unclosed body's last line of content, same text
    opener: str  # the line that opened the body, e.g. "type Money {"
    inserted: bytes = b"}\n"


def missing_brace(src: bytes) -> Supplied | None:
    """Where indentation says the first unclosed body ended, if it does."""
    braces = [(m.start(), m.group()) for m in _TOKENS.finditer(src) if m.group() in (b"{", b"}")]
    stack: list[tuple[int, int, int]] = []  # (indent of the opening line, its start, end of last content)
    i = pos = 0
    for line in src.splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        body = line.rstrip(b"\r\n")
        text = body.lstrip(b" \t")
        indent = len(body) - len(text)
        content = bool(text) and not text.startswith(b"//")
        closes = text.startswith(b"}")
        if content and stack and (indent < stack[-1][0] or (indent == stack[-1][0] and not closes)):
            return _supplied(src, stack[-1])  # a line as shallow as the body's opener: it ended before
        while i < len(braces) and braces[i][0] < pos:
            if braces[i][1] == b"{":
                stack.append((indent, start, start + len(body)))
            elif stack:
                stack.pop()
            i += 1
        if content and stack:
            stack[-1] = (stack[-1][0], stack[-1][1], start + len(body))
    return _supplied(src, stack[-1]) if stack else None


def _supplied(src: bytes, frame: tuple[int, int, int]) -> Supplied:
    _, opened, end = frame
    nl = src.find(b"\n", end)
    eol = src.find(b"\n", opened)
    opener = src[opened : len(src) if eol < 0 else eol].decode("utf-8", "replace").strip()
    if nl < 0:  # the body runs to the end of a file without a final line break
        return Supplied(len(src), end, opener, b"\n}\n")
    return Supplied(nl + 1, end, opener)


Lower = Callable[[bytes, Tree], SourceFile]


def recover(path: str, src: bytes, lower: Lower) -> SourceFile | None:
    """The model of ``src`` with missing braces supplied, or None when that does not give a
    clean parse. ``lower`` lowers a text and its tree."""
    text, supplied = src, []
    for _ in range(MAX_BRACES):
        found = missing_brace(text)
        if found is None:
            return None
        text = text[: found.at] + found.inserted + text[found.at :]
        supplied.append(found)
        tree = syntax.parse(text)
        if not tree.root_node.has_error:
            return _mapped_back(path, src, lower(text, tree), supplied)
    return None


def _mapped_back(path: str, src: bytes, repaired: SourceFile, supplied: list[Supplied]) -> SourceFile:
    mapping = _Mapping(path, src, supplied)
    missing = [
        make("parse/syntax", mapping.point(mapping.offset(s.end, upto=i)),
             message=f"missing `}}` to close `{s.opener}`")
        for i, s in enumerate(supplied)
    ]  # fmt: skip
    own = [mapping.value(d) for d in repaired.parse_diagnostics if isinstance(d, Diagnostic)]
    return dataclasses.replace(
        mapping.value(repaired),
        parse_diagnostics=tuple(sorted([*missing, *own], key=lambda d: d.span.start_byte)),
        source=src.decode("utf-8", "replace"),
    )


class _Mapping:
    """Positions in the repaired text -> positions in the text as written."""

    def __init__(self, path: str, src: bytes, supplied: list[Supplied]) -> None:
        self.path, self.src, self.supplied = path, src, supplied
        self._lines = [0, *(m.end() for m in re.finditer(b"\n", src))]
        self._after = sum(len(s.inserted) for s in supplied)
        self._head = min(s.at for s in supplied)  # positions before it are the same in both texts
        last = supplied[-1]
        self._tail = last.at + len(last.inserted)  # a position past every insertion, in repaired terms
        self._shift = Shift(-self._after, -sum(s.inserted.count(b"\n") for s in supplied))

    def offset(self, pos: int, upto: int | None = None) -> int:
        """Back through the insertions (the first ``upto`` of them), last first; a position
        inside a supplied brace goes to the end of the body's last line (where it belongs)."""
        for s in reversed(self.supplied[:upto] if upto is not None else self.supplied):
            if pos >= s.at + len(s.inserted):
                pos -= len(s.inserted)
            elif pos > s.at:
                pos = s.end
        return min(pos, len(self.src))

    def point(self, offset: int) -> Span:
        line, col, col16 = self._where(offset)
        return Span(self.path, offset, offset, line, col, line, col, col16, col16)

    def _where(self, offset: int) -> tuple[int, int, int]:
        line = bisect_right(self._lines, offset) - 1
        head = self.src[self._lines[line] : offset]
        col16 = len(head) if head.isascii() else len(head.decode("utf-8", "replace").encode("utf-16-le")) // 2
        return line, len(head), col16

    def span(self, s: Span) -> Span:
        start, end = self.offset(s.start_byte), self.offset(s.end_byte)
        if start == s.start_byte and end == s.end_byte:
            return s  # before every insertion
        (sl, sc, s16), (el, ec, e16) = self._where(start), self._where(end)
        return Span(s.path, start, end, sl, sc, el, ec, s16, e16)

    def value(self, v: Any) -> Any:
        """``v`` with every span mapped (the same object when nothing moves); a declaration
        wholly past the insertions is shifted by whole lines (each insertion is whole lines,
        so columns do not change)."""
        if isinstance(v, Span):
            return self.span(v)
        if isinstance(v, tuple):
            items = tuple(self.value(x) for x in v)
            return v if all(a is b for a, b in zip(items, v, strict=True)) else items
        if not dataclasses.is_dataclass(v) or isinstance(v, type):
            return v
        span = getattr(v, "span", None)
        if isinstance(span, Span) and span.end_byte <= self._head:
            return v  # before every insertion
        if isinstance(v, DeclBase) and v.span.start_byte >= self._tail:
            return self._shift.decl(v)  # type: ignore[arg-type]
        changes = {f.name: self.value(getattr(v, f.name)) for f in dataclasses.fields(v)}
        if all(changes[name] is getattr(v, name) for name in changes):
            return v
        return dataclasses.replace(v, **changes)
