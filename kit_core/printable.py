"""Text that is safe to show: control characters written as escapes.

Messages quote design strings, file names and paths, which may hold terminal control
sequences (an ESC that sets the window title or clears the screen) or bidirectional
overrides that reorder what a reader sees. Every message kit prints or sends to an editor
goes through :func:`printable`: C0 and C1 controls, DEL and the bidirectional formatting
characters become `\\xNN` / `\\uNNNN` escapes. The function is idempotent (an escape is
printable), so a message escaped where it is made may safely be escaped again where it
is printed.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_LINES = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    if code == 0x0A:
        return "\\n"
    if code == 0x09:
        return "\\t"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str, *, one_line: bool = False) -> str:
    """``text`` with every control character escaped; tabs and line feeds are kept unless
    ``one_line`` (a diagnostic message is one line: its `file:line:col:` prefix must lead)."""
    pattern = _UNSAFE_LINES if one_line else _UNSAFE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)
