"""The proto stage of a run: compile the design's protos, check them, locate every problem.

    pd = compile_design(design_root, project_root, manifest, overrides)
    pd.diagnostics   # protoc's messages and kit's proto rules, located in the .proto files
    pd.files         # every compiled file (design protos and their imports), dependency order

It runs on every run, also with `--target docs` (a proto that does not compile fails the
run before anything is written), and in the language server with the editor's buffers
(``overrides``: absolute path -> text).

Given the last design that compiled (``last``), only the protos that changed since and
the protos that import them, directly or not, are compiled again: the rest, and every
import outside the design, are handed to protoc as they were compiled (a keystroke in one
proto of a large set, or a file its neighbours import, does not re-parse the set).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from threading import Event
from typing import TYPE_CHECKING, Any

from kit_core.designfiles import design_files
from kit_core.diagnostics import Diagnostic, Severity, make
from kit_core.proto.compile import (
    ISOLATE_BYTES,
    Message,
    compile_protos,
    imports_in,
    in_protoc_order,
    well_known_root,
)
from kit_core.proto.places import ProtoText
from kit_core.proto.strip import strip_custom_options

if TYPE_CHECKING:
    from google.protobuf import descriptor_pb2


@dataclass
class ProtoDesign:
    root: Path  # the design folder: the first import root
    names: tuple[str, ...] = ()  # the design's own protos by import name, sorted
    files: tuple[descriptor_pb2.FileDescriptorProto, ...] = ()  # compiled, dependency order
    roots: tuple[Path, ...] = ()  # import roots in lookup order
    diagnostics: list[Diagnostic] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)  # protoc's, by file; with the diagnostics
    stamps: dict[str, object] = field(default_factory=dict)  # import name -> what it was compiled from
    first_pass: bool = False  # protoc's errors without option values (`first_pass`), standing in for a compile
    _texts: dict[str, ProtoText] = field(default_factory=dict)
    _overrides: dict[str, str] = field(default_factory=dict)  # import name -> buffer text

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    @property
    def compiled(self) -> bool:
        return bool(self.files) and not self.has_errors

    def file(self, name: str) -> descriptor_pb2.FileDescriptorProto | None:
        return next((f for f in self.files if f.name == name), None)

    def origin(self, name: str) -> str:
        """`design`, `include` or `wkt`: where an import name is found."""
        if name in self.names:
            return "design"
        found = self.disk_path(name)
        if found is not None and _under(found, well_known_root()):
            return "wkt"
        return "include"

    def disk_path(self, name: str) -> Path | None:
        for root in self.roots:
            if (root / name).is_file() or (root == self.root and name in self._overrides):
                return root / name
        return None

    def text(self, name: str) -> ProtoText:
        """The text of an import name (the editor buffer when there is one)."""
        if name not in self._texts:
            path = self.disk_path(name) or (self.root / name)
            data = self._overrides[name].encode("utf-8") if name in self._overrides else _read(path)
            self._texts[name] = ProtoText(str(path), data)
        return self._texts[name]


def design_protos(root: Path) -> list[str]:
    """Import names of every `.proto` under the design folder (the folders `kit gen` reads)."""
    return sorted(p.relative_to(root).as_posix() for p in design_files(root, ".proto"))


def compile_design(
    root: Path,
    project_root: Path,
    manifest: Any,
    overrides: Mapping[str, str] | None = None,
    last: ProtoDesign | None = None,
    isolate: bool = False,
    cancel: Event | None = None,
) -> ProtoDesign:
    """Compile and check the design's protos; never raises on bad input. ``last``: the last
    design of these settings that compiled (no errors), whose unchanged files are reused;
    ``isolate``: compile a large input in a child protoc (`compile_protos`), which
    ``cancel`` being set ends (`Cancelled` is raised)."""
    plan = _plan(root, project_root, manifest, overrides, last)
    pd, reused = plan.pd, plan.reused
    if not pd.names:
        return pd
    if reused is None:
        compiled = compile_protos(pd.roots, pd.names, plan.buffers, isolate=isolate, cancel=cancel)
        pd.messages = compiled.messages
        files = compiled.files
    else:
        pd.messages = [m for m in reused.messages if m.name not in plan.dirty]
        files = plan.known
        if _size(pd, plan) > ISOLATE_BYTES:
            # a parsed descriptor (and a place taken from one) keeps alive the whole set it
            # was parsed with: reused as they are, the unchanged files would keep the last
            # compile's copy of the large proto compiled again (~80 MB for 5 MB of text)
            files = [type(f).FromString(f.SerializeToString()) for f in files]
        else:
            pd._texts = {n: t for n, t in reused._texts.items() if n not in plan.dirty}
        if plan.dirty:  # none: the protos are back to what ``last`` compiled
            fresh = {n: t for n, t in plan.buffers.items() if n in plan.dirty}
            compiled = compile_protos(pd.roots, sorted(plan.dirty), fresh, plan.known, isolate, cancel=cancel)
            pd.messages += compiled.messages
            files = _in_order(pd.names, files, compiled.files) if compiled.files else []
    pd.diagnostics = [_diagnostic(pd, m) for m in pd.messages]
    if files and not pd.has_errors:
        # deferred: proto support (protobuf) loads only for a design with protos
        from kit_core.proto import checks

        _stamp_includes(pd, files)

        pd.files = tuple(files)
        pd.diagnostics += checks.check_design(pd, manifest)
    return pd


def first_pass(
    root: Path,
    project_root: Path,
    manifest: Any,
    overrides: Mapping[str, str] | None = None,
    last: ProtoDesign | None = None,
    shown: Iterable[str] = (),
) -> ProtoDesign | None:
    """The errors protoc finds in the protos `compile_design` would compile, custom option
    values left out (`kit_core.proto.strip`): their syntax errors, unresolved types and
    duplicate names, at their places, in a fraction of a large proto's compile. None when
    that input is small (the full compile is as quick) or does not strip cleanly. The
    result has no files (it did not compile) and no warnings of its own (over ``last``,
    the protos it does not compile again keep theirs); the full compile's diagnostics
    replace it.

    Over a compile of the whole design (no ``last`` to reuse), only what the editor shows
    is looked at: the open protos (``overrides``), the protos whose diagnostics are on
    display (``shown``, import names) and what they import, directly or not. The other
    protos have nothing on display and get nothing until the full compile: opening one
    proto of a large set does not wait for the set."""
    plan = _plan(root, project_root, manifest, overrides, last)
    pd = plan.pd
    todo = sorted(plan.dirty) if plan.reused is not None else list(pd.names)
    if not todo or sum(_proto_size(pd, plan.buffers, n) for n in todo) <= ISOLATE_BYTES:
        return None
    if plan.reused is None:
        datas = _import_closure(pd, plan.buffers, {*plan.buffers, *shown})
        todo = sorted(datas)
    else:
        datas = {n: _proto_bytes(pd, plan.buffers, n) for n in todo}
    texts: dict[str, str] = {}
    for name in todo:
        stripped = strip_custom_options(datas[name])
        if stripped is None:
            return None
        texts[name] = stripped.decode("utf-8", errors="replace")
    compiled = compile_protos(pd.roots, todo, texts, plan.known, isolate=True, quick=True)
    # the protos not compiled again keep their messages (warnings): the full compile takes
    # them as they are, and they stay on display meanwhile
    kept = [m for m in plan.reused.messages if m.name not in plan.dirty] if plan.reused is not None else []
    pd.messages = kept + [m for m in compiled.messages if not m.warning]
    pd.diagnostics = [_diagnostic(pd, m) for m in pd.messages]
    pd.first_pass = True
    return pd


def _import_closure(pd: ProtoDesign, buffers: Mapping[str, str], seeds: Iterable[str]) -> dict[str, bytes]:
    """``seeds`` and the design protos they import, directly or not, with their texts: the
    import statements say which (an import the pattern misses is still read by protoc,
    from disk, with its errors)."""
    names = set(pd.names)
    out: dict[str, bytes] = {}
    todo = [n for n in seeds if n in names]
    while todo:
        name = todo.pop()
        if name not in out:
            out[name] = data = _proto_bytes(pd, buffers, name)
            todo += [i for i in imports_in(data.decode("utf-8", errors="replace")) if i in names and i not in out]
    return out


def _proto_bytes(pd: ProtoDesign, buffers: Mapping[str, str], name: str) -> bytes:
    return buffers[name].encode("utf-8") if name in buffers else _read(pd.root / name)


def _proto_size(pd: ProtoDesign, buffers: Mapping[str, str], name: str) -> int:
    return len(buffers[name]) if name in buffers else _file_size(pd.root / name)


@dataclass
class _Plan:
    pd: ProtoDesign  # names, roots, stamps; nothing compiled
    buffers: dict[str, str]  # import name -> editor buffer
    reused: ProtoDesign | None  # the last compile standing in for the unchanged protos
    dirty: set[str] = field(default_factory=set)  # with ``reused``: the protos to compile again
    known: list[Any] = field(default_factory=list)  # with ``reused``: the files kept as compiled


def _plan(
    root: Path, project_root: Path, manifest: Any, overrides: Mapping[str, str] | None, last: ProtoDesign | None
) -> _Plan:
    """What a compile of the design would compile, and what it would take from ``last``."""
    root = root.resolve()
    buffers = {_rel(p, root): t for p, t in (overrides or {}).items() if p.endswith(".proto") and _under(Path(p), root)}
    names = sorted(set(design_protos(root)) | set(buffers))
    includes = [(project_root / inc).resolve() for inc in manifest.proto.includes]
    pd = ProtoDesign(root, tuple(names), roots=(root, *includes, well_known_root()), _overrides=buffers)
    if not names:
        return _Plan(pd, buffers, None)
    pd.stamps = {n: _stamp(root / n, buffers.get(n)) for n in names}
    reused = _reusable(last, pd)
    if reused is None:
        return _Plan(pd, buffers, None)
    dirty = _dependents(reused.files, {n for n in names if pd.stamps[n] != reused.stamps.get(n)})
    return _Plan(pd, buffers, reused, dirty, [f for f in reused.files if f.name not in dirty])


def _size(pd: ProtoDesign, plan: _Plan) -> int:
    """The bytes of the protos compiled again."""
    return sum(_proto_size(pd, plan.buffers, n) for n in plan.dirty)


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _stamp(path: Path, buffer: str | None) -> object:
    """What a proto is compiled from: its buffer's digest, or its file's time and size."""
    if buffer is not None:
        return hashlib.blake2b(buffer.encode("utf-8"), digest_size=16).digest()
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _reusable(last: ProtoDesign | None, pd: ProtoDesign) -> ProtoDesign | None:
    """``last`` when its compile can stand in for the unchanged part of ``pd``'s: it compiled,
    from the same import roots and the same set of protos (an added or removed proto may
    change what an import resolves to: everything is compiled again)."""
    if last is None or not last.compiled or last.roots != pd.roots or last.names != pd.names:
        return None
    for name, stamp in last.stamps.items():
        if name not in pd.stamps and _stamp(pd.disk_path(name) or pd.root / name, None) != stamp:
            return None  # a proto of proto.includes changed: what imports it is not known here
    return last


def _stamp_includes(pd: ProtoDesign, files: Iterable[Any]) -> None:
    """Stamp the imports found through proto.includes, so that a compile over this one
    notices them change (the well-known types do not)."""
    wkt = well_known_root()
    for f in files:
        if f.name not in pd.stamps and (path := pd.disk_path(f.name)) is not None and not _under(path, wkt):
            pd.stamps[f.name] = _stamp(path, None)


def _dependents(files: Iterable[Any], changed: set[str]) -> set[str]:
    """``changed`` and every file that imports one of them, directly or not."""
    importers: dict[str, list[str]] = {}
    for f in files:
        for dep in f.dependency:
            importers.setdefault(dep, []).append(f.name)
    out, todo = set(changed), list(changed)
    while todo:
        for name in importers.get(todo.pop(), ()):
            if name not in out:
                out.add(name)
                todo.append(name)
    return out


def _in_order(names: Iterable[str], known: list[Any], new: Iterable[Any]) -> list[Any]:
    """The known and the newly compiled files in protoc's order when it compiles ``names``
    at once."""
    by_name = {f.name: f for f in known}
    by_name.update((f.name, f) for f in new)
    return in_protoc_order(names, by_name)


def _diagnostic(pd: ProtoDesign, m: Message) -> Diagnostic:
    severity = Severity.WARNING if m.warning else None
    return make("proto/compile", pd.text(m.name).span(m.line, m.col), message=m.text, severity=severity)


def _rel(path: str, root: Path) -> str:
    return Path(path).resolve().relative_to(root).as_posix()


def _under(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""
