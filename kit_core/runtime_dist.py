"""kit's Go runtime as a project builds against it: found where kit is installed, and
described module by module.

The wheel carries the runtime under `kit_core/_runtime/` (`setup.py` copies it there); a
checkout of the repository (an editable install) uses `runtime/` beside `kit_core/`. A
project never points at either: `kit_core.runtime_copy` copies the runtime into the
project (`third_party/kit-runtime/`, committed with it), so the project builds wherever it
is cloned, with Go alone. Once the runtime modules are published, a project may instead
require them at kit's version (docs/generation.md, "How your project depends on kit's
runtime").

Earlier kits kept one copy per version in kit's cache and pointed go.mod there with an absolute
`replace`; `is_managed` still recognises those, so the next `kit gen` moves the project off
them.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from kit_core import __version__, racy
from kit_core.runtime_files import shipped, shipped_names
from kit_core.statedir import CACHE_ENV, cache_root  # noqa: F401  (kit's cache, where earlier kits kept their copies)

RUNTIME_MODULE = "github.com/kitdev/kit/runtime"
MARKER = ".kit-runtime.json"  # in every copy kit manages; Go ignores dot files

_MODULE_RE = re.compile(r"^\s*module\s+(\S+)", re.MULTILINE)
_PY_VERSION_RE = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:[.+-]?([0-9A-Za-z.]+))?$")


class RuntimeMissing(RuntimeError):
    """kit was installed without its runtime (a broken build): nothing to pin a project to."""


@dataclass(frozen=True, slots=True)
class GoModule:
    path: str  # module path, e.g. github.com/kitdev/kit/runtime/events/nats
    rel: str  # its folder relative to the runtime root, POSIX; "." for the root module


@dataclass(frozen=True, slots=True)
class Runtime:
    """A runtime source tree: the files kit ships, the version they are required at."""

    root: Path
    version: str  # the Go version every module is required at, e.g. v0.1.0
    modules: tuple[GoModule, ...]
    digest: str  # of the shipped files (names and bytes): a changed runtime has another

    @property
    def main(self) -> GoModule:
        return next(m for m in self.modules if m.path == RUNTIME_MODULE)

    def files(self) -> list[Path]:
        return list(shipped(self.root))


def shipped_runtime() -> Path:
    """The runtime folder of this installation of kit."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_runtime", here.parent / "runtime"):
        if (candidate / "go.mod").is_file():
            return candidate
    raise RuntimeMissing(f"kit's Go runtime is missing from {here} (reinstall kit)")


def go_version(py_version: str = __version__) -> str:
    """kit's Python version as a Go module version: 0.1.0 -> v0.1.0, 0.2.0.dev3 -> v0.2.0-dev3."""
    m = _PY_VERSION_RE.match(py_version)
    if m is None:
        return "v0.0.0-kit"
    major, minor, patch, pre = m.groups()
    base = f"v{int(major)}.{int(minor)}.{int(patch)}"
    return f"{base}-{pre}" if pre else base


def modules(root: Path) -> tuple[GoModule, ...]:
    """Every Go module under the runtime root (each folder holding a go.mod), root first."""
    found: list[GoModule] = []
    for rel in shipped(root):
        if rel.name != "go.mod":
            continue
        m = _MODULE_RE.search((root / rel).read_text(encoding="utf-8"))
        if m is not None:
            found.append(GoModule(m.group(1).strip('"'), rel.parent.as_posix()))
    found.sort(key=lambda g: (g.rel != ".", g.rel))
    return tuple(found)


def digest(root: Path) -> str:
    """A short digest of the shipped files (names and bytes)."""
    h = hashlib.sha256()
    for rel in shipped(root):
        h.update(rel.as_posix().encode() + b"\0")
        h.update((root / rel).read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:12]


def runtime(source: Path | None = None, version: str | None = None) -> Runtime:
    """The runtime this kit ships (or the one at ``source``), at kit's version (or ``version``).

    A long-lived process (the resident kit, kit-lsp's worker) asks at every run: the answer is
    kept with the `stat` of every shipped file (name, size, times, inode), and taken again while
    they are all the same - one walk of `stat` calls instead of reading and hashing every file.
    A file changed less than `racy.RACY_NS` before the walk may change again unseen: nothing is kept
    then (git's "racy" rule)."""
    source = source or shipped_runtime()
    version = version or go_version()
    since = time.time_ns()
    stamp = _tree_stamp(source)
    kept = _kept.get((str(source), version))
    if kept is not None and kept[0] == stamp:
        return kept[1]
    mods = modules(source)
    if not any(m.path == RUNTIME_MODULE for m in mods):
        raise RuntimeMissing(f"{source} does not hold the module {RUNTIME_MODULE}")
    rt = Runtime(source, version, mods, digest(source))
    if all(racy.settled(s[2], s[3], since) for s in stamp):
        _kept[(str(source), version)] = (stamp, rt)
    return rt


_FileStamp = tuple[str, int, int, int, int]  # (relative path, size, mtime_ns, ctime_ns, inode)
_kept: dict[tuple[str, str], tuple[list[_FileStamp], Runtime]] = {}


def _tree_stamp(root: Path) -> list[_FileStamp]:
    """The `stat` of every file `shipped` lists (a file that cannot be read stamps as missing)."""
    out: list[_FileStamp] = []
    base = str(root)
    for rel in shipped_names(root):
        try:
            st = os.stat(os.path.join(base, rel))
            out.append((rel, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
        except OSError:
            out.append((rel, -1, 0, 0, 0))
    return out


def legacy_copies_root() -> Path:
    """Where earlier kits kept their per-version copies (absolute `replace` targets)."""
    return cache_root() / "runtime"


# Earlier kits' copy folders: <kit's cache>/runtime/<Go version>-<digest>, on any machine (a
# go.mod committed by a colleague names their cache, which does not exist here)
_LEGACY_NAME = re.compile(r"^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?-[0-9a-f]{12}$")


def is_legacy(folder: Path) -> bool:
    """Whether folder is (inside) one of earlier kits' per-version copies in a kit cache."""
    if not folder.is_absolute():
        return False
    try:
        folder.resolve().relative_to(legacy_copies_root().resolve())
        return True
    except ValueError:
        pass
    return any(_LEGACY_NAME.match(d.name) and d.parent.name == "runtime" for d in (folder, *folder.parents[:2]))


def is_managed(folder: Path) -> bool:
    """Whether a folder is (or was) a runtime copy kit manages: earlier kits' copies under kit's
    cache, or a folder of a copy marked as kit's (its root holds the marker)."""
    if is_legacy(folder):
        return True
    folder = folder.resolve()
    # a transport module sits below the copy's root (events/nats): the marker is up there
    return any((d / MARKER).is_file() for d in (folder, *folder.parents[:2]))
