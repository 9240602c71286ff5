"""The analysis pipeline and its incremental session.

Rules come in two kinds. File rules (`check_file`) look at one file and record every
name they look up; their diagnostics are cached per file and reused until the file, or a
declaration they looked up, changes. Design rules (`check_design`) compare things across
files (duplicates, routes, groups, contracts, cycles) and run on every analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
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
from kit_core.analyzer.context import Ctx, DepKey
from kit_core.analyzer.summary import FileSummary
from kit_core.diagnostics import Diagnostic, make
from kit_core.gcpause import paused_gc
from kit_core.model import (
    Decl,
    EventDecl,
    Method,
    MiddlewareDecl,
    ServiceDecl,
    SourceFile,
)
from kit_core.semantics.http import HttpModel, MethodInfo
from kit_core.semantics.types import TypeIndex
from kit_core.source import file_span
from kit_core.symbols import SymbolTable

if TYPE_CHECKING:
    from kit_core.manifest import Manifest

FileRule = Callable[[Ctx, SourceFile], None]

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

DESIGN_RULES: tuple[tuple[str, Callable[[Ctx, list[SourceFile]], None]], ...] = (
    ("names", lambda ctx, _: names.check_design(ctx)),
    ("package cycles", lambda ctx, _: types.check_design(ctx)),
    ("services", lambda ctx, _: services.check_design(ctx)),
    ("routes", lambda ctx, _: routes.check_design(ctx)),
    ("events", lambda ctx, _: events.check_design(ctx)),
    ("security", lambda ctx, _: security.check_design(ctx)),
    ("imports", imports.check_design),
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

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    def for_file(self, path: str) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.span.path == path)


@dataclass
class _Cached:
    diagnostics: tuple[Diagnostic, ...]
    deps: frozenset[DepKey]


def _run_rule(ctx: Ctx, name: str, rule: Callable[[], None], where: str) -> None:
    """Run one rule family; a bug in it becomes a diagnostic instead of an exception."""
    try:
        rule()
    except Exception as exc:  # noqa: BLE001 - the analyzer must never raise on a design
        ctx.diags.append(
            make("internal/analyzer-error", file_span(where), rule=name, error=f"{type(exc).__name__}: {exc}")
        )


def _decl_keys(file: SourceFile) -> set[tuple[DepKey, bytes, int]]:
    """What a file declares, with a fingerprint (text and position) of each declaration."""
    if file.package is None:
        return set()
    data = file.source.encode("utf-8", errors="replace")
    out = set()
    for decl in file.declarations:
        out.add((_key(decl, file.package), data[decl.span.start_byte : decl.span.end_byte], decl.span.start_byte))
    return out


def _key(decl: Decl, package: str) -> DepKey:
    if isinstance(decl, ServiceDecl):
        return ("S", package, decl.name)
    if isinstance(decl, EventDecl):
        return ("E", package, decl.name)
    if isinstance(decl, MiddlewareDecl):
        return ("M", "*", decl.name)
    return ("T", package, decl.name)


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
        self._cache: dict[str, _Cached] = {}
        self._summaries: dict[str, tuple[SourceFile, FileSummary]] = {}
        self._methods: dict[int, tuple[Method, MethodInfo, frozenset[DepKey]]] = {}
        self._reusable: dict[object, tuple[tuple[object, ...], tuple[Diagnostic, ...]]] = {}
        self._last: Analysis | None = None

    @property
    def files(self) -> tuple[SourceFile, ...]:
        return tuple(self._files[p] for p in sorted(self._files))

    def set_manifest(self, manifest: Manifest | None) -> Analysis:
        self._manifest = manifest
        self._cache.clear()
        self._methods.clear()
        self._reusable.clear()
        return self._analyze()

    def update_all(self, files: Iterable[SourceFile]) -> Analysis:
        self._files = {f.path: f for f in files}
        self._cache.clear()
        self._methods.clear()
        self._reusable.clear()
        return self._analyze()

    def update(self, file: SourceFile) -> Analysis:
        before = self._packages()
        old = self._files.get(file.path)
        self._files[file.path] = file
        self._invalidate(old, file, before != self._packages())
        return self._analyze()

    def update_many(self, changed: Iterable[SourceFile] = (), removed: Iterable[str] = ()) -> Analysis:
        """Several edits (changed or added files, removed paths) followed by one analysis."""
        for path in removed:
            before = self._packages()
            old = self._files.pop(path, None)
            if old is not None:
                self._invalidate(old, None, before != self._packages())
        for file in changed:
            before = self._packages()
            prev = self._files.get(file.path)
            if prev is file:
                continue
            self._files[file.path] = file
            self._invalidate(prev, file, before != self._packages())
        return self._analyze()

    def remove(self, path: str) -> Analysis:
        before = self._packages()
        old = self._files.pop(path, None)
        if old is not None:
            self._invalidate(old, None, before != self._packages())
        return self._analyze()

    def _packages(self) -> set[str | None]:
        return {f.package for f in self._files.values()}

    def analysis(self) -> Analysis:
        return self._last if self._last is not None else self._analyze()

    # ------------------------------------------------------------------ internals

    def _invalidate(self, old: SourceFile | None, new: SourceFile | None, packages_changed: bool) -> None:
        """Drop the cached results an edit (old -> new; None: added or removed) can change."""
        path = (new or old).path  # type: ignore[union-attr]
        self._cache.pop(path, None)
        moved = old is not None and new is not None and old.package != new.package
        if packages_changed or moved:  # references anywhere may resolve differently
            self._cache.clear()
            self._methods.clear()
            return
        before = _decl_keys(old) if old is not None else set()
        after = _decl_keys(new) if new is not None else set()
        changed = {k for k, _, _ in before ^ after}
        if not changed:
            return
        for other in [p for p, c in self._cache.items() if c.deps & changed]:
            del self._cache[other]
        for key in [k for k, (_, _, deps) in self._methods.items() if deps & changed]:
            del self._methods[key]

    def _analyze(self) -> Analysis:
        """One pass over the design. The cyclic garbage collector is paused meanwhile: the
        pass allocates many small acyclic values, and collections over a large design's
        model would otherwise cost as much as the rules themselves."""
        with paused_gc():
            return self._analyze_all()

    def _analyze_all(self) -> Analysis:
        files = self.files
        symbols = self._symbols(files)
        ctx = Ctx.create(symbols, self._manifest)
        ctx.summaries = self._summaries
        ctx.methods = self._methods
        ctx.reusable = self._reusable
        out: list[Diagnostic] = []
        for f in files:
            out.extend(self._file(ctx, f))
        design: list[SourceFile] = list(files)
        for name, rule in DESIGN_RULES:
            _run_rule(ctx, name, partial(rule, ctx, design), self._manifest.path if self._manifest else "")
        out.extend(ctx.diags)
        out = _without_cascades(out, files)
        for f in files:
            out.extend(d for d in f.parse_diagnostics if isinstance(d, Diagnostic))
        http = ctx.http
        live = {id(m.method) for m in http.methods}
        for key in [k for k in self._methods if k not in live]:
            del self._methods[key]
        self._last = Analysis(_sorted(out), symbols, ctx.index, http, files, self._manifest)
        return self._last

    def _symbols(self, files: tuple[SourceFile, ...]) -> SymbolTable:
        """The symbol table, reusing the packages whose files did not change."""
        grouped: dict[str, list[SourceFile]] = {}
        for f in files:
            if f.package is not None:
                grouped.setdefault(f.package, []).append(f)
        previous = self._last.symbols.packages if self._last is not None else {}
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
        cached = self._cache.get(f.path)
        if cached is not None:
            return cached.diagnostics
        ctx.diags = []
        with ctx.tracking() as deps:
            for name, rule in FILE_RULES:
                _run_rule(ctx, name, partial(rule, ctx, f), f.path)
        result = tuple(ctx.diags)
        ctx.diags = []
        self._cache[f.path] = _Cached(result, frozenset(deps))
        return result


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
    unique = {(d.code, d.span.path, d.span.start_byte, d.span.end_byte, d.message): d for d in diags}
    return tuple(
        sorted(
            unique.values(),
            key=lambda d: (d.span.path, d.span.start_line, d.span.start_col, d.code, d.message),
        )
    )


def analyze(files: Sequence[SourceFile], manifest: Manifest | None = None) -> Analysis:
    """Analyze a whole design once (the CLI's entry point)."""
    return Analyzer(manifest).update_all(files)


__all__ = ["DESIGN_RULES", "FILE_RULES", "Analysis", "Analyzer", "analyze"]
