"""The analysis pipeline and its incremental session.

Rules come in two kinds. File rules look at one file: at its header (`check_header`:
package clause, file decorators) and at each declaration on its own (`check_decl`),
recording every name they look up. Their diagnostics are cached per declaration and
reused until a declaration they looked up changes; an edited file keeps the results of
its declarations whose text did not change (shifted to where the edit moved them).
Design rules (`check_design`) compare things across files (duplicates, routes, groups,
contracts, cycles) and run on every analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import TYPE_CHECKING

from kit_core.analyzer import (
    decorators,
    enums,
    events,
    fieldopts,
    fields,
    filepos,
    imports,
    names,
    routes,
    security,
    services,
    types,
    validators,
)
from kit_core.analyzer.context import Ctx, Delta, DepKey, Part
from kit_core.analyzer.summary import FileSummary
from kit_core.diagnostics import Diagnostic, make
from kit_core.diagnostics.diagnostic import identity
from kit_core.gcpause import paused_gc, retire
from kit_core.model import (
    Decl,
    EnumDecl,
    ErrorDecl,
    EventDecl,
    Method,
    MiddlewareDecl,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    TypeDecl,
)
from kit_core.semantics.http import HttpModel, MethodInfo
from kit_core.semantics.types import TypeIndex
from kit_core.shift import Shift
from kit_core.source import Span, file_span
from kit_core.symbols import SymbolTable

if TYPE_CHECKING:
    from kit_core.manifest import Manifest

FileRule = Callable[[Ctx, SourceFile], None]
HeaderRule = Callable[[Ctx, SourceFile], None]
DeclRule = Callable[[Ctx, SourceFile, Decl], None]

FILE_RULES: tuple[tuple[str, FileRule], ...] = (
    ("names", names.check_file),
    ("decorators", decorators.check_file),
    ("types", types.check_file),
    ("fields", fields.check_file),
    ("validators", validators.check_file),
    ("field options", fieldopts.check_file),
    ("enums", enums.check_file),
    ("services", services.check_file),
    ("events", events.check_file),
    ("security", security.check_file),
)

HEADER_RULES: tuple[tuple[str, HeaderRule], ...] = (
    ("names", names.check_header),
    ("decorators", decorators.check_header),
    ("services", services.check_header),
    ("security", security.check_header),
)

_ALL = (TypeDecl, EnumDecl, ScalarDecl, ErrorDecl, MiddlewareDecl, ServiceDecl, EventDecl)

DECL_RULES: tuple[tuple[str, DeclRule, tuple[type, ...]], ...] = (
    ("names", names.check_decl, _ALL),
    ("decorators", decorators.check_decl, _ALL),
    ("types", types.check_decl, (TypeDecl, ScalarDecl, ErrorDecl, ServiceDecl, EventDecl)),
    ("fields", fields.check_decl, (TypeDecl, ErrorDecl)),
    ("validators", validators.check_decl, (TypeDecl, ErrorDecl, ScalarDecl)),
    ("field options", fieldopts.check_decl, (TypeDecl, ErrorDecl)),
    ("enums", enums.check_decl, (EnumDecl,)),
    ("services", services.check_decl, _ALL),
    ("events", events.check_decl, (EventDecl,)),
    ("security", security.check_decl, _ALL),
)
"""Per-declaration rules with the declaration kinds they look at."""

_RULES_FOR: dict[type, tuple[tuple[str, DeclRule], ...]] = {
    kind: tuple((name, rule) for name, rule, kinds in DECL_RULES if kind in kinds) for kind in _ALL
}

DESIGN_RULES: tuple[tuple[str, Callable[[Ctx, list[SourceFile]], None]], ...] = (
    ("names", lambda ctx, _: names.check_design(ctx)),
    ("middleware names", lambda ctx, _: names.check_middlewares(ctx)),
    ("package cycles", lambda ctx, _: types.check_design(ctx)),
    ("services", lambda ctx, _: services.check_design(ctx)),
    ("routes", lambda ctx, _: routes.check_design(ctx)),
    ("events", lambda ctx, _: events.check_design(ctx)),
    ("security", lambda ctx, _: security.check_design(ctx)),
    ("imports", imports.check_design),
    ("mixin cycles", fields.check_design),
    ("file position", filepos.check_design),
)


@dataclass(frozen=True)
class Analysis:
    """The result of one analysis: every diagnostic (parse errors included) sorted by file
    and position, plus the resolved design for generators and the editor."""

    diagnostics: tuple[Diagnostic, ...]
    symbols: SymbolTable
    index: TypeIndex
    http: HttpModel
    files: tuple[SourceFile, ...]
    manifest: Manifest | None = None
    by_design_rule: Mapping[str, tuple[Diagnostic, ...]] = field(default_factory=dict)
    """What each design rule reported (before the cascades were dropped)."""

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    def for_file(self, path: str) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.span.path == path)


@dataclass(frozen=True, slots=True)
class Split:
    """An analysis in two parts (`Analyzer.split_all`): ``analysis()`` lacks the rules'
    diagnostics (it has the parse errors) - enough to generate from, not to know whether the
    design has errors; ``rules()`` runs them and `complete` adds what they found."""

    analysis: Callable[[], Analysis]
    rules: Callable[[], tuple[Diagnostic, ...]]

    def complete(self, found: Iterable[Diagnostic]) -> Analysis:
        a = self.analysis()
        return replace(a, diagnostics=_finished(list(found), a.files))


def analyze_split(files: Sequence[SourceFile], manifest: Manifest | None = None) -> Split:
    return Analyzer(manifest).split_all(files)


@dataclass(slots=True)
class _Entry:
    """The file rules' result for one declaration (or for a file's header)."""

    diagnostics: tuple[Diagnostic, ...]
    deps: frozenset[DepKey]

    def shifted(self, dbyte: int, dline: int) -> _Entry:
        if not self.diagnostics or (not dbyte and not dline):
            return self
        shift = Shift(dbyte, dline)
        return _Entry(tuple(shift.diagnostic(d) for d in self.diagnostics), self.deps)


@dataclass(slots=True)
class _FileResults:
    """The cached file-rule results of one file object: its header's and, in declaration
    order, each declaration's (None: not computed yet, or dropped by an edit elsewhere)."""

    file: SourceFile
    header: _Entry | None
    decls: list[_Entry | None]
    result: tuple[Diagnostic, ...] | None = None  # all of the above, while complete


def _run_rule(ctx: Ctx, name: str, rule: Callable[[], None], where: str) -> None:
    """Run one rule family; a bug in it becomes a diagnostic instead of an exception."""
    try:
        rule()
    except Exception as exc:  # noqa: BLE001 - the analyzer must never raise on a design
        ctx.diags.append(
            make("internal/analyzer-error", file_span(where), rule=name, error=f"{type(exc).__name__}: {exc}")
        )


DeclKeys = set[tuple[DepKey, bytes, int]]
"""What a file declares, with a fingerprint (text and position) of each declaration."""


def _fingerprints(file: SourceFile) -> tuple[DeclKeys, list[object] | None]:
    """The file's `DeclKeys` and its declarations' content keys (see `_content_keys`)."""
    source = file.source
    data = source.encode("ascii") if source.isascii() else source.encode("utf-8", "surrogatepass")
    package = file.package
    decl_keys: DeclKeys = set()
    if package is not None:
        for decl in file.declarations:
            span = decl.span
            decl_keys.add((_key(decl, package), data[span.start_byte : span.end_byte], span.start_byte))
    return decl_keys, _content_keys(file, data)


def _key(decl: Decl, package: str) -> DepKey:
    if isinstance(decl, ServiceDecl):
        return ("S", package, decl.name)
    if isinstance(decl, EventDecl):
        return ("E", package, decl.name)
    if isinstance(decl, MiddlewareDecl):
        return ("M", "*", decl.name)
    return ("T", package, decl.name)


def _names_key(key: DepKey) -> DepKey:
    """The "set of names" key a declaration's key belongs to."""
    return ("N", "*" if key[0] == "M" else key[1], "")


def _content_keys(file: SourceFile, data: bytes) -> list[object] | None:
    """For each declaration, what its file-rule results depend on within the file: its
    kind, its text, where its first line starts (columns), its comments and the syntax
    errors inside it. Two declarations with equal keys lower to the same model up to a
    shift of bytes and lines. None when the text cannot be mapped back to the bytes."""
    if "\ufffd" in file.source:
        return None
    broken = [
        (d.span.start_byte, d.span.end_byte, d.message)  # type: ignore[attr-defined]
        for d in file.parse_diagnostics
        if getattr(d, "span", None) is not None
    ]
    keys: list[object] = []
    for decl in file.declarations:
        span, trivia = decl.span, decl.trivia
        start, end = span.start_byte, span.end_byte
        inside = tuple((a - start, b - start, m) for a, b, m in broken if a <= end and b >= start) if broken else ()
        comments = (
            (tuple(c.text for c in trivia.doc), trivia.trailing.text if trivia.trailing else None)
            if trivia.doc or trivia.trailing
            else None
        )
        keys.append((type(decl), data[start:end], span.start_col, span.start_col16, inside, comments))
    return keys


def _within(span: Span, path: str, start: int, end: int) -> bool:
    return span.path == path and start <= span.start_byte and span.end_byte <= end


def _located_inside(diags: Sequence[Diagnostic], path: str, start: int, end: int) -> bool:
    """Whether every place the diagnostics name lies in [start, end) of the file (then they
    move with the declaration and nothing else's position is in them)."""
    for d in diags:
        if not _within(d.span, path, start, end):
            return False
        for r in d.related:
            if not _within(r.span, path, start, end):
                return False
        for fx in d.fixes:
            if not _within(fx.span, path, start, end):
                return False
    return True


class Analyzer:
    """An incremental analysis session (the language server keeps one per design).

    session = Analyzer(manifest)
    analysis = session.update_all(files)      # first full analysis
    analysis = session.update(edited_file)    # reuses what the edit cannot affect
    analysis = session.remove(path)
    """

    def __init__(self, manifest: Manifest | None = None) -> None:
        self._manifest = manifest
        self._files: dict[str, SourceFile] = {}
        self._results: dict[str, _FileResults] = {}
        self._fingerprints: dict[str, list[tuple[SourceFile, tuple[DeclKeys, list[object] | None]]]] = {}
        self._summaries: dict[str, tuple[SourceFile, FileSummary]] = {}
        self._methods: dict[int, tuple[Method, MethodInfo, frozenset[DepKey]]] = {}
        self._reusable: dict[object, tuple[tuple[object, ...], tuple[Diagnostic, ...]]] = {}
        self._parts: dict[object, Part] = {}
        self._delta: Delta | None = None  # the edits since the last analysis (None: not known, all)
        self._sorted: list[str] = []  # the files' paths in order (`files`)
        self._by_package: dict[str | None, dict[str, SourceFile]] = {}  # package -> its files by path
        self._ordered: tuple[SourceFile, ...] | None = None
        self._looked_up: dict[DepKey, set[str]] = {}  # name -> files whose cached results looked it up
        self._method_deps: dict[DepKey, set[int]] = {}  # name -> methods whose cached info looked it up
        self.visits = 0  # files the design rules' parts looked at in the last analysis (tests count it)
        self._last: Analysis | None = None
        self.recorded: set[DepKey] | None = None  # set it to collect every name the file rules look up

    @property
    def files(self) -> tuple[SourceFile, ...]:
        if self._ordered is None:
            if len(self._sorted) != len(self._files):
                self._sorted = sorted(self._files)
            self._ordered = tuple(map(self._files.__getitem__, self._sorted))
        return self._ordered

    def _set_files(self, files: Iterable[SourceFile]) -> None:
        self._files = {f.path: f for f in files}
        self._sorted, self._ordered = [], None
        self._by_package = {}
        for f in self._files.values():
            self._by_package.setdefault(f.package, {})[f.path] = f

    def update_all(self, files: Iterable[SourceFile]) -> Analysis:
        self._set_files(files)
        self._forget_all()
        self._fingerprints.clear()
        return self._analyze()

    def _forget_all(self) -> None:
        """Drop every cached result: the next analysis runs every rule."""
        self._results.clear()
        self._looked_up.clear()
        self._methods.clear()
        self._method_deps.clear()
        self._reusable.clear()
        self._parts.clear()
        self._delta = None

    def _replace(self, path: str, file: SourceFile | None) -> bool:
        """Put ``file`` at ``path`` (None: remove it), keeping the order when the path stays;
        whether a package appeared or went away."""
        old = self._files.get(path)
        involved = {f.package for f in (old, file) if f is not None}
        existed = {p: p in self._by_package for p in involved}
        if old is not None:
            members = self._by_package[old.package]
            del members[path]
            if not members:
                del self._by_package[old.package]
        if file is None:
            self._files.pop(path, None)
            self._sorted = []
        else:
            if path not in self._files:
                self._sorted = []
            self._files[path] = file
            self._by_package.setdefault(file.package, {})[path] = file
        self._ordered = None
        return any((p in self._by_package) != was for p, was in existed.items())

    def update(self, file: SourceFile) -> Analysis:
        old = self._files.get(file.path)
        if old is not None and old is not file:
            retire(old)
        packages_changed = self._replace(file.path, file)
        self._invalidate(old, file, packages_changed)
        return self._analyze()

    def update_many(self, changed: Iterable[SourceFile] = (), removed: Iterable[str] = ()) -> Analysis:
        """Several edits (changed or added files, removed paths) followed by one analysis."""
        for path in removed:
            old = self._files.get(path)
            if old is not None:
                self._invalidate(old, None, self._replace(path, None))
        for file in changed:
            prev = self._files.get(file.path)
            if prev is file:
                continue
            self._invalidate(prev, file, self._replace(file.path, file))
        return self._analyze()

    def remove(self, path: str) -> Analysis:
        old = self._files.get(path)
        if old is not None:
            self._invalidate(old, None, self._replace(path, None))
        return self._analyze()

    def _prints(self, file: SourceFile) -> tuple[DeclKeys, list[object] | None]:
        """`_fingerprints` of the last two versions of each edited file, computed once."""
        kept = self._fingerprints.setdefault(file.path, [])
        for f, prints in kept:
            if f is file:
                return prints
        prints = _fingerprints(file)
        kept.append((file, prints))
        if len(kept) > 2:
            retire(kept.pop(0))
        return prints

    def analysis(self) -> Analysis:
        return self._last if self._last is not None else self._analyze()

    # ------------------------------------------------------------------ internals

    def _invalidate(self, old: SourceFile | None, new: SourceFile | None, packages_changed: bool) -> None:
        """Drop the cached results an edit (old -> new; None: added or removed) can change.

        A declaration's results are dropped when a declaration it looked up changed its
        text (or appeared, or went away); results naming places outside their own
        declaration are never kept, so a declaration that only moved changes nothing
        for others. Method infos hold places of other declarations: they are dropped
        when one of those moved too. The edit is added to the session's `Delta` (what the
        design rules compare to replay their last result)."""
        if new is None:
            self._results.pop(old.path, None)  # type: ignore[union-attr]
        moved = old is not None and new is not None and old.package != new.package
        if packages_changed or moved:  # references anywhere may resolve differently
            self._forget_all()
            return
        delta = self._delta
        if delta is not None:
            delta.files[(new or old).path] = new  # type: ignore[union-attr]
            delta.packages.update(f.package for f in (old, new) if f is not None and f.package is not None)
            delta.http = delta.http or _has_service(old) or _has_service(new)
        before = self._prints(old)[0] if old is not None else set()
        after = self._prints(new)[0] if new is not None else set()
        if new is None:
            self._fingerprints.pop(old.path, None)  # type: ignore[union-attr]
        if before == after:
            return
        moved_or_changed = {k for k, _, _ in before ^ after}
        changed = {k for k, _ in {(k, b) for k, b, _ in before} ^ {(k, b) for k, b, _ in after}}
        names = {k for k, _, _ in before} ^ {k for k, _, _ in after}
        changed |= {_names_key(k) for k in names}
        if changed:
            paths: set[str] = set()
            for key in changed:
                paths.update(self._looked_up.get(key, ()))
            for path in paths:
                results = self._results.get(path)
                if results is not None:
                    _drop(results, changed)
        ids: set[int] = set()
        for key in moved_or_changed:
            ids.update(self._method_deps.get(key, ()))
        for method_id in ids:
            hit = self._methods.get(method_id)
            if hit is not None and not hit[2].isdisjoint(moved_or_changed):
                self._forget_method(method_id)

    def _forget_method(self, key: int) -> None:
        """Drop a method's cached info (and its entries in the index of what it looked up)."""
        _, _, deps = self._methods.pop(key)
        for dep in deps:
            ids = self._method_deps.get(dep)
            if ids is not None:
                ids.discard(key)
        if self._delta is not None:
            self._delta.http = True

    def _analyze(self) -> Analysis:
        """One pass over the design. The cyclic garbage collector is paused meanwhile: the
        pass allocates many small acyclic values, and collections over a large design's
        model would otherwise cost as much as the rules themselves."""
        with paused_gc():
            return self._analyze_all()

    def _analyze_all(self) -> Analysis:
        files = self.files
        symbols = self._symbols(files)
        ctx = self._ctx(symbols)
        ctx.delta = delta = self._delta
        last = self._last
        if delta is not None and not delta.http and last is not None:
            ctx.__dict__["http"] = last.http  # no method, nor anything its binding looked up, changed
        out: list[Diagnostic] = []
        results = self._results
        for f in files:
            done = results.get(f.path)
            if done is not None and done.file is f and done.result is not None:
                out.extend(done.result)  # `_file`'s answer, without the call (this runs per file per edit)
            else:
                out.extend(self._file(ctx, f))
        design, by_rule = self._design_rules(ctx, files)
        found = _finished([*out, *design], files)
        http = ctx.http
        if last is None or http is not last.http:
            live = {id(m.method) for m in http.methods}
            for key in [k for k in self._methods if k not in live]:
                self._forget_method(key)
        for stale in self._reusable.keys() - ctx.reused:  # keyed by a method that is gone (a leak otherwise)
            del self._reusable[stale]
        if last is not None:
            retire(last)
        self._last = Analysis(found, symbols, ctx.index, http, files, self._manifest, by_rule)
        self._delta = Delta()
        self.visits = ctx.visits
        return self._last

    def split_all(self, files: Iterable[SourceFile]) -> Split:
        """An analysis of ``files`` in two parts (`Split`): what generators read (symbols,
        types, the HTTP model), built when `Split.analysis` is first called, and the rules -
        file rules, then the design's, as `update_all` runs them - when `Split.rules` is
        (`kit gen` runs them in a forked process while this one builds the rest and
        renders). For a one-shot run: the session keeps nothing for a later update (a fresh
        session: `analyze_split`)."""
        self._set_files(files)
        self._delta = None
        files = self.files
        with paused_gc():
            ctx = self._ctx(self._symbols(files))

        @cache
        def analysis() -> Analysis:
            with paused_gc():
                return Analysis(_finished([], files), ctx.symbols, ctx.index, ctx.http, files, self._manifest)

        def rules() -> tuple[Diagnostic, ...]:
            with paused_gc():
                out = [d for f in files for d in self._file(ctx, f)]
                return (*out, *self._design_rules(ctx, files)[0])

        return Split(analysis, rules)

    def _ctx(self, symbols: SymbolTable) -> Ctx:
        ctx = Ctx.create(symbols, self._manifest)
        ctx.summaries = self._summaries
        ctx.methods = self._methods
        ctx.reusable = self._reusable
        ctx.parts = self._parts
        ctx.method_deps = self._method_deps
        return ctx

    def _design_rules(
        self, ctx: Ctx, files: tuple[SourceFile, ...]
    ) -> tuple[list[Diagnostic], dict[str, tuple[Diagnostic, ...]]]:
        """The design-wide rules' diagnostics, and what each rule reported (they run after
        the file rules)."""
        ctx.diags = []
        ctx.files = files
        design: list[SourceFile] = list(files)
        by_rule: dict[str, tuple[Diagnostic, ...]] = {}
        for name, rule in DESIGN_RULES:
            before = len(ctx.diags)
            _run_rule(ctx, name, partial(rule, ctx, design), self._manifest.path if self._manifest else "")
            by_rule[name] = tuple(ctx.diags[before:])
        out, ctx.diags = ctx.diags, []
        return out, by_rule

    def _symbols(self, files: tuple[SourceFile, ...]) -> SymbolTable:
        """The symbol table, reusing the packages whose files did not change: after edits
        (`Delta`), only the edited files' packages are built again, in their place."""
        last, delta = self._last, self._delta
        if last is not None and delta is not None:  # the set of packages is the same (else no delta)
            table = SymbolTable(dict(last.symbols.packages))
            for name in delta.packages:
                members = self._by_package[name]
                table.packages[name] = SymbolTable.build([members[p] for p in sorted(members)]).packages[name]
            return table
        grouped: dict[str, list[SourceFile]] = {}
        for f in files:
            if f.package is not None:
                grouped.setdefault(f.package, []).append(f)
        previous = last.symbols.packages if last is not None else {}
        table = SymbolTable()
        for name, pkg_files in grouped.items():
            old = previous.get(name)
            if (
                old is not None
                and len(old.files) == len(pkg_files)
                and all(a is b for a, b in zip(old.files, pkg_files, strict=True))
            ):
                table.packages[name] = old
            else:
                table.packages[name] = SymbolTable.build(pkg_files).packages[name]
        return table

    def _file(self, ctx: Ctx, f: SourceFile) -> tuple[Diagnostic, ...]:
        results = self._results.get(f.path)
        if results is None or results.file is not f:
            if results is not None:
                retire(results)
            results = self._results[f.path] = _carried(results, f, self._prints)
        elif results.result is not None:
            return results.result
        complete = True
        out: list[Diagnostic] = []
        if results.header is None:
            entry = _run_header(ctx, f)
            if self.recorded is not None:
                self.recorded |= entry.deps
            self._index(entry, f.path)
            if _located_inside(entry.diagnostics, f.path, 0, 1 << 62):
                results.header = entry
            else:
                complete = False
        else:
            entry = results.header
        out.extend(entry.diagnostics)
        entries = results.decls
        for i, decl in enumerate(f.declarations):
            cached = entries[i]
            if cached is None:
                cached = _run_decl(ctx, f, decl)
                if self.recorded is not None:
                    self.recorded |= cached.deps
                self._index(cached, f.path)
                if _located_inside(cached.diagnostics, f.path, decl.span.start_byte, decl.span.end_byte):
                    entries[i] = cached
                else:
                    complete = False
            out.extend(cached.diagnostics)
        result = tuple(out)
        results.result = result if complete else None
        return result

    def _index(self, entry: _Entry, path: str) -> None:
        """Note that ``path``'s cached results looked up ``entry.deps`` (see `_invalidate`)."""
        looked_up = self._looked_up
        for dep in entry.deps:
            paths = looked_up.get(dep)
            if paths is None:
                looked_up[dep] = {path}
            else:
                paths.add(path)


def _has_service(file: SourceFile | None) -> bool:
    return file is not None and any(type(d) is ServiceDecl for d in file.declarations)


def _drop(results: _FileResults, changed: set[DepKey]) -> None:
    """Forget the results that looked up one of ``changed``."""
    if results.header is not None and not results.header.deps.isdisjoint(changed):
        results.header = None
        results.result = None
    entries = results.decls
    for i, entry in enumerate(entries):
        if entry is not None and not entry.deps.isdisjoint(changed):
            entries[i] = None
            results.result = None


def _carried(
    previous: _FileResults | None, f: SourceFile, prints: Callable[[SourceFile], tuple[DeclKeys, list[object] | None]]
) -> _FileResults:
    """Fresh results for a new version of a file, keeping those of the declarations whose
    text (and comments, and syntax errors) did not change, shifted to their new place."""
    entries: list[_Entry | None] = [None] * len(f.declarations)
    if previous is None or not any(e is not None for e in previous.decls):
        return _FileResults(f, None, entries)
    old = previous.file
    old_keys = prints(old)[1]
    new_keys = prints(f)[1] if old_keys is not None else None
    if old_keys is None or new_keys is None:
        return _FileResults(f, None, entries)
    pool: dict[object, list[tuple[_Entry, Decl]]] = {}
    for key, decl, entry in zip(old_keys, old.declarations, previous.decls, strict=True):
        if entry is not None:
            pool.setdefault(key, []).append((entry, decl))
    for i, (key, decl) in enumerate(zip(new_keys, f.declarations, strict=True)):
        candidates = pool.get(key)
        if candidates:
            entry, was = candidates.pop(0)
            entries[i] = entry.shifted(
                decl.span.start_byte - was.span.start_byte, decl.span.start_line - was.span.start_line
            )
    return _FileResults(f, None, entries)


def _run_header(ctx: Ctx, f: SourceFile) -> _Entry:
    ctx.diags = []
    deps: set[DepKey] = set()
    ctx.deps, ctx.index.recording = deps, deps
    try:
        for name, rule in HEADER_RULES:
            _run_rule(ctx, name, partial(rule, ctx, f), f.path)
    finally:
        ctx.deps, ctx.index.recording = None, None
    result = tuple(ctx.diags)
    ctx.diags = []
    return _Entry(result, frozenset(deps))


def _run_decl(ctx: Ctx, f: SourceFile, decl: Decl) -> _Entry:
    """The file rules on one declaration, recording what they look up."""
    diags: list[Diagnostic] = []
    deps: set[DepKey] = set()
    ctx.diags = diags
    ctx.deps, ctx.index.recording = deps, deps
    try:
        for name, rule in _RULES_FOR[type(decl)]:
            try:
                rule(ctx, f, decl)
            except Exception as exc:  # noqa: BLE001 - the analyzer must never raise on a design
                diags.append(
                    make(
                        "internal/analyzer-error",
                        file_span(f.path),
                        rule=name,
                        error=f"{type(exc).__name__}: {exc}",
                    )
                )
    finally:
        ctx.deps, ctx.index.recording = None, None
        ctx.diags = []
    return _Entry(tuple(diags), frozenset(deps))


def _finished(diags: list[Diagnostic], files: Sequence[SourceFile]) -> tuple[Diagnostic, ...]:
    """Rule diagnostics, less the cascades, with the parse errors, sorted."""
    out = _without_cascades(diags, files)
    for f in files:
        if f.parse_diagnostics:
            out.extend(d for d in f.parse_diagnostics if isinstance(d, Diagnostic))
    return _sorted(out)


def _without_cascades(diags: list[Diagnostic], files: Sequence[SourceFile]) -> list[Diagnostic]:
    """Drop analyzer diagnostics on a line that holds a syntax error: what the parser
    recovered there is a guess, and reports about it are noise until the text is fixed."""
    broken: set[tuple[str, int]] = set()
    for f in files:
        for d in f.parse_diagnostics:
            span = getattr(d, "span", None)
            if span is not None:
                broken.update((f.path, line) for line in range(span.start_line, span.end_line + 1))
    if not broken:
        return diags
    return [d for d in diags if (d.span.path, d.span.start_line) not in broken]


def _sorted(diags: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    unique = {identity(d): d for d in diags}
    return tuple(
        sorted(
            unique.values(),
            key=lambda d: (d.span.path, d.span.start_line, d.span.start_col, d.code, d.message),
        )
    )


def analyze(files: Sequence[SourceFile], manifest: Manifest | None = None) -> Analysis:
    """Analyze a whole design once (the CLI's entry point)."""
    return Analyzer(manifest).update_all(files)


__all__ = ["DESIGN_RULES", "FILE_RULES", "Analysis", "Analyzer", "Split", "analyze", "analyze_split"]
