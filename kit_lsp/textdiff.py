"""The smallest text edits that turn one text into another (formatting answers with them,
not with a replacement of the whole document): a line diff (difflib), each changed run of
lines then narrowed to the characters that differ."""

from __future__ import annotations

import difflib
import re
from bisect import bisect_right

from lsprotocol import types as lsp

from kit_lsp.convert import UTF8, UTF32


def line_ending(text: str) -> str:
    """The file's line ending: CRLF when most of its line breaks are CRLF."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf >= text.count("\n") - crlf else "\n"


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def lines(text: str) -> list[str]:
    """Lines as LSP counts them (only CR, LF and CRLF end one), each with its line break."""
    return _LINE.findall(text)


def minimal_edits(old: str, new: str, encoding: str) -> list[lsp.TextEdit]:
    old_lines, new_lines = lines(old), lines(new)
    starts = [0]
    for line in old_lines:
        starts.append(starts[-1] + len(line))
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    edits = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed, added = "".join(old_lines[i1:i2]), "".join(new_lines[j1:j2])
        head = _common_prefix(removed, added)
        tail = _common_suffix(removed[head:], added[head:])
        start, end = starts[i1] + head, starts[i2] - tail
        rng = lsp.Range(_position(old, starts, start, encoding), _position(old, starts, end, encoding))
        edits.append(lsp.TextEdit(rng, added[head : len(added) - tail]))
    return edits


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _common_suffix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[-1 - i] == b[-1 - i]:
        i += 1
    return i


def _position(text: str, starts: list[int], offset: int, encoding: str) -> lsp.Position:
    """The client position of a character offset (``starts``: character offsets of lines)."""
    line = max(0, bisect_right(starts, offset) - 1)
    if line >= len(starts) - 1 and offset == starts[-1] and text and not text.endswith(("\n", "\r")):
        line = len(starts) - 2  # the end of a last line without a line break
    before = text[starts[line] : offset]
    if encoding == UTF8:
        col = len(before.encode("utf-8", "surrogatepass"))
    elif encoding == UTF32:
        col = len(before)
    else:
        col = len(before.encode("utf-16-le", "surrogatepass")) // 2
    return lsp.Position(line, col)
