"""The server's state: open documents, per-design caches, the latest snapshots, settings.

Analyses run on one worker thread (they share the disk caches); `snapshot_for` is what
feature handlers call: the latest analysis of the document's design, computed on demand
when there is none yet or when the document changed since.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from lsprotocol import types as lsp

from kit_core import gcpause
from kit_core.model import SourceFile
from kit_core.resident.session import DesignSession, Snapshot, analyze_single, design_root_for
from kit_core.symbols import SymbolTable
from kit_lsp.convert import UTF16, uri_of
from kit_lsp.documents import Document, DocumentStore
from kit_lsp.settings import Settings


@dataclass
class View:
    """One document as features see it: its current model, and the latest analysis of its
    design with the document's current model in place of the analysed one."""

    doc: Document
    file: SourceFile
    snapshot: Snapshot
    encoding: str
    _symbols: SymbolTable | None = field(default=None, repr=False)

    @property
    def files(self) -> list[SourceFile]:
        others = [f for p, f in self.snapshot.files.items() if p != self.doc.path]
        return [self.file, *others]

    @property
    def symbols(self) -> SymbolTable:
        if self._symbols is None:
            same = self.snapshot.files.get(self.doc.path) is self.file
            self._symbols = self.snapshot.symbols if same else SymbolTable.build(self.files)
        return self._symbols

    def offset(self, pos: lsp.Position) -> int:
        return self.doc.offset(pos, self.encoding)

    def file_of(self, path: str) -> SourceFile | None:
        return self.file if path == self.doc.path else self.snapshot.files.get(path)


class State:
    def __init__(self) -> None:
        self.docs = DocumentStore()
        self.settings = Settings()
        self.encoding: str = UTF16
        self.workspace_root: Path | None = None  # the client's root folder
        self.folders: list[Path] = []  # the workspace folders
        self.designs: set[str] = set()  # design roots found in the workspace folders
        self.analysis_pool = ThreadPoolExecutor(1, thread_name_prefix="kit-analysis")
        self._sessions: dict[Path, DesignSession] = {}
        self.watching = False  # the client sends file events (`watch`)
        self._snapshots: dict[str, Snapshot] = {}
        self._lock = threading.RLock()
        # told (any thread) when a design's protos compiled in the background: set by the diagnostics
        self.protos_ready: Callable[[str], None] | None = None

    # ------------------------------------------------------------------ keys

    def key_for(self, doc: Document) -> str:
        """The design root for a document (project mode) or its own path (single file)."""
        root = design_root_for(doc.path)
        return str(root) if root is not None else doc.path

    def docs_for(self, key: str) -> list[Document]:
        """Open documents whose diagnostics an analysis of ``key`` decides."""
        path = Path(key)
        if path.is_dir():
            return [d for d in self.docs.under(path) if self.key_for(d) == key]
        doc = self.docs.by_path(key)
        return [doc] if doc is not None else []

    # ------------------------------------------------------------------ analysis

    def analyze(self, key: str) -> Snapshot:
        """Analyse a design root or a lone file now (any thread) and remember the result."""
        with self._lock:
            path = Path(key)
            if path.is_dir():
                open_docs = {d.path: d for d in self.docs_for(key)}
                session = self._sessions.get(path)
                if session is None:
                    session = self._sessions[path] = DesignSession(path)
                    session.watched = self.watching
                    session.protos.on_ready = partial(self._protos_ready, key)
                snap = session.analyze(open_docs)
            else:
                doc = self.docs.by_path(key)
                if doc is None:
                    raise KeyError(key)
                snap = analyze_single(doc)
            old = self._snapshots.get(key)
            if old is not None:
                gcpause.retire(old)  # see `release`
            self._snapshots[key] = snap
            return snap

    def watch(self) -> None:
        """The client watches the design files for us: listings are trusted until an event."""
        with self._lock:
            self.watching = True
            for session in self._sessions.values():
                session.watched = True

    def _protos_ready(self, key: str) -> None:
        """A full proto compile behind a first pass ended (on its own thread): analyse again."""
        if self.protos_ready is not None:
            self.protos_ready(key)

    def release(self) -> None:
        """Free what analyses replaced (previous models and snapshots), once their results
        are out: deallocating a large design's model costs milliseconds a keystroke."""
        gcpause.release()

    def files_changed(self, root: str) -> None:
        """Design files were created, changed or deleted under ``root`` (watched-file
        events, a closed buffer): list and check them again."""
        session = self._sessions.get(Path(root))
        if session is not None:
            session.forget_listing()

    def tracks(self, root: str) -> bool:
        """Whether the design at ``root`` is analysed (in the workspace, or a file of it is open)."""
        return root in self.designs or Path(root) in self._sessions or bool(self.docs_for(root))

    def latest(self, key: str) -> Snapshot | None:
        return self._snapshots.get(key)

    def forget(self, key: str) -> None:
        self._snapshots.pop(key, None)

    def snapshot_for(self, doc: Document, fresh: bool = True) -> Snapshot:
        """The latest snapshot holding the document; re-analysed when ``fresh`` and stale."""
        key = self.key_for(doc)
        snap = self._snapshots.get(key)
        if snap is None or (fresh and snap.versions.get(doc.path, -1) != doc.version):
            snap = self.analyze(key)
        return snap

    def view(self, uri: str, fresh: bool = False) -> View | None:
        """The document's view for a request (None when the document is not open).

        Reading requests (hover, completion) take the latest analysis as it is; ``fresh``
        ones, whose answer edits text (rename, quick fixes), need the analysis of every open
        buffer as it is now, or their edits land on offsets of an older text."""
        doc = self.docs.get(uri)
        if doc is None or doc.kind != "kit":
            return None
        file = doc.parsed()
        key = self.key_for(doc)
        snap = self.latest(key)
        if snap is None or (fresh and self._stale(key, snap)):
            snap = self.analyze(key)
        return View(doc, file, snap, self.encoding)

    def _stale(self, key: str, snap: Snapshot) -> bool:
        return any(snap.versions.get(d.path, -1) != d.version for d in self.docs_for(key))

    def uri_for(self, path: str) -> str:
        """A file's URI as the client knows it (the one it opened it with, if open)."""
        doc = self.docs.by_path(path)
        return doc.uri if doc is not None else uri_of(path)

    def text_of(self, path: str) -> str | None:
        doc = self.docs.by_path(path)
        if doc is not None:
            return doc.text
        for snap in list(self._snapshots.values()):
            text = snap.text_of(path)
            if text is not None:
                return text
        return None
