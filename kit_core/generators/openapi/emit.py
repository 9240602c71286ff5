"""The document's YAML, fast: the block structure (indentation, `key:`, `- `, `{}`, `[]`)
written here, the text of each distinct scalar and key asked once of the YAML emitter.

`serialize.dump` emitted the whole document through PyYAML, whose Python representer builds
a node per value (about 130,000 on the 2,000-type design, most of a second). A document is
mostly the same few keys and values, and PyYAML writes a scalar the same way wherever it
stands in a block collection - only a block scalar's lines move with the indentation (its
content sits two spaces right of the key or dash it belongs to) - so this writer asks the
emitter for each distinct scalar once, as the value of a one-key mapping, and places the
answer. It writes exactly what the emitter it asks writes for the whole document; whatever
it is not sure of (a key written as a complex key `? `, a scalar spanning lines other than
a block scalar's, a block scalar keeping its trailing breaks - which makes libyaml end the
document with `...` -, a value that is neither a scalar, a dict nor a list) makes it give
up (`None`), and the caller emits the document whole. `tests/openapi/test_serialize.py`
compares both over random documents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_SCALARS = (str, int, float, bool, type(None))
_ODD_BREAKS = ("\x85", "\u2028", "\u2029")


class _Unsure(Exception):
    """The structure writer cannot vouch for this value's text."""


class Writer:
    """``dump(value)``: the emitter's text of a value (the one the whole document is emitted
    with). Remembers each scalar's and key's text for the life of the writer."""

    def __init__(self, dump: Callable[[Any], str]) -> None:
        self.dump = dump
        self._values: dict[tuple[type, str], tuple[str, tuple[str, ...]]] = {}
        self._keys: dict[tuple[type, str], str] = {}

    def document(self, value: Any) -> str | None:
        """The document's text, or None when this writer is not sure of it."""
        out: list[str] = []
        try:
            if isinstance(value, dict) and value:
                self._mapping(value, 0, out, inline=False)
            elif isinstance(value, list) and value:
                self._sequence(value, 0, out, inline=False)
            else:
                return None
        except _Unsure:
            return None
        return "".join(out)

    def _mapping(self, value: dict[Any, Any], indent: int, out: list[str], inline: bool) -> None:
        pad = " " * indent
        for key, item in value.items():
            if inline:
                inline = False  # the first key follows the dash of its sequence item
            else:
                out.append(pad)
            out.append(self._key(key))
            out.append(":")
            self._value(item, indent, out, in_mapping=True)

    def _sequence(self, value: list[Any], indent: int, out: list[str], inline: bool) -> None:
        pad = " " * indent
        for item in value:
            if inline:
                inline = False
            else:
                out.append(pad)
            out.append("-")
            self._value(item, indent, out, in_mapping=False)

    def _value(self, item: Any, indent: int, out: list[str], in_mapping: bool) -> None:
        """A mapping's value or a sequence's item, after its `key:` or `-`, at ``indent``
        (the column of that key or dash)."""
        if type(item) is dict:
            if not item:
                out.append(" {}\n")
            elif in_mapping:
                out.append("\n")
                self._mapping(item, indent + 2, out, inline=False)
            else:
                out.append(" ")
                self._mapping(item, indent + 2, out, inline=True)
        elif type(item) is list:
            if not item:
                out.append(" []\n")
            elif in_mapping:  # a sequence in a mapping is not indented
                out.append("\n")
                self._sequence(item, indent, out, inline=False)
            else:
                out.append(" ")
                self._sequence(item, indent + 2, out, inline=True)
        else:
            first, rest = self._scalar(item)
            out.append(first)
            if rest:
                pad = " " * (indent + 2)
                out.extend(line if line == "\n" else pad + line for line in rest)

    def _scalar(self, value: Any) -> tuple[str, tuple[str, ...]]:
        """(` text\\n` of the scalar's first line, its block lines without their indentation
        and each with its line break)."""
        if type(value) not in _SCALARS:
            raise _Unsure
        memo = (type(value), value if type(value) is str else repr(value))
        known = self._values.get(memo)
        if known is None:
            known = self._values[memo] = self._ask_value(value)
        return known

    def _ask_value(self, value: Any) -> tuple[str, tuple[str, ...]]:
        text = self.dump({"k": value})
        if not text.startswith("k:") or not text.endswith("\n") or any(c in text for c in _ODD_BREAKS):
            raise _Unsure
        lines = text[2:].splitlines(keepends=True)
        rest = tuple(lines[1:])
        if rest and not (lines[0].startswith(" |") and all(ln == "\n" or ln.startswith("  ") for ln in rest)):
            raise _Unsure  # a scalar spanning lines other than a block scalar's, or `...` after a `|+` one
        return lines[0], tuple(ln if ln == "\n" else ln[2:] for ln in rest)

    def _key(self, key: Any) -> str:
        if type(key) not in _SCALARS:
            raise _Unsure
        memo = (type(key), key if type(key) is str else repr(key))
        known = self._keys.get(memo)
        if known is None:
            text = self.dump({key: None})
            if not text.endswith(": null\n") or "\n" in text[: -len(": null\n")] or text.startswith("? "):
                raise _Unsure
            if any(c in text for c in _ODD_BREAKS):
                raise _Unsure
            known = self._keys[memo] = text[: -len(": null\n")]
        return known
