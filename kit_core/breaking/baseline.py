"""The design as it was at a git ref: `git archive` of the design folder (and of the
manifest's `proto.includes`) unpacked into a temporary directory. The work tree, the index
and the current branch are never touched."""

from __future__ import annotations

import io
import subprocess
import tarfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from tempfile import TemporaryDirectory
from typing import Any

from kit_core import program
from kit_core.manifest import MANIFEST_NAME
from kit_core.manifest_reader import parse_manifest


class BaselineError(Exception):
    """The baseline cannot be read (not a git repository, unknown ref, no design there)."""


def _git(args: list[str], cwd: Path) -> bytes:
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False, timeout=120)
    except FileNotFoundError as exc:
        raise BaselineError("git is not installed") from exc
    if proc.returncode != 0:
        raise BaselineError(proc.stderr.decode("utf-8", "replace").strip() or f"git {args[0]} failed")
    return proc.stdout


@contextmanager
def design_at(ref: str, design_root: Path, project_root: Path) -> Iterator[tuple[Any, str, Path]]:
    """(the loaded design at ``ref``, the repository-relative design path, the repository's
    top folder), valid inside the block; the temporary copy is deleted after it."""
    design_root, project_root = design_root.resolve(), project_root.resolve()
    top = Path(_git(["rev-parse", "--show-toplevel"], design_root).decode().strip()).resolve()
    _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], top)
    rel = _relative(design_root, top)
    rel_project = _relative(project_root, top)
    manifest_text = _show(ref, f"{rel}/{MANIFEST_NAME}" if rel != "." else MANIFEST_NAME, top)
    if manifest_text is None:
        raise BaselineError(f"{rel}/{MANIFEST_NAME} does not exist at {ref}")
    manifest, _ = parse_manifest(MANIFEST_NAME, manifest_text)
    paths = [rel, *(str(PurePosixPath(rel_project) / inc) for inc in manifest.proto.includes)]
    with TemporaryDirectory(prefix="kit-diff-") as tmp:
        _unpack(ref, paths, top, Path(tmp))
        design = program.load_design(Path(tmp) / rel, project_root=Path(tmp) / rel_project)
        yield design, rel, top


def _relative(path: Path, top: Path) -> str:
    try:
        return path.relative_to(top).as_posix() or "."
    except ValueError as exc:
        raise BaselineError(f"{path} is not inside the git repository {top}") from exc


def _show(ref: str, path: str, top: Path) -> str | None:
    try:
        return _git(["show", f"{ref}:{path}"], top).decode("utf-8", "replace")
    except BaselineError:
        return None


def _unpack(ref: str, paths: list[str], top: Path, into: Path) -> None:
    present = [p for p in paths if p == "." or _show_tree(ref, p, top)]
    data = _git(["archive", "--format=tar", ref, "--", *present], top)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def _show_tree(ref: str, path: str, top: Path) -> bool:
    try:
        return bool(_git(["ls-tree", "-d", "--name-only", ref, "--", path], top).strip())
    except BaselineError:
        return False
