"""Which files make a design, by the one rule `kit gen`, `kit fmt` and kit-lsp share: every
file with the suffix under the design folder, recursively, skipping hidden and vendored
folders. Standard library only (kit-lsp's start-up code lists designs with it before the
rest of kit is imported)."""

from __future__ import annotations

import os
from pathlib import Path

MANIFEST_NAME = "kit.design.yaml"
GO_MOD = "go.mod"  # marks the project root
SKIP_DIRS = frozenset({"vendor", "node_modules"})


def _walk(root: Path) -> list[tuple[str, list[str], list[str]]]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
        out.append((dirpath, dirnames, filenames))
    return out


def design_files(root: Path, suffix: str | tuple[str, ...] = ".kit") -> list[Path]:
    """Every design file under the root (with the suffix, or one of them), recursively,
    skipping hidden and vendored folders."""
    out: list[Path] = []
    for dirpath, _, filenames in _walk(root):
        out.extend(Path(dirpath) / f for f in sorted(filenames) if f.endswith(suffix))
    return out


def design_root_for(path: str) -> Path | None:
    """The design folder of a file: the nearest folder at or above the file's folder
    holding a manifest (None: a file outside any design)."""
    p = Path(path)
    return p.parent if p.name == MANIFEST_NAME else _manifest_parent(p)


def design_roots(folder: Path) -> list[Path]:
    """The design folders (holding a manifest) at or under ``folder``."""
    return [Path(dirpath) for dirpath, _, filenames in _walk(folder) if MANIFEST_NAME in filenames]


def search_design_root(start: Path) -> tuple[Path | None, list[Path]]:
    """(the design folder for a path, the candidates when several): the path itself, its
    one direct subfolder holding a manifest, the nearest parent holding one, or else the
    project root's (the nearest folder at or above the path holding go.mod): the root
    itself or its one direct subfolder holding a manifest. `kit gen` therefore finds the
    design from anywhere in the project (`internal/`, a service folder). None with the
    subfolders when several hold one (or with none found)."""
    start = start.resolve()
    if start.is_file():
        start = start.parent
    found, several = _at(start)
    if found is not None or several:
        return found, several
    parent = _manifest_parent(start)
    if parent is not None:
        return parent, []
    root = next((d for d in (start, *start.parents) if (d / GO_MOD).is_file()), None)
    if root is None or root == start:
        return None, []
    return _at(root)


def _at(d: Path) -> tuple[Path | None, list[Path]]:
    """The folder itself when it holds a manifest, else its one direct subfolder holding one."""
    if (d / MANIFEST_NAME).is_file():
        return d, []
    found = _manifest_subdirs(d)
    return (found[0], found) if len(found) == 1 else (None, found)


def _manifest_subdirs(d: Path) -> list[Path]:
    try:
        subdirs = sorted(p for p in d.iterdir() if p.is_dir())
    except OSError:
        return []
    wanted = (p for p in subdirs if not p.name.startswith(".") and p.name not in SKIP_DIRS)
    return [p for p in wanted if (p / MANIFEST_NAME).is_file()]


def _manifest_parent(d: Path) -> Path | None:
    return next((parent for parent in d.parents if (parent / MANIFEST_NAME).is_file()), None)
