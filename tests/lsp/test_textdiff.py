"""Minimal edits: applied to the old text they give the new one, in every position
encoding, with any line endings and characters outside the BMP."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp

from kit_lsp.convert import UTF8, UTF16, UTF32
from kit_lsp.textdiff import line_ending, minimal_edits

PIECES = ["a", "b", "\n", "\r\n", "\r", " ", "\t", "é", "😀", "\x0c", "\u2028", "type T {}", "}"]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


def _offset(text: str, pos: lsp.Position, encoding: str) -> int:
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text) or [""]
    start = sum(len(line) for line in lines[: pos.line])
    line = lines[pos.line] if pos.line < len(lines) else ""
    units = 0
    for i, ch in enumerate(line):
        if units >= pos.character:
            return start + i
        units += {UTF8: len(ch.encode()), UTF32: 1}.get(encoding, 2 if ord(ch) > 0xFFFF else 1)
    return start + len(line)


def _apply(text: str, edits: list[lsp.TextEdit], encoding: str) -> str:
    spans = [(_offset(text, e.range.start, encoding), _offset(text, e.range.end, encoding), e.new_text) for e in edits]
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


@settings(max_examples=300, deadline=None)
@given(old=texts, new=texts, encoding=st.sampled_from([UTF8, UTF16, UTF32]))
def test_the_edits_turn_the_old_text_into_the_new(old: str, new: str, encoding: str) -> None:
    assert _apply(old, minimal_edits(old, new, encoding), encoding) == new


def test_no_edit_for_equal_texts_and_line_endings() -> None:
    assert minimal_edits("a\nb\n", "a\nb\n", UTF16) == []
    assert line_ending("a\r\nb\r\n") == "\r\n" and line_ending("a\nb\r\n\n") == "\n" and line_ending("") == "\n"
