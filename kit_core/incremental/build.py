"""Which kit produced a cache: its version and the exact files of the installed package.

A cache is trusted only by the kit that wrote it. The version alone is not enough (a
checkout between releases, an edited template), so the identity also covers the name,
size and modification time of every file of `kit_core` (sources, templates, queries, the
compiled grammar): a few hundred `stat` calls, once per process. The `gofmt` kit runs is
part of it too (its version decides the formatted bytes).
"""

from __future__ import annotations

import os
import shutil
from functools import lru_cache
from pathlib import Path

import kit_core
from kit_core.incremental.keys import digest

_SUFFIXES = (".py", ".j2", ".scm", ".so", ".json", ".yaml")


@lru_cache(maxsize=1)
def build_id() -> str:
    root = Path(kit_core.__file__).resolve().parent
    parts = [kit_core.__version__]
    parts.append(package_files(root))
    parts.append(_tool("gofmt"))
    return digest(*parts)


def package_files(root: Path) -> str:
    """The name, size and time of every file of a package folder kit runs or reads."""
    parts = []
    cut = len(str(root)) + 1
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        rel = dirpath[cut:]
        for name in sorted(filenames):
            if name.endswith(_SUFFIXES):
                st = os.stat(os.path.join(dirpath, name))
                parts.append(f"{rel}/{name}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        return f"{name}:none"
    st = os.stat(path)
    return f"{name}:{os.path.realpath(path)}:{st.st_size}:{st.st_mtime_ns}"
