"""Where kit keeps what it knows about a project, outside the project's tree.

    <kit's cache>/projects/<first 16 hex of sha256(real path of the project root)>/
        lock       the run lock (`writer/lock.py`), holding the pid of the run that has it
        journal    the commit journal of a run being written (`writer/journal.py`)
        cache      what produced each output (`kit_core.incremental`)
        project    the project root it belongs to (for a person looking around)
        daemon.*   the project's resident kit: socket, lock (its pid), log (`kit_core.daemon`)

kit's cache is `cache_root()`: `$KIT_CACHE_DIR`, else the user cache folder
(`~/.cache/kit`, `$XDG_CACHE_HOME/kit`); earlier kits kept runtime copies beside (`runtime/`). The
project is named by its real path, so two spellings of one project (a symlinked path) share
one lock. When the cache cannot be written, the folder is made under the system temporary
directory instead (`<tmp>/kit-<uid>/`). Deleting the folder loses nothing but speed.
Outside the `writer` package so that `kit gen`'s daemon client finds the folder without
importing the writer.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

CACHE_ENV = "KIT_CACHE_DIR"


def cache_root() -> Path:
    """Where kit keeps its copies: $KIT_CACHE_DIR, else the platform's user cache dir."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser().resolve()
    import platformdirs

    return Path(platformdirs.user_cache_dir("kit"))


class StateDirError(OSError):
    """No folder for the project's state could be made."""


def project_id(project_root: Path | str) -> str:
    real = os.path.realpath(project_root)
    return hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def state_dir(project_root: Path | str) -> Path:
    """The project's state folder, created when missing."""
    name = project_id(project_root)
    problems = []
    for base in _bases():
        folder = base / name
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            _note_project(folder, project_root)
            return folder
        except OSError as exc:
            problems.append(f"{folder}: {exc.strerror or exc}")
    raise StateDirError(f"kit cannot make a folder for its state of {project_root}: {'; '.join(problems)}")


def _bases() -> Iterator[Path]:
    yield cache_root() / "projects"
    import tempfile  # only for the fallback (its import is a tenth of a `kit gen` client's)

    uid = os.getuid() if hasattr(os, "getuid") else 0
    yield Path(tempfile.gettempdir()) / f"kit-{uid}"


def _note_project(folder: Path, project_root: Path | str) -> None:
    note = folder / "project"
    real = os.path.realpath(project_root)
    try:
        if note.read_text(encoding="utf-8") == real:
            return
    except OSError:
        pass
    note.write_text(real, encoding="utf-8")
