"""kit's Go runtime as a project builds against it: found where kit is installed, copied once
per version into kit's cache, and described module by module.

The wheel carries the runtime under `kit_core/_runtime/` (`setup.py` copies it there); a
checkout of the repository (an editable install) uses `runtime/` beside `kit_core/`. A
project's go.mod points at the copy under the cache (`kit_core.gomod`), never at the
installed package, so uninstalling or upgrading kit cannot pull files from under a
project that still names the old copy. The copy's folder is named by the Go version of
kit and a digest of the files, so a changed runtime (a development checkout) gets a new
folder instead of changing one a project already uses.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kit_core import __version__
from kit_core.runtime_files import shipped
from kit_core.statedir import CACHE_ENV, cache_root  # noqa: F401  (kit's cache, its runtime copies beside)

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
class RuntimeCopy:
    root: Path
    version: str  # the Go version every module of this copy is required at, e.g. v0.1.0
    modules: tuple[GoModule, ...]

    def dir_of(self, module: GoModule) -> Path:
        return self.root if module.rel == "." else self.root / module.rel

    @property
    def main(self) -> GoModule:
        return next(m for m in self.modules if m.path == RUNTIME_MODULE)


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


def copies_root() -> Path:
    return cache_root() / "runtime"


def is_managed(folder: Path) -> bool:
    """Whether a folder is (or was) a runtime copy kit manages: under kit's cache, or marked."""
    try:
        folder.resolve().relative_to(copies_root().resolve())
        return True
    except ValueError:
        return (folder / MARKER).is_file()


def materialize(source: Path | None = None, version: str | None = None) -> RuntimeCopy:
    """The per-version copy of the runtime under kit's cache, made on first use."""
    source = source or shipped_runtime()
    version = version or go_version()
    mods = modules(source)
    if not any(m.path == RUNTIME_MODULE for m in mods):
        raise RuntimeMissing(f"{source} does not hold the module {RUNTIME_MODULE}")
    target = copies_root() / f"{version}-{digest(source)}"
    if not (target / MARKER).is_file():
        if target.exists():  # left by a copy that never finished
            shutil.rmtree(target)
        _copy(source, target, {"version": version, "source": str(source)})
    return RuntimeCopy(target, version, mods)


def _copy(source: Path, target: Path, info: dict[str, str]) -> None:
    """Copy into a temp folder beside the target, then rename: a copy is whole or absent."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        for rel in shipped(source):
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / rel, dest)
            # Read-only like Go's module cache: an edit through "go to definition" fails loudly.
            dest.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
        (tmp / MARKER).write_text(json.dumps(info, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        tmp.chmod(0o755)
        try:
            tmp.rename(target)
        except OSError:
            if not (target / MARKER).is_file():  # not a concurrent run that finished first
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
