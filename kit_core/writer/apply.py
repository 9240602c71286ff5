"""Carry out a plan all or nothing.

0. delete the staging files a dead run left in the output directories;
1. (journal: record what will be staged) create missing directories; 2. stage every new
content in `.<name>.kit-tmp` beside its target; 3. (journal: the commit point) move each
staged file over its target (one rename each); 4. delete the swept files; 5. delete the
directories that step 4 emptied (and forget the journal).

If a step 1-4 fails in this process, everything the run created, replaced or deleted is
put back (from the bytes read while planning) and the error is raised as
:class:`WriteFailed`. If the process dies instead, the journal (`journal.py`) lets the
next run finish or undo it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kit_core.writer.faults import checkpoint
from kit_core.writer.host import Host, parents, remove_emptied_dirs
from kit_core.writer.journal import Journal
from kit_core.writer.plan import Plan, Write


class WriteFailed(Exception):
    """A write failed mid-run; ``rollback_errors`` lists what could not be put back."""

    def __init__(self, message: str, rollback_errors: list[str]) -> None:
        super().__init__(message)
        self.rollback_errors = rollback_errors


@dataclass(slots=True)
class _Undo:
    """What this run changed so far, to put back if a later step fails."""

    host: Host
    created_dirs: list[str] = field(default_factory=list)
    staged: list[tuple[str, Write]] = field(default_factory=list)
    committed: list[Write] = field(default_factory=list)
    removed: list[Write] = field(default_factory=list)

    def rollback(self) -> list[str]:
        problems: list[str] = []
        for token, _ in self.staged:
            _try(problems, f"discard staged {token}", lambda t=token: self.host.discard(t))
        for w in reversed(self.removed + self.committed):
            _try(problems, f"restore {w.path}", lambda w=w: _restore(self.host, w))
        for d in reversed(self.created_dirs):
            _try(problems, f"remove directory {d}", lambda d=d: self.host.rmdir(d))
        return problems


def _try(problems: list[str], what: str, action: object) -> None:
    try:
        action()  # type: ignore[operator]
    except OSError as exc:
        problems.append(f"{what}: {exc}")


def _restore(host: Host, w: Write) -> None:
    """Put back what was at ``w.path`` before the run."""
    if w.old is None:
        host.remove(w.path)
        return
    token = host.stage(w.path, w.old)
    host.commit(token, w.path)


def apply_plan(host: Host, plan: Plan, journal: Journal | None = None) -> list[str]:
    """Write, replace and sweep per ``plan``; returns the directories removed as emptied."""
    for path in plan.leftovers:
        _try([], "", lambda p=path: host.remove(p))  # best effort: a leftover costs nothing but space
    undo = _Undo(host)
    new_dirs = _missing_dirs(host, plan.writes)
    try:
        if journal is not None and plan.writes:
            journal.prepare([w.path for w in plan.writes], new_dirs)
        for d in new_dirs:
            host.mkdir(d)
            undo.created_dirs.append(d)
        for w in plan.writes:
            undo.staged.append((host.stage(w.path, w.data), w))
            checkpoint("stage")
        if journal is not None and (plan.writes or plan.sweep):
            writes = [(w.path, w.old is None) for w in plan.writes]
            journal.commit(writes, [w.path for w in plan.sweep], new_dirs)
        while undo.staged:
            token, w = undo.staged[0]
            host.commit(token, w.path)
            undo.staged.pop(0)
            undo.committed.append(w)
            checkpoint("rename")
        for w in plan.sweep:
            host.remove(w.path)
            undo.removed.append(w)
            checkpoint("remove")
    except OSError as exc:
        problems = undo.rollback()
        if journal is not None:
            journal.done()  # this process put back what it could; a recovery would redo the run
        raise WriteFailed(str(exc), problems) from exc
    removed = remove_emptied_dirs(host, [w.path for w in plan.sweep])
    if journal is not None:
        journal.done()
    return removed


def _missing_dirs(host: Host, writes: list[Write]) -> list[str]:
    """Directories to create, parents first."""
    out: list[str] = []
    seen: set[str] = set()
    for w in writes:
        for d in reversed(parents(w.path)):
            if d not in seen:
                seen.add(d)
                if not host.is_dir(d):
                    out.append(d)
    return out
