"""Sort the document and write it as YAML, byte-for-byte the same for the same input.

Fixed-field objects are built in a deliberate order (the OpenAPI specification's) and keep
it; maps of names (paths, components, responses, headers, security schemes, ...) are
sorted, response codes numerically; a path item lists its verbs in the specification's
order; object properties keep the declaration order of their fields; values (`enum`,
`default`, `examples`, `const`) are left as they are.
"""

from __future__ import annotations

from typing import Any

import yaml

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


# libyaml's emitter when PyYAML was built with it (about 4x faster on a large document, and
# the same bytes: tests/openapi compares both); the pure-Python one otherwise.
_Base: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_Base):  # type: ignore[misc, valid-type]
    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str)


def to_yaml(doc: dict[str, Any]) -> str:
    body = yaml.dump(
        canonical(doc),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1_000_000,
        indent=2,
    )
    return f"{YAML_REGEN}\n{body}"
