"""The document again after an edit, in a process that keeps what it built (kit-lsp).

The document is the union of one partial per DSL package (the operations of its methods and
the components they reach: `document.Builder.partial`), plus a design-wide head (info,
servers) and tail (security schemes). A package's partial depends on the package and what
it references (the closure digest of `incremental.keys`), the component names that clash
across packages, the base path and its methods' operation ids: with those the same, the
partial - and the YAML of its path items and of the components it is the first to reach -
is taken from the last render instead of built and dumped again. Only what the last render
used is kept. The text is the one `render` (build the whole, dump the whole) writes:
`tests/openapi` and `tests/incremental` compare them.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from kit_core.semantics import HttpModel, MethodInfo
from kit_core.writer.headers import YAML_REGEN

from .document import Builder
from .serialize import END_MARKER, Unshiftable, canonical, dump_open, fragment, map_key, path_item, to_yaml


@dataclass(slots=True)
class _Part:
    """A package's partial, canonical, with the YAML of its pieces as they were dumped."""

    paths: dict[str, dict[str, Any]]  # path -> verb -> canonical operation
    components: dict[str, Any]  # name -> canonical schema
    # (kind, name) -> fragment, with the JSON of what was dumped (None: not plain JSON)
    yaml: dict[tuple[str, str], tuple[str, bool, str | None]] = field(default_factory=dict)


_memo: dict[str, _Part] = {}
# The YAML of each piece of the last render by what it is (name, indent and value, as JSON):
# a part built again after an edit reaches mostly schemas that did not change, and
# JSON-encoding one costs a fraction of dumping it as YAML.
_dumped: dict[str, tuple[str, bool]] = {}
# How many kept parts' pieces hold each `_dumped` entry: an edit updates `_dumped` by the
# parts it built or dropped (and the pieces kept parts dumped now), not by all ~13,000
# pieces of the document at 10,000 types.
_holders: Counter[str] = Counter()
# The pieces dumped in this render, by the part keeping them: (part, text, open end, key).
_added: list[tuple[_Part, str, bool, str]] = []
_lock = threading.Lock()
counts = {"pieces": 0, "sorted": 0}  # `_dumped` entries taken in or given up, names sorted (work counts for tests)


def forget() -> None:
    """Drop what the last render kept (tests compare a render without it)."""
    with _lock:
        _memo.clear()
        _dumped.clear()
        _holders.clear()
        _added.clear()
        _forget_order()


def kept() -> bool:
    """Whether a last render's partials are kept (the next render rebuilds only what changed)."""
    return bool(_memo)


def render_incremental(symbols: Any, manifest: Any, http: HttpModel, index: Any, keys: Any) -> str:
    global _memo
    builder = Builder(symbols, manifest, http, index)
    by_package: dict[str, list[MethodInfo]] = {}
    for m in http.methods:
        by_package.setdefault(m.package, []).append(m)
    shared = _shared_key(builder, manifest)
    with _lock:
        before = list(_memo.values())
        used: dict[str, _Part] = {}
        parts = []
        for package in sorted(by_package):
            key = _key(builder, shared, keys.closure(package), by_package[package])
            part = _memo.get(key) or used.get(key) or _build(builder, by_package[package])
            used[key] = part
            parts.append(part)
        _memo = used
        try:
            return _text(builder, parts)
        except Unshiftable:  # a rare string that must be written in its context: the whole document
            _memo = {}
            return to_yaml(builder.assemble(builder.partial(http.methods)))
        finally:
            _keep_dumped(before, list(_memo.values()))


def _keep_dumped(before: list[_Part], after: list[_Part]) -> None:
    """`_dumped` made the YAML of the pieces of the parts kept now (`after`) from the last
    render's (`before`): the pieces taken in before those given up, so a piece that stays
    is never dropped on the way (each held once per part keeping it)."""
    was = {id(p) for p in before}
    now = {id(p) for p in after}
    for part, text, open_end, key in _added:
        if id(part) in was:  # a last render's part's new piece (given up below if it goes)
            _hold(key, text, open_end)
    _added.clear()
    for part in after:
        if id(part) not in was:
            for piece_text, piece_open, piece_key in part.yaml.values():
                if piece_key is not None:
                    _hold(piece_key, piece_text, piece_open)
    for part in before:
        if id(part) not in now:
            for _, _, gone in part.yaml.values():
                if gone is not None:
                    counts["pieces"] += 1
                    _holders[gone] -= 1
                    if _holders[gone] <= 0:
                        del _holders[gone]
                        _dumped.pop(gone, None)


def _hold(key: str, text: str, open_end: bool) -> None:
    counts["pieces"] += 1
    _holders[key] += 1
    _dumped.setdefault(key, (text, open_end))


def _shared_key(builder: Builder, manifest: Any) -> str:
    clashing = sorted(builder.names.clashing)
    return json.dumps([builder.base, clashing, repr(manifest.openapi)])


def _key(builder: Builder, shared: str, closure: str, methods: Iterable[MethodInfo]) -> str:
    ids = [builder.operation_ids[id(m)] for m in methods]
    return json.dumps([shared, closure, ids])


def _build(builder: Builder, methods: list[MethodInfo]) -> _Part:
    partial = builder.partial(methods)
    paths = {p: {verb: canonical(op) for verb, op in item.items()} for p, item in partial.paths.items()}
    components = {name: canonical(schema) for name, schema in partial.components.items()}
    return _Part(paths, components)


def _text(builder: Builder, parts: list[_Part]) -> str:
    pieces: list[tuple[str, bool]] = [(YAML_REGEN + "\n", False), dump_open(canonical(builder.head()))]
    pieces += _paths(parts)
    schemas = _schemas(parts)
    schemes = canonical({"securitySchemes": builder.security()})
    if schemas or schemes["securitySchemes"]:
        pieces.append(("components:\n", False))
        if schemas:
            pieces.append(("  schemas:\n", False))
            pieces += schemas
        if schemes["securitySchemes"]:
            pieces.append(fragment("securitySchemes", schemes["securitySchemes"], 2))
    text = "".join(p for p, _ in pieces)
    return text + END_MARKER if pieces[-1][1] else text


def _paths(parts: list[_Part]) -> list[tuple[str, bool]]:
    owners: dict[str, list[_Part]] = {}
    for part in parts:
        for path in part.paths:
            owners.setdefault(path, []).append(part)
    if not owners:
        return [("paths: {}\n", False)]
    out = [("paths:\n", False)]
    for path in sorted(owners):
        holders = owners[path]
        if len(holders) == 1:  # the usual case: one package's path, dumped once and kept
            out.append(_piece(holders[0], "path", path, partial(path_item, holders[0].paths[path])))
        else:  # verbs of one path from several packages
            merged = {verb: op for h in holders for verb, op in h.paths[path].items()}
            out.append(fragment(path, path_item(merged), 2))
    return out


# The last render's schema names in the document's order: an edit that declares no new name
# (nearly all) reuses it, not sorting ~10,000 names again at 10,000 types.
_order: list[str] = []
_order_names: frozenset[str] = frozenset()


def _schemas(parts: list[_Part]) -> list[tuple[str, bool]]:
    global _order, _order_names
    first: dict[str, _Part] = {}
    for part in reversed(parts):  # the first part holding a name wins
        first.update(dict.fromkeys(part.components, part))
    if first.keys() != _order_names:
        counts["sorted"] += len(first)
        _order, _order_names = sorted(first, key=map_key), frozenset(first)
    out = []
    for name in _order:
        part = first[name]
        found = part.yaml.get(("schema", name))
        out.append(
            (found[0], found[1])
            if found is not None
            else _piece(part, "schema", name, partial(_component, part, name), indent=4)
        )
    return out


def _forget_order() -> None:
    global _order, _order_names
    _order, _order_names = [], frozenset()


def _component(part: _Part, name: str) -> Any:
    return part.components[name]


def _piece(part: _Part, kind: str, name: str, value: Any, indent: int = 2) -> tuple[str, bool]:
    found = part.yaml.get((kind, name))
    if found is None:
        found = part.yaml[(kind, name)] = _dump(name, value(), indent)
        text, open_end, key = found
        if key is not None:
            _added.append((part, text, open_end, key))
    return found[0], found[1]


def _dump(name: str, value: Any, indent: int) -> tuple[str, bool, str | None]:
    try:
        key: str | None = json.dumps([name, indent, value], ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):  # not plain JSON: dumped, not kept
        key = None
    text, open_end = (_dumped.get(key) if key is not None else None) or fragment(name, value, indent)
    return text, open_end, key
