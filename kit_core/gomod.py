"""The lines of a project's go.mod that kit owns: the runtime's `require` and `replace`.

A user's go.mod is a user file, so kit reads it with `go mod edit -json` and changes it
only with `go mod edit`, one flag per line it owns, and says what it changed:

- no runtime requirement yet: require the runtime at kit's version and replace every
  runtime module with kit's copy inside the project (`kit_core.runtime_copy`), by a path
  relative to go.mod, so the project builds wherever it is cloned;
- a copy kit manages already pinned (in the project, or in earlier kits' cache: migrated into
  the project): refreshed and moved to this kit's version when it differs (an upgrade);
- a published version (required without a replace) or a replace kit does not manage (a
  checkout of kit, a fork): left alone.

Only the root runtime module is required up front; the others (transports with their own
go.mod) get a replace only, so `go mod tidy` requires one when the code imports it and
drops nothing kit would add back on the next run.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from kit_core import racy, runtime_copy
from kit_core.generators.base import Notice
from kit_core.runtime_copy import PROJECT_COPY, CopyState
from kit_core.runtime_dist import RUNTIME_MODULE, GoModule, Runtime, RuntimeMissing, is_legacy, is_managed, runtime
from kit_core.runtime_dist import go_version as runtime_version

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
        """Whether module is replaced by a runtime copy kit manages: a marked one, or kit's
        folder in the project gone missing (a clone that left it out: kit writes it again)."""
        rep = self.replaces.get(module)
        folder = rep.folder(self.dir) if rep else None
        if folder is None:
            return False
        copy = self.dir / PROJECT_COPY
        return is_managed(folder) or (folder.is_relative_to(copy.resolve()) and not copy.exists())


@dataclass(frozen=True, slots=True)
class PinPlan:
    edits: tuple[str, ...] = ()  # `go mod edit` flags, empty when go.mod stays as it is
    message: str = ""
    copy: bool = False  # write (or refresh) kit's copy of the runtime in the project
    refused: str = ""  # why kit cannot pin (the copy's folder holds something of the user's)

    @property
    def acts(self) -> bool:
        return bool(self.edits or self.copy)


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
        r["Old"]["Path"]: Replacement(r["New"]["Path"], r["New"].get("Version", "")) for r in data.get("Replace") or []
    }
    return GoMod(directory, data["Module"]["Path"], requires, replaces)


def copy_path(module: GoModule) -> str:
    """The replace target of a runtime module: its folder in kit's copy, relative to go.mod."""
    return "./" + posixpath.normpath(posixpath.join(PROJECT_COPY, module.rel))


def plan(gomod: GoMod, rt: Runtime) -> PinPlan:
    """What to change so the project builds against ``rt`` (nothing when it is not kit's to change)."""
    main = RUNTIME_MODULE
    if main in gomod.replaces and not gomod.managed(main):
        return PinPlan()  # replaced by the user: a checkout of kit, a fork
    if main not in gomod.replaces and main in gomod.requires:
        return _published(gomod.requires[main], rt)  # the user's to move: advice at most
    folder = gomod.dir / PROJECT_COPY
    copy_state = runtime_copy.state(folder, rt)
    if copy_state is CopyState.FOREIGN:
        return PinPlan(
            refused=f"{folder} exists and is not kit's copy of its runtime (it has no "
            f"{runtime_copy.MARKER}): move it away, or replace {main} with a folder of your own"
        )
    edits: list[str] = []
    touched: list[str] = []
    for module in rt.modules:
        if module.path in gomod.replaces and not gomod.managed(module.path):
            continue
        before = len(edits)
        rep = gomod.replaces.get(module.path)
        want = copy_path(module)
        if rep is None or rep.version or rep.path != want:
            edits.append(f"-replace={module.path}={want}")
        required = module.path == main or module.path in gomod.requires
        if required and gomod.requires.get(module.path) != rt.version:
            edits.append(f"-require={module.path}@{rt.version}")
        if len(edits) > before:
            touched.append(module.path)
    copy = copy_state is not CopyState.CURRENT
    if not edits and not copy:
        return PinPlan()
    return PinPlan(tuple(edits), _message(gomod, rt, touched, copy_state), copy)


_SEMVER = re.compile(r"^v(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")


def _release_order(version: str) -> tuple[int, int, int, int] | None:
    """Enough of semver's order to tell an older release: a pre-release (or pseudo-version)
    sorts before its release; two pre-releases of one release compare equal here."""
    m = _SEMVER.match(version)
    return None if m is None else (int(m[1]), int(m[2]), int(m[3]), 0 if m[4] else 1)


def _published(required: str, rt: Runtime) -> PinPlan:
    """A published requirement is left alone; older than this kit's runtime, the run says so:
    code generated by a newer kit may use runtime API the older version lacks."""
    have, want = _release_order(required), _release_order(rt.version)
    if have is None or want is None or have >= want:
        return PinPlan()
    return PinPlan(
        message=f"go.mod requires the published kit runtime {required}, older than this kit's {rt.version}: "
        f"the generated code may need the newer one; run `go get {RUNTIME_MODULE}@{rt.version}` "
        "(kit does not change a published requirement)"
    )


def _message(gomod: GoMod, rt: Runtime, touched: list[str], copy_state: CopyState) -> str:
    main = RUNTIME_MODULE
    before = gomod.requires.get(main)
    old = gomod.replaces.get(main)
    old_folder = old.folder(gomod.dir) if old else None
    legacy = old_folder is not None and is_legacy(old_folder)
    where = f"{PROJECT_COPY}/"
    if old is None:
        what = f"pinned the kit runtime {rt.version}: kit's copy of it in {where} (commit it with the project)"
    elif before is not None and before != rt.version:
        what = f"kit was upgraded: moved the kit runtime from {before} to {rt.version}, kit's copy in {where}"
    elif legacy:
        what = f"moved the kit runtime {rt.version} into the project, to {where} (commit it)"
    elif copy_state is CopyState.ABSENT:
        what = f"wrote kit's copy of the kit runtime {rt.version} to {where} (it was missing; commit it)"
    elif copy_state is CopyState.STALE:
        what = f"refreshed kit's copy of the kit runtime {rt.version} in {where} (its files had changed)"
    else:
        what = f"pinned {', '.join(touched)} to the kit runtime {rt.version}"
    if legacy:
        what += f"; go.mod no longer points at kit's cache ({old.path if old else ''}), so a clone builds without kit"
    if not touched:
        return what
    return (
        f"{what}; the require and replace lines of kit's runtime modules were edited with `go mod edit` "
        "(no other line was touched): run `go mod tidy` before building"
    )


def apply(gomod: GoMod, pin: PinPlan, rt: Runtime) -> None:
    if pin.copy:
        runtime_copy.write(gomod.dir / PROJECT_COPY, rt)
    if pin.edits:
        _go(["mod", "edit", *pin.edits], gomod.dir)


def find(start: Path) -> Path | None:
    """The folder of the go.mod governing ``start`` (itself or its nearest parent)."""
    start = start.resolve()
    for d in (start, *start.parents):
        if (d / GO_MOD).is_file():
            return d
    return None


def pin_runtime(project_root: Path, rt: Runtime | None = None) -> list[Notice]:
    """Point the project's go.mod at kit's runtime; notices say what changed or what failed."""
    directory = find(project_root)
    if directory is None:
        return []
    path = str(directory / GO_MOD)
    try:
        rt = rt or runtime()
        seen = _stamp(path), _stamp(str(directory / PROJECT_COPY / runtime_copy.MARKER))
        if seen[0] is not None and _settled.get(path) == (seen, rt.version, rt.digest):
            return []  # the go.mod (and copy) this process found pinned, untouched since
        gomod = read(directory)
        pin = plan(gomod, rt)
        if pin.refused:
            return [Notice(path, f"could not pin the kit runtime: {pin.refused}")]
        apply(gomod, pin, rt)
    except (GoCommandError, RuntimeMissing, OSError) as exc:
        return [Notice(path, f"could not pin the kit runtime: {exc}")]
    if not pin.acts and seen[0] is not None and seen[0][0] < time.time_ns() - racy.RACY_NS:
        _settled[path] = (seen, rt.version, rt.digest)
    return [Notice(path, pin.message)] if pin.message else []


# A long-lived process (kit-lsp's generation worker, `kit gen`'s daemon) pins at every run:
# a go.mod it found with nothing to change, and whose size, time and inode have not changed
# since (its time older than the file system's clock could hide, as git's "racy" rule),
# is not read again with `go mod edit -json` (a `go` process per run).
_Stamp = tuple[int, int, int]
_settled: dict[str, tuple[tuple[_Stamp | None, _Stamp | None], str, str]] = {}


def _stamp(path: str) -> _Stamp | None:
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


def require_published(project_root: Path, version: str | None = None) -> str:
    """Require the published runtime at kit's version, with no replace (`kit init --runtime
    published`); a go.mod that names the runtime already is left as it is. Says what it did."""
    directory = find(project_root)
    if directory is None:
        raise GoCommandError(f"no go.mod governs {project_root}")
    gomod = read(directory)
    if RUNTIME_MODULE in gomod.requires or RUNTIME_MODULE in gomod.replaces:
        return f"{directory / GO_MOD} names the kit runtime already; --runtime published is not applied"
    version = version or runtime_version()
    _go(["mod", "edit", f"-require={RUNTIME_MODULE}@{version}"], directory)
    return (
        f"{directory / GO_MOD} requires the published kit runtime {version} (no replace); "
        "`go mod tidy` downloads it, and kit gen leaves the line to you"
    )
