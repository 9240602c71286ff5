"""JSON text as generated Go code writes it: keys escaped like encoding/json, raw literals."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kit_core.generators.go.render import go_string

_SHORT = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPED = re.compile('[\\\\"\x00-\x1f<>&\u2028\u2029]')  # what json_string rewrites


def json_string(text: str) -> str:
    """``text`` as a JSON string, escaped exactly as encoding/json (and kitjson) escape it:
    HTML-safe (`<`, `>`, `&` as \\u00XX), other controls as \\u00XX, U+2028/U+2029 escaped."""
    if _ESCAPED.search(text) is None:  # most keys: nothing to escape
        return f'"{text}"'
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif code < 0x20 or ch in "<>&":
            out.append(f"\\u00{code:02x}")
        elif ch in "\u2028\u2029":
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_raw(text: str) -> str:
    """A Go literal of ``text``: a raw string when it can be one (readable JSON)."""
    if "`" not in text and "\r" not in text:
        return f"`{text}`"
    return go_string(text)


@dataclass
class Lines:
    """Statements of one block; consecutive constant writes merge into one `e.Raw`."""

    out: list[str] = field(default_factory=list)
    _raw: list[str] = field(default_factory=list)

    def raw(self, text: str) -> None:
        self._raw.append(text)

    def add(self, *stmts: str) -> None:
        self._flush()
        self.out.extend(stmts)

    def extend(self, other: Lines) -> None:
        self._flush()
        self.out.extend(other.done())

    def done(self) -> list[str]:
        self._flush()
        return self.out

    def _flush(self) -> None:
        if self._raw:
            self.out.append(f"e.Raw({go_raw(''.join(self._raw))})")
            self._raw = []
