"""Per-file facts the design rules need, computed from the file alone and cached by the
session while the file is unchanged (so an edit elsewhere does not recompute them)."""

from __future__ import annotations

from dataclasses import dataclass

from kit_core.analyzer.walk import refs_of
from kit_core.analyzer.walk import walk_ref as _walk
from kit_core.model import SourceFile, TypeRef


@dataclass(frozen=True, slots=True)
class FileSummary:
    mentions_file: bool  # some type reference names the `file` primitive
    edges: dict[str, TypeRef]  # other package -> the first field/mixin reference to it


def summarize(file: SourceFile) -> FileSummary:
    mentions = False
    edges: dict[str, TypeRef] = {}
    for site in refs_of(file):
        for r in _walk(site.ref):
            if r.package is None and r.name == "file" and not r.args:
                mentions = True
            elif site.role in ("field", "mixin") and r.package and r.package != file.package:
                edges.setdefault(r.package, r)
    return FileSummary(mentions, edges)
