"""Open documents: their text, their tree-sitter tree and their model, kept in step.

Edits arrive as LSP ranges; each one is turned into a byte edit that is applied to the
text and recorded on the tree (``tree.edit``), so the next parse reuses everything the
edit did not touch. Parsing and lowering happen lazily (``parsed()``), under the
document's lock, from whichever thread needs the model first; lowering reuses the
declarations of the previous version whose lines the edits left alone.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as lsp
from pygls.uris import to_fs_path
from tree_sitter import Tree

from kit_core import gcpause, syntax
from kit_core.lower import Reuse, lower_tree
from kit_core.manifest import MANIFEST_NAME
from kit_core.model import SourceFile
from kit_lsp.convert import byte_column


def path_of(uri: str) -> str:
    fs = to_fs_path(uri)
    return str(Path(fs).resolve()) if fs else uri


def kind_of(path: str) -> str:
    if path.endswith(".kit"):
        return "kit"
    if Path(path).name == MANIFEST_NAME:
        return "manifest"
    if path.endswith(".proto"):
        return "proto"
    return "other"


@dataclass(eq=False)
class Document:
    uri: str
    path: str
    version: int | None
    source: bytes
    tree: Tree | None = None
    _file: SourceFile | None = None
    _starts: list[int] | None = None
    _tree_fresh: bool = False
    _reuse: Reuse = field(default_factory=Reuse)  # declarations of the last lowering
    lock: threading.RLock = field(default_factory=threading.RLock)

    @property
    def kind(self) -> str:
        return kind_of(self.path)

    @property
    def text(self) -> str:
        return self.source.decode("utf-8", "replace")

    def text_version(self) -> tuple[str, int | None]:
        """The text and its version, read together (see `parsed_version`)."""
        with self.lock:
            return self.text, self.version

    # ------------------------------------------------------------------ edits

    def apply(self, changes: Sequence[lsp.TextDocumentContentChangeEvent], version: int | None, encoding: str) -> None:
        with self.lock:
            for change in changes:
                if isinstance(change, lsp.TextDocumentContentChangePartial):
                    self._apply_partial(change, encoding)
                else:
                    self.source, self.tree = change.text.encode("utf-8"), None
                    self._starts = None
            if self._file is not None:
                gcpause.retire(self._file)  # freed after the diagnostics are out, not on the way
            self.version, self._file, self._tree_fresh = version, None, False

    def _apply_partial(self, change: lsp.TextDocumentContentChangePartial, encoding: str) -> None:
        starts = self.line_starts()  # of the text before this change
        start = self.offset(change.range.start, encoding)
        end = max(start, self.offset(change.range.end, encoding))
        edit = syntax.TextEdit(start, end, change.text.encode("utf-8"))
        if self.tree is not None and self.kind == "kit":
            self.source = syntax.edit(self.tree, self.source, edit)
        else:
            self.source = self.source[:start] + edit.new_text + self.source[end:]
        self._starts = _moved_starts(starts, start, end, edit.new_text)

    def offset(self, pos: lsp.Position, encoding: str) -> int:
        """The byte offset of a client position (clamped to the text)."""
        starts = self.line_starts()
        if pos.line >= len(starts):
            return len(self.source)
        begin = starts[pos.line]
        end = starts[pos.line + 1] - 1 if pos.line + 1 < len(starts) else len(self.source)
        return begin + byte_column(self.source[begin:end], pos.character, encoding)

    def end_position(self, encoding: str) -> lsp.Position:
        starts = self.line_starts()
        last = self.source[starts[-1] :].decode("utf-8", "replace")
        if encoding == lsp.PositionEncodingKind.Utf8:
            return lsp.Position(len(starts) - 1, len(self.source) - starts[-1])
        units = len(last) if encoding == lsp.PositionEncodingKind.Utf32 else len(last.encode("utf-16-le")) // 2
        return lsp.Position(len(starts) - 1, units)

    def line_starts(self) -> list[int]:
        if self._starts is None:
            starts, i = [0], self.source.find(b"\n")
            while i >= 0:
                starts.append(i + 1)
                i = self.source.find(b"\n", i + 1)
            self._starts = starts
        return self._starts

    # ------------------------------------------------------------------ parsing

    def current_tree(self) -> Tree:
        """The tree of the current text (an incremental reparse after edits; cheap)."""
        with self.lock:
            if not self._tree_fresh or self.tree is None:
                self.tree = syntax.parse(self.source, self.tree)
                self._tree_fresh = True
            return self.tree

    def parsed(self) -> SourceFile:
        """The model of the current text (lowered once per version)."""
        return self.parsed_version()[0]

    def parsed_version(self) -> tuple[SourceFile, int | None]:
        """The model of the current text and the version it is the text of, read together:
        an edit applied between reading one and the other would label an older model with a
        newer version (and publish its diagnostics as the newer text's)."""
        with self.lock:
            if self._file is None:
                tree = self.current_tree()
                self._file = lower_tree(self.path, self.source, tree, self._reuse)
            return self._file, self.version


class DocumentStore:
    def __init__(self) -> None:
        self._docs: dict[str, Document] = {}

    def open(self, item: lsp.TextDocumentItem) -> Document:
        doc = Document(item.uri, path_of(item.uri), item.version, item.text.encode("utf-8"))
        self._docs[item.uri] = doc
        return doc

    def close(self, uri: str) -> Document | None:
        return self._docs.pop(uri, None)

    def get(self, uri: str) -> Document | None:
        return self._docs.get(uri)

    def by_path(self, path: str) -> Document | None:
        for doc in self._docs.values():
            if doc.path == path:
                return doc
        return None

    def __iter__(self) -> Iterator[Document]:
        return iter(list(self._docs.values()))

    def under(self, root: Path) -> list[Document]:
        return [d for d in self if _is_under(d.path, root)]


def _moved_starts(starts: list[int], start: int, end: int, new_text: bytes) -> list[int]:
    """Line starts after replacing bytes [start, end) by ``new_text``: those up to the edit
    kept, those of the new text added, the later ones moved (no scan of the whole text)."""
    lo, hi = bisect_right(starts, start), bisect_right(starts, end)
    added: list[int] = []
    i = new_text.find(b"\n")
    while i >= 0:
        added.append(start + i + 1)
        i = new_text.find(b"\n", i + 1)
    delta = len(new_text) - (end - start)
    return [*starts[:lo], *added, *[s + delta for s in starts[hi:]]]


def _is_under(path: str, root: Path) -> bool:
    try:
        Path(path).relative_to(root)
    except ValueError:
        return False
    return True
