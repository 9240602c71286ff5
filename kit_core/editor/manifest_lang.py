"""`kit.design.yaml` as a language: where the cursor is, hover text, completions.

The buffer is usually mid-edit and often not valid YAML, so the place of the cursor is
found from the lines themselves (indentation and `key:` heads), not from a YAML parser:
walking up from the cursor line, each line that is less indented and opens a mapping is
a parent. Every text shown comes from the key table (`kit_core.manifest_keys`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kit_core.manifest_keys import (
    FLOW_URLS,
    SCHEME_TYPES,
    Key,
    KeyKind,
    children,
    lookup,
    pattern_of,
)

_HEAD = re.compile(r"""(?P<dash>-\s+)?(?P<key>[A-Za-z_][\w.\-]*|"[^"]*"|'[^']*')\s*:(?=\s|$)""")


@dataclass(frozen=True, slots=True)
class Line:
    indent: int  # column of the first character that is not a space
    dash: int | None  # column of `-` on a list item
    key: str | None
    key_col: int  # column of the key (or of the content when there is no key)
    colon: int  # column of the `:` after the key (-1 without a key)
    value: str  # what follows `key:`, without a trailing comment


def read_line(text: str) -> Line | None:
    """One line's shape; None for a blank or comment line."""
    stripped = text.lstrip(" ")
    if not stripped.strip() or stripped.startswith("#"):
        return None
    indent = len(text) - len(stripped)
    m = _HEAD.match(stripped)
    if m is None:
        dash = indent if stripped.startswith("- ") else None
        col = indent + 2 if dash is not None else indent
        return Line(indent, dash, None, col, -1, stripped.strip())
    dash = indent if m.group("dash") else None
    key_col = indent + m.start("key")
    value = stripped[m.end() :].split(" #", 1)[0].strip()
    return Line(indent, dash, m.group("key").strip("\"'"), key_col, indent + m.end() - 1, value)


@dataclass(frozen=True, slots=True)
class Place:
    """The cursor in a manifest: on a key or on a value, in which mapping."""

    section: str  # the enclosing mapping's path as written ("" at the top, "events.targets[]")
    on: str  # "key" or "value"
    key: str | None  # the key of the line (None on a line being typed without `:`)
    line: int
    start: int  # columns of the word under the cursor (key or value)
    end: int
    prefix: str  # the part of that word before the cursor
    indent: int  # the column keys of this mapping start at
    siblings: dict[str, str] = field(default_factory=dict)  # keys written in the mapping, with values

    @property
    def path(self) -> str:
        """The dotted path of the key on the line."""
        if self.key is None:
            return self.section
        return f"{self.section}.{self.key}" if self.section else self.key


def place_at(text: str, line: int, col: int) -> Place | None:
    lines = text.split("\n")
    if line >= len(lines):
        return None
    raw = lines[line].rstrip("\r")
    shape = read_line(raw)
    if shape is None:  # a blank line: a key is about to be typed at the cursor's column
        if raw.strip().startswith("#"):
            return None
        return _key_place(lines, line, col, col, col, "", None)
    if shape.key is not None and col > shape.colon:
        start = shape.colon + 1 + (len(raw) - shape.colon - 1 - len(raw[shape.colon + 1 :].lstrip(" ")))
        end = start + len(shape.value)
        section = _section(lines, line, shape)
        return Place(
            section,
            "value",
            shape.key,
            line,
            start,
            end,
            raw[start:col].strip(),
            shape.key_col,
            _siblings(lines, line, shape.key_col),
        )
    end = shape.key_col + len(shape.key) if shape.key is not None else len(raw)
    return _key_place(lines, line, shape.key_col, end, col, raw[shape.key_col : col], shape)


def _key_place(lines: list[str], line: int, start: int, end: int, col: int, prefix: str, shape: Line | None) -> Place:
    probe = shape or Line(start, None, None, start, -1, "")
    section = _section(lines, line, probe)
    key = shape.key if shape is not None else None
    return Place(
        section, "key", key, line, start, end, prefix.strip(), probe.key_col, _siblings(lines, line, probe.key_col)
    )


def _section(lines: list[str], line: int, shape: Line) -> str:
    """The path of the mapping a line's key belongs to."""
    parts: list[str] = []
    need = shape.key_col
    if shape.dash is not None:  # `- key: v`: the key is the item's first key
        parts.append("[]")
        need = shape.dash
    for i in range(line - 1, -1, -1):
        above = read_line(lines[i].rstrip("\r"))
        if above is None or above.key_col > need:
            continue
        if above.key_col == need:
            if above.dash is not None and above.dash < need and not parts[-1:] == ["[]"]:
                parts.append("[]")  # a later key of the item that starts on this line
                need = above.dash
            continue
        if above.key is not None and not above.value:
            parts.append(above.key)
            need = above.dash if above.dash is not None else above.key_col
            if above.dash is not None:
                parts.append("[]")
        if need == 0:
            break
    path = ".".join(reversed(parts))
    return path.replace(".[]", "[]")


def _siblings(lines: list[str], line: int, col: int) -> dict[str, str]:
    """Keys (with their values) written at this column in the same mapping: up and down to
    a less indented line or to the start of another list item."""
    out: dict[str, str] = {}
    here = read_line(lines[line].rstrip("\r"))
    starts_item = here is not None and here.dash is not None and here.dash < col
    for step in (-1, 1):
        i = line + step
        while 0 <= i < len(lines) and not (step == -1 and starts_item):
            shape = read_line(lines[i].rstrip("\r"))
            i += step
            if shape is None or shape.key_col > col:
                continue
            if shape.key_col < col or (step == 1 and shape.dash is not None):
                break
            if shape.key is not None:
                out[shape.key] = shape.value
            if shape.dash is not None:  # the first key of this item: the item starts here
                break
    return out


# --------------------------------------------------------------------------- hover


def describe(row: Key, written: str) -> str:
    parts = [f"**{written}**", row.doc]
    facts = []
    if row.default is not None:
        facts.append(f"Default: `{row.default}`")
    if row.contracts_default is not None:
        facts.append(f"under `output.kind: contracts`: `{row.contracts_default}`")
    if row.values:
        facts.append("Values: " + ", ".join(f"`{v}`" for v in row.values))
    if row.dash:
        facts.append('`"-"` disables it')
    if facts:
        parts.append(" · ".join(facts))
    if row.name.endswith("securitySchemes.*.type"):
        needs = [f"`{t}` needs {', '.join(f'`{f}`' for f in fs) or 'nothing more'}" for t, fs in SCHEME_TYPES.items()]
        parts.append("; ".join(needs))
    return "\n\n".join(parts)


def hover(text: str, line: int, col: int) -> tuple[str, int, int, int] | None:
    """(markdown, line, start column, end column) of the key or value under the cursor."""
    place = place_at(text, line, col)
    if place is None or place.key is None:
        return None
    start, end = (place.start, place.end) if place.on == "value" else (place.start, place.start + len(place.key))
    row = lookup(place.path)
    if row is not None:
        return describe(row, place.path), line, start, end
    if pattern_of(place.path).endswith("securitySchemes.*") and place.path.count(".") == 2:
        return (
            f"**security scheme `{place.key}`**\n\nReferenced as `@security({place.key})` on services and "
            "methods; documented in the OpenAPI document's `components.securitySchemes`.",
            line,
            start,
            end,
        )
    return f"**{place.path}** is not a manifest key; kit ignores it.", line, start, end


# --------------------------------------------------------------------------- completion


@dataclass(frozen=True, slots=True)
class Item:
    label: str
    insert: str
    detail: str
    doc: str
    kind: str  # "key", "value", "snippet"
    sort: str  # sort text: required fields and defaults first
    extra_lines: tuple[str, ...] = ()  # lines to add below the cursor line, at the mapping's indentation


def complete(text: str, line: int, col: int) -> list[Item]:
    place = place_at(text, line, col)
    if place is None:
        return []
    return _values(place) if place.on == "value" else _keys(place)


def _keys(place: Place) -> list[Item]:
    section = place.section
    if pattern_of(section + ".x").endswith("securitySchemes.x") or pattern_of(section) == "openapi.securitySchemes":
        return _scheme_snippets(place)
    required = _required(place)
    out = []
    for row in children(section):
        if row.leaf in place.siblings and row.leaf != place.key:
            continue
        opens = row.kind in (KeyKind.SECTION, KeyKind.NAMED, KeyKind.ITEMS, KeyKind.LIST, KeyKind.FREE)
        insert = f"{row.leaf}:" if opens else f"{row.leaf}: "
        rank = "0" if row.leaf in required else "1"
        detail = "required" if row.leaf in required else (f"default {row.default}" if row.default else row.kind.value)
        out.append(Item(row.leaf, insert, detail, describe(row, row.name), "key", f"{rank}{row.leaf}"))
    return out


def _required(place: Place) -> set[str]:
    """Fields the enclosing security scheme (or flow) needs that are not written yet."""
    pattern = pattern_of(place.section + ".x").rsplit(".", 1)[0]
    if pattern == "openapi.securitySchemes.*":
        kind = place.siblings.get("type", "")
        return set(SCHEME_TYPES.get(kind, ())) - place.siblings.keys()
    if pattern == "openapi.securitySchemes.*.flows.*":
        return set(FLOW_URLS.get(place.section.rsplit(".", 1)[-1], ())) - place.siblings.keys()
    return set()


def _scheme_snippets(place: Place) -> list[Item]:
    """A new named security scheme, one per type, with the fields the type needs."""
    out = []
    for kind, needs in SCHEME_TYPES.items():
        body: tuple[str, ...]
        if kind == "oauth2":
            body = ("type: oauth2", "flows:", "  clientCredentials:", "    tokenUrl: https://", "    scopes: {}")
        else:
            body = (f"type: {kind}", *(f"{f}: {_example(f)}" for f in needs))
        name = {"http": "bearer", "apiKey": "apiKey", "oauth2": "oauth", "openIdConnect": "oidc"}.get(kind, kind)
        doc = f"A `{kind}` security scheme" + (f" (needs {', '.join(needs)})" if needs else "")
        out.append(
            Item(
                f"{name} ({kind})",
                f"{name}:",
                f"{kind} scheme",
                doc,
                "snippet",
                f"0{kind}",
                tuple("  " + b for b in body),
            )
        )
    return out


def _example(fieldname: str) -> str:
    return {"scheme": "bearer", "in": "header", "name": "X-API-Key", "openIdConnectUrl": "https://"}.get(fieldname, "")


def _values(place: Place) -> list[Item]:
    row = lookup(place.path)
    if row is None or row.kind is not KeyKind.SCALAR:
        return []
    out = []
    for i, value in enumerate(row.values):
        extra: tuple[str, ...] = ()
        detail = "default" if value == row.default else ""
        if row.name.endswith("securitySchemes.*.type"):
            needs = [f for f in SCHEME_TYPES[value] if f not in place.siblings]
            extra = tuple(f"{f}: {_example(f)}" for f in needs if f != "flows")
            detail = f"needs {', '.join(SCHEME_TYPES[value])}" if SCHEME_TYPES[value] else "needs nothing more"
        rank = 0 if detail == "default" else 1
        out.append(Item(value, value, detail, describe(row, row.name), "value", f"{rank}{i:02}", extra))
    if not row.values and row.default and not row.default.startswith(("the ", '""', "[]", "{}")):
        out.append(Item(row.default, row.default, "default", describe(row, row.name), "value", "0"))
    if row.dash:
        out.append(Item('"-"', '"-"', "disabled", describe(row, row.name), "value", "2"))
    return out
