"""Where kit keeps what it knows about a project, outside the project's tree.

    <kit's cache>/projects/<first 16 hex of sha256(real path of the project root)>/
        lock       the run lock (`writer/lock.py`), holding the pid of the run that has it
        journal    the commit journal of a run being written (`writer/journal.py`)
        cache      what produced each output (`kit_core.incremental`)
        project    the project root it belongs to (for a person looking around)

kit's cache is `cache_root()`: `$KIT_CACHE_DIR`, else the user cache folder
(`~/.cache/kit`, `$XDG_CACHE_HOME/kit`); earlier kits kept runtime copies beside (`runtime/`). The
project is named by its real path, so two spellings of one project (a symlinked path) share
one lock. When the cache cannot be written, the folder is made under the system temporary
directory instead (`<tmp>/kit-<uid>/`). Deleting the folder loses nothing but speed.
Outside the `writer` package so that `kit gen`'s resident-kit client finds the folder
without importing the writer.

Only a safe folder is used (`safe_dir`): a real directory (not a symlink) owned by this user
and closed to others, under parents nobody else can write to. kit's own folder found open
to others is closed (chmod 0700); one owned by someone else is moved aside and made anew
when its parent is ours, else that base is skipped. Every file in it is opened without
following symlinks and must be a regular file of this user (`open_state`): a name planted
as a symlink is removed, never written through.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import hashlib
import os
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

CACHE_ENV = "KIT_CACHE_DIR"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def cache_root() -> Path:
    """Where kit keeps its copies: $KIT_CACHE_DIR, else the platform's user cache dir."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser().resolve()
    # deferred: only when the cache folder is first resolved
    import platformdirs

    return Path(platformdirs.user_cache_dir("kit"))


class StateDirError(OSError):
    """No folder for the project's state could be made."""


class UnsafeDir(OSError):
    """A folder kit would keep its state in is not safely its user's."""


def project_id(project_root: Path | str) -> str:
    real = os.path.realpath(project_root)
    return hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def state_dir(project_root: Path | str) -> Path:
    """The project's state folder, created when missing."""
    name = project_id(project_root)
    problems = []
    unsafe = False
    for base in _bases():
        folder = base / name
        try:
            safe_dir(folder)
            _note_project(folder, project_root)
            return folder
        except UnsafeDir as exc:
            problems.append(f"{exc.filename}: {exc.strerror}")
            unsafe = True
        except OSError as exc:
            problems.append(f"{folder}: {exc.strerror or exc}")
    if unsafe:
        return _private(project_root, "; ".join(problems))
    raise StateDirError(f"kit cannot make a folder for its state of {project_root}: {'; '.join(problems)}")


_private_dirs: dict[str, Path] = {}


def _private(project_root: Path | str, why: str) -> Path:
    """Every place for the project's state is another user's to tamper with: this process
    keeps it in a folder of its own (a fresh name, removed when it exits), says why once, and
    keeps nothing for the next run (which cannot share its lock either)."""
    real = os.path.realpath(project_root)
    folder = _private_dirs.get(real)
    if folder is None:
        folder = _private_dirs[real] = Path(tempfile.mkdtemp(prefix=f"kit-{_uid()}-"))
        atexit.register(shutil.rmtree, folder, True)
        print(f"kit: not using kit's state folder ({why}): this run keeps nothing for the next", file=sys.stderr)
    return folder


def _bases() -> Iterator[Path]:
    yield cache_root() / "projects"
    import tempfile  # deferred: only for the fallback (its import is a tenth of a `kit gen` client's)

    yield Path(tempfile.gettempdir()) / f"kit-{_uid()}"


def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def safe_dir(folder: Path) -> Path:
    """``folder``, created when missing, as a directory only this user can reach. Its parents
    must be writable by nobody else (a sticky folder such as /tmp is fine). Raises `UnsafeDir`
    (or another `OSError`) when that cannot be had."""
    folder = Path(os.path.abspath(folder))
    _safe_parent(folder.parent)
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(folder)
    if stat.S_ISDIR(st.st_mode) and st.st_uid == _uid():
        if st.st_mode & 0o077:
            os.chmod(folder, 0o700, follow_symlinks=False)  # ours, left open: close it
        return folder
    _replace_foreign(folder)
    return folder


def _safe_parent(parent: Path) -> None:
    """Create ``parent`` (as this user's) when missing; refuse it when it, or a folder above
    it, belongs to another user (root aside) or is writable by others without being sticky
    (/tmp is fine): its owner could swap kit's folder for another at any time."""
    missing: list[Path] = []
    while not os.path.lexists(parent):
        missing.append(parent)
        parent = parent.parent
    real = Path(os.path.realpath(parent))
    for folder in (real, *real.parents):
        st = os.stat(folder)
        if not stat.S_ISDIR(st.st_mode):
            raise UnsafeDir(errno.ENOTDIR, "not a directory", str(folder))
        if st.st_uid not in (_uid(), 0) or (st.st_mode & 0o002 and not st.st_mode & stat.S_ISVTX):
            raise UnsafeDir(errno.EPERM, "owned or writable by another user", str(folder))
    for folder in reversed(missing):
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != _uid():
            raise UnsafeDir(errno.EPERM, "owned by another user or not a directory", str(folder))


def _replace_foreign(folder: Path) -> None:
    """``folder`` is not this user's directory (another user's, a symlink, a file): moved
    aside within its parent (which is ours or sticky) and removed, then made anew. In a
    sticky folder (/tmp) another user's entry cannot be moved: `UnsafeDir`."""
    aside = folder.with_name(f".{folder.name}.unsafe-{secrets.token_hex(4)}")
    try:
        os.rename(folder, aside)
    except OSError as exc:
        why = "owned by another user or not a directory (kit does not use it)"
        raise UnsafeDir(errno.EPERM, why, str(folder)) from exc
    if os.path.isdir(aside) and not os.path.islink(aside):
        shutil.rmtree(aside, ignore_errors=True)  # rmtree never follows the symlinks in it
    else:
        os.unlink(aside)
    os.mkdir(folder, 0o700)
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != _uid() or st.st_mode & 0o077:
        raise UnsafeDir(errno.EPERM, "could not be made safely", str(folder))


def open_state(path: Path | str, flags: int, mode: int = 0o600) -> int:
    """``os.open`` of a file in a state folder that never follows a symlink: a symlink (or
    anything but this user's regular file) at the name is removed when ``flags`` create the
    file, else the open fails (`UnsafeDir`). Returns the descriptor."""
    for _ in range(2):
        try:
            fd = os.open(path, flags | _NOFOLLOW, mode)
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            if not flags & os.O_CREAT:
                raise UnsafeDir(exc.errno, "a symlink (kit does not follow it)", str(path)) from exc
            os.unlink(path)  # a symlink planted at the name: the link goes, not its target
            continue
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and st.st_uid == _uid():
            return fd
        os.close(fd)
        if not flags & os.O_CREAT:
            raise UnsafeDir(errno.EPERM, "not a regular file of this user", str(path))
        os.unlink(path)
    raise UnsafeDir(errno.EPERM, "cannot be made safely", str(path))


def read_state(path: Path | str) -> bytes:
    """The bytes of a state file (never through a symlink; `FileNotFoundError` when absent)."""
    fd = open_state(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


def write_state(path: Path | str, data: bytes) -> None:
    """Replace a state file whole: written beside (`.<name>.tmp`, never through a symlink)
    and renamed over it, so a reader sees the old bytes or the new ones."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    fd = open_state(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)  # a symlink at the target is replaced, not written through
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _note_project(folder: Path, project_root: Path | str) -> None:
    note = folder / "project"
    real = os.path.realpath(project_root).encode("utf-8", "surrogateescape")
    try:
        if read_state(note) == real:
            return
    except OSError:
        pass
    write_state(note, real)
