"""The cache file: what the last successful run produced, and from what.

One file, `cache`, in the project's state folder (`kit_core.statedir`), never in the
project. Its first line is `kit-cache <format> <digest of the rest>`; the rest is JSON:

    build        kit's identity (`build.py`): another kit never trusts it
    project      the project's real path
    saved_at     when it was written (ns), for the stat records below
    inputs       digest of every input file's bytes and the run's options (`inputs.py`)
    targets      the targets of that run
    diagnostics  the warnings that run printed, to print them again when nothing changed
    manifest     the manifest's output keys (the writer's plan needs them without YAML)
    units        unit name -> [key, [[path, owner, digest of the content], ...]]
    run_units    the units of that run (others may be kept for other targets)
    stats        path -> [size, mtime_ns, ctime_ns, inode] of each REGEN output as left
    watch        files outside the design that decide output (plugins, included protos,
                 go.sum: `program.watched_inputs`) -> their size, time and inode then
    plan         the writer's plan of the last run that had nothing to render: its key (the
                 outputs, manifest and targets), its notices, and the `lstat` of every path
                 it looked at (`writer.seen`), to take it again while all of them are unchanged

A cache that is truncated, edited, of another format, another kit or another project is
ignored as if there were none (`load` returns None): the run is then a full one. Nothing
read from it is believed about the disk without a check (`verify.py`).
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit_core.incremental.keys import digest
from kit_core.statedir import read_state, write_state
from kit_core.writer.seen import Stamp

CACHE_NAME = "cache"
FORMAT = 1
_MAGIC = "kit-cache"

Output = tuple[str, str, str]  # (path, owner value, content digest)
_OWNERS = frozenset({"regen", "gen-once"})  # `generators.base.Owner`'s values


@dataclass(slots=True)
class UnitEntry:
    key: str
    outputs: list[Output]  # never changed once the entry is made (a run makes a new entry)
    text: str | None = field(default=None, compare=False, repr=False)  # its JSON, once written

    def json(self) -> str:
        """``[key, outputs]`` as JSON, made once per entry: a run keeps most entries of the
        last one, and a save writes them again as they were (`save`)."""
        if self.text is None:
            counts["units"] += 1
            self.text = json.dumps([self.key, [list(o) for o in self.outputs]], separators=(",", ":"))
        return self.text


@dataclass(slots=True)
class PlanMemo:
    """A no-op run's plan: nothing to write or sweep, these notices (`writer.seen`)."""

    key: str
    notices: list[tuple[str, str]]
    stamps: dict[str, Stamp]


@dataclass(slots=True)
class Cache:
    build: str
    project: str
    inputs: str = ""
    targets: list[str] = field(default_factory=list)
    diagnostics: list[list[Any]] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)
    units: dict[str, UnitEntry] = field(default_factory=dict)
    run_units: list[str] = field(default_factory=list)
    stats: dict[str, list[int]] = field(default_factory=dict)
    watch: dict[str, str] = field(default_factory=dict)
    plan: PlanMemo | None = None
    saved_at: int = 0

    def body(self) -> str:
        """The JSON of `to_json`, of pieces: each unit's kept text and each stat record's
        (a one-file edit at 10,000 types writes ~10 new ones of ~3,000 and ~10,000)."""
        small = self.to_json(whole=False)
        plan = json.dumps(small.pop("plan"), separators=(",", ":"))
        head = json.dumps(small, separators=(",", ":"))
        units = ",".join(f"{json.dumps(n)}:{u.json()}" for n, u in sorted(self.units.items()))
        stats = ",".join(_stat_text(p, r) for p, r in self.stats.items())
        return f'{head[:-1]},"units":{{{units}}},"stats":{{{stats}}},"plan":{plan}}}'

    def to_json(self, whole: bool = True) -> dict[str, Any]:
        return {
            "build": self.build,
            "project": self.project,
            "saved_at": self.saved_at,
            "inputs": self.inputs,
            "targets": self.targets,
            "diagnostics": self.diagnostics,
            "manifest": self.manifest,
            "run_units": self.run_units,
            "watch": self.watch,
            "plan": None
            if self.plan is None
            else {"key": self.plan.key, "notices": self.plan.notices, "stamps": self.plan.stamps},
        } | (
            {
                "units": {n: [u.key, [list(o) for o in u.outputs]] for n, u in sorted(self.units.items())},
                "stats": self.stats,
            }
            if whole
            else {}
        )


# Each stat record's JSON by path, with the record it was made of (records are replaced when
# they change, never changed in place: `verify.check_outputs`), and work counts for tests.
_stat_texts: dict[str, tuple[list[int], str]] = {}
_STAT_KEEP = 500_000
counts = {"units": 0, "stats": 0}


def _stat_text(path: str, record: list[int]) -> str:
    kept = _stat_texts.get(path)
    if kept is not None and kept[0] is record:
        return kept[1]
    counts["stats"] += 1
    text = f"{json.dumps(path)}:{json.dumps(record, separators=(',', ':'))}"
    if len(_stat_texts) >= _STAT_KEEP:
        _stat_texts.clear()
    _stat_texts[path] = (record, text)
    return text


# The last cache each state folder saved or loaded in this process, by the digest of its body:
# a resident process reads its own last save back on every run, and parsing it was a fifth of
# a one-file edit on the 2,000-type design. The file is still read and its digest checked.
_kept: OrderedDict[str, tuple[str, Cache]] = OrderedDict()
_KEEP = 8  # projects
_kept_lock = threading.Lock()


def _copy(cache: Cache) -> Cache:
    """A copy a run may change (its containers; their items are replaced, never changed)."""
    return dataclasses.replace(
        cache,
        targets=list(cache.targets),
        diagnostics=list(cache.diagnostics),
        manifest=dict(cache.manifest),
        units=dict(cache.units),
        run_units=list(cache.run_units),
        stats=dict(cache.stats),
        watch=dict(cache.watch),
    )


def _keep(folder: Path, body_digest: str, cache: Cache) -> None:
    with _kept_lock:
        _kept[str(folder)] = (body_digest, _copy(cache))
        _kept.move_to_end(str(folder))
        while len(_kept) > _KEEP:
            _kept.popitem(last=False)


def _kept_copy(folder: Path, body_digest: str) -> Cache | None:
    with _kept_lock:
        found = _kept.get(str(folder))
        return _copy(found[1]) if found is not None and found[0] == body_digest else None


def path_of(folder: Path) -> Path:
    return folder / CACHE_NAME


def load(folder: Path, build: str, project: str) -> Cache | None:
    """The cache of this kit for this project, or None (absent, damaged, foreign, stale)."""
    try:
        raw = read_state(path_of(folder))  # never through a symlink
    except OSError:
        return None
    head, sep, body = raw.partition(b"\n")
    fields = head.decode("ascii", "replace").split(" ")
    if not sep or len(fields) != 3 or fields[0] != _MAGIC or fields[1] != str(FORMAT):
        return None
    if digest(body) != fields[2]:
        return None
    cache = _kept_copy(folder, fields[2])
    if cache is None:
        try:
            cache = _from_json(json.loads(body))
        except (ValueError, TypeError, KeyError, IndexError):
            return None
        _keep(folder, fields[2], cache)
    if cache.build != build or cache.project != project:
        return None
    return cache


def _from_json(data: dict[str, Any]) -> Cache:
    units = {
        str(name): UnitEntry(str(key), [(str(p), str(o), str(d)) for p, o, d in outputs])
        for name, (key, outputs) in data["units"].items()
    }
    if any(o not in _OWNERS for u in units.values() for _, o, _ in u.outputs):
        raise ValueError("an output's owner is neither regen nor gen-once")
    stats = {str(p): [int(v) for v in s] for p, s in data["stats"].items()}
    if any(len(s) != 4 for s in stats.values()):
        raise ValueError("a stat record is not [size, mtime_ns, ctime_ns, inode]")
    return Cache(
        build=str(data["build"]),
        project=str(data["project"]),
        inputs=str(data["inputs"]),
        targets=[str(t) for t in data["targets"]],
        diagnostics=list(data["diagnostics"]),
        manifest=dict(data["manifest"]),
        units=units,
        run_units=[str(n) for n in data["run_units"]],
        stats=stats,
        watch={str(p): str(i) for p, i in data["watch"].items()},
        plan=_plan_from(data.get("plan")),
        saved_at=int(data["saved_at"]),
    )


def _plan_from(data: Any) -> PlanMemo | None:
    if data is None:
        return None
    stamps: dict[str, Stamp] = {}
    for path, s in data["stamps"].items():
        stamps[str(path)] = None if s is None else (int(s[0]), int(s[1]), int(s[2]), int(s[3]), int(s[4]))
    notices = [(str(p), str(m)) for p, m in data["notices"]]
    return PlanMemo(str(data["key"]), notices, stamps)


def save(folder: Path, cache: Cache) -> None:
    """Written beside and renamed over the old one: a reader sees one or the other."""
    cache.saved_at = time.time_ns()
    body = cache.body().encode("utf-8")
    body_digest = digest(body)
    write_state(path_of(folder), f"{_MAGIC} {FORMAT} {body_digest}\n".encode("ascii") + body)
    _keep(folder, body_digest, cache)


def forget(folder: Path) -> None:
    path_of(folder).unlink(missing_ok=True)
    with _kept_lock:
        _kept.pop(str(folder), None)
