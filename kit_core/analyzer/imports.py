"""Imports (accepted, with no effect): escape, duplicates, alias conflicts, own folder,
folders that do not exist in the design."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Sequence
from functools import partial

from kit_core.analyzer.context import Ctx, related
from kit_core.model import Import, SourceFile


def design_root(files: Sequence[SourceFile], manifest_path: str | None) -> str:
    if manifest_path:
        return os.path.dirname(manifest_path)
    dirs = [os.path.dirname(f.path) for f in files]
    try:
        return os.path.commonpath(dirs) if dirs else ""
    except ValueError:
        return ""


def _rel_dir(path: str, root: str) -> str:
    d = os.path.dirname(path)
    try:
        rel = os.path.relpath(d, root) if root or os.path.isabs(d) else d
    except ValueError:
        rel = d
    return posixpath.normpath(rel.replace(os.sep, "/")) if rel else "."


def check_design(ctx: Ctx, files: Sequence[SourceFile]) -> None:
    """Replayed while no edit changed a file's imports, nor added or removed a file (the
    folders the imports may name)."""
    ctx.design_part(("imports",), lambda f: f.imports, partial(_check, ctx, files))


def _check(ctx: Ctx, files: Sequence[SourceFile]) -> None:
    if not any(f.imports for f in files):
        return
    root = design_root(files, ctx.manifest.path if ctx.manifest else None)
    dirs: set[str] = set()
    for f in files:
        d = _rel_dir(f.path, root)
        while d not in ("", "."):
            dirs.add(d)
            d = posixpath.dirname(d)
    for f in files:
        if f.imports:
            _file(ctx, f, _rel_dir(f.path, root), dirs)


def _file(ctx: Ctx, f: SourceFile, own: str, dirs: set[str]) -> None:
    paths: dict[str, Import] = {}
    aliases: dict[str, Import] = {}
    for imp in f.imports:
        path = imp.path
        first = path.split("/")[0] if path else ""
        if not path or path.startswith("/") or first in (".", "..") or "\\" in path:
            ctx.report("import/escape", imp.span, path=path)
            continue
        prev = paths.setdefault(posixpath.normpath(path), imp)
        if prev is not imp:
            ctx.report("import/duplicate", imp.span, path=path, related=related(prev.span, "first imported here"))
            continue
        alias = imp.alias or posixpath.basename(posixpath.normpath(path))
        prev = aliases.setdefault(alias, imp)
        if prev is not imp:
            ctx.report(
                "import/alias-conflict",
                imp.span,
                alias=alias,
                other=prev.path,
                related=related(prev.span, "the alias is first used here"),
            )
        norm = posixpath.normpath(path)
        if norm == own:
            ctx.warn("import/self", imp.span, path=path)
        elif norm not in dirs:
            ctx.report("import/unresolved", imp.span, path=path)
