"""The commit journal: a run killed while writing is completed or undone by the next run.

A run writes in two phases (`apply.py`). Before it stages anything it records, in the file
`journal` of the project's state folder, the outputs it will stage and the directories it
will create (state `prepare`); nothing in the project has been replaced yet. Once every new
content is staged (`.<name>.kit-tmp` beside its target) it records the commit point: the
outputs to move into place and the files to sweep (state `commit`). Then it renames and
deletes, and removes the journal.

The next run, under the project lock, finds a journal left behind and:

* `prepare`: rolls back - deletes the staged files and the directories the run created
  (the project's files were never touched);
* `commit`: rolls forward - moves every staged file still there into place and deletes
  the swept files still there, so the tree is the one the dead run decided on.

Both are idempotent (a recovery that is itself killed is finished by the next one), and
both keep kit's promise: a file that appeared since (one without a generated header, or a
GEN-ONCE path that now exists) is never overwritten or deleted. The journal is written
with a rename, so it is either the old state or the new one. It guards against a killed
process, not a power cut (no fsync: that would cost more than the whole write).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from kit_core.statedir import read_state, write_state
from kit_core.writer.faults import checkpoint
from kit_core.writer.headers import has_generated_header
from kit_core.writer.host import DiskHost, remove_emptied_dirs, staging_name

JOURNAL_NAME = "journal"
FORMAT = 1


@dataclass(slots=True)
class Recovery:
    """What a recovery did (empty when there was no journal)."""

    state: str | None = None  # prepare | commit
    completed: list[str] = field(default_factory=list)  # outputs moved into place
    removed: list[str] = field(default_factory=list)  # swept files deleted
    discarded: list[str] = field(default_factory=list)  # staged files deleted


class Journal:
    def __init__(self, folder: Path, project_root: Path | str) -> None:
        self.path = Path(folder) / JOURNAL_NAME
        self.root = os.path.realpath(project_root)

    def prepare(self, staged: list[str], dirs: list[str]) -> None:
        self._write({"state": "prepare", "staged": staged, "dirs": dirs})

    def commit(self, writes: list[tuple[str, bool]], removals: list[str], dirs: list[str]) -> None:
        """``writes``: (path, created by this run)."""
        self._write({"state": "commit", "writes": writes, "removals": removals, "dirs": dirs})
        checkpoint("journal")

    def done(self) -> None:
        self.path.unlink(missing_ok=True)

    def _write(self, body: dict[str, object]) -> None:
        write_state(self.path, json.dumps({"format": FORMAT, "root": self.root, **body}).encode("utf-8"))

    def read(self) -> dict[str, object] | None:
        try:
            data = json.loads(read_state(self.path))
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return {}  # unreadable: nothing can be trusted, but the staged names are known to nobody
        return data if isinstance(data, dict) else {}


def recover(folder: Path, project_root: Path | str) -> Recovery:
    """Finish or undo the commit of a run that died; a no-op without a journal."""
    journal = Journal(folder, project_root)
    data = journal.read()
    if data is None:
        return Recovery()
    report = Recovery(str(data.get("state")) if data.get("root") == journal.root else None)
    host = DiskHost(Path(project_root))
    if report.state == "prepare":
        _roll_back(host, data, report)
    elif report.state == "commit":
        _roll_forward(host, data, report)
    journal.done()
    return report


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _roll_back(host: DiskHost, data: dict[str, object], report: Recovery) -> None:
    for path in _strings(data.get("staged")):
        token = host.root / staging_name(path)
        if token.is_file() and not token.is_symlink():
            token.unlink()
            report.discarded.append(path)
    _remove_empty(host, list(reversed(_strings(data.get("dirs")))))


def _roll_forward(host: DiskHost, data: dict[str, object], report: Recovery) -> None:
    writes = data.get("writes")
    for item in writes if isinstance(writes, list) else []:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            continue
        path, created = item[0], bool(item[1])
        token = host.root / staging_name(path)
        if not token.is_file() or token.is_symlink():
            continue
        current = host.read(path)
        if current is not None and (created or not has_generated_header(current)):
            token.unlink()  # something appeared there since: never overwritten
            report.discarded.append(path)
            continue
        host.commit(str(token), path)
        report.completed.append(path)
        checkpoint("recover")
    for path in _strings(data.get("removals")):
        current = host.read(path) if not host.is_link(path) else None
        if current is not None and has_generated_header(current):
            host.remove(path)
            report.removed.append(path)
            checkpoint("recover")

    remove_emptied_dirs(host, report.removed)


def _remove_empty(host: DiskHost, dirs: list[str]) -> None:
    for d in dirs:
        try:
            if host.is_dir(d) and not host.list_dir(d):
                host.rmdir(d)
        except OSError:
            continue
