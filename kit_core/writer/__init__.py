"""Put a run's outputs on disk: ownership, all-or-nothing atomic writes, sweeping, notices.

    report = write_outputs(project_root, files, manifest, targets=("go", "docs"))

Everything is decided first (:mod:`plan`), then carried out (:mod:`apply`). A run that
finds a problem (a user's file at a REGEN path, a path leading outside the project
through a symlink) writes nothing and returns the problems, located, in
``report.problems``; a run whose write fails mid-way is rolled back; a run killed
mid-way is finished or undone by the next one (:mod:`journal`, given a ``journal``).
Notices are returned as data for the caller to print.

``known`` lists outputs the caller did not render again because it knows they are on disk
as they would be written (incremental generation): they count as produced (never swept)
and are reported unchanged or skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit_core.generators.base import TARGETS, Notice, OutputFile, Owner
from kit_core.writer.apply import WriteFailed, apply_plan
from kit_core.writer.headers import GO_GEN_ONCE, GO_REGEN, YAML_REGEN
from kit_core.writer.host import DiskHost, Host, MemoryHost
from kit_core.writer.journal import Journal
from kit_core.writer.notices import grpc_notices, middleware_notices, stale_stub_notices
from kit_core.writer.plan import (
    Known,
    Plan,
    check_roots,
    classify,
    drop_gen_once_twins,
    leftovers_in,
    problem,
    stale_files,
)
from kit_core.writer.roots import gen_once_dirs, output_dirs, sweep_roots

if TYPE_CHECKING:
    from kit_core.diagnostics import Diagnostic

__all__ = [
    "GO_GEN_ONCE",
    "GO_REGEN",
    "YAML_REGEN",
    "DiskHost",
    "Host",
    "Journal",
    "Known",
    "MemoryHost",
    "WriteReport",
    "plan_outputs",
    "write_outputs",
]


@dataclass(slots=True)
class WriteReport:
    written: list[str] = field(default_factory=list)  # created or replaced
    gen_once_created: list[str] = field(default_factory=list)  # the GEN-ONCE files among `written`
    unchanged: list[str] = field(default_factory=list)  # REGEN, byte-identical: not touched
    skipped_gen_once: list[str] = field(default_factory=list)  # GEN-ONCE already present
    swept: list[str] = field(default_factory=list)  # stale REGEN files deleted
    removed_dirs: list[str] = field(default_factory=list)  # directories the sweep emptied
    notices: list[Notice] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)  # non-empty: nothing was changed

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def errors(self) -> list[str]:
        return [p.message for p in self.problems]


def plan_outputs(
    host: Host,
    files: Sequence[OutputFile],
    manifest: Any,
    targets: Iterable[str] = TARGETS,
    sweep: bool = True,
    known: Sequence[Known] = (),
    renames: Mapping[str, str] | None = None,
) -> Plan:
    """What a run would do, touching nothing (also a dry run). ``renames`` maps an old logic
    stub to the new stub of its renamed method (kit-lsp's rename says so)."""
    chosen = tuple(targets)
    plan = Plan()
    stub_notices: list[Notice] = []
    if "go" in chosen and any(f.owner is Owner.GEN_ONCE and f.path.endswith(".go") for f in files):
        # a renamed method's code carried into its new stub; drift of the stubs rendered
        # deferred: a no-op run renders nothing and must not load the Go reader
        from kit_core.stubs.step import stubs_step

        files, stub_notices = stubs_step(host, files, manifest, renames, [k.path for k in known])
    _aliases(host, manifest, plan)
    classify(host, files, known, plan)
    produced = {f.path for f in files} | {k.path for k in known}
    named = drop_gen_once_twins(host, produced, plan)
    if sweep:
        roots = sweep_roots(manifest, produced, chosen)
        check_roots(host, roots, plan)
        if not plan.problems:
            stale_files(host, roots, produced, plan)
            leftovers_in(host, gen_once_dirs(manifest), plan)
    plan.problems = _distinct(plan.problems)
    if "go" in chosen:
        swept = {w.path for w in plan.sweep}
        created = {w.path for w in plan.writes if w.old is None}
        carried = {n.path for n in stub_notices}
        plan.notices += [n for n in stale_stub_notices(host, manifest, produced, named) if n.path not in carried]
        plan.notices += stub_notices
        plan.notices += grpc_notices(host, manifest, [*files, *known], swept)
        plan.notices += middleware_notices(host, manifest, files, created)
    return plan


def _distinct(problems: list[Diagnostic]) -> list[Diagnostic]:
    """One report per problem and place (an output dir linked outside is also a sweep root)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for p in problems:
        if (p.code, p.span.path) not in seen:
            seen.add((p.code, p.span.path))
            out.append(p)
    return out


def _aliases(host: Host, manifest: Any, plan: Plan) -> None:
    """Two output directories that a symlink makes one (or one inside the other)."""
    seen: list[tuple[str, str, str]] = []  # (key, path, real path)
    for key, path in output_dirs(manifest):
        real = host.real_dir(path)
        for other, opath, oreal in seen:
            if real == oreal or real.startswith(oreal + "/") or oreal.startswith(real + "/"):
                if path != opath and not path.startswith(opath + "/") and not opath.startswith(path + "/"):
                    found = problem(host, "output/symlink-alias", path, first=other, second=key, path=path)
                    plan.problems.append(found)
        seen.append((key, path, real))


def write_outputs(
    project_root: Path | str,
    files: Sequence[OutputFile],
    manifest: Any,
    *,
    targets: Iterable[str] = TARGETS,
    host: Host | None = None,
    sweep: bool = True,
    known: Sequence[Known] = (),
    journal: Journal | None = None,
    renames: Mapping[str, str] | None = None,
) -> WriteReport:
    """Write ``files`` under ``project_root`` (or into ``host``) and sweep stale REGEN files.

    ``targets`` is what the run generated (`go`, `docs`): a docs-only run sweeps nothing
    but the document, a go-only run leaves the document alone.
    """
    host = host or DiskHost(Path(project_root))
    plan = plan_outputs(host, files, manifest, targets, sweep, known, renames)
    report = WriteReport(notices=list(plan.notices), problems=list(plan.problems))
    if plan.problems:
        return report
    try:
        report.removed_dirs = apply_plan(host, plan, journal)
    except WriteFailed as exc:
        reason = str(exc) + "".join(f"; rollback: {p}" for p in exc.rollback_errors)
        report.problems.append(problem(host, "output/write-failed", "", reason=reason))
        return report
    report.written = sorted(w.path for w in plan.writes)
    gen_once = {f.path for f in files if f.owner is Owner.GEN_ONCE}
    report.gen_once_created = [p for p in report.written if p in gen_once]
    report.unchanged = sorted(plan.unchanged)
    report.skipped_gen_once = sorted(plan.skipped_gen_once)
    report.swept = [w.path for w in plan.sweep]
    return report
