"""Sort the document and write it as YAML, byte-for-byte the same for the same input.

Fixed-field objects are built in a deliberate order (the OpenAPI specification's) and keep
it; maps of names (paths, components, responses, headers, security schemes, ...) are
sorted, response codes numerically; a path item lists its verbs in the specification's
order; object properties keep the declaration order of their fields; values (`enum`,
`default`, `examples`, `const`) are left as they are.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from kit_core.generators.openapi.emit import Writer
from kit_core.writer.headers import YAML_REGEN

_SORTED_MAPS = frozenset(
    {
        "schemas",
        "securitySchemes",
        "responses",
        "headers",
        "content",
        "variables",
        "encoding",
        "scopes",
        "flows",
    }
)
_VALUES = frozenset({"enum", "default", "examples", "const", "required", "example"})
_VERBS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def canonical(obj: Any) -> Any:
    """A copy of ``obj`` (a fixed-field object) with every map of names in canonical order."""
    if isinstance(obj, list):
        return [canonical(i) for i in obj]
    if not isinstance(obj, dict):
        return obj
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if key in _VALUES:
            out[key] = value
        elif key == "paths" and isinstance(value, dict):
            out[key] = {p: _path_item(value[p]) for p in sorted(value)}
        elif key in _SORTED_MAPS and isinstance(value, dict):
            out[key] = {k: canonical(value[k]) for k in sorted(value, key=_map_key)}
        elif key == "properties" and isinstance(value, dict):
            out[key] = {k: canonical(v) for k, v in value.items()}
        else:
            out[key] = canonical(value)
    return out


def _path_item(item: dict[str, Any]) -> dict[str, Any]:
    order = sorted(item, key=lambda k: (_VERBS.index(k) if k in _VERBS else -1, k))
    return {k: canonical(item[k]) for k in order}


def _map_key(key: str) -> tuple[int, str]:
    """Response codes numerically (before `default`); other names alphabetically."""
    return (0, key.zfill(3)) if key.isdigit() else (1, key)


# libyaml's emitter when PyYAML was built with it (about 4x faster on a large document), else
# the pure-Python one. They write the same bytes (tests/openapi compares them) but for
# characters beyond the Basic Multilingual Plane, which libyaml escapes (`"\U0001F680"`),
# and NEL (U+0085, libyaml's `"\N"`): a dump showing such an escape is made again by the
# Python emitter, which writes them as they are; so is one showing a complex key (`? |-`,
# libyaml's way with a key that spans lines), and so is one ending in the end marker `...`:
# libyaml writes it after any block scalar that keeps its trailing line breaks (`|+`)
# anywhere in the document, the Python emitter only when the document ends in one. The one
# difference left is an empty key (`'': x` against `? ''`), which no kit document holds
# (`@json("")` is refused; names and paths are never empty).
class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


_CBase: Any = getattr(yaml, "CSafeDumper", None)


class _CDumper(_CBase or yaml.SafeDumper):  # type: ignore[misc]
    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str)
_CDumper.add_representer(str, _str)


def to_yaml(doc: dict[str, Any]) -> str:
    return f"{YAML_REGEN}\n{dump(canonical(doc))}"


def dump(value: Any) -> str:
    """YAML of a value already in canonical order."""
    text = Writer(_emit_c).document(value)  # libyaml's text, each distinct scalar emitted once
    if text is None:
        text = _dump(value, _CDumper)
    # `"? " in`: a plain substring search first (the ^ of a multiline pattern is tried at every character)
    escaped = "\\U" in text or "\\N" in text
    redo = escaped or text.endswith("\n" + END_MARKER) or ("? " in text and _COMPLEX_KEY.search(text))
    return _dump(value, _Dumper) if redo else text


def _emit_c(value: Any) -> str:
    return _dump(value, _CDumper)


_COMPLEX_KEY = re.compile(r"^ *(?:- )*\? ", re.MULTILINE)


def _dump(value: Any, dumper: type) -> str:
    return str(
        yaml.dump(
            value,
            Dumper=dumper,
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=False,
            width=1_000_000,
            indent=2,
        )
    )


END_MARKER = "...\n"


def dump_open(value: Any) -> tuple[str, bool]:
    """The dump without the document end marker `...`, and whether it had one. A dump ending
    in a block scalar that keeps its trailing line breaks (`|+`) closes with the marker; a
    whole document has it only at its very end, so pieces of one leave it out."""
    text = dump(value)
    if text.endswith("\n" + END_MARKER):
        return text[: -len(END_MARKER)], True
    return text, False


class Unshiftable(ValueError):
    """A fragment whose lines do not all move with its indentation (a quoted scalar spanning
    lines, a complex key): the document is then written whole."""


_UNSHIFTABLE = re.compile("[\x85\u2028\u2029]|^ *(?:- )*\\? ", re.MULTILINE)


def fragment(key: str, value: Any, indent: int) -> tuple[str, bool]:
    """`key: value` as it reads nested ``indent`` spaces deep in a block mapping (and whether
    it ends open, see `dump_open`): the dump of the one-entry mapping with every line but the
    empty ones shifted. Block structure and block scalars keep their relative indentation, so
    the shift is exact (`tests/openapi` compares both); the rare dump where it is not raises
    :class:`Unshiftable`."""
    text, open_end = dump_open({key: value})
    if _UNSHIFTABLE.search(text):
        raise Unshiftable(key)
    pad = " " * indent
    return "\n".join(pad + line if line else line for line in text.split("\n")), open_end


def path_item(item: dict[str, Any]) -> dict[str, Any]:
    """A path item's operations, already canonical, in the specification's verb order."""
    order = sorted(item, key=lambda k: (_VERBS.index(k) if k in _VERBS else -1, k))
    return {k: item[k] for k in order}


def map_key(key: str) -> tuple[int, str]:
    return _map_key(key)
