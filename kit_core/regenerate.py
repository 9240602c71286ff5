"""One generation run, as `kit gen` and kit-lsp's generate-on-save do it.

    outcome = regenerate(design_root, targets=("go", "docs"), parallel=True, on_wait=note)

Under the project's lock (`writer.lock`; a second run waits and says so), it:

1. finishes or undoes the commit of a run that died (`writer.journal`);
2. when every input file has the bytes of the last successful run's and that run's outputs
   are still on disk as it left them, renders nothing: it prints that run's diagnostics,
   sweeps and reports (the no-op run; nothing is parsed);
3. otherwise loads and checks the design (or takes the analysed design the caller holds:
   the language server's, when it is what is on disk) and stops there on an error;
4. asks the generators for their render units (`generators.units`), renders only those
   whose key changed or whose files on disk were edited or deleted (on two cores when
   there are many, `incremental.render`), formats them, and writes all of it or none of
   it (`writer`); the other units' outputs are known to be on disk already;
5. remembers, for the next run, what produced each output (`incremental.store`).

The output is the one a full run gives: `tests/incremental` compares the two over random
edits. Bad input (design errors, a go.mod missing, an output through a symlink outside
the project) is reported, located, and changes nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit_core import program
from kit_core.designfiles import one_walk
from kit_core.gcpause import paused_gc
from kit_core.generators.base import TARGETS, Notice, OutputFile, Owner
from kit_core.incremental import store
from kit_core.incremental.ahead import Ahead, Pending
from kit_core.incremental.build import build_id
from kit_core.incremental.inputs import inputs_digest
from kit_core.incremental.keys import ContentDigests, DesignKeys, base_key, digest
from kit_core.incremental.render import render_units
from kit_core.incremental.verify import Check, check_outputs, stat_record
from kit_core.interrupt import shielded
from kit_core.manifest import EventTarget, Manifest, OutputConfig
from kit_core.writer import DiskHost, Journal, Known, WriteReport, write_outputs
from kit_core.writer.journal import Recovery, recover
from kit_core.writer.lock import project_lock
from kit_core.writer.seen import Seen, unchanged

if TYPE_CHECKING:
    from kit_core.diagnostics import Diagnostic
    from kit_core.generators.units import RenderUnit
    from kit_core.incremental.ahead import Pending
    from kit_core.program import CheckResult, Design, SplitCheck


@dataclass(frozen=True, slots=True)
class Printed:
    """A diagnostic as printed (the cache keeps these, to print them again unparsed)."""

    path: str
    line: int  # 1-based
    col: int  # 1-based, bytes
    severity: str
    code: str
    message: str

    @classmethod
    def of(cls, d: Diagnostic) -> Printed:
        s = d.span
        return cls(s.path, s.start_line + 1, s.start_col + 1, d.severity.value, d.code, d.message)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


@dataclass(frozen=True, slots=True)
class Loaded:
    """A design the caller already loaded and checked (kit-lsp), when it is what is on disk."""

    design: Design
    checked: CheckResult


@dataclass(slots=True)
class Outcome:
    project_root: Path
    diagnostics: list[Printed] = field(default_factory=list)
    report: WriteReport | None = None  # None: the design has errors and nothing was written
    recovery: Recovery = field(default_factory=Recovery)
    rendered: list[str] = field(default_factory=list)  # names of the units rendered
    reused: int = 0  # units taken from the cache
    fast: bool = False  # nothing changed: nothing was parsed

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    @property
    def notices(self) -> list[Notice]:
        return list(self.report.notices) if self.report is not None else []


def regenerate(
    design_root: Path,
    *,
    project_root: Path | None = None,
    targets: Iterable[str] = TARGETS,
    parallel: bool = False,
    on_wait: Callable[[str], None] | None = None,
    progress: Callable[[str], None] = lambda _: None,
    loaded: Loaded | Callable[[], Loaded | None] | None = None,
    resident: bool = False,
    renames: Mapping[str, str] | None = None,
) -> Outcome:
    """``loaded``: the design as the caller holds it analysed (or a function giving it, called
    only when the run has something to render). ``resident``: the caller lives on (kit-lsp,
    the daemon), so generators may keep pieces of their output for the next run
    (`GenContext.keys`). ``renames``: old logic stub -> new stub of methods renamed in the
    editor (the writer carries the code). Raises `program.DesignError` (no go.mod) and
    `statedir.StateDirError`."""
    design_root = Path(design_root).resolve()
    project_root = Path(project_root or design_root.parent).resolve()
    chosen = tuple(sorted(set(targets)))
    with project_lock(project_root, on_wait) as folder, one_walk():
        run = _Run(folder, design_root, project_root, chosen, parallel, progress)
        run.resident = resident
        run.renames = renames
        with shielded():  # a run killed mid-write is finished or undone whole
            run.outcome.recovery = recover(folder, project_root)
        with paused_gc(freeze=False):  # see `_Run._generate`
            nothing = run.fast()
        return nothing or run.full(loaded)


def prime(loaded: Loaded, project_root: Path, targets: Iterable[str] = TARGETS) -> None:
    """For a resident process that loaded a design without a run rendering it (the last run
    had nothing to render): render, and drop, the design-wide units - the OpenAPI document
    keeps its pieces for the next run (`GenContext.keys`) - so that the first edit renders
    only what it changes, not the whole document. Writes nothing."""
    design, checked = loaded.design, loaded.checked
    if any(d.is_error for d in checked.diagnostics):
        return
    with paused_gc(freeze=False):
        if design.module is None:
            _, design.module = program.find_go_module(Path(project_root).resolve())
        keys = _keys(design, build_id(), checked.analysis)
        for unit in program.units(design, checked.analysis, tuple(sorted(set(targets))), keys):
            if unit.whole_design:
                unit.render()


class _Run:
    def __init__(
        self,
        folder: Path,
        design_root: Path,
        project_root: Path,
        targets: tuple[str, ...],
        parallel: bool,
        progress: Callable[[str], None],
    ) -> None:
        self.folder, self.design_root, self.project_root = folder, design_root, project_root
        self.targets, self.parallel, self.progress = targets, parallel, progress
        self.root = str(project_root)
        self.build = build_id()
        self.cache = store.load(folder, self.build, os.path.realpath(project_root))
        self.inputs = inputs_digest(self.build, design_root, project_root, _go_mod(project_root), targets)
        self.outcome = Outcome(project_root)
        self.rendered_files: dict[str, list[OutputFile]] = {}
        self.resident = False
        self.renames: Mapping[str, str] | None = None

    # ------------------------------------------------------------------ nothing changed

    def fast(self) -> Outcome | None:
        cache = self.cache
        if cache is None or cache.inputs != self.inputs or cache.targets != list(self.targets):
            return None
        if any(program.file_identity(path) != identity for path, identity in cache.watch.items()):
            return None
        check = Check()
        entries = [cache.units[n] for n in cache.run_units if n in cache.units]
        if len(entries) != len(cache.run_units):
            return None
        if not all(check_outputs(self.root, e.outputs, cache, check) for e in entries):
            return None
        # the plan's key: a unit's outputs (paths and owners) follow from its key, so the
        # units' names and keys name the outputs (3,000 short strings at 10,000 types, not
        # the JSON of 10,000 paths)
        units = "\n".join(f"{n} {cache.units[n].key}" for n in cache.run_units)
        key = digest(units, json.dumps([cache.manifest, list(self.targets)]))
        with shielded(writes=True):  # Ctrl-C: written whole (and its cache), or not started
            report = _planned(cache.plan, key, self.root, entries)
            memo = cache.plan
            if report is None:
                seen = Seen()
                report = self._write([], _known(entries), _manifest_from(cache.manifest), seen)
                memo = _memo(key, report, seen)
            self.outcome.diagnostics = [Printed(*d) for d in cache.diagnostics]
            self.outcome.report, self.outcome.fast, self.outcome.reused = report, True, len(entries)
            if report.ok and (check.read or report.swept or memo is not cache.plan):
                cache.stats.update(check.stats)  # fresh records: the next run trusts them
                cache.plan = memo
                store.save(self.folder, cache)
        return self.outcome

    # ------------------------------------------------------------------ something changed

    def full(self, loaded: Loaded | Callable[[], Loaded | None] | None) -> Outcome:

        self.progress("loading the design")
        if callable(loaded):
            loaded = loaded()
        if loaded is not None:
            return self._generate(loaded.design, loaded.checked)
        design = program.load_design(self.design_root, project_root=self.project_root)
        self.progress("checking")
        if not self.parallel:
            return self._generate(design, program.check(design))
        split = program.check_split(design)
        # what generators read, built before the fork: the rules use much of it (the HTTP
        # model, types' fields), and the forked process inherits it instead of building it again
        checked = split.partial()
        # the analyzer's rules (most of the check) run in a forked process meanwhile: only
        # whether the design has errors comes from them, not what generators read
        with Pending.start(Ahead(split.rules, _has_error), fork=True) as rules:
            return self._generate(design, checked, _Rules(split, rules))

    def _generate(self, design: Design, checked: CheckResult, rules: _Rules | None = None) -> Outcome:
        # no cyclic collection in the whole generation, writing and the cache included: at
        # 10,000 types one is ~50 ms over the cache's and the plan's objects, in a run of a
        # few hundred; a process that lives on collects when idle (`gcpause`)
        with paused_gc(freeze=False):
            return self._generation(design, checked, rules)

    def _generation(self, design: Design, checked: CheckResult, rules: _Rules | None) -> Outcome:
        self.outcome.diagnostics = _printed(checked.diagnostics)
        if self.outcome.has_errors:
            if rules is not None:
                self.outcome.diagnostics = rules.diagnostics()
            return self.outcome
        self.progress("generating")
        with paused_gc(freeze=False):
            try:
                if design.module is None:
                    _, design.module = program.find_go_module(self.project_root)
                keys = _keys(design, self.build, checked.analysis)
                units = program.units(design, checked.analysis, self.targets, keys if self.resident else None)
            except Exception:
                if rules is not None and self._errors_in(rules):
                    return self.outcome  # a design error comes first, as without the split
                raise
            fresh = {u.name: keys.of(u) for u in units}
            todo, known, check = self._reusable(units, fresh)
            files = self._render(todo, rules)
        if rules is not None and self._errors_in(rules):
            return self.outcome
        assert files is not None  # None only when the rules found errors
        self.progress("writing")
        digests = ContentDigests(files)  # for the cache, meanwhile
        with shielded(writes=True):  # Ctrl-C: the tree is as before the run or as after it, never between
            report = self._write(files, known, design.manifest)
            self.outcome.report = report
            self.outcome.rendered, self.outcome.reused = [u.name for u in todo], len(units) - len(todo)
            if report.ok:
                self._remember(units, fresh, files, check, design, digests)
        return self.outcome

    def _errors_in(self, rules: _Rules) -> bool:
        """The diagnostics with the rules' (waits for them); whether the design has errors."""
        self.outcome.diagnostics = rules.diagnostics()
        return self.outcome.has_errors

    def _reusable(
        self, units: Sequence[RenderUnit], fresh: dict[str, str]
    ) -> tuple[list[RenderUnit], list[Known], Check]:
        check = Check()
        todo: list[RenderUnit] = []
        known: list[Known] = []
        for u in units:
            entry = self.cache.units.get(u.name) if self.cache is not None else None
            if entry is not None and entry.key == fresh[u.name] and self.cache is not None:
                if check_outputs(self.root, entry.outputs, self.cache, check):
                    known += _known([entry])
                    continue
            todo.append(u)
        return todo, known, check

    def _render(self, todo: list[RenderUnit], rules: _Rules | None) -> list[OutputFile] | None:
        """The files of ``todo``, formatted; None (nothing kept) when ``rules``, running
        meanwhile, find errors."""
        # deferred: the Go generators (jinja2) load only when Go is rendered
        from kit_core.generators.go.gofmt import gofmt_all

        # deferred: the generators (jinja2) load only when output is rendered
        from kit_core.generators.go.render import preload

        watch = rules.pending if rules is not None else None
        rendered = render_units(todo, self.parallel, before_fork=preload, watch=watch)
        if rendered is None:
            return None
        self.rendered_files = rendered
        return gofmt_all(sorted((f for fs in rendered.values() for f in fs), key=lambda f: f.path))

    def _write(
        self, files: list[OutputFile], known: list[Known], manifest: Any, seen: Seen | None = None
    ) -> WriteReport:
        journal = Journal(self.folder, self.project_root)
        host = DiskHost(self.project_root, seen)
        return write_outputs(
            self.project_root,
            files,
            manifest,
            targets=self.targets,
            host=host,
            known=known,
            journal=journal,
            renames=self.renames,
        )

    def _remember(
        self,
        units: Sequence[RenderUnit],
        fresh: dict[str, str],
        files: list[OutputFile],
        check: Check,
        design: Design,
        digests: ContentDigests,
    ) -> None:
        cache = store.Cache(self.build, os.path.realpath(self.project_root))
        if self.cache is not None and set(self.targets) != set(TARGETS):
            cache.units = dict(self.cache.units)  # other targets' units stay known
        cache.stats = dict(check.stats)
        self._units_into(cache, units, fresh, {f.path: f for f in files}, digests)
        cache.run_units = [u.name for u in units]
        cache.inputs, cache.targets = self.inputs, list(self.targets)
        cache.diagnostics = [list(_as_row(d)) for d in self.outcome.diagnostics]
        cache.manifest = _manifest_facts(design.manifest)
        cache.watch = {p: program.file_identity(p) for p in program.watched_inputs(design)}
        store.save(self.folder, cache)

    def _units_into(
        self,
        cache: store.Cache,
        units: Sequence[RenderUnit],
        fresh: dict[str, str],
        formatted: dict[str, OutputFile],
        digests: ContentDigests,
    ) -> None:
        """Each unit's key and outputs: as rendered now, or as the last run knew them; and the
        stat records of the REGEN files just written or found unchanged."""
        for u in units:
            raw = self.rendered_files.get(u.name)
            if raw is None:
                assert self.cache is not None  # a unit not rendered was known
                cache.units[u.name] = self.cache.units[u.name]
                continue
            outputs = [formatted[f.path] for f in raw]
            cache.units[u.name] = store.UnitEntry(
                fresh[u.name], [(f.path, f.owner.value, digests.of(f)) for f in outputs]
            )
            for f in outputs:
                record = _stat(self.root, f.path) if f.owner is Owner.REGEN else None
                if record is not None:
                    cache.stats[f.path] = record


# --------------------------------------------------------------------------- helpers


_OWNERS = {o.value: o for o in Owner}


def _known(entries: Iterable[store.UnitEntry]) -> list[Known]:
    return [Known(p, _OWNERS[o]) for e in entries for p, o, _ in e.outputs]


def _planned(memo: store.PlanMemo | None, key: str, root: str, entries: list[store.UnitEntry]) -> WriteReport | None:
    """The report of the last no-op run's plan, when it is this run's (same outputs, manifest
    and targets) and every path it looked at is unchanged on disk (`writer.seen`); None: plan."""
    if memo is None or memo.key != key or not unchanged(root, memo.stamps):
        return None
    report = WriteReport(notices=[Notice(p, m) for p, m in memo.notices])
    regen = Owner.REGEN.value
    report.unchanged = sorted(p for e in entries for p, o, _ in e.outputs if o == regen)
    report.skipped_gen_once = sorted(p for e in entries for p, o, _ in e.outputs if o != regen)
    return report


def _memo(key: str, report: WriteReport, seen: Seen) -> store.PlanMemo | None:
    """What a no-op run's plan leaves for the next one: only a plan that changed nothing on
    disk, and only when what it saw can be trusted by its stamps later (`Seen.settled`)."""
    changed = report.written or report.swept or report.removed_dirs or not report.ok
    if changed or not seen.settled():
        return None
    return store.PlanMemo(key, [(n.path, n.message) for n in report.notices], seen.stamps)


def _has_error(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


@dataclass(frozen=True, slots=True)
class _Rules:
    """The analyzer's rules of a split check, running in another process (`ahead.Pending`)."""

    split: SplitCheck
    pending: Pending

    def diagnostics(self) -> list[Printed]:
        """Every diagnostic of the check (waits for the rules)."""
        return _printed(self.split.complete(self.pending.result()).diagnostics)


def _go_mod(project_root: Path) -> Path | None:
    for d in (project_root, *project_root.parents):
        if (d / "go.mod").is_file():
            return d / "go.mod"
    return None


def _printed(diagnostics: Iterable[Diagnostic]) -> list[Printed]:
    return sorted(set(map(Printed.of, diagnostics)), key=lambda p: (p.path, p.line, p.col, p.code, p.message))


def _as_row(p: Printed) -> tuple[str, int, int, str, str, str]:
    return (p.path, p.line, p.col, p.severity, p.code, p.message)


def _stat(root: str, path: str) -> list[int] | None:
    try:
        return stat_record(os.lstat(os.path.join(root, path)))
    except OSError:
        return None


def _keys(design: Design, build: str, analysis: Any) -> Any:
    """The keys of this run's units. Their common part names kit, the manifest, the module, and
    the declaration names that clash across packages (generated names take a package prefix
    then - the OpenAPI components and the Go functions validating generic instances)."""
    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.openapi import symbols_of

    # deferred: the generators (jinja2) load only when output is rendered
    from kit_core.generators.openapi.names import DeclNames

    root = design.root
    prefix = os.path.join(str(root), "")
    files = [(_relative(f.path, root, prefix), f.package, f.source) for f in design.files]
    protos = {}
    for p in design.protos:
        try:
            protos[os.path.relpath(p, root)] = p.read_bytes()
        except OSError:
            protos[os.path.relpath(p, root)] = b"\0unreadable"
    manifest_text = _manifest_text(design)
    clashing = ",".join(sorted(DeclNames(symbols_of(analysis)).clashing))
    base = base_key(build, manifest_text, design.module or "", design.design_dir, clashing)
    return DesignKeys(base, files, protos)


def _relative(path: str, root: Path, prefix: str) -> str:
    """`os.path.relpath` of a design file (a cut for those under the folder: 1,000 of them
    at 10,000 types, at each run)."""
    rest = path[len(prefix) - 1 :]
    if path.startswith(prefix) and "/." not in rest and "//" not in rest:
        return path[len(prefix) :]
    return os.path.relpath(path, root)


def _manifest_text(design: Design) -> str:
    """The manifest as parsed (its dataclasses print every value), not its bytes: a comment
    edit in the manifest changes no output."""
    m = design.manifest
    return repr((m.openapi, m.output, m.events_targets, m.proto))


def _manifest_facts(manifest: Any) -> dict[str, Any]:
    targets = manifest.events_targets
    return {
        "path": manifest.path,
        "output": asdict(manifest.output),
        "events_targets": None if targets is None else [[t.lang, t.out] for t in targets],
    }


def _manifest_from(facts: dict[str, Any]) -> Any:
    targets = facts.get("events_targets")
    return Manifest(
        path=str(facts.get("path", "")),
        output=OutputConfig(**facts.get("output", {})),
        events_targets=None if targets is None else tuple(EventTarget(str(a), str(b)) for a, b in targets),
    )
