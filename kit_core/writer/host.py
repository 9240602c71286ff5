"""Where outputs go: the disk (the only place kit_core opens files for writing) or memory.

Paths given to a host are POSIX paths relative to the project root. A write is staged to
a temporary file beside its target and then moved over it with one rename, so a reader
never sees half a file.
"""

from __future__ import annotations

import os
import posixpath
import tempfile
from pathlib import Path
from typing import Protocol


class Host(Protocol):
    def read(self, path: str) -> bytes | None:
        """The file's bytes, None when there is no file (a directory there also raises)."""

    def is_dir(self, path: str) -> bool: ...

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


def parents(path: str) -> list[str]:
    """Ancestor directories of a relative path, nearest first, excluding the root."""
    out: list[str] = []
    d = posixpath.dirname(path)
    while d and d != ".":
        out.append(d)
        d = posixpath.dirname(d)
    return out


class DiskHost:
    """The project on disk."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def _abs(self, path: str) -> Path:
        return self.root / path

    def read(self, path: str) -> bytes | None:
        p = self._abs(path)
        if not p.exists() and not p.is_symlink():
            return None
        if p.is_dir():
            raise IsADirectoryError(f"{path} is a directory")
        return p.read_bytes()

    def is_dir(self, path: str) -> bool:
        return self._abs(path).is_dir()

    def files_under(self, path: str) -> list[str]:
        base = self._abs(path)
        if not base.is_dir():
            return []
        out: list[str] = []
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            rel = Path(dirpath).relative_to(self.root).as_posix()
            out.extend(posixpath.join(rel, f) for f in filenames)
        return sorted(out)

    def list_dir(self, path: str) -> list[str]:
        return sorted(os.listdir(self._abs(path)))

    def mkdir(self, path: str) -> None:
        self._abs(path).mkdir()

    def rmdir(self, path: str) -> None:
        self._abs(path).rmdir()

    def stage(self, path: str, data: bytes) -> str:
        target = self._abs(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".kit-tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, _mode_for(target))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return tmp

    def commit(self, token: str, path: str) -> None:
        os.replace(token, self._abs(path))

    def discard(self, token: str) -> None:
        Path(token).unlink(missing_ok=True)

    def remove(self, path: str) -> None:
        self._abs(path).unlink()


def _mode_for(target: Path) -> int:
    """Keep a replaced file's mode; a new file gets 0666 less the umask (as open() would)."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


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
