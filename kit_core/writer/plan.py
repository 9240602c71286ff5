"""Decide everything a run will do before it touches anything.

Each output is classified against what is on disk: a REGEN file is written when absent or
different and left alone when byte-identical (so its mtime stays); a GEN-ONCE file is
written only when absent. A file at a REGEN path that carries no generated header is the
user's: the run refuses it as an error and writes nothing (kit never overwrites or deletes
a user's file). This is stricter than dsl-facts §3.6, where the released tool rewrote a
header-stripped file; the refusal names the file and the header to restore.

Paths are checked where they really lead: a symlink on the way to an output (or to a
swept directory) that leaves the project or points nowhere, a symlink at an output's own
path, and two outputs made one file by a symlink are refused. Then the stale REGEN files
inside the sweep roots are listed (never a symlink), and the staging files of a run that
died (`.<name>.kit-tmp`) found there are listed for removal.

Problems are located diagnostics (`output/*`): the run reports them and changes nothing.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kit_core.generators.base import Notice, OutputFile, Owner
from kit_core.source import file_span
from kit_core.writer.headers import (
    GO_GEN_ONCE,
    GO_REGEN,
    YAML_REGEN,
    first_line,
    has_generated_header,
    has_kit_regen_header,
    has_pb_header,
)
from kit_core.writer.host import Host, PathProblem, is_staging_name
from kit_core.writer.roots import SweepRoots, is_under

if TYPE_CHECKING:
    from kit_core.diagnostics import Diagnostic


@dataclass(frozen=True, slots=True)
class Write:
    path: str
    data: bytes
    old: bytes | None  # None: the file is created by this run


@dataclass(frozen=True, slots=True)
class Known:
    """An output the run did not render again: its unit's inputs did not change and the disk
    was checked to hold it as it was written (REGEN) or to hold it at all (GEN-ONCE)."""

    path: str
    owner: Owner


@dataclass(slots=True)
class Plan:
    writes: list[Write] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped_gen_once: list[str] = field(default_factory=list)
    sweep: list[Write] = field(default_factory=list)  # data = b"", old = the bytes removed
    leftovers: list[str] = field(default_factory=list)  # staging files of a run that died
    problems: list[Diagnostic] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)


def problem(host: Host, code: str, at: str, **fields: Any) -> Diagnostic:
    """A located writer problem: at the start of the file (or directory) ``at``."""
    # deferred: keeps the writer and `import program` light (kit fmt, a no-op run)
    from kit_core.diagnostics import make

    return make(code, file_span(host.display(at)), **fields)


def check_path(path: str) -> str | None:
    """Why an output path is unusable, None when it is a clean project-relative path."""
    if not path or path.startswith("/") or "\\" in path:
        return "the output path must be a relative POSIX path (a generator bug)"
    if posixpath.normpath(path) != path or path == ".." or path.startswith("../"):
        return "the output path must be normalised and stay inside the project (a generator bug)"
    return None


def classify(host: Host, files: Sequence[OutputFile], known: Sequence[Known], plan: Plan) -> None:
    seen: dict[str, str] = {}  # real path -> output path
    for f in files:
        found = _path_problem(host, f.path, seen, on_disk=False)
        if found is not None:
            plan.problems.append(found)
        else:
            _classify_one(host, f, plan)
    _classify_known(host, known, seen, plan)


# Paths `check_path` found clean (a pure function of the string): a resident kit's runs plan
# the same 10,000 known outputs again and again.
_clean_paths: set[str] = set()
_CLEAN_KEEP = 500_000


def _classify_known(host: Host, known: Sequence[Known], seen: dict[str, str], plan: Plan) -> None:
    """`_path_problem` of each known output (on disk, a regular file), its folder looked at
    once: the folder's problem and real path are the same for every output in it."""
    by_head: dict[str, list[Known]] = {}
    for k in known:
        by_head.setdefault(k.path.rpartition("/")[0], []).append(k)
    clean = _clean_paths
    if len(clean) > _CLEAN_KEEP:
        clean.clear()
    for head, group in by_head.items():
        folder: tuple[PathProblem | None, str] | None = None  # looked at once a path is clean
        for k in group:
            path = k.path
            if path not in clean:
                reason = check_path(path)
                if reason is not None:
                    plan.problems.append(problem(host, "output/blocked", path, path=path, reason=reason))
                    continue
                clean.add(path)
            if folder is None:
                problem_here = host.dir_problem(head) if head else None
                folder = (problem_here, host.real_dir(head) if problem_here is None and head else "")
            found, base = folder
            if found is not None:
                plan.problems.append(path_diagnostic(host, path, found))
                continue
            real = f"{base}/{path.rpartition('/')[2]}" if base else path.rpartition("/")[2]
            if real in seen:
                reason = f"{seen[real]} is the same file (through a symlink)" if seen[real] != path else "two outputs"
                plan.problems.append(problem(host, "output/blocked", path, path=path, reason=reason + " name it"))
                continue
            seen[real] = path
            (plan.unchanged if k.owner is Owner.REGEN else plan.skipped_gen_once).append(path)


def _path_problem(host: Host, path: str, seen: dict[str, str], on_disk: bool) -> Diagnostic | None:
    """``on_disk``: a known output, just seen to be a regular file (no need to look again)."""
    reason = check_path(path)
    if reason is not None:
        return problem(host, "output/blocked", path, path=path, reason=reason)
    head = posixpath.dirname(path)
    found = host.dir_problem(head) if head else None
    if found is not None:
        return path_diagnostic(host, path, found)
    if not on_disk and host.is_link(path):
        return problem(host, "output/symlink-file", path, path=path)
    if not on_disk and host.is_dir(path):
        return problem(host, "output/blocked", path, path=path, reason="a directory is in the way")
    real = host.real(path)
    if real in seen:
        reason = f"{seen[real]} is the same file (through a symlink)" if seen[real] != path else "two outputs"
        return problem(host, "output/blocked", path, path=path, reason=reason + " name it")
    seen[real] = path
    return None


def path_diagnostic(host: Host, path: str, found: PathProblem) -> Diagnostic:
    if found.code == "output/dangling-symlink":
        return problem(host, found.code, found.at, link=found.at, target=found.target)
    if found.code == "output/blocked":
        return problem(host, found.code, path, path=path, reason=found.target)
    root = getattr(host, "real_root", "")
    return problem(host, found.code, found.at, path=path, link=found.at, target=found.target, root=root)


def _read(host: Host, path: str) -> bytes | None:
    try:
        return host.read(path)
    except IsADirectoryError:
        return None


def _classify_one(host: Host, f: OutputFile, plan: Plan) -> None:
    data = f.content.encode("utf-8")
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
        plan.problems.append(problem(host, "output/user-file", f.path, path=f.path, header=header))


def check_roots(host: Host, roots: SweepRoots, plan: Plan) -> None:
    """A sweep root reached through a symlink to outside the project (or nowhere) is refused:
    the sweep would delete there."""
    for root in [*roots.recursive, *roots.pb_dirs]:
        found = host.dir_problem(root) if root else None
        if found is not None and found.code != "output/blocked":
            plan.problems.append(path_diagnostic(host, root, found))


def stale_files(host: Host, roots: SweepRoots, written: set[str], plan: Plan) -> None:
    """REGEN files inside the sweep roots that this run did not write, and staging leftovers."""
    candidates: dict[str, bool] = {}  # path -> kit header (False: protoc-gen-go(-grpc) pb code)
    for root in roots.recursive:
        inside = [e for e in roots.excluded if is_under(e, root) and e != root]
        cut: dict[str, bool] = {}  # folder -> inside an excluded folder (asked once per folder, not per file)
        for p in host.files_under(root):  # every file of the output folders: kept lean
            head, _, name = p.rpartition("/")
            if name[:1] == "." and is_staging_name(name):
                plan.leftovers.append(p)
                continue
            if inside:
                excluded = cut.get(head)
                if excluded is None:
                    excluded = cut[head] = any(is_under(head, e) for e in inside)
                if excluded or p in inside:
                    continue
            candidates.setdefault(p, True)
    for d in roots.pb_dirs:
        for p in host.files_under(d):
            if posixpath.dirname(p) == d and p.endswith(".go"):
                candidates[p] = False
    if roots.openapi is not None:
        candidates[roots.openapi] = True
    for p in sorted(candidates.keys() - written):  # the others were just written or found kept
        if host.is_link(p):
            continue
        old = _read(host, p)
        if old is None:
            continue
        if has_kit_regen_header(old) if candidates[p] else has_pb_header(old):
            plan.sweep.append(Write(p, b"", old))


def leftovers_in(host: Host, dirs: Iterable[str], plan: Plan) -> None:
    """Staging leftovers in directories that are not sweep roots (GEN-ONCE territory)."""
    found = set(plan.leftovers)
    for d in dirs:
        for p in host.files_under(d) if d else []:
            if p not in found and is_staging_name(posixpath.basename(p)) and not host.is_link(p):
                found.add(p)
                plan.leftovers.append(p)


# --------------------------------------------------------------------------- GEN-ONCE twins

_TOP_DECL = re.compile(r"^(?:func|type)\s+(\w+)\b", re.MULTILINE)


def drop_gen_once_twins(host: Host, produced: set[str], plan: Plan) -> set[str]:
    """A new GEN-ONCE file whose package directory already holds a kit scaffold, no longer
    produced, declaring one of its names (the file name changed with `output.fileCase`, or a
    method's stub moved files) is not written: two would not compile. The old file is named
    in a notice with the rename to make. Returns the old files so named."""
    named: set[str] = set()
    kept: list[Write] = []
    for w in plan.writes:
        twin = _twin(host, w, produced) if w.old is None and w.path.endswith(".go") else None
        if twin is None:
            kept.append(w)
            continue
        old_path, name = twin
        named.add(old_path)
        plan.skipped_gen_once.append(w.path)
        plan.notices.append(
            Notice(
                old_path,
                f"declares {name}, like the scaffold kit now names {posixpath.basename(w.path)} "
                f"(output.fileCase or a rename changed the file name); kit did not write "
                f"{w.path}, which would not compile beside it - rename this file to "
                f"{posixpath.basename(w.path)}",
            )
        )
    plan.writes = kept
    return named


def _twin(host: Host, w: Write, produced: set[str]) -> tuple[str, str] | None:
    if first_line(w.data) != GO_GEN_ONCE:
        return None
    names = set(_TOP_DECL.findall(w.data.decode("utf-8", "replace")))
    if not names:
        return None
    directory = posixpath.dirname(w.path)
    for entry in host.list_dir(directory) if host.is_dir(directory) else []:
        other = posixpath.join(directory, posixpath.basename(entry))
        if other in produced or not other.endswith(".go") or host.is_link(other):
            continue
        data = _read(host, other)
        if data is None or first_line(data) != GO_GEN_ONCE:
            continue
        shared = sorted(names & set(_TOP_DECL.findall(data.decode("utf-8", "replace"))))
        if shared:
            return other, shared[0]
    return None
