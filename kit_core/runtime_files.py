"""Which files of the Go runtime ship with kit (in the wheel, and in kit's copy inside a project).

Imported by `setup.py` at build time, so this module uses the standard library only.
Tests and test data stay behind: a generated project builds the runtime, it never tests it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


def shipped(root: Path) -> Iterator[Path]:
    """Every file under ``root`` a project needs to build against it, as relative paths, sorted."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")) and d != "testdata")
        here = Path(dirpath)
        for name in sorted(filenames):
            if name.startswith(".") or name.endswith("_test.go"):
                continue
            yield (here / name).relative_to(root)


def shipped_names(root: Path) -> list[str]:
    """What `shipped` lists, as POSIX strings (no `Path` per file: a resident process stamps
    them at every run)."""
    out: list[str] = []
    cut = len(str(root)) + 1
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")) and d != "testdata")
        rel = dirpath[cut:].replace(os.sep, "/")
        for name in sorted(filenames):
            if not (name.startswith(".") or name.endswith("_test.go")):
                out.append(f"{rel}/{name}" if rel else name)
    return out
