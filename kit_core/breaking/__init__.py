"""Changes that break clients between the design at a git ref and the design now.

    with baseline_at("main", design_root, project_root) as base:     # git archive -> temp dir
        changes = breaking_changes(base, analysis, compiled_protos)   # sorted, deterministic

HTTP and events (`http.py`): routes, methods, statuses, the top-level fields of each method;
below them, error bodies and event payloads, what travels to any depth (`walk.py`: nested
types, array and map elements, generic instances, enums), each change once per declaration
with the paths and carriers it reaches (`change.Reach`). Fields, their pairing and the
direction rules: `fields.py`. Protos (`proto.py`): messages, fields, enums, services, RPCs,
with the RPCs and paths that reach them (`proto_reach.py`). `kit diff` prints them (`cli.py`;
JSON and SARIF: `report.py`); kit-lsp shows them as diagnostics when the setting names a
baseline ref.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path, PurePath
from typing import Any

from kit_core import program
from kit_core.analyzer import analyze
from kit_core.breaking.baseline import BaselineError, design_at
from kit_core.breaking.change import CODES, Change, Place, Reach
from kit_core.breaking.http import compare_http
from kit_core.breaking.proto import Index, compare_protos, proto_index
from kit_core.source import Span

__all__ = ["CODES", "Baseline", "BaselineError", "Change", "Place", "Reach", "baseline_at", "breaking_changes"]


@dataclass(frozen=True, slots=True)
class Baseline:
    """The design at a ref, analysed and indexed in memory (its files are gone)."""

    ref: str
    rel: str  # the design folder, relative to the repository
    root: str  # where it was unpacked (spans point there)
    analysis: Any
    protos: Index
    top: str = ""  # the repository's top folder (the work tree's)

    def where(self, span: Span) -> Place:
        try:
            rel = PurePath(span.path).relative_to(self.root).as_posix()
        except ValueError:
            rel = span.path
        path = rel if self.rel in ("", ".") else f"{self.rel}/{rel}"
        return Place(self.ref, path, span.start_line + 1, span.start_col + 1)


@contextmanager
def baseline_at(ref: str, design_root: Path, project_root: Path) -> Iterator[Baseline]:
    with design_at(ref, design_root, project_root) as (design, rel, top):
        analysis = analyze(design.files, design.manifest)
        protos = proto_index(program.compile_protos(design)) if design.protos else ({}, {}, {})
        yield Baseline(ref, rel, str(design.root), analysis, protos, str(top))


def breaking_changes(base: Baseline, analysis: Any, compiled: Any) -> list[Change]:
    """``analysis`` and ``compiled`` (a `ProtoDesign`, or None) describe the design now."""
    changes = compare_http(base.analysis, analysis, base.where)
    changes += compare_protos(base.protos, proto_index(compiled), base.where)
    unique: dict[tuple[str, str, Span | None, Place | None], Change] = {}
    for c in changes:  # one change met twice: once, with what both reach
        key = (c.code, c.message, c.span, c.was)
        seen = unique.get(key)
        unique[key] = c if seen is None else replace(c, reaches=tuple(sorted({*seen.reaches, *c.reaches})))
    return sorted(unique.values(), key=Change.sort_key)
