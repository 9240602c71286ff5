"""Notices of the Go side: logic stubs left behind by a renamed or dropped method."""

from __future__ import annotations

import os

from kit_core.generators.base import GenContext, Notice, OutputFile
from kit_core.generators.go.gocontext import GoGen
from kit_core.generators.go.render import GEN_ONCE_HEADER


def stale_stub_notices(g: GoGen, ctx: GenContext, files: list[OutputFile]) -> list[Notice]:
    """A stub directory holding scaffold stubs that no method writes any more (never deleted)."""
    root = os.path.join(ctx.project_root, g.layout.service)
    if not os.path.isdir(root):
        return []
    written = {f.path for f in files}
    stale: dict[str, list[str]] = {}
    for dirpath, _, filenames in os.walk(root):
        for name in sorted(filenames):
            if not name.endswith(".go"):
                continue
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, ctx.project_root).replace(os.sep, "/")
            if rel not in written and _is_scaffold(full):
                stale.setdefault(os.path.dirname(rel), []).append(name)
    return [
        Notice(d, f"{d}: logic stubs no method writes any more ({', '.join(names)}); "
                  "move their code and delete them by hand")
        for d, names in sorted(stale.items())
    ]


def _is_scaffold(path: str) -> bool:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.readline().rstrip("\n") == GEN_ONCE_HEADER
    except OSError:
        return False
