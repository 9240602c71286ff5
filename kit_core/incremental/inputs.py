"""One digest of everything a run reads, taken before parsing anything.

Equal to the last successful run's (and with its outputs intact on disk), the run has
nothing to render: it prints what that run printed, sweeps and reports. It covers kit's
build, the project and design folders (real paths), the targets, `go.mod`, the manifest's
bytes and every design file (`*.kit`, `*.proto`) by path and bytes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from kit_core.incremental.keys import digest

DESIGN_SUFFIXES = (".kit", ".proto")
_SKIP_DIRS = frozenset({"vendor", "node_modules"})


def design_inputs(root: Path) -> list[tuple[str, bytes]]:
    """(path relative to the design folder, bytes) of the manifest and every design file,
    walked as `program.design_files` walks (hidden and vendored folders skipped)."""
    out: list[tuple[str, bytes]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS)
        rel = os.path.relpath(dirpath, root)
        for name in sorted(filenames):
            if name.endswith(DESIGN_SUFFIXES) or (rel == "." and name == "kit.design.yaml"):
                path = os.path.join(dirpath, name)
                try:
                    with open(path, "rb") as fh:
                        out.append((os.path.normpath(os.path.join(rel, name)), fh.read()))
                except OSError:
                    out.append((path, b"\0unreadable"))
    return out


def inputs_digest(
    build: str, design_root: Path, project_root: Path, go_mod: Path | None, targets: Iterable[str]
) -> str:
    parts: list[str | bytes] = [
        build,
        os.path.realpath(design_root),
        os.path.realpath(project_root),
        ",".join(sorted(targets)),
    ]
    if go_mod is not None:
        try:
            parts += [str(go_mod), go_mod.read_bytes()]
        except OSError:
            parts.append("go.mod unreadable")
    for path, data in design_inputs(design_root):
        parts += [path, data]
    return digest(*parts)
