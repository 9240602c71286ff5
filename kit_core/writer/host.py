"""Where outputs go: the disk (the only place kit_core opens files for writing) or memory.

Paths given to a host are POSIX paths relative to the project root. A write is staged to
a temporary file beside its target and then moved over it with one rename, so a reader
never sees half a file.
"""

from __future__ import annotations

import os
import posixpath
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kit_core import racy

if TYPE_CHECKING:
    from kit_core.writer.seen import Seen


class Host(Protocol):
    def read(self, path: str) -> bytes | None:
        """The file's bytes, None when there is no file (a directory there also raises)."""

    def is_dir(self, path: str) -> bool: ...

    def is_link(self, path: str) -> bool:
        """Whether the path itself is a symbolic link (dangling or not)."""

    def dir_problem(self, directory: str) -> PathProblem | None:
        """Why a directory (and so everything below it) cannot be used: a symlink on the way
        that leads outside the project or nowhere, or a file where a directory must be.
        None when it is usable (it may not exist yet)."""

    def real(self, path: str) -> str:
        """The path with every symlink on the way to it resolved, relative to the project's
        real root (the path as given when nothing on the way is a link)."""

    def real_dir(self, path: str) -> str:
        """Like `real`, the directory itself resolved too when it is a link."""

    def display(self, path: str) -> str:
        """The path as shown to the user (absolute on disk)."""

    def files_under(self, path: str) -> list[str]:
        """Every file below a directory, recursively, sorted; [] when it is not a directory."""

    def list_dir(self, path: str) -> list[str]:
        """Names in a directory."""

    def mkdir(self, path: str) -> None:
        """Create one directory level (the parent exists)."""

    def rmdir(self, path: str) -> None:
        """Remove an empty directory."""

    def stage(self, path: str, data: bytes) -> str:
        """Write ``data`` to a temporary file beside ``path``; returns the token to commit."""

    def commit(self, token: str, path: str) -> None:
        """Move a staged file over ``path`` (one rename)."""

    def discard(self, token: str) -> None:
        """Drop a staged file that will not be committed."""

    def remove(self, path: str) -> None: ...


@dataclass(frozen=True, slots=True)
class PathProblem:
    code: str  # output/outside-project | output/dangling-symlink | output/blocked
    at: str  # the symlink, or the file in the way (project-relative)
    target: str  # where the link points (absolute), or why it is in the way


STAGING_SUFFIX = ".kit-tmp"


def staging_name(path: str) -> str:
    """The one temporary name of an output while it is staged: `.<name>.kit-tmp` beside it
    (one name per output, so a run that died leaves nothing a later run cannot find)."""
    head, name = posixpath.split(path)
    return posixpath.join(head, f".{name}{STAGING_SUFFIX}")


def is_staging_name(name: str) -> bool:
    """Also matches the `.<name>.<random>.kit-tmp` names of earlier releases."""
    return name.startswith(".") and name.endswith(STAGING_SUFFIX) and len(name) > len(STAGING_SUFFIX) + 1


def parents(path: str) -> list[str]:
    """Ancestor directories of a relative path, nearest first, excluding the root."""
    out: list[str] = []
    d = posixpath.dirname(path)
    while d and d != ".":
        out.append(d)
        d = posixpath.dirname(d)
    return out


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


def inside(path: str, root: str) -> bool:
    """Whether an absolute real path is the root or below it."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class OutsideProject(OSError):
    """A write or deletion that would land outside the project (refused, never done)."""


Entry = tuple[str, bool, bool]  # (name, a folder?, a symlink?)

# The last listing of each output folder, by its absolute path: (mode, inode, mtime, ctime) of
# the folder then, the clock before the listing, its entries. A name created, deleted or
# renamed in a folder changes the folder's times; a listing whose folder changed within the
# racy window of the listing is not taken again (git's rule, as `seen.py`); nor one holding a
# symlink. A resident kit's edit at 10,000 types lists the ~2,500 output folders this way
# with one `lstat` each instead of reading each folder.
_listings: dict[str, tuple[tuple[int, int, int, int], int, list[Entry]]] = {}
_LISTINGS_KEEP = 200_000
listing_counts = {"listed": 0}  # folders read (a work count the tests read)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


class DiskHost:
    """The project on disk. Every path is checked on the way: a write or deletion whose real
    place is outside the project raises :class:`OutsideProject` (the plan refuses such paths
    first; this is the last guard). What is learnt about directories is kept for the life of
    the host (one run). With ``seen``, every path looked at is recorded there with its
    `lstat` (`seen.py`: a later run may then trust this plan without looking again)."""

    def __init__(self, root: Path, seen: Seen | None = None) -> None:
        self.root = Path(root)
        self.seen = seen
        self._root = str(self.root)
        self.real_root = os.path.realpath(self.root)
        self._dirs: dict[str, tuple[str, PathProblem | None]] = {"": (self.real_root, None)}
        self._real_heads: dict[str, str] = {}  # directory -> its `real_dir` (`real` asks once per output)
        self._inside: set[str] = set()  # directories _guard found inside the project
        # directories found absent (until this host makes them): nothing below one needs a
        # look (a clean run's ~2,000 outputs would each cost three failing system calls)
        self._absent: set[str] = set()
        self._prefix = os.path.join(self._root, "")
        self._walked: dict[str, list[str]] = {}  # files_under, by folder
        self._lstats: dict[str, os.stat_result] = {}  # folders `_look` found, until listed

    def _abs(self, path: str) -> str:
        return self._prefix + path if path else self._root  # `path` is relative (checked by the plan)

    def _in_absent_dir(self, path: str) -> bool:
        return bool(self._absent) and posixpath.dirname(path) in self._absent

    def _guard(self, path: str) -> str:
        """The absolute path of something kit changes, once its real directory is known to be
        inside the project (looked up once per directory and run)."""
        target = self._abs(path)
        head = os.path.dirname(target)
        if head not in self._inside:
            parent = os.path.realpath(head)
            if not inside(parent, self.real_root):
                raise OutsideProject(f"{path}: {parent} is outside the project {self.real_root}")
            self._inside.add(head)
        return target

    def display(self, path: str) -> str:
        return self._abs(path)

    def _note(self, path: str) -> None:
        """Record the `lstat` of ``path`` (before looking at it) when recording."""
        if self.seen is None:
            return
        try:
            st: os.stat_result | None = os.lstat(self._abs(path))
        except (FileNotFoundError, NotADirectoryError):
            st = None
        except OSError:
            self.seen.usable = False
            return
        self.seen.saw(path, st)

    def read(self, path: str) -> bytes | None:
        if self._in_absent_dir(path):
            return None
        self._note(path)
        try:
            with open(self._abs(path), "rb") as fh:
                return fh.read()
        except FileNotFoundError:
            return None  # absent, or a dangling link (the plan reports links)
        except IsADirectoryError:
            raise IsADirectoryError(f"{path} is a directory") from None
        except NotADirectoryError:
            return None  # a file where a parent directory should be (the plan reports it)

    def is_dir(self, path: str) -> bool:
        if self._in_absent_dir(path):
            return False
        self._note(path)
        return os.path.isdir(self._abs(path))

    def is_link(self, path: str) -> bool:
        if self._in_absent_dir(path):
            return False
        self._note(path)
        return os.path.islink(self._abs(path))

    def dir_problem(self, directory: str) -> PathProblem | None:
        return self._dir(directory)[1]

    def _dir(self, d: str) -> tuple[str, PathProblem | None]:
        known = self._dirs.get(d)
        if known is not None:
            return known
        head, name = posixpath.split(d)
        real_head, problem = self._dir(head)
        info = (posixpath.join(real_head, name), problem)
        if head in self._absent:
            self._absent.add(d)
        elif problem is None:
            info = self._look(d, real_head, name)
        self._dirs[d] = info
        return info

    def _look(self, d: str, real_head: str, name: str) -> tuple[str, PathProblem | None]:
        full = self._abs(d)
        try:
            st = os.lstat(full)
        except FileNotFoundError:
            if self.seen is not None:
                self.seen.saw(d, None)
            self._absent.add(d)
            return os.path.join(real_head, name), None  # made by the run
        if self.seen is not None:
            self.seen.saw(d, st)
        self._lstats[d] = st  # the sweep's listing of the folder, later in this plan, takes it
        if stat.S_ISLNK(st.st_mode):
            target = os.path.realpath(full)
            if not inside(target, self.real_root):
                return target, PathProblem("output/outside-project", d, target)
            if not os.path.exists(target):
                return target, PathProblem("output/dangling-symlink", d, os.readlink(full))
            if not os.path.isdir(target):
                return target, PathProblem("output/blocked", d, f"{d} is a link to a file, not a directory")
            return target, None
        if not stat.S_ISDIR(st.st_mode):
            return os.path.join(real_head, name), PathProblem("output/blocked", d, f"{d} is a file, not a directory")
        return os.path.join(real_head, name), None

    def real(self, path: str) -> str:
        head, name = posixpath.split(path)
        base = self._real_heads.get(head)
        if base is None:
            base = self._real_heads[head] = self.real_dir(head)
        return f"{base}/{name}" if base else name

    def real_dir(self, path: str) -> str:
        return self._relative(self._dir(path)[0])

    def _relative(self, real: str) -> str:
        if real == self.real_root:
            return ""
        prefix = self.real_root.rstrip(os.sep) + os.sep
        if not real.startswith(prefix):
            return real  # outside: kept absolute (never equal to a relative path)
        return real[len(prefix) :].replace(os.sep, "/")

    def files_under(self, path: str) -> list[str]:
        """As `os.walk` lists them (a link to a folder is not entered; a link to a file is a
        file), relative to the project: `<path>/<...>` (`./<name>` for the root's own files).
        Walked once per host (one plan, which changes nothing): the service folder is asked
        for by the stale stubs' notices and by the leftovers' search."""
        walked = self._walked.get(path)
        if walked is None:
            walked = self._walked[path] = self._files_under(path)
        return list(walked)

    def _files_under(self, path: str) -> list[str]:
        self._note(path)  # also when missing: a folder made later must show
        if not os.path.isdir(self._abs(path)):
            return []
        out: list[str] = []
        folders = [(path, "." if not path else path)]
        while folders:
            rel, shown = folders.pop()
            entries = self._entries(rel)
            if entries is None:
                continue  # as os.walk: a folder that cannot be listed lists nothing
            for name, is_dir, is_link in entries:
                if is_link and self.seen is not None:
                    self.seen.link_inside()
                if not is_dir:
                    out.append(f"{shown}/{name}")
                elif not is_link:
                    sub = f"{rel}/{name}" if rel else name
                    folders.append((sub, sub))
        return sorted(out)

    def _entries(self, rel: str) -> list[Entry] | None:
        """A folder's entries (name, a folder?, a link?), taken again from the last listing of
        it while the folder's `lstat` is the one it had then (`listings`); None: unlistable."""
        full = self._abs(rel)
        try:
            # the `lstat` the folder's check took in this plan, if it did: taken before the
            # listing below, as the listing's stamp must be
            st: os.stat_result | None = self._lstats.pop(rel, None) or os.lstat(full)
        except (FileNotFoundError, NotADirectoryError):
            st = None
        except OSError:
            if self.seen is not None:
                self.seen.usable = False
            return None
        if self.seen is not None:
            self.seen.saw(rel, st)
        if st is None:
            return None
        stamp = (st.st_mode, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
        linked = stat.S_ISLNK(st.st_mode)  # a root reached through a link: its folder's times are not the link's
        kept = None if linked else _listings.get(full)
        if kept is not None and kept[0] == stamp and racy.settled(stamp[2], stamp[3], kept[1]):
            return kept[2]
        before = time.time_ns()
        try:
            with os.scandir(full) as it:
                entries = [(e.name, _is_dir(e), e.is_symlink()) for e in it]
        except OSError:
            return None
        listing_counts["listed"] += 1
        if not linked and not any(link for _, _, link in entries):  # a link's target may change, its folder not
            if len(_listings) >= _LISTINGS_KEEP:
                _listings.clear()
            _listings[full] = (stamp, before, entries)
        return entries

    def list_dir(self, path: str) -> list[str]:
        self._note(path)
        return sorted(os.listdir(self._abs(path)))

    def mkdir(self, path: str) -> None:
        os.mkdir(self._guard(path))
        self._absent.discard(path)

    def rmdir(self, path: str) -> None:
        os.rmdir(self._guard(path))

    def stage(self, path: str, data: bytes) -> str:
        target = self._guard(path)
        tmp = self._abs(staging_name(path))
        mode = _existing_mode(target)
        fd = _create(tmp, 0o666 if mode is None else 0o600)  # a new file: the umask decides, as open() would
        try:
            try:
                if mode is not None:
                    os.fchmod(fd, mode)  # a replaced file keeps its mode
                _write_all(fd, data)
            finally:
                os.close(fd)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return tmp

    def commit(self, token: str, path: str) -> None:
        os.replace(token, self._guard(path))

    def discard(self, token: str) -> None:
        Path(token).unlink(missing_ok=True)

    def remove(self, path: str) -> None:
        os.unlink(self._guard(path))


def replace_file(path: str | Path, data: bytes) -> None:
    """Write ``data`` over one file the way kit writes its outputs: a staging file beside it,
    then one rename, so that a crash leaves the old text or the new, never a part (the file
    keeps its mode). A symlink is followed: its target is replaced and the link stays."""
    head, name = os.path.split(os.path.realpath(path))
    host = DiskHost(Path(head))
    token = host.stage(name, data)
    try:
        host.commit(token, name)
    except BaseException:
        host.discard(token)
        raise


def _write_all(fd: int, data: bytes) -> None:
    """`data` written whole with plain system calls (no buffered file object per output)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _existing_mode(target: str) -> int | None:
    try:
        return os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        return None


def _create(path: str, mode: int) -> int:
    """A new file (a staging file a dead run left there is replaced)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    try:
        return os.open(path, flags, mode)
    except FileExistsError:
        os.unlink(path)
        return os.open(path, flags, mode)


class MemoryHost:
    """A project kept in a dict of path -> text, for tests.

    ``fail_on`` names paths whose staging or commit raises, to test all-or-nothing runs.
    """

    def __init__(self, files: dict[str, str] | None = None, fail_on: set[str] | None = None) -> None:
        self.files: dict[str, str] = dict(files or {})
        self.dirs: set[str] = {d for p in self.files for d in parents(p)}
        self.fail_on = set(fail_on or ())
        self._staged: dict[str, tuple[str, bytes]] = {}

    def read(self, path: str) -> bytes | None:
        if path in self.dirs:
            raise IsADirectoryError(f"{path} is a directory")
        text = self.files.get(path)
        return None if text is None else text.encode("utf-8")

    def is_dir(self, path: str) -> bool:
        return path in self.dirs

    def is_link(self, path: str) -> bool:
        return False

    def dir_problem(self, directory: str) -> PathProblem | None:
        for d in [directory, *parents(directory)] if directory else []:
            if d in self.files:
                return PathProblem("output/blocked", d, f"{d} is a file, not a directory")
        return None

    def real(self, path: str) -> str:
        return path

    def real_dir(self, path: str) -> str:
        return path

    def display(self, path: str) -> str:
        return path

    def files_under(self, path: str) -> list[str]:
        if path not in self.dirs:
            return []
        prefix = path.rstrip("/") + "/"
        return sorted(p for p in self.files if p.startswith(prefix))

    def list_dir(self, path: str) -> list[str]:
        entries = [*self.files, *self.dirs]
        return sorted({e for e in entries if posixpath.dirname(e) == path})

    def mkdir(self, path: str) -> None:
        parent = posixpath.dirname(path)
        if parent and parent not in self.dirs:
            raise FileNotFoundError(parent)
        if path in self.dirs or path in self.files:
            raise FileExistsError(path)
        self.dirs.add(path)

    def rmdir(self, path: str) -> None:
        if self.list_dir(path):
            raise OSError(f"directory not empty: {path}")
        self.dirs.discard(path)

    def stage(self, path: str, data: bytes) -> str:
        parent = posixpath.dirname(path)
        if parent and parent not in self.dirs:
            raise FileNotFoundError(parent)
        if path in self.fail_on:
            raise OSError(f"injected failure writing {path}")
        token = f"{path}.kit-tmp{len(self._staged)}"
        self._staged[token] = (path, data)
        return token

    def commit(self, token: str, path: str) -> None:
        staged_path, data = self._staged.pop(token)
        if f"commit:{path}" in self.fail_on:
            raise OSError(f"injected failure replacing {path}")
        self.files[staged_path] = data.decode("utf-8")

    def discard(self, token: str) -> None:
        self._staged.pop(token, None)

    def remove(self, path: str) -> None:
        if f"remove:{path}" in self.fail_on:
            raise OSError(f"injected failure removing {path}")
        del self.files[path]

    @property
    def pending(self) -> int:
        """Staged files neither committed nor discarded (0 after every run)."""
        return len(self._staged)
