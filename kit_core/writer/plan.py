"""Decide everything a run will do before it touches anything.

Each output is classified against what is on disk: a REGEN file is written when absent or
different and left alone when byte-identical (so its mtime stays); a GEN-ONCE file is
written only when absent. A file at a REGEN path that carries no generated header is the
user's: the run refuses it as an error and writes nothing (kit never overwrites or deletes
a user's file). This is stricter than dsl-facts §3.6, where the released tool rewrote a
header-stripped file; the refusal names the file and the header to restore. Then the stale
REGEN files inside the sweep roots are listed.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kit_core.generators.base import Notice, OutputFile, Owner
from kit_core.writer.headers import GO_REGEN, YAML_REGEN, has_generated_header, has_kit_regen_header, has_pb_header
from kit_core.writer.host import Host, parents
from kit_core.writer.roots import SweepRoots, is_under


@dataclass(frozen=True, slots=True)
class Write:
    path: str
    data: bytes
    old: bytes | None  # None: the file is created by this run


@dataclass(slots=True)
class Plan:
    writes: list[Write] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped_gen_once: list[str] = field(default_factory=list)
    sweep: list[Write] = field(default_factory=list)  # data = b"", old = the bytes removed
    errors: list[str] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)


def check_path(path: str) -> str | None:
    """Why an output path is unusable, None when it is a clean project-relative path."""
    if not path or path.startswith("/") or "\\" in path:
        return f"output path {path!r} must be a relative POSIX path"
    if posixpath.normpath(path) != path or path == ".." or path.startswith("../"):
        return f"output path {path!r} must be normalised and stay inside the project"
    return None


def classify(host: Host, files: Sequence[OutputFile], plan: Plan) -> None:
    seen: set[str] = set()
    for f in files:
        problem = check_path(f.path)
        if problem is None and f.path in seen:
            problem = f"two outputs name {f.path}"
        if problem is None:
            problem = _blocked_parent(host, f.path)
        if problem:
            plan.errors.append(problem)
            continue
        seen.add(f.path)
        _classify_one(host, f, plan)


def _blocked_parent(host: Host, path: str) -> str | None:
    for d in parents(path):
        if not host.is_dir(d) and _read(host, d) is not None:
            return f"cannot write {path}: {d} is a file, not a directory"
    return None


def _read(host: Host, path: str) -> bytes | None:
    try:
        return host.read(path)
    except IsADirectoryError:
        return None


def _classify_one(host: Host, f: OutputFile, plan: Plan) -> None:
    data = f.content.encode("utf-8")
    if host.is_dir(f.path):
        plan.errors.append(f"cannot write {f.path}: a directory is in the way")
        return
    old = host.read(f.path)
    if f.owner is Owner.GEN_ONCE:
        if old is None:
            plan.writes.append(Write(f.path, data, None))
        else:
            plan.skipped_gen_once.append(f.path)
        return
    if old == data:
        plan.unchanged.append(f.path)
    elif old is None or has_generated_header(old):
        plan.writes.append(Write(f.path, data, old))
    else:
        header = YAML_REGEN if f.path.endswith((".yaml", ".yml")) else GO_REGEN
        plan.errors.append(
            f"{f.path} has no generated header, so it is treated as your file and kit will not "
            f"overwrite it; move it away (or restore the first line `{header}`) and run again"
        )


def stale_files(host: Host, roots: SweepRoots, written: set[str]) -> list[Write]:
    """REGEN files inside the sweep roots that this run did not write."""
    candidates: dict[str, bool] = {}  # path -> kit header (False: protoc-gen-go(-grpc) pb code)
    for root in roots.recursive:
        for p in host.files_under(root):
            if not _excluded(p, root, roots.excluded):
                candidates.setdefault(p, True)
    for d in roots.pb_dirs:
        for p in host.files_under(d):
            if posixpath.dirname(p) == d and p.endswith(".go"):
                candidates[p] = False
    if roots.openapi is not None:
        candidates[roots.openapi] = True
    out: list[Write] = []
    for p in sorted(candidates):
        if p in written:
            continue
        old = _read(host, p)
        if old is None:
            continue
        if has_kit_regen_header(old) if candidates[p] else has_pb_header(old):
            out.append(Write(p, b"", old))
    return out


def _excluded(path: str, root: str, excluded: Iterable[str]) -> bool:
    """Inside GEN-ONCE territory (or another owner's tree) nested in a sweep root."""
    return any(is_under(path, e) and is_under(e, root) and e != root for e in excluded)
