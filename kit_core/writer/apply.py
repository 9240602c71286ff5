"""Carry out a plan all or nothing.

1. create missing directories; 2. stage every new content in a temporary file beside its
target; 3. move each staged file over its target (one rename each); 4. delete the swept
files; 5. delete the directories that step 4 emptied. If step 1-4 fails, everything this
run created, replaced or deleted is put back (from the bytes read while planning) and the
error is raised as :class:`WriteFailed`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kit_core.writer.host import Host, parents
from kit_core.writer.plan import Plan, Write


class WriteFailed(Exception):
    """A write failed mid-run; ``rollback_errors`` lists what could not be put back."""

    def __init__(self, message: str, rollback_errors: list[str]) -> None:
        super().__init__(message)
        self.rollback_errors = rollback_errors


@dataclass(slots=True)
class _Journal:
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


def apply_plan(host: Host, plan: Plan) -> list[str]:
    """Write, replace and sweep per ``plan``; returns the directories removed as emptied."""
    journal = _Journal(host)
    try:
        _make_dirs(journal, plan.writes)
        for w in plan.writes:
            journal.staged.append((host.stage(w.path, w.data), w))
        while journal.staged:
            token, w = journal.staged[0]
            host.commit(token, w.path)
            journal.staged.pop(0)
            journal.committed.append(w)
        for w in plan.sweep:
            host.remove(w.path)
            journal.removed.append(w)
    except OSError as exc:
        raise WriteFailed(str(exc), journal.rollback()) from exc
    return remove_emptied_dirs(host, [w.path for w in plan.sweep])


def _make_dirs(journal: _Journal, writes: list[Write]) -> None:
    for w in writes:
        for d in reversed(parents(w.path)):
            if not journal.host.is_dir(d):
                journal.host.mkdir(d)
                journal.created_dirs.append(d)


def remove_emptied_dirs(host: Host, removed_files: list[str]) -> list[str]:
    """Delete directories left empty by the sweep, walking up; never the project root."""
    removed: list[str] = []
    for d in sorted({p for f in removed_files for p in parents(f)}, key=lambda p: (-p.count("/"), p)):
        try:
            if host.is_dir(d) and not host.list_dir(d):
                host.rmdir(d)
                removed.append(d)
        except OSError:
            continue  # best effort: an emptied directory left behind loses nothing
    return sorted(removed)
