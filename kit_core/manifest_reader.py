"""Reading `kit.design.yaml` (`kit_core.manifest` holds the model and the defaults).

The manifest is read with PyYAML's composer so every key keeps its line and column:
diagnostics about the manifest point at the offending key.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any

import yaml

from kit_core.diagnostics import Diagnostic, Fix, make
from kit_core.manifest import (
    _FILE_OUTPUTS,
    _KNOWN_SCALARS,
    _KNOWN_SECTIONS,
    _OUTPUT_KEYS,
    FILE_CASES,
    KINDS,
    REMOVED_KEYS,
    EventTarget,
    Manifest,
    OpenAPIConfig,
    OutputConfig,
    ProtoConfig,
    default_manifest,
)
from kit_core.manifest_keys import children, lookup
from kit_core.source import Span, file_span

# --------------------------------------------------------------------------- reading


class _Reader:
    """Walks the composed YAML tree, collecting values, key spans and diagnostics."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.lines = text.splitlines()
        self.diags: list[Diagnostic] = []
        self.spans: dict[str, Span] = {}
        self.values: dict[str, Any] = {}

    def span(self, node: yaml.Node) -> Span:
        sm, em = node.start_mark, node.end_mark
        return Span(
            self.path,
            sm.index,
            em.index,
            sm.line,
            self._byte_col(sm.line, sm.column),
            em.line,
            self._byte_col(em.line, em.column),
            sm.column,
            em.column,
        )

    def _byte_col(self, line: int, col: int) -> int:
        if line >= len(self.lines):
            return col
        return len(self.lines[line][:col].encode("utf-8"))

    def walk(self, node: yaml.Node, prefix: str) -> None:
        if not isinstance(node, yaml.MappingNode):
            self.diags.append(
                make("manifest/value", self.span(node), message=f"{prefix or 'the manifest'} must be a mapping")
            )
            return
        for key_node, value_node in node.value:
            key = f"{prefix}.{key_node.value}" if prefix else str(key_node.value)
            self.spans[key] = self.span(key_node)
            self.visit(key, key_node, value_node)

    def visit(self, key: str, key_node: yaml.Node, value: yaml.Node) -> None:
        if key in REMOVED_KEYS:
            self.diags.append(make("manifest/removed-key", self.span(key_node), key=key, note=REMOVED_KEYS[key]))
        elif key == "openapi.securitySchemes":
            self.values[key] = yaml.safe_load(yaml.serialize(value)) or {}
            self.named(key, value)
        elif key == "events.targets":
            self.values[key] = self.targets(value)
        elif key == "proto.includes":
            self.values[key] = yaml.safe_load(yaml.serialize(value)) or []
        elif key in _KNOWN_SECTIONS:
            self.walk(value, key)
        elif key in _KNOWN_SCALARS:
            self.values[key] = self.scalar(key, value)
        else:
            self.unknown(key, key_node)

    def unknown(self, key: str, key_node: yaml.Node) -> None:
        """`manifest/unknown-key`, with "did you mean" the known key of that section within
        one edit (`outptu` -> `output`) and the quick fix that renames it."""
        # deferred: the analyzer's index loads where a key is unknown, not at start-up
        from kit_core.analyzer.suggest import Suggester

        section, _, leaf = key.rpartition(".")
        names = [k.leaf for k in children(section.removesuffix("[]"))]
        close = Suggester(n for n in names if n != "*").suggest(leaf)
        written = f"{section}.{close}" if section else close
        hint = f" - did you mean {written}?" if close else ""
        span = self.span(key_node)
        fixes = (Fix(f"Change to {close}", span, close),) if close else ()
        self.diags.append(make("manifest/unknown-key", span, key=key, hint=hint, fixes=fixes))

    def named(self, prefix: str, node: yaml.Node) -> None:
        """Unknown keys inside user-named mappings (a security scheme and its flows), by the
        key table; `x-` extensions pass, and what sits below a free key is not looked at."""
        if not isinstance(node, yaml.MappingNode):
            return
        for key_node, value_node in node.value:
            name = str(key_node.value)
            key = f"{prefix}.{name}"
            row = lookup(key)
            user_named = key.count(".") == 2  # the scheme's own name
            if row is None and not user_named and not name.startswith("x-"):
                self.unknown(key, key_node)
            elif user_named or (row is not None and row.kind.value == "section"):
                self.named(key, value_node)

    def scalar(self, key: str, node: yaml.Node) -> str | None:
        if not isinstance(node, yaml.ScalarNode):
            self.diags.append(make("manifest/value", self.span(node), message=f"{key} must be a single value"))
            return None
        return str(node.value)

    def targets(self, node: yaml.Node) -> list[dict[str, Any]]:
        if not isinstance(node, yaml.SequenceNode):
            self.diags.append(make("manifest/value", self.span(node), message="events.targets must be a list"))
            return []
        out: list[dict[str, Any]] = []
        for item in node.value:
            if not isinstance(item, yaml.MappingNode):
                self.diags.append(
                    make(
                        "manifest/value",
                        self.span(item),
                        message="each events.targets entry must be a mapping",
                    )
                )
                continue
            entry: dict[str, Any] = {"_span": self.span(item)}
            for k, v in item.value:
                name = f"events.targets[].{k.value}"
                if name in REMOVED_KEYS:
                    self.diags.append(make("manifest/removed-key", self.span(k), key=name, note=REMOVED_KEYS[name]))
                elif k.value in ("lang", "out"):
                    entry[k.value] = self.scalar(name, v)
                else:
                    self.unknown(name, k)
            out.append(entry)
        return out


def parse_manifest(path: str, text: str) -> tuple[Manifest, list[Diagnostic]]:
    """Read a manifest's text; never raises on bad input (problems come back as diagnostics)."""
    reader = _Reader(path, text)
    try:
        root = yaml.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        span = file_span(path)
        if mark is not None:
            span = Span(
                path,
                mark.index,
                mark.index,
                mark.line,
                mark.column,
                mark.line,
                mark.column,
                mark.column,
                mark.column,
            )
        return default_manifest(path), [make("manifest/syntax", span, message=str(exc).splitlines()[0])]
    if root is not None:
        reader.walk(root, "")
    manifest = _build(path, reader)
    return manifest, reader.diags + _check(manifest, reader)


def load_manifest(path: Path) -> tuple[Manifest, list[Diagnostic]]:
    return parse_manifest(str(path), path.read_text(encoding="utf-8"))


def _build(path: str, r: _Reader) -> Manifest:
    v = r.values
    kind = v.get("output.kind") or "application"
    col = 1 if kind == "contracts" else 0
    outputs: dict[str, str] = {k: str(v.get(f"output.{k}") or d[col]) for k, d in _OUTPUT_KEYS.items()}
    output = OutputConfig(kind=kind, file_case=v.get("output.fileCase") or "snake", **outputs)
    schemes = v.get("openapi.securitySchemes")
    openapi = OpenAPIConfig(
        title=v.get("openapi.title"),
        version=v.get("openapi.version") or "0.1.0",
        description=v.get("openapi.description"),
        base_path=v.get("openapi.basePath"),
        security_schemes=schemes if isinstance(schemes, dict) else {},
    )
    includes = v.get("proto.includes")
    proto = ProtoConfig(
        includes=tuple(str(i) for i in includes) if isinstance(includes, list) else (),
        plugin_go=v.get("proto.plugins.go") or "",
        plugin_go_grpc=v.get("proto.plugins.goGrpc") or "",
    )
    targets = None
    if "events.targets" in v:
        targets = tuple(EventTarget(str(t.get("lang") or ""), str(t.get("out") or "")) for t in v["events.targets"])
    return Manifest(path, openapi, output, targets, proto, dict(r.spans))


# --------------------------------------------------------------------------- checks


def _check(m: Manifest, r: _Reader) -> list[Diagnostic]:
    diags: list[Diagnostic] = []

    def at(key: str) -> Span:
        return r.spans.get(key, file_span(m.path))

    if m.output.kind not in KINDS:
        diags.append(
            make(
                "manifest/value",
                at("output.kind"),
                message=f'output.kind "{m.output.kind}" is not supported - use "application" or "contracts"',
            )
        )
    if m.output.file_case not in FILE_CASES:
        diags.append(
            make(
                "manifest/value",
                at("output.fileCase"),
                message=f'output.fileCase "{m.output.file_case}" is not supported - use "kebab", "snake", or "camel"',
            )
        )
    diags.extend(_check_output_paths(m, at, r.values.get("events.targets", [])))
    diags.extend(_check_targets(r))
    return diags


def _check_output_paths(m: Manifest, at: Any, targets: list[dict[str, Any]]) -> list[Diagnostic]:
    """Output keys as a set (spec "Manifest" rules, dsl-facts §4.2): inside the project; no
    directory at the project root (its sweep would cover the whole project); no two
    directories equal, nor one inside another (the names below an output come from the
    design and could land on the other). Events targets' `out` are directories like the rest."""
    diags: list[Diagnostic] = []
    dirs: list[tuple[str, str, Span]] = []  # (key, normalised path, span)
    for key, (_, _, dash_ok) in _OUTPUT_KEYS.items():
        value = str(getattr(m.output, key))
        span = at(f"output.{key}")
        if value == "-":
            if not dash_ok:
                diags.append(make("manifest/value", span, message=f'output.{key} cannot be "-"'))
            continue
        norm = _inside(f"output.{key}", value, span, diags)
        if norm is not None and key not in _FILE_OUTPUTS:
            dirs.append((f"output.{key}", norm, span))
    for key, value, span in _events_outs(m, targets, at):
        norm = _inside(key, value, span, diags)
        if norm is not None and m.events_targets is None:
            dirs.insert(0, (key, norm, span))  # the implicit default first: a clash is reported at the key
        elif norm is not None:
            dirs.append((key, norm, span))
    diags.extend(_overlaps(dirs))
    return diags


def _inside(key: str, value: str, span: Span, diags: list[Diagnostic]) -> str | None:
    norm = posixpath.normpath(value)
    if posixpath.isabs(norm) or norm == ".." or norm.startswith("../"):
        diags.append(make("manifest/value", span, message=f"{key} {value!r} must stay inside the project"))
        return None
    return norm


def _events_outs(m: Manifest, targets: list[dict[str, Any]], at: Any) -> list[tuple[str, str, Span]]:
    if m.events_targets is None:
        return [("events.targets[].out (default)", m.events_out_default(), at("events"))]
    outs = []
    for i, t in enumerate(m.events_targets):
        if t.out and t.out != "-":
            span = targets[i]["_span"] if i < len(targets) else at("events.targets")
            outs.append((f"events.targets[{i}].out", t.out, span))
    return outs


def _overlaps(dirs: list[tuple[str, str, Span]]) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for i, (key, path, span) in enumerate(dirs):
        if path == ".":
            diags.append(make("manifest/output-root", span, key=key))
            continue
        for other, opath, _ in dirs[:i]:
            if opath == ".":
                continue
            if opath == path:
                diags.append(make("manifest/output-collision", span, first=other, second=key, path=path))
            elif path.startswith(opath + "/"):
                diags.append(
                    make("manifest/output-nested", span, inner=key, inner_path=path, outer=other, outer_path=opath)
                )
            elif opath.startswith(path + "/"):
                diags.append(
                    make("manifest/output-nested", span, inner=other, inner_path=opath, outer=key, outer_path=path)
                )
    return diags


def _check_targets(r: _Reader) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    langs: set[str] = set()
    for t in r.values.get("events.targets", []):
        span = t["_span"]
        lang = t.get("lang")
        if not lang:
            diags.append(make("manifest/value", span, message="events.targets entry needs lang"))
        elif lang != "go":
            diags.append(
                make(
                    "manifest/value",
                    span,
                    message=f'events.targets lang "{lang}" is not supported - use "go"',
                )
            )
        elif lang in langs:
            diags.append(make("manifest/value", span, message=f'events.targets lang "{lang}" is listed twice'))
        if lang:
            langs.add(lang)
        if not t.get("out"):
            diags.append(make("manifest/value", span, message="events.targets entry needs out"))
    return diags
