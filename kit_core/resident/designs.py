"""Designs held parsed and analysed by a process that generates them (kit-lsp's generation
worker, `kit gen`'s resident kit), and the check that makes such a design usable by a run:
`as_loaded` gives it only when every file it analysed has, on disk, the text it analysed
(and no design file was added or removed)."""

from __future__ import annotations

import time
from pathlib import Path

from kit_core import program
from kit_core.design_text import normalize_design, read_design
from kit_core.designfiles import design_paths
from kit_core.manifest import MANIFEST_NAME
from kit_core.manifest_reader import parse_manifest
from kit_core.regenerate import Loaded
from kit_core.resident.session import DesignSession, DiskFiles, Snapshot


def as_loaded(root: Path, snap: Snapshot, disk: DiskFiles | None = None) -> Loaded | None:
    """The snapshot as a loaded design, when it is exactly what is on disk: every file
    ``disk`` (which read them) vouches for by its `stat`, the others by their bytes."""
    if snap.root is None or Path(snap.root).resolve() != root.resolve() or snap.analysis is None:
        return None
    listed = design_paths(root, (".kit", ".proto"))  # one walk for both
    if any(p.endswith(".proto") for p in listed):
        return None  # protos are compiled (and checked) by the run itself
    if set(listed) != snap.files.keys():
        return None
    for path, f in snap.files.items():
        if disk is not None and disk.vouches(path, f):
            continue
        since = time.time_ns()
        try:
            if normalize_design(f.source) != read_design(path):
                return None
        except OSError:
            return None
        if disk is not None:
            disk.confirmed(path, since)
    if not _manifest_on_disk(root, snap):
        return None
    manifest_diags = [d for d in snap.diagnostics if d.span.path == snap.manifest.path]
    design = program.Design(root, root.parent.resolve(), snap.manifest, list(snap.files.values()), manifest_diags)
    return Loaded(design, program.CheckResult(list(snap.diagnostics), snap.analysis))


def _manifest_on_disk(root: Path, snap: Snapshot) -> bool:
    path = root / MANIFEST_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return not path.exists() and snap.manifest.path == str(path)
    if not text.strip() or text == snap.manifest_text:  # the very text analysed: no YAML parse
        return True
    return parse_manifest(str(path), text)[0] == snap.manifest


class ResidentDesigns:
    """A generating process's own parsed and analysed designs (kit-lsp's generation worker,
    the resident kit), one incremental session per root, so a run after an edit parses and
    analyses only what changed."""

    def __init__(self) -> None:
        self._sessions: dict[Path, DesignSession] = {}

    def snapshot(self, root: Path) -> Snapshot:
        session = self._sessions.get(root)
        if session is None:
            session = self._sessions[root] = DesignSession(root)
        session.forget_listing()  # a save may have added or removed files: list them again
        return session.analyze({})

    def disk(self, root: Path) -> DiskFiles | None:
        """The files the design's snapshots were read from."""
        session = self._sessions.get(root)
        return session.disk if session is not None else None

    def holds(self, root: Path) -> bool:
        return root in self._sessions

    def forget(self, root: Path) -> None:
        """Drop the design's session (its folder is gone, or room is needed)."""
        self._sessions.pop(root, None)
