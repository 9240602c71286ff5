"""Put a run's outputs on disk: ownership, all-or-nothing atomic writes, sweeping, notices.

    report = write_outputs(project_root, files, manifest, targets=("go", "docs"))

Everything is decided first (:mod:`plan`), then carried out (:mod:`apply`). A run that
finds a problem (a user's file at a REGEN path, a path outside the project) writes
nothing and returns the problems in ``report.errors``; a run whose write fails mid-way is
rolled back. Notices are returned as data for the caller to print.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit_core.generators.base import Notice, OutputFile
from kit_core.stubs.step import stubs_step
from kit_core.writer.apply import WriteFailed, apply_plan
from kit_core.writer.headers import GO_GEN_ONCE, GO_REGEN, YAML_REGEN
from kit_core.writer.host import DiskHost, Host, MemoryHost
from kit_core.writer.notices import grpc_notices, stale_stub_notices
from kit_core.writer.plan import Plan, classify, stale_files
from kit_core.writer.roots import sweep_roots

__all__ = [
    "GO_GEN_ONCE",
    "GO_REGEN",
    "YAML_REGEN",
    "DiskHost",
    "Host",
    "MemoryHost",
    "WriteReport",
    "plan_outputs",
    "write_outputs",
]

ALL_TARGETS = ("go", "docs")


@dataclass(slots=True)
class WriteReport:
    written: list[str] = field(default_factory=list)  # created or replaced
    unchanged: list[str] = field(default_factory=list)  # REGEN, byte-identical: not touched
    skipped_gen_once: list[str] = field(default_factory=list)  # GEN-ONCE already present
    swept: list[str] = field(default_factory=list)  # stale REGEN files deleted
    removed_dirs: list[str] = field(default_factory=list)  # directories the sweep emptied
    notices: list[Notice] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # non-empty: nothing was changed

    @property
    def ok(self) -> bool:
        return not self.errors


def plan_outputs(
    host: Host,
    files: Sequence[OutputFile],
    manifest: Any,
    targets: Iterable[str] = ALL_TARGETS,
    sweep: bool = True,
    renames: Mapping[str, str] | None = None,
) -> Plan:
    """What a run would do, touching nothing (also a dry run). ``renames`` maps an old
    logic stub to the new stub of its renamed method (kit-lsp's rename says so)."""
    chosen = tuple(targets)
    plan = Plan()
    stub_notices: list[Notice] = []
    if "go" in chosen:
        files, stub_notices = stubs_step(host, files, manifest, renames)
    classify(host, files, plan)
    produced = {f.path for f in files}
    if sweep:
        plan.sweep = stale_files(host, sweep_roots(manifest, produced, chosen), produced)
    if "go" in chosen:
        swept = {w.path for w in plan.sweep}
        carried = {n.path for n in stub_notices}
        stale = [n for n in stale_stub_notices(host, manifest, produced) if n.path not in carried]
        plan.notices = stale + stub_notices + grpc_notices(host, manifest, files, swept)
    return plan


def write_outputs(
    project_root: Path | str,
    files: Sequence[OutputFile],
    manifest: Any,
    *,
    targets: Iterable[str] = ALL_TARGETS,
    host: Host | None = None,
    sweep: bool = True,
    renames: Mapping[str, str] | None = None,
) -> WriteReport:
    """Write ``files`` under ``project_root`` (or into ``host``) and sweep stale REGEN files.

    ``targets`` is what the run generated (`go`, `docs`): a docs-only run sweeps nothing
    but the document, a go-only run leaves the document alone.
    """
    host = host or DiskHost(Path(project_root))
    plan = plan_outputs(host, files, manifest, targets, sweep, renames)
    report = WriteReport(notices=list(plan.notices), errors=list(plan.errors))
    if plan.errors:
        return report
    try:
        report.removed_dirs = apply_plan(host, plan)
    except WriteFailed as exc:
        report.errors.append(f"writing failed, the run was rolled back and nothing changed: {exc}")
        report.errors.extend(f"rollback: {p}" for p in exc.rollback_errors)
        return report
    report.written = sorted(w.path for w in plan.writes)
    report.unchanged = sorted(plan.unchanged)
    report.skipped_gen_once = sorted(plan.skipped_gen_once)
    report.swept = [w.path for w in plan.sweep]
    return report
