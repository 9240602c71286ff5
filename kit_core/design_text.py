"""The one reading of a design file's bytes, shared by `kit gen`, `kit fmt` and kit-lsp.

* UTF-8; bytes that are not are replaced (U+FFFD), which the lexer then reports where
  they stand, so a bad byte is a located error rather than a crash;
* a leading byte-order mark is dropped (editors hide it and count no column for it);
* a carriage return not followed by a line feed ends a line, as it does for LSP clients
  (classic Mac line endings): it becomes a line feed, so every reader sees the same lines
  and every byte offset stays where it was. CRLF is kept as it is (the lexer accepts it;
  the formatter writes LF).
"""

from __future__ import annotations

import re
from pathlib import Path

BOM = "\ufeff"
_LONE_CR = re.compile(r"\r(?!\n)")


def decode_design(data: bytes) -> str:
    """The text of a design file as every kit reader sees it."""
    return normalize_design(data.decode("utf-8", errors="replace"))


def normalize_design(text: str) -> str:
    """The same reading for text already decoded (an editor buffer)."""
    if text.startswith(BOM):
        text = text[1:]
    if "\r" in text:
        text = _LONE_CR.sub("\n", text)
    return text


def read_design(path: str | Path) -> str:
    with open(path, "rb") as fh:
        return decode_design(fh.read())
