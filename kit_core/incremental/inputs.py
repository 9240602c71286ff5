"""One digest of everything a run reads, taken before parsing anything.

Equal to the last successful run's (and with its outputs intact on disk), the run has
nothing to render: it prints what that run printed, sweeps and reports. It covers kit's
build, the project and design folders (real paths), the targets, `go.mod`, the manifest's
bytes and every design file (`*.kit`, `*.proto`) by path and the digest of its bytes.

A process that lives on (the resident kit) keeps the digest of each file it read with the
file's `stat`, and takes it again while the `stat` is the same and older than the read by
more than the file system's clock could hide (git's "racy" rule): a no-op run at 10,000
types then stats ~1,000 files instead of reading and hashing 8 MB.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from kit_core import racy
from kit_core.designfiles import MANIFEST_NAME, walk
from kit_core.incremental.keys import digest

DESIGN_SUFFIXES = (".kit", ".proto")
_KEEP = 200_000  # files whose digest a process keeps (a bound, not a working size)

# path -> ((size, mtime_ns, ctime_ns, inode), digest of the bytes, wall clock before the read)
_digests: dict[str, tuple[tuple[int, int, int, int], str, int]] = {}
_digests_lock = threading.Lock()
counts = {"read": 0}  # files read and hashed (a work count the tests read)


def design_inputs(root: Path) -> list[tuple[str, str]]:
    """(path relative to the design folder, digest of its bytes) of the manifest and every
    design file, walked as `program.design_files` walks (the same walk, within a run)."""
    out: list[tuple[str, str]] = []
    base = os.path.join(str(root), "")
    for dirpath, _, filenames in walk(root):
        rel = dirpath[len(base) :] if dirpath.startswith(base) else ""
        for name in filenames:
            if name.endswith(DESIGN_SUFFIXES) or (not rel and name == MANIFEST_NAME):
                path = os.path.join(dirpath, name)
                out.append((os.path.join(rel, name) if rel else name, _file_digest(path)))
    return out


def _file_digest(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "\0unreadable"
    stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    with _digests_lock:
        kept = _digests.get(path)
    if kept is not None and kept[0] == stamp and racy.settled(stamp[1], stamp[2], kept[2]):
        return kept[1]
    before = time.time_ns()
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return "\0unreadable"
    counts["read"] += 1
    found = digest(data)
    with _digests_lock:
        if len(_digests) >= _KEEP:
            _digests.clear()
        _digests[path] = (stamp, found, before)
    return found


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
