"""A Go module proxy in a folder (`GOPROXY=file:///...`), serving kit's runtime modules as a
release publishes them (docs/generation.md, "Releasing the runtime"):

    <proxy>/<escaped module path>/@v/list            one version a line
    <proxy>/<escaped module path>/@v/<version>.info  {"Version": ..., "Time": ...}
    <proxy>/<escaped module path>/@v/<version>.mod   the module's go.mod
    <proxy>/<escaped module path>/@v/<version>.zip   the module's files under <path>@<version>/

The zip follows golang.org/x/mod/zip: the files of the module's folder, without the
folders of nested modules (a subfolder holding a go.mod is another module), version-control
folders, vendor folders or symlinks. Each transport's go.mod is edited the way the release
does it, with the same `go mod edit` command: it requires the runtime at the release
version and drops its development replace (`=> ../..`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from kit_core.runtime_dist import RUNTIME_MODULE, GoModule, modules
from kit_core.runtime_files import shipped

_SKIP_DIRS = frozenset({".git", ".hg", ".svn", ".bzr", "vendor"})


def escape(path: str) -> str:
    """A module path as the proxy protocol spells it: an upper-case letter as `!` + lower case."""
    return "".join(f"!{c.lower()}" if c.isupper() else c for c in path)


def release_go_mod(go_mod: Path, version: str) -> bytes:
    """A transport's go.mod as the release tags it (the documented release step)."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(go_mod, Path(tmp) / "go.mod")
        subprocess.run(
            ["go", "mod", "edit", f"-require={RUNTIME_MODULE}@{version}", f"-dropreplace={RUNTIME_MODULE}"],
            cwd=tmp,
            check=True,
        )
        return (Path(tmp) / "go.mod").read_bytes()


def owner(rel: str, folders: list[str]) -> str:
    """The folder of the innermost module holding the file ``rel`` ("." for the root)."""
    inside = [f for f in folders if f != "." and rel.startswith(f + "/")]
    return max(inside, key=len, default=".")


def module_files(root: Path, module: GoModule, folders: list[str]) -> list[str]:
    """The module's files, relative to its folder, POSIX, sorted."""
    base = "" if module.rel == "." else module.rel + "/"
    out = []
    for rel in shipped(root):
        text = rel.as_posix()
        if owner(text, folders) != module.rel:
            continue  # the root module's zip leaves out the folders of the transports
        inner = text[len(base) :]
        if set(Path(inner).parts[:-1]) & _SKIP_DIRS or (root / rel).is_symlink():
            continue
        out.append(inner)
    return sorted(out)


def publish(proxy: Path, runtime_root: Path, version: str, when: str = "2026-01-01T00:00:00Z") -> list[str]:
    """Publish every runtime module under ``runtime_root`` at ``version`` into ``proxy``;
    returns the module paths published."""
    mods = modules(runtime_root)
    folders = [m.rel for m in mods]
    for module in mods:
        folder = runtime_root if module.rel == "." else runtime_root / module.rel
        go_mod = (folder / "go.mod").read_bytes() if module.rel == "." else release_go_mod(folder / "go.mod", version)
        at = proxy / escape(module.path) / "@v"
        at.mkdir(parents=True, exist_ok=True)
        (at / "list").write_text(version + "\n")
        (at / f"{version}.info").write_text(json.dumps({"Version": version, "Time": when}) + "\n")
        (at / f"{version}.mod").write_bytes(go_mod)
        prefix = f"{module.path}@{version}/"
        with zipfile.ZipFile(at / f"{version}.zip", "w", zipfile.ZIP_DEFLATED) as z:
            for inner in module_files(runtime_root, module, folders):
                data = go_mod if inner == "go.mod" else (folder / inner).read_bytes()
                z.writestr(zipfile.ZipInfo(prefix + inner, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return [m.path for m in mods]
