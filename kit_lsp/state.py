"""The server's state: open documents, per-design caches, the latest snapshots, settings.

Analyses run on one worker thread (they share the disk caches); `snapshot_for` is what
feature handlers call: the latest analysis of the document's design, computed on demand
when there is none yet or when the document changed since.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kit_core.model import SourceFile
from kit_lsp.convert import UTF16
from kit_lsp.documents import Document, DocumentStore
from kit_lsp.project import DiskFiles, Snapshot, analyze_design, analyze_single, design_root_for
from kit_lsp.settings import Settings


class State:
    def __init__(self) -> None:
        self.docs = DocumentStore()
        self.settings = Settings()
        self.encoding: str = UTF16
        self.analysis_pool = ThreadPoolExecutor(1, thread_name_prefix="kit-analysis")
        self._disk: dict[Path, DiskFiles] = {}
        self._snapshots: dict[str, Snapshot] = {}
        self._lock = threading.RLock()

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
                disk = self._disk.setdefault(path, DiskFiles())
                snap = analyze_design(path, open_docs, disk)
            else:
                doc = self.docs.by_path(key)
                if doc is None:
                    raise KeyError(key)
                snap = analyze_single(doc)
            self._snapshots[key] = snap
            return snap

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

    def file_for(self, doc: Document) -> SourceFile:
        return doc.parsed()

    def text_of(self, path: str) -> str | None:
        doc = self.docs.by_path(path)
        if doc is not None:
            return doc.text
        for snap in list(self._snapshots.values()):
            text = snap.text_of(path)
            if text is not None:
                return text
        return None
