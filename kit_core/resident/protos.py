"""A design's protos as a resident session sees them: compiled in-process exactly as
`kit gen` compiles them (`kit_core.proto.compile_design`), with open `.proto` buffers in
place of the files on disk, and compiled again only when a proto (buffer or file), the
manifest's proto settings or the set of protos changed - a keystroke in a `.kit` file
does not run protoc - and then only the changed protos and those importing them are
compiled again over the last compile that succeeded.

The last outline of each proto that compiled is kept, so the document symbols of a proto
being edited into an error stay (at their last known places) until it compiles again.

With ``on_ready`` set (the language server), a large input (over `ISOLATE_BYTES`) is
checked in two steps: the full compile starts in the background at once, and meanwhile a
first pass compiles the same protos without their custom option values
(`kit_core.proto.stage.first_pass`, a sixth of the CPU on a proto full of protovalidate
rules; over a whole set, only the open protos, those with diagnostics on display and what
they import) and stands as the design until the full compile ends; ``on_ready`` then asks for
another analysis, which takes the full compile's design in its place (its diagnostics
replace the first pass's whole). A change before then ends the full compile it makes
stale (its child protoc is killed) and starts the next.
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kit_core.diagnostics import Diagnostic
from kit_core.proto.outline import Outlines
from kit_core.resident.buffers import Buffer

log = logging.getLogger(__name__)

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
        # told (from a background thread) when a full compile behind a first pass has ended
        self.on_ready: Callable[[], None] | None = None
        self._full: _Full | None = None  # the full compile behind the current first pass
        self._shown: set[str] = set()  # import names of the protos the last diagnostics were in

    @property
    def pending(self) -> bool:
        """Whether a first pass stands in for a full compile still running."""
        return self._full is not None

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
            self._stop_full()
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

            self._stop_full()
            settings = key[:3]
            last = self._good if self._good is not None and self._good[0] == settings else None
            sources = {p: t for p, (t, _) in texts.items()}
            good = last[1] if last else None
            self._key = key
            if self.on_ready is None:
                design = compile_design(self.root, self.root.parent, manifest, sources, good, isolate=True)
                self._adopt(design, settings)
            else:
                # one proto: its first pass takes one core, the full compile the other; a
                # set's first pass takes both (two halves side by side): the full compile after
                single = len(set(disk) | set(buffers)) == 1
                self._compile_in_steps(manifest, sources, good, settings, single)
        elif self._full is not None and self._full.done.is_set():
            full, self._full = self._full, None
            if full.design is not None:
                self._adopt(full.design, full.settings, trim=True)
        return self._design, versions

    def _adopt(self, design: Any, settings: tuple[object, ...], trim: bool = False) -> None:
        self._design = design
        if design.compiled:
            self._good = (settings, design)
        self._remember_outlines()
        if trim:
            _trim()  # the design it replaces, a large one, is free now

    def _compile_in_steps(
        self, manifest: Any, sources: dict[str, str], good: Any, settings: tuple[object, ...], early: bool
    ) -> None:
        """Stand a first pass in for the full compile, which runs in the background (started
        first when ``early``); a small input (no first pass), or a full compile done first,
        is waited for."""
        # deferred: proto support (protobuf) loads only for a design with protos
        from kit_core.proto.stage import first_pass

        assert self.on_ready is not None
        full = _Full(settings, self.on_ready)
        thread = threading.Thread(target=full.run, args=(self.root, manifest, sources, good), name="kit-proto-full")
        if early:
            thread.start()
        try:
            quick = first_pass(self.root, self.root.parent, manifest, sources, good, self._shown)
        except BaseException:
            full.cancel.set()
            raise
        if not early:
            if quick is None:
                full.run(self.root, manifest, sources, good)  # here and now: nothing to wait for
            else:
                thread.start()
        if quick is not None and full.notify_when_done():
            self._full, self._design = full, quick
            _trim()  # the first pass's copies of a large text
            return
        if thread.is_alive() or early:
            thread.join()
        if full.design is None:
            raise RuntimeError(f"compiling the protos of {self.root} failed")
        self._adopt(full.design, settings)

    def _stop_full(self) -> None:
        if self._full is not None:
            self._full.cancel.set()  # its result would be stale: its child protoc is ended
            self._full = None

    def diagnostics(self, manifest: Any, analysis: Any) -> list[Diagnostic]:
        """The proto stage's diagnostics, and the clashes of gRPC and HTTP service directories."""
        pd = self._design
        if pd is None:
            self._shown = set()
            return []
        out = list(pd.diagnostics)
        if pd.compiled:
            # deferred: proto support (protobuf) loads only for a design with protos
            from kit_core.proto.checks import http_dir_clashes

            out += http_dir_clashes(pd, manifest, getattr(analysis, "http", None))
        # a first pass looks at these again: on display, they must not wait for the full compile
        self._shown = {_rel(d.span.path, pd.root) for d in out if d.span.path and _under(d.span.path, pd.root)}
        return out

    def _remember_outlines(self) -> None:
        pd = self._design
        if pd is None or not pd.compiled:
            return
        self.outlines = Outlines(pd, self.outlines if isinstance(self.outlines, Outlines) else None)


class _Full:
    """A full compile running in the background behind a first pass."""

    def __init__(self, settings: tuple[object, ...], ready: Callable[[], None]) -> None:
        self.settings = settings
        self.cancel = threading.Event()
        self.done = threading.Event()
        self.design: Any = None
        self._ready = ready
        self._lock = threading.Lock()
        self._notify = False

    def notify_when_done(self) -> bool:
        """Have ``ready`` told when the compile ends; False if it has ended already."""
        with self._lock:
            self._notify = not self.done.is_set()
            return self._notify

    def run(self, root: Path, manifest: Any, sources: dict[str, str], good: Any) -> None:
        # deferred: proto support (protobuf) loads only for a design with protos
        from kit_core.proto import compile_design
        from kit_core.proto.compile import Cancelled  # deferred: as compile_design

        try:
            self.design = compile_design(root, root.parent, manifest, sources, good, isolate=True, cancel=self.cancel)
        except Cancelled:
            pass
        except Exception:  # a bug in a stage must not take the server down
            log.exception("compiling the protos of %s failed", root)
        with self._lock:
            self.done.set()
            notify = self._notify and not self.cancel.is_set()
        if notify:
            self._ready()


def _trim() -> None:
    """Hand freed memory back to the system: glibc keeps what a large compile freed (tens of
    MB) in its heap otherwise, and the next compile's peak comes on top of it."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def _stamp(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (0, -1)
    return (st.st_mtime_ns, st.st_size)


def _rel(path: str, root: Path) -> str:
    return Path(path).relative_to(root).as_posix()


def _under(path: str, root: Path) -> bool:
    try:
        Path(path).relative_to(root)
    except ValueError:
        return False
    return True
