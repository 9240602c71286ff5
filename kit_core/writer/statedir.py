"""Where kit keeps what it knows about a project, outside the project's tree.

    $XDG_CACHE_HOME/kit/<first 16 hex of sha256(real path of the project root)>/
        lock       the run lock (`lock.py`), holding the pid of the run that has it
        journal    the commit journal of a run being written (`journal.py`)
        cache      what produced each output (`kit_core.incremental`)
        project    the project root it belongs to (for a person looking around)

`XDG_CACHE_HOME` defaults to `~/.cache`; `KIT_CACHE_DIR`, when set, replaces
`$XDG_CACHE_HOME/kit` (the tests use it, so that other tools keep their caches). The
project is named by its real path, so two spellings of one project (a symlinked path) share
one lock. When the cache home cannot be written, the folder is made under the system
temporary directory instead (`<tmp>/kit-<uid>/`). Deleting the folder loses nothing but
speed.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


class StateDirError(OSError):
    """No folder for the project's state could be made."""


def kit_cache_home() -> Path:
    own = os.environ.get("KIT_CACHE_DIR")
    if own and os.path.isabs(own):
        return Path(own)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "kit"
    return Path.home() / ".cache" / "kit"


def project_id(project_root: Path | str) -> str:
    real = os.path.realpath(project_root)
    return hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def state_dir(project_root: Path | str) -> Path:
    """The project's state folder, created when missing."""
    name = project_id(project_root)
    uid = os.getuid() if hasattr(os, "getuid") else 0
    problems = []
    for base in (kit_cache_home(), Path(tempfile.gettempdir()) / f"kit-{uid}"):
        folder = base / name
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            _note_project(folder, project_root)
            return folder
        except OSError as exc:
            problems.append(f"{folder}: {exc.strerror or exc}")
    raise StateDirError(f"kit cannot make a folder for its state of {project_root}: {'; '.join(problems)}")


def _note_project(folder: Path, project_root: Path | str) -> None:
    note = folder / "project"
    real = os.path.realpath(project_root)
    try:
        if note.read_text(encoding="utf-8") == real:
            return
    except OSError:
        pass
    note.write_text(real, encoding="utf-8")
