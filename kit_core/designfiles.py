"""Which files make a design, by the one rule `kit gen`, `kit fmt` and kit-lsp share: every
file with the suffix under the design folder, recursively, skipping hidden and vendored
folders. Standard library only (kit-lsp's start-up code lists designs with it before the
rest of kit is imported)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

MANIFEST_NAME = "kit.design.yaml"
GO_MOD = "go.mod"  # marks the project root
SKIP_DIRS = frozenset({"vendor", "node_modules"})


Walk = list[tuple[str, list[str], list[str]]]

# The walks of one generation run, by folder (`one_walk`): a resident kit's edit run lists the
# design for its inputs' digest, for the session's listing, for the check that the analysis
# is what is on disk and for protos - four walks of every folder of the design (~1,000 files
# in 500 folders at 10,000 types), where one gives the same answer.
_run_walks: ContextVar[dict[object, Walk] | None] = ContextVar("kit_run_walks", default=None)
_run_files: ContextVar[dict[object, list[str]] | None] = ContextVar("kit_run_files", default=None)


@contextmanager
def one_walk() -> Iterator[None]:
    """Within the block, each folder is walked once: later calls list what the first saw
    (one generation run takes one view of its design; files added meanwhile show next run)."""
    walks, files = _run_walks.set({}), _run_files.set({})
    try:
        yield
    finally:
        _run_walks.reset(walks)
        _run_files.reset(files)


def walk(root: Path) -> Walk:
    """`os.walk` of a design folder (hidden and vendored folders skipped), names sorted."""
    held = _run_walks.get()
    key = str(root)
    if held is not None and key in held:
        return held[key]
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
        out.append((dirpath, dirnames, sorted(filenames)))
    if held is not None:
        held[key] = out
    return out


def design_files(root: Path, suffix: str | tuple[str, ...] = ".kit") -> list[Path]:
    """Every design file under the root (with the suffix, or one of them), recursively,
    skipping hidden and vendored folders."""
    return [Path(p) for p in design_paths(root, suffix)]


def design_paths(root: Path, suffix: str | tuple[str, ...] = ".kit") -> list[str]:
    """`design_files` as strings (what a resident process compares with its files' paths:
    a `Path` per file costs more than the walk at 10,000 types)."""
    held = _run_files.get()
    key = (str(root), suffix)
    if held is not None and key in held:
        return list(held[key])
    out = [os.path.join(dirpath, f) for dirpath, _, filenames in walk(root) for f in filenames if f.endswith(suffix)]
    if held is not None:
        held[key] = list(out)
    return out


def design_root_for(path: str) -> Path | None:
    """The design folder of a file: the nearest folder at or above the file's folder
    holding a manifest (None: a file outside any design)."""
    p = Path(path)
    return p.parent if p.name == MANIFEST_NAME else _manifest_parent(p)


def design_roots(folder: Path) -> list[Path]:
    """The design folders (holding a manifest) at or under ``folder``."""
    return [Path(dirpath) for dirpath, _, filenames in walk(folder) if MANIFEST_NAME in filenames]


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
