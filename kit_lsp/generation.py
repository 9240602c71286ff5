"""Generation of a design on save, as `kit gen` does it (`kit_core.regenerate`).

It runs in the worker process (`kit_lsp.worker`). What was saved is what is generated: the
worker keeps a parsed and analysed copy of each design it generated
(`kit_core.resident.designs.ResidentDesigns`, the engine `kit gen`'s resident kit runs on,
re-parsing only the files whose size or time changed, re-analysing incrementally), used
when every file it analysed has, on disk, the text it analysed (and no design file was
added or removed); otherwise the design is read from disk. Either way the run is
incremental (only what the edit can change is rendered) and takes the project lock, so a
`kit gen` in a terminal and a save never write at once. ``progress`` receives a short
message per stage (and the lock's waiting message).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kit_core import program
from kit_core.printable import printable
from kit_core.regenerate import regenerate
from kit_core.resident.designs import as_loaded
from kit_core.statedir import StateDirError

if TYPE_CHECKING:
    from kit_core.generators.base import Notice
    from kit_core.resident.session import DiskFiles, Snapshot


@dataclass
class Outcome:
    root: Path
    written: list[str] = field(default_factory=list)
    swept: list[str] = field(default_factory=list)
    unchanged: int = 0
    design_errors: int = 0  # the design has errors: nothing was written
    failure: str | None = None  # the run could not complete (go.mod missing, writer problems)
    notices: list[str] = field(default_factory=list)
    rendered: int = 0  # render units rendered (the others were unchanged)
    units: int = 0  # render units of the run

    @classmethod
    def from_dict(cls, root: Path, raw: dict[str, object]) -> Outcome:
        """An outcome sent by the worker process as JSON (unknown keys ignored)."""
        known = {f for f in cls.__dataclass_fields__ if f != "root"}
        return cls(root, **{k: v for k, v in raw.items() if k in known})  # type: ignore[arg-type]

    @property
    def ok(self) -> bool:
        return self.design_errors == 0 and self.failure is None

    def summary(self) -> str:
        if self.design_errors:
            return f"kit: {self.root}: the design has {self.design_errors} error(s); nothing was written"
        if self.failure:
            return printable(f"kit: {self.root}: generation failed: {self.failure}")
        written = ", ".join(self.written) or "nothing"
        swept = ", ".join(self.swept) or "nothing"
        parts = f"{self.rendered} of {self.units} parts rendered"
        return printable(
            f"kit: generated {self.root}: wrote {written}; swept {swept}; {self.unchanged} unchanged; {parts}"
        )

    def one_line(self) -> str:
        """`kit: design: 3 written (a.go, b.go, +1), 1 swept, 40 unchanged, 2 notices`."""
        names = [Path(p).name for p in self.written]
        shown = ", ".join(names[:2]) + (f", +{len(names) - 2}" if len(names) > 2 else "")
        parts = [f"{len(self.written)} written" + (f" ({shown})" if self.written else "")]
        parts += [f"{len(self.swept)} swept", f"{self.unchanged} unchanged"]
        if self.notices:
            parts.append(f"{len(self.notices)} notice{'s' if len(self.notices) != 1 else ''} (see the output)")
        return printable(f"kit: {self.root.name}: " + ", ".join(parts))


def generate_design(
    root: Path,
    progress: Callable[[str], None] = lambda _: None,
    snapshot: Callable[[], Snapshot | None] | None = None,
    renames: Mapping[str, str] | None = None,
    disk: Callable[[], DiskFiles | None] | None = None,
) -> Outcome:
    """``snapshot`` returns the server's current analysis of the design (None: read the disk),
    ``disk`` gives the files it was read from (a file they vouch for is not read again);
    ``renames`` pairs the old and new stubs of methods renamed in the editor (their code moves)."""
    outcome = Outcome(root)
    try:
        snap = snapshot() if snapshot is not None else None
        loaded = as_loaded(root, snap, disk() if disk is not None else None) if snap is not None else None
        result = regenerate(root, loaded=loaded, progress=progress, on_wait=progress, resident=True, renames=renames)
    except program.DesignError as exc:
        outcome.failure = exc.diagnostic.message
        return outcome
    except StateDirError as exc:
        outcome.failure = str(exc)
        return outcome
    outcome.design_errors = sum(1 for d in result.diagnostics if d.is_error)
    report = result.report
    if outcome.design_errors or report is None:
        return outcome
    if report.problems:
        outcome.failure = "; ".join(d.render() for d in report.problems)
        return outcome
    outcome.written, outcome.swept, outcome.unchanged = report.written, report.swept, len(report.unchanged)
    notices = [*report.notices, *_pin_runtime(result.project_root)]
    outcome.notices = [printable(f"{n.path}: {n.message}") for n in notices]
    outcome.rendered, outcome.units = len(result.rendered), len(result.rendered) + result.reused
    return outcome


def _pin_runtime(project_root: Path) -> list[Notice]:
    """As `kit gen` does after a successful run: the project's go.mod requires this kit's
    runtime (a project pinned already, or on a published runtime, is left alone)."""
    # deferred: the runtime copy loads only on a save that generates
    from kit_core.gomod import pin_runtime

    return pin_runtime(project_root)
