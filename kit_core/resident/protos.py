"""A design's protos as a resident session sees them: compiled in-process exactly as
`kit gen` compiles them (`kit_core.proto.compile_design`), with open `.proto` buffers in
place of the files on disk, and compiled again only when a proto (buffer or file), the
manifest's proto settings or the set of protos changed - a keystroke in a `.kit` file
does not run protoc - and then only the changed protos and those importing them are
compiled again over the last compile that succeeded.

The last outline of each proto that compiled is kept, so the document symbols of a proto
being edited into an error stay (at their last known places) until it compiles again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kit_core.diagnostics import Diagnostic
from kit_core.proto.outline import Outlines
from kit_core.resident.buffers import Buffer

LISTING_TTL = 2.0  # seconds a listing of the design's protos is trusted without a file event


class Protos:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._key: tuple[object, ...] | None = None
        self._design: Any = None  # kit_core.proto.ProtoDesign
        # the last design that compiled, with the settings it compiled under: what the next
        # compile reuses (its unchanged protos are not parsed again)
        self._good: tuple[tuple[object, ...], Any] | None = None
        self._listed: tuple[float, list[str]] | None = None
        self.watched = False  # file events come for every change on disk: no walk by age
        self.outlines: Any = {}  # import name -> last good outline (kit_core.proto.outline.Outlines)

    def forget_listing(self) -> None:
        self._listed = None

    def _names(self) -> list[str]:
        now = time.monotonic()
        if self._listed is None or (not self.watched and now - self._listed[0] > LISTING_TTL):
            # deferred: proto support (protobuf) loads only for a design with protos
            from kit_core.proto import design_protos

            self._listed = (now, design_protos(self.root))
        return self._listed[1]

    def compile(self, manifest: Any, open_docs: Mapping[str, Buffer]) -> tuple[Any, dict[str, int | None]]:
        """(the compiled design or None without protos, the proto buffers' versions read)."""
        buffers = {p: d for p, d in open_docs.items() if d.kind == "proto" and _under(p, self.root)}
        disk = [str(self.root / n) for n in self._names()]
        if not buffers and not disk:
            self._key, self._design, self._good = None, None, None
            return None, {}
        texts = {p: d.text_version() for p, d in buffers.items()}
        versions = {p: tv[1] for p, tv in texts.items()}
        key = (
            manifest.proto,
            manifest.output.pb,
            manifest.output.file_case,
            tuple(sorted((p, tv[0]) for p, tv in texts.items())),
            tuple((p, _stamp(p)) for p in disk if p not in buffers),
        )
        if key != self._key:
            # deferred: proto support (protobuf) loads only for a design with protos
            from kit_core.proto import compile_design

            settings = key[:3]
            last = self._good if self._good is not None and self._good[0] == settings else None
            sources = {p: t for p, (t, _) in texts.items()}
            good = last[1] if last else None
            self._design = compile_design(self.root, self.root.parent, manifest, sources, good, isolate=True)
            self._key = key
            if self._design.compiled:
                self._good = (settings, self._design)
            self._remember_outlines()
        return self._design, versions

    def diagnostics(self, manifest: Any, analysis: Any) -> list[Diagnostic]:
        """The proto stage's diagnostics, and the clashes of gRPC and HTTP service directories."""
        pd = self._design
        if pd is None:
            return []
        out = list(pd.diagnostics)
        if pd.compiled:
            # deferred: proto support (protobuf) loads only for a design with protos
            from kit_core.proto.checks import http_dir_clashes

            out += http_dir_clashes(pd, manifest, getattr(analysis, "http", None))
        return out

    def _remember_outlines(self) -> None:
        pd = self._design
        if pd is None or not pd.compiled:
            return
        self.outlines = Outlines(pd, self.outlines if isinstance(self.outlines, Outlines) else None)


def _stamp(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (0, -1)
    return (st.st_mtime_ns, st.st_size)


def _under(path: str, root: Path) -> bool:
    try:
        Path(path).relative_to(root)
    except ValueError:
        return False
    return True
