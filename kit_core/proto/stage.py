"""The proto stage of a run: compile the design's protos, check them, locate every problem.

    pd = compile_design(design_root, project_root, manifest, overrides)
    pd.diagnostics   # protoc's messages and kit's proto rules, located in the .proto files
    pd.files         # every compiled file (design protos and their imports), dependency order

It runs on every run, also with `--target docs` (a proto that does not compile fails the
run before anything is written), and in the language server with the editor's buffers
(``overrides``: absolute path -> text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit_core.designfiles import design_files
from kit_core.diagnostics import Diagnostic, Severity, make
from kit_core.proto.compile import Message, compile_protos, well_known_root
from kit_core.proto.places import ProtoText

if TYPE_CHECKING:
    from google.protobuf import descriptor_pb2


@dataclass
class ProtoDesign:
    root: Path  # the design folder: the first import root
    names: tuple[str, ...] = ()  # the design's own protos by import name, sorted
    files: tuple[descriptor_pb2.FileDescriptorProto, ...] = ()  # compiled, dependency order
    roots: tuple[Path, ...] = ()  # import roots in lookup order
    diagnostics: list[Diagnostic] = field(default_factory=list)
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
) -> ProtoDesign:
    """Compile and check the design's protos; never raises on bad input."""
    root = root.resolve()
    buffers = {_rel(p, root): t for p, t in (overrides or {}).items() if p.endswith(".proto") and _under(Path(p), root)}
    names = sorted(set(design_protos(root)) | set(buffers))
    includes = [(project_root / inc).resolve() for inc in manifest.proto.includes]
    pd = ProtoDesign(root, tuple(names), roots=(root, *includes, well_known_root()), _overrides=buffers)
    if not names:
        return pd
    compiled = compile_protos(pd.roots, names, buffers)
    pd.diagnostics = [_diagnostic(pd, m) for m in compiled.messages]
    if compiled.files and not pd.has_errors:
        # deferred: proto support (protobuf) loads only for a design with protos
        from kit_core.proto import checks

        pd.files = tuple(compiled.files)
        pd.diagnostics += checks.check_design(pd, manifest)
    return pd


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
