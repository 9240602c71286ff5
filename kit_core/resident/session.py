"""A design as a resident process sees it: a design folder with open buffers over its disk files.

Project mode: a `kit.design.yaml` in the file's folder or above makes that folder the
design root; the whole design is analysed, open buffers replacing what is on disk.
Without a manifest the file is analysed on its own (single-file mode).

Files on disk are parsed once and kept until their modification time changes; open
buffers (`buffers.Buffer`, kit-lsp's documents) are parsed by themselves. Each analysis yields an immutable `Snapshot`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit_core import racy
from kit_core.analyzer import Analysis, Analyzer, analyze
from kit_core.design_text import read_design
from kit_core.designfiles import design_paths, design_root_for
from kit_core.diagnostics import Diagnostic, merge
from kit_core.lower import parse_file
from kit_core.manifest import MANIFEST_NAME, Manifest, default_manifest
from kit_core.manifest_reader import parse_manifest
from kit_core.model import SourceFile
from kit_core.resident.buffers import Buffer
from kit_core.resident.protos import Protos
from kit_core.symbols import SymbolTable

__all__ = ["DesignSession", "DiskFiles", "Snapshot", "analyze_single", "design_root_for"]


@dataclass
class Snapshot:
    """One analysis of a design (or of a lone file) and everything features read from it."""

    key: str  # the design root, or the file path in single-file mode
    root: Path | None
    manifest: Manifest
    files: dict[str, SourceFile]
    diagnostics: list[Diagnostic]
    symbols: SymbolTable
    analysis: Any = None
    versions: dict[str, int | None] = field(default_factory=dict)  # open buffers analysed
    manifest_text: str | None = None  # the manifest's text analysed (None: no manifest)
    protos: Any = None  # kit_core.proto.ProtoDesign: the design's protos compiled (None without protos)
    proto_outlines: Any = field(default_factory=dict)  # import name -> last good outline (.get(name, []))

    def diagnostics_for(self, path: str) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.span.path == path]

    def file(self, path: str) -> SourceFile | None:
        return self.files.get(path)

    def text_of(self, path: str) -> str | None:
        f = self.files.get(path)
        return f.source if f is not None else None


class DiskFiles:
    """Parsed design files on disk, re-parsed only when their mtime or size changes.

    A file checked less than ``trust`` seconds ago is not looked at again (a keystroke
    should not stat every file of a large design); `forget_checks` ends that trust (a
    watched-file event)."""

    def __init__(self, trust: float = 0.0) -> None:
        self._cache: dict[str, tuple[tuple[int, int], SourceFile]] = {}
        self._read_at: dict[str, int] = {}  # path -> wall clock (ns) just before it was read
        self._checked: dict[str, float] = {}
        self.trust = trust

    def forget_checks(self) -> None:
        self._checked.clear()

    def get(self, path: str) -> SourceFile | None:
        if self.trust:
            now = time.monotonic()
            hit = self._cache.get(path)
            if hit is not None and now - self._checked.get(path, -self.trust) < self.trust:
                return hit[1]
            self._checked[path] = now
        try:
            st = os.stat(path)
        except OSError:
            self._cache.pop(path, None)
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        hit = self._cache.get(path)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        self._read_at[path] = time.time_ns()
        parsed = parse_file(path, read_design(path))
        self._cache[path] = (stamp, parsed)
        return parsed

    def vouches(self, path: str, parsed: SourceFile) -> bool:
        """Whether ``parsed``, read from ``path``, is still what the file holds, by one `stat`:
        the size and time it had when read, a time older than the read by more than the
        file system's clock could hide (git's "racy" rule). False means: look at the bytes."""
        hit = self._cache.get(path)
        if hit is None or hit[1] is not parsed:
            return False
        try:
            st = os.stat(path)
        except OSError:
            return False
        stamp = (st.st_mtime_ns, st.st_size)
        return stamp == hit[0] and stamp[0] < self._read_at.get(path, 0) - racy.RACY_NS

    def confirmed(self, path: str, since_ns: int) -> None:
        """The file's bytes, read after ``since_ns``, are still those parsed: as good as a read
        then (a file edited and read at once would otherwise be read at every check)."""
        if path in self._cache:
            self._read_at[path] = max(self._read_at.get(path, 0), since_ns)


class DesignSession:
    """One design root: its disk cache and the analyzer's incremental session."""

    WALK_TTL = 2.0  # seconds a listing of the design's files is trusted without a file event

    def __init__(self, root: Path) -> None:
        self.root = root
        self.disk = DiskFiles(self.WALK_TTL)
        self._watched = False
        self._paths: set[str] | None = None
        self._walked = 0.0
        self._on_disk: tuple[set[str], dict[str, SourceFile | None]] | None = None  # a listing's files
        self._analyzer: Analyzer | None = None
        self._manifest: Manifest | None = None
        self._manifest_text: tuple[str, Manifest, list[Diagnostic]] | None = None
        self.protos = Protos(root)

    def analyze(self, open_docs: Mapping[str, Buffer]) -> Snapshot:
        mpath = str(self.root / MANIFEST_NAME)
        manifest_doc = open_docs.get(mpath)
        manifest_text, manifest_version = manifest_doc.text_version() if manifest_doc is not None else (None, None)
        text, manifest, mdiags = _manifest(self.root, manifest_text, self._manifest_text)
        self._manifest_text = (text, manifest, mdiags) if text is not None else None
        files, versions = self._files(open_docs)
        if manifest_doc is not None:
            versions[mpath] = manifest_version
        analysis = self._update(manifest, files)
        compiled, proto_versions = self.protos.compile(manifest, open_docs)
        versions.update(proto_versions)
        diags = merge(mdiags, analysis.diagnostics, self.protos.diagnostics(manifest, analysis))
        symbols = analysis.symbols
        snap = Snapshot(str(self.root), self.root, manifest, files, diags, symbols, analysis, versions, text)
        snap.protos, snap.proto_outlines = compiled, self.protos.outlines
        return snap

    @property
    def watched(self) -> bool:
        """Whether file events come for every change on disk (`forget_listing`): the
        listings are then trusted until one comes, not walked again by age."""
        return self._watched

    @watched.setter
    def watched(self, value: bool) -> None:
        self._watched = self.protos.watched = value

    def forget_listing(self) -> None:
        """Files were created, changed or deleted: list and check them again next time."""
        self._paths = None
        self._on_disk = None
        self.disk.forget_checks()
        self.protos.forget_listing()

    def _listing(self) -> set[str]:
        """The design's files on disk: walked again after a file event (`forget_listing`), and
        after `WALK_TTL` when no file events come (a client that does not watch files)."""
        now = time.monotonic()
        if self._paths is None or (not self.watched and now - self._walked > self.WALK_TTL):
            self._paths, self._walked = set(design_paths(self.root)), now
        return self._paths

    def _files(self, open_docs: Mapping[str, Buffer]) -> tuple[dict[str, SourceFile], dict[str, int | None]]:
        """The design's files (open buffers over disk) and the version of each open buffer read.
        While file events come (`watched`), the files read from disk are those of the last
        call until an event: a keystroke then costs the open buffers, not the design."""
        listing = self._listing()
        docs = {p: d for p, d in open_docs.items() if d.kind == "kit"}
        kept = self._on_disk
        if not (self.watched and kept is not None and kept[0] is listing and kept[1].keys() >= docs.keys()):
            # in order of path, as features list them; an open buffer's place is held (None)
            # so that its text takes it without sorting again
            disk: dict[str, SourceFile | None] = {}
            for path in sorted(listing | docs.keys()):
                disk[path] = None if path in docs else self.disk.get(path)
            kept = self._on_disk = (listing, disk)
        files = dict(kept[1])
        versions: dict[str, int | None] = {}
        for path, doc in docs.items():
            files[path], versions[path] = doc.parsed_version()
        return {p: f for p, f in files.items() if f is not None}, versions

    def _update(self, manifest: Manifest, files: dict[str, SourceFile]) -> Analysis:
        if self._analyzer is None or manifest != self._manifest:
            self._analyzer, self._manifest = Analyzer(manifest), manifest
            return self._analyzer.update_all(files.values())
        session = self._analyzer
        known = {f.path: f for f in session.files}
        result: Analysis | None = None
        for path in known.keys() - files.keys():
            result = session.remove(path)
        for path, f in files.items():
            if known.get(path) is not f:
                result = session.update(f)
        return result if result is not None else session.analysis()


def analyze_single(doc: Buffer) -> Snapshot:
    """A file outside any design folder, checked on its own."""
    manifest = default_manifest(str(Path(doc.path).parent / MANIFEST_NAME))
    parsed, version = doc.parsed_version()
    analysis = analyze([parsed], manifest)
    files = {doc.path: parsed}
    versions = {doc.path: version}
    diags = list(analysis.diagnostics)
    return Snapshot(doc.path, None, manifest, files, diags, analysis.symbols, analysis, versions)


def _manifest(
    root: Path, buffer: str | None, last: tuple[str, Manifest, list[Diagnostic]] | None = None
) -> tuple[str | None, Manifest, list[Diagnostic]]:
    """(text, manifest, diagnostics) of the design's manifest (``buffer``: its open buffer's
    text); ``last`` is reused when the text is the same (a keystroke in a `.kit` file does
    not parse the YAML again)."""
    mpath = root / MANIFEST_NAME
    try:
        text = buffer if buffer is not None else mpath.read_text(encoding="utf-8")
    except OSError:
        return None, default_manifest(str(mpath)), []
    if last is not None and last[0] == text:
        return last
    if not text.strip():
        return text, default_manifest(str(mpath)), []
    return (text, *parse_manifest(str(mpath), text))
