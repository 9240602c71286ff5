"""Stub drift in the editor (`kit_core.stubs`): on the method in the `.kit` file (or the RPC
in the `.proto` file) whose gen-once stub no longer matches what the design generates,
with the signature rewrite as a quick fix; and, for a renamed method, a note that the next
generation carries the old stub's code into the new one. Computed off the keystroke path
after the analysis, and again when a Go file changes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kit_core import program
from kit_core.diagnostics import Diagnostic, make
from kit_core.editor.lenses import renamed_stubs
from kit_core.generators.base import GenContext
from kit_core.resident.session import Snapshot
from kit_core.stubs import Expected, drift_diagnostics, expected_stubs, find_drift
from kit_core.stubs.carry import rename_pairs
from kit_core.stubs.drift import Read
from kit_lsp.background import DesignJob
from kit_lsp.state import View

if TYPE_CHECKING:
    from kit_lsp.app import KitLanguageServer

SOURCE = "stubs"
DELAY_S = 0.3


class Memo:
    """What the last computation of each design read: the stubs a design expects follow from
    its methods, manifest, protos and Go module, so while the snapshot holds the same objects
    (the analyzer keeps its HTTP model while no method's binding changes) nothing changed and
    the stubs are not rendered again: a keystroke elsewhere costs nothing here. Forgotten
    when a Go file changes or a generation wrote stubs (`DesignJob.refresh_all`)."""

    def __init__(self) -> None:
        self._read: dict[str, tuple[object, ...]] = {}

    def forget(self) -> None:
        self._read.clear()

    def compute(self, snap: Snapshot) -> dict[str, list[Diagnostic]] | None:
        if snap.root is None or snap.analysis is None or snap.analysis.has_errors:
            return None  # the design must be sound for the generated signatures to mean anything
        try:
            module = program.find_go_module(snap.root.parent)[1]
        except program.DesignError:
            module = None
        same = (snap.analysis.http, snap.manifest, snap.protos)  # compared by identity: large values
        equal = (module, tuple(sorted(snap_renames(snap).items())))
        read = (*same, equal)
        last = self._read.get(snap.key)
        if last is not None and all(a is b for a, b in zip(last[:3], same, strict=True)) and last[3] == equal:
            return None  # leave what is published
        found = compute(snap)
        self._read[snap.key] = read
        return found


def compute(snap: Snapshot) -> dict[str, list[Diagnostic]] | None:

    if snap.root is None or snap.analysis is None or snap.analysis.has_errors:
        return None  # the design must be sound for the generated signatures to mean anything
    if snap.protos is not None and snap.protos.first_pass:
        return None  # a large proto's first pass: its full compile is coming (what it had stays)
    project = snap.root.parent
    try:
        _, module = program.find_go_module(project)
    except program.DesignError:
        return {}
    protos = None
    if snap.protos is not None and snap.protos.compiled:
        # deferred: proto support (protobuf) loads only for a design with protos
        from kit_core.proto import ProtoSet

        protos = ProtoSet.build(snap.protos.files, snap.protos.names, snap.manifest, module)
    design_dir = snap.root.relative_to(project).as_posix()
    ctx = GenContext(snap.manifest, snap.analysis, module, str(project), design_dir, protos=protos)
    expected = expected_stubs(ctx, snap.protos)

    def read(path: str) -> bytes | None:
        try:
            return (project / path).read_bytes()
        except OSError:
            return None

    diags = drift_diagnostics(find_drift(expected, read), project) + renamed(expected, snap, project, read)
    out: dict[str, list[Diagnostic]] = {}
    for d in diags:
        out.setdefault(d.span.path, []).append(d)
    return out


def renamed(expected: list[Expected], snap: Snapshot, project: Path, read: Read) -> list[Diagnostic]:
    """`stub/renamed` on a method whose new stub the next generation fills with the code of
    an old one (`kit_core.stubs.carry.rename_pairs`, as `kit gen` pairs them)."""

    service = snap.manifest.output.path("service")
    if service is None:
        return []
    new = [(e.path, e.text) for e in expected if not (project / e.path).is_file()]
    if not new:
        return []
    produced = {e.path for e in expected}
    root = project / service
    stale = sorted(p.relative_to(project).as_posix() for p in root.rglob("*.go")) if root.is_dir() else []
    pairs = rename_pairs(new, [p for p in stale if p not in produced], read, snap_renames(snap))
    by_new = {e.path: e for e in expected}
    return [
        make(
            "stub/renamed", by_new[p.new].span, label=by_new[p.new].label, old=p.old, old_label=p.old_method, new=p.new
        )
        for p in pairs
    ]


RENAMES: dict[str, dict[str, str]] = {}
"""Design root -> {old stub: new stub} of methods renamed with kit-lsp's rename since the
last generation; the generation on save passes them to the writer, which pairs those stubs
even when the method's types changed too."""


def snap_renames(snap: Snapshot) -> dict[str, str]:
    return dict(RENAMES.get(snap.key, {}))


def remember_stub_renames(view: View, node: object, new: str) -> None:
    """A method or service renamed in the editor: its stubs' code moves at the next generation."""

    snap = view.snapshot
    if snap.root is None or snap.analysis is None:
        return
    moved = renamed_stubs(snap.analysis, snap.manifest, node, new)
    if moved:
        RENAMES.setdefault(snap.key, {}).update(moved)


def register(server: KitLanguageServer) -> None:
    memo = Memo()
    server.stub_drift = DesignJob(server, SOURCE, memo.compute, DELAY_S, memo.forget)
    server.analysis_listeners.append(server.stub_drift.on_snapshot)
