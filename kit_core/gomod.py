"""The lines of a project's go.mod that kit owns: the runtime's `require` and `replace`.

A user's go.mod is a user file, so kit reads it with `go mod edit -json` and changes it
only with `go mod edit`, one flag per line it owns, and says what it changed:

- no runtime requirement yet: require the runtime at kit's version and replace every
  runtime module with kit's per-version copy (`kit_core.runtime_dist`);
- a copy kit manages already pinned: move to this kit's copy when it differs (an upgrade);
- a published version (required without a replace) or a replace kit does not manage (a
  checkout of kit, a fork): left alone.

Only the root runtime module is required up front; the others (transports with their own
go.mod) get a replace only, so `go mod tidy` requires one when the code imports it and
drops nothing kit would add back on the next run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from kit_core.generators.base import Notice
from kit_core.runtime_dist import RUNTIME_MODULE, RuntimeCopy, RuntimeMissing, is_managed, materialize

GO_MOD = "go.mod"


class GoCommandError(RuntimeError):
    """The go command is missing or refused a go.mod (its own words are the message)."""


@dataclass(frozen=True, slots=True)
class Replacement:
    path: str  # the replacement as written: a folder (absolute or relative) or a module path
    version: str = ""  # empty for a folder

    def folder(self, base: Path) -> Path | None:
        local = self.path.startswith(("./", "../", ".\\", "..\\")) or Path(self.path).is_absolute()
        if self.version or not local:
            return None
        return (base / self.path).resolve()


@dataclass(frozen=True, slots=True)
class GoMod:
    dir: Path
    module: str
    requires: dict[str, str] = field(default_factory=dict)
    replaces: dict[str, Replacement] = field(default_factory=dict)  # by the replaced module path

    def managed(self, module: str) -> bool:
        """Whether module is replaced by a runtime copy kit manages."""
        rep = self.replaces.get(module)
        folder = rep.folder(self.dir) if rep else None
        return folder is not None and is_managed(folder)


@dataclass(frozen=True, slots=True)
class PinPlan:
    edits: tuple[str, ...]  # `go mod edit` flags, empty when go.mod stays as it is
    message: str = ""


def _go(args: list[str], cwd: Path) -> str:
    exe = shutil.which("go")
    if exe is None:
        raise GoCommandError("the go command is not on PATH (install Go 1.26 or later)")
    proc = subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise GoCommandError(proc.stderr.strip() or f"go {' '.join(args)} failed")
    return proc.stdout


def read(directory: Path) -> GoMod:
    """The go.mod in directory, as the go command reads it."""
    data = json.loads(_go(["mod", "edit", "-json"], directory))
    requires = {r["Path"]: r["Version"] for r in data.get("Require") or []}
    replaces = {
        r["Old"]["Path"]: Replacement(r["New"]["Path"], r["New"].get("Version", ""))
        for r in data.get("Replace") or []
    }
    return GoMod(directory, data["Module"]["Path"], requires, replaces)


def plan(gomod: GoMod, copy: RuntimeCopy) -> PinPlan:
    """What to change so the project builds against ``copy`` (nothing when it is not kit's to change)."""
    main = RUNTIME_MODULE
    if main in gomod.replaces and not gomod.managed(main):
        return PinPlan(())  # replaced by the user: a checkout of kit, a fork
    if main not in gomod.replaces and main in gomod.requires:
        return PinPlan(())  # a published runtime version
    edits: list[str] = []
    touched: list[str] = []
    for module in copy.modules:
        if module.path in gomod.replaces and not gomod.managed(module.path):
            continue
        before = len(edits)
        rep = gomod.replaces.get(module.path)
        want = copy.dir_of(module).resolve()
        if rep is None or rep.folder(gomod.dir) != want:
            edits.append(f"-replace={module.path}={want}")
        required = module.path == main or module.path in gomod.requires
        if required and gomod.requires.get(module.path) != copy.version:
            edits.append(f"-require={module.path}@{copy.version}")
        if len(edits) > before:
            touched.append(module.path)
    if not edits:
        return PinPlan(())
    return PinPlan(tuple(edits), _message(gomod, copy, touched))


def _message(gomod: GoMod, copy: RuntimeCopy, touched: list[str]) -> str:
    main = RUNTIME_MODULE
    before = gomod.requires.get(main)
    if before is None or main not in gomod.replaces:
        what = f"pinned the kit runtime {copy.version}"
    elif before != copy.version:
        what = f"kit was upgraded: moved the kit runtime from {before} to {copy.version}"
    elif main in touched:
        what = f"moved the kit runtime {copy.version} to kit's current copy"
    else:
        what = f"pinned {', '.join(touched)} to the kit runtime {copy.version}"
    return (
        f"{what} (require and replace lines of kit's runtime modules, edited with `go mod edit`; "
        f"no other line was touched): {copy.root}; run `go mod tidy` before building"
    )


def apply(gomod: GoMod, pin: PinPlan) -> None:
    if pin.edits:
        _go(["mod", "edit", *pin.edits], gomod.dir)


def find(start: Path) -> Path | None:
    """The folder of the go.mod governing ``start`` (itself or its nearest parent)."""
    start = start.resolve()
    for d in (start, *start.parents):
        if (d / GO_MOD).is_file():
            return d
    return None


def pin_runtime(project_root: Path, copy: RuntimeCopy | None = None) -> list[Notice]:
    """Point the project's go.mod at kit's runtime; notices say what changed or what failed."""
    directory = find(project_root)
    if directory is None:
        return []
    path = str(directory / GO_MOD)
    try:
        copy = copy or materialize()
        seen = _stamp(path)
        if seen is not None and _settled.get(path) == (seen, copy.root):
            return []  # the go.mod this process found pinned, untouched since
        gomod = read(directory)
        pin = plan(gomod, copy)
        apply(gomod, pin)
    except (GoCommandError, RuntimeMissing, OSError) as exc:
        return [Notice(path, f"could not pin the kit runtime: {exc}")]
    if not pin.edits and seen is not None and seen[0] < time.time_ns() - _RACY_NS:
        _settled[path] = (seen, copy.root)
    return [Notice(path, pin.message)] if pin.edits else []


# A long-lived process (kit-lsp's generation worker, `kit gen`'s daemon) pins at every run:
# a go.mod it found with nothing to change, and whose size, time and inode have not changed
# since (its time older than the file system's clock could hide, as git's "racy" rule),
# is not read again with `go mod edit -json` (a `go` process per run).
_RACY_NS = 2_000_000_000
_settled: dict[str, tuple[tuple[int, int, int], Path]] = {}


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


# --------------------------------------------------------------------------- kit init

_MODULE_CHARS = re.compile(r"[^a-z0-9._~-]+")


def default_module(project_root: Path) -> str:
    """A module path for a new project: example.com/<the project folder's name>."""
    name = _MODULE_CHARS.sub("-", project_root.resolve().name.lower()).strip("-.") or "app"
    return f"example.com/{name}"


def init_module(project_root: Path, module: str) -> Path:
    """`go mod init <module>` in project_root; returns the go.mod written."""
    project_root.mkdir(parents=True, exist_ok=True)
    _go(["mod", "init", module], project_root)
    return project_root / GO_MOD
