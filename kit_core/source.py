"""Source locations: what tree-sitter gives (bytes and points) plus UTF-16 columns for LSP."""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple


class Span(NamedTuple):
    """A range in one file (a named tuple: the lowering builds hundreds of thousands).

    Lines and byte columns are 0-based (tree-sitter points); ``*_col16`` are the same
    columns counted in UTF-16 code units, which is what LSP clients use by default.
    """

    path: str
    start_byte: int
    end_byte: int
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    start_col16: int
    end_col16: int

    def display(self) -> str:
        """``path:line:col`` with 1-based line and column (byte column, as Go tools print)."""
        return f"{self.path}:{self.start_line + 1}:{self.start_col + 1}"


NO_SPAN = Span("", 0, 0, 0, 0, 0, 0, 0, 0)


def end_of(span: Span) -> Span:
    """The empty span just after ``span`` (where a fix inserts text)."""
    return Span(
        span.path, span.end_byte, span.end_byte, span.end_line, span.end_col, span.end_line, span.end_col,
        span.end_col16, span.end_col16,
    )  # fmt: skip


"""For problems that belong to no place in a file (a whole-design rule, a missing file)."""


def file_span(path: str) -> Span:
    """The start of a file: where file-level problems are reported."""
    return Span(path, 0, 0, 0, 0, 0, 0, 0, 0)


class LineIndex:
    """Maps byte offsets of one UTF-8 text to (line, byte col, UTF-16 col)."""

    def __init__(self, text: bytes) -> None:
        self._text = text
        starts = [0]
        pos = text.find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = text.find(b"\n", pos + 1)
        self._starts = starts

    def line_of(self, offset: int) -> int:
        return bisect_right(self._starts, offset) - 1

    def utf16_col(self, line: int, byte_col: int) -> int:
        start = self._starts[line] if line < len(self._starts) else len(self._text)
        chunk = self._text[start : start + byte_col]
        if chunk.isascii():
            return byte_col
        return len(chunk.decode("utf-8", errors="replace").encode("utf-16-le")) // 2

    def span(self, path: str, start: int, end: int) -> Span:
        sl = self.line_of(start)
        el = self.line_of(end)
        sc = start - self._starts[sl]
        ec = end - self._starts[el]
        return Span(path, start, end, sl, sc, el, ec, self.utf16_col(sl, sc), self.utf16_col(el, ec))
