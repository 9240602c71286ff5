"""Full generation of a design, as `kit gen` does it, for generate-on-save.

It reads the design from disk (what was saved is what is generated), checks it, and
writes nothing when it has errors. ``progress`` receives a short message per stage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kit_core import program
from kit_core.writer import write_outputs


@dataclass
class Outcome:
    root: Path
    written: list[str] = field(default_factory=list)
    swept: list[str] = field(default_factory=list)
    unchanged: int = 0
    design_errors: int = 0  # the design has errors: nothing was written
    failure: str | None = None  # the run could not complete (go.mod missing, writer problems)
    notices: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.design_errors == 0 and self.failure is None

    def summary(self) -> str:
        if self.design_errors:
            return f"kit: {self.root}: the design has {self.design_errors} error(s); nothing was written"
        if self.failure:
            return f"kit: {self.root}: generation failed: {self.failure}"
        written = ", ".join(self.written) or "nothing"
        swept = ", ".join(self.swept) or "nothing"
        return f"kit: generated {self.root}: wrote {written}; swept {swept}; {self.unchanged} unchanged"

    def one_line(self) -> str:
        """`kit: design: 3 written (a.go, b.go, +1), 1 swept, 40 unchanged, 2 notices`."""
        shown = ", ".join(Path(p).name for p in self.written[:2]) + (f", +{len(self.written) - 2}"
                                                                     if len(self.written) > 2 else "")
        parts = [f"{len(self.written)} written" + (f" ({shown})" if self.written else "")]
        parts += [f"{len(self.swept)} swept", f"{self.unchanged} unchanged"]
        if self.notices:
            parts.append(f"{len(self.notices)} notice{'s' if len(self.notices) != 1 else ''} (see the output)")
        return f"kit: {self.root.name}: " + ", ".join(parts)


def generate_design(
    root: Path, progress: Callable[[str], None] = lambda _: None, renames: Mapping[str, str] | None = None
) -> Outcome:
    """``renames`` pairs old and new stubs of methods renamed in the editor (their code moves)."""
    outcome = Outcome(root)
    try:
        progress("loading the design")
        design = program.load_design(root)
        progress("checking")
        checked = program.check(design)
        outcome.design_errors = sum(1 for d in checked.diagnostics if d.is_error)
        if outcome.design_errors:
            return outcome
        progress("generating")
        gen = program.generate(design, checked.analysis)
        progress("writing")
        report = write_outputs(
            design.project_root, gen.files, design.manifest, targets=program.TARGETS, renames=renames
        )
    except program.DesignError as exc:
        outcome.failure = exc.diagnostic.message
        return outcome
    if report.errors:
        outcome.failure = "; ".join(report.errors)
        return outcome
    outcome.written, outcome.swept, outcome.unchanged = report.written, report.swept, len(report.unchanged)
    outcome.notices = [f"{getattr(n, 'path', '')}: {getattr(n, 'message', n)}" for n in [*gen.notices, *report.notices]]
    return outcome
