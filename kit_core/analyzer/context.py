"""What every rule family receives: the symbols, a type index, the manifest, a sink.

Rules never raise on bad input; they call ``ctx.report(code, span, **fields)``. While a
file's own rules run, every name they look up is recorded (``ctx.deps``) so that the
incremental `Analyzer` knows which cached results an edit elsewhere invalidates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from kit_core.analyzer.suggest import Suggester
from kit_core.analyzer.summary import FileSummary, summarize
from kit_core.decorators import flat_args, literal_text
from kit_core.diagnostics import Diagnostic, Fix, Related, Severity, make
from kit_core.gcpause import retire
from kit_core.model import Decl, Method, ServiceDecl, SourceFile, TypeRef
from kit_core.semantics.http import HttpBuilder, HttpModel, MethodInfo
from kit_core.semantics.types import Params, TypeIndex, TypeShape, shape_key
from kit_core.source import Span
from kit_core.symbols import SymbolTable

if TYPE_CHECKING:
    from kit_core.manifest import Manifest

T = TypeVar("T")

DepKey = tuple[str, str, str]
"""(namespace, package, name): "T" types/enums/scalars/errors, "S" services, "E" events,
"M" middlewares (package "*"), "P" a whole package's existence, "N" the set of names a
package declares (name ""; package "*" for middlewares), read by "did you mean" hints."""


class TrackingIndex(TypeIndex):
    """A TypeIndex that records every (package, name) it resolves, cache hits included."""

    def __init__(self, symbols: SymbolTable) -> None:
        super().__init__(symbols)
        self.recording: set[DepKey] | None = None
        self._field_deps: dict[tuple[int, tuple[TypeShape, ...]], frozenset[DepKey]] = {}
        self.tracked: dict[tuple[object, ...], tuple[TypeRef, TypeShape, frozenset[DepKey]]] = {}

    def shape(self, ref: TypeRef, package: str, params: Params | Sequence[str] = ()) -> TypeShape:
        key = (id(ref), package, params) if type(params) is tuple else shape_key(ref, package, params)
        hit = self.tracked.get(key)
        if hit is None or hit[0] is not ref:
            hit = (ref, self.resolve(ref, package, params), _names_of(ref, package))
            self.tracked[key] = hit
        if self.recording is not None:
            self.recording.update(hit[2])
        return hit[1]

    def fields(self, decl, package, args=()):  # type: ignore[no-untyped-def]
        key = (id(decl), args)
        outer = self.recording
        if key in self._field_deps:
            if outer is not None:
                outer.update(self._field_deps[key])
            return super().fields(decl, package, args)
        self.recording = set()
        try:
            result = super().fields(decl, package, args)
            self._field_deps[key] = frozenset(self.recording)
        finally:
            inner, self.recording = self.recording, outer
        if outer is not None:
            outer.update(inner)
        return result


_ONE_NAME: dict[tuple[str, str], frozenset[DepKey]] = {}


def _names_of(ref: TypeRef, package: str) -> frozenset[DepKey]:
    """The names resolving ``ref`` looks up (shared sets for the common one-name refs)."""
    if ref.args or (ref.package is None and ref.name == "map"):
        deps: set[DepKey] = set()
        _record(deps, ref, package)
        return frozenset(deps)
    where = (ref.package or package, ref.name)
    one = _ONE_NAME.get(where)
    if one is None:
        if len(_ONE_NAME) > 100_000:
            _ONE_NAME.clear()
        one = _ONE_NAME[where] = frozenset({("T", *where)})
    return one


def _record(into: set[DepKey], ref: TypeRef, package: str) -> None:
    if not ref.is_map:
        into.add(("T", ref.package or package, ref.name))
    for arg in ref.args:
        _record(into, arg, package)


@dataclass
class Ctx:
    symbols: SymbolTable
    manifest: Manifest | None
    index: TrackingIndex
    diags: list[Diagnostic] = field(default_factory=list)
    deps: set[DepKey] | None = None
    memo: dict[object, tuple[object, frozenset[DepKey]]] = field(default_factory=dict)
    summaries: dict[str, tuple[SourceFile, FileSummary]] = field(default_factory=dict)
    methods: dict[int, tuple[Method, MethodInfo, frozenset[DepKey]]] = field(default_factory=dict)
    method_deps: dict[DepKey, set[int]] = field(default_factory=dict)  # name -> `methods` keys that looked it up
    reusable: dict[object, tuple[tuple[object, ...], tuple[Diagnostic, ...]]] = field(default_factory=dict)
    reused: set[object] = field(default_factory=set)  # the `reusable` keys this analysis asked for
    suggesters: dict[object, Suggester] = field(default_factory=dict)
    parts: dict[object, Part] = field(default_factory=dict)  # `design_part` results, kept by the session
    files: Sequence[SourceFile] = ()  # every file of the design (the design rules' input)
    delta: Delta | None = None  # what changed since the session's last analysis (None: everything)
    visits: int = 0  # files a design-rule part looked at (`design_part`): what an edit costs, counted

    @classmethod
    def create(cls, symbols: SymbolTable, manifest: Manifest | None) -> Ctx:
        return cls(symbols, manifest, TrackingIndex(symbols))

    @cached_property
    def http(self) -> HttpModel:
        return _CachingBuilder(self).build()

    @cached_property
    def schemes(self) -> dict[str, dict[str, object]] | None:
        """Declared security schemes (empty when the manifest declares none: then every
        `@security` name is unknown); None without a manifest (a lone file: not checked)."""
        if self.manifest is None:
            return None
        return dict(self.manifest.openapi.security_schemes or {})

    @property
    def file_case(self) -> str:
        return self.manifest.output.file_case if self.manifest else "snake"

    def report(
        self, code: str, span: Span, *, related: tuple[Related, ...] = (), fixes: tuple[Fix, ...] = (), **fields: Any
    ) -> None:
        self.diags.append(make(code, span, related=related, fixes=fixes, **fields))

    def warn(self, code: str, span: Span, *, related: tuple[Related, ...] = (), **fields: Any) -> None:

        self.diags.append(make(code, span, related=related, severity=Severity.WARNING, **fields))

    def dep(self, namespace: str, package: str, name: str) -> None:
        if self.deps is not None:
            self.deps.add((namespace, package, name))

    def shape(self, ref: TypeRef, package: str, params: Params | tuple[str, ...] = ()) -> TypeShape:
        """Resolve a reference (memoised per analysis; a hit replays the names it needs)."""
        deps = self.deps
        if type(params) is tuple and deps is self.index.recording:  # the rules' case, inlined
            hit = self.index.tracked.get((id(ref), package, params))
            if hit is not None and hit[0] is ref:
                if deps is not None:
                    deps.update(hit[2])
                return hit[1]
        if self.deps is not None and self.deps is not self.index.recording:
            outer, self.index.recording = self.index.recording, self.deps
            try:
                return self.index.shape(ref, package, params)
            finally:
                self.index.recording = outer
        return self.index.shape(ref, package, params)

    def suggester(self, key: object, names: Callable[[], Iterable[str]]) -> Suggester:
        """The "did you mean" index of a set of names, built once per analysis."""
        found = self.suggesters.get(key)
        if found is None:
            found = self.suggesters[key] = Suggester(names())
        return found

    def file_of(self, decl: Decl, package: str) -> SourceFile | None:
        pkg = self.symbols.packages.get(package)
        return pkg.file_of(decl) if pkg else None

    def summary(self, file: SourceFile) -> FileSummary:
        """Facts of one file alone, reused while the file object is unchanged."""
        hit = self.summaries.get(file.path)
        if hit is None or hit[0] is not file:
            if hit is not None:
                retire(hit)
            hit = (file, summarize(file))
            self.summaries[file.path] = hit
        return hit[1]

    def reuse(self, key: object, pins: tuple[object, ...], check: Callable[[], None]) -> None:
        """Run a design-rule part whose result depends only on ``pins`` (compared by
        identity), or replay its diagnostics from the previous analysis of the session."""
        self.reused.add(key)
        hit = self.reusable.get(key)
        if hit is not None and len(hit[0]) == len(pins) and all(a is b for a, b in zip(hit[0], pins, strict=True)):
            self.diags.extend(hit[1])
            return
        outer, self.diags = self.diags, []
        try:
            check()
            self.reusable[key] = (pins, tuple(self.diags))
        finally:
            outer.extend(self.diags)
            self.diags = outer

    def design_part(
        self, key: object, footprint: Callable[[SourceFile], object], check: Callable[[], None], *, rerun: bool = False
    ) -> None:
        """Run a design-rule part, or replay its last diagnostics when the edits since the last
        analysis (`delta`) cannot change them: when every changed file's ``footprint`` (what
        the part reads of a file, positions aside) is what it was, and no diagnostic of the
        last result names a place in a changed file (positions there may have moved).
        ``rerun`` forces a run (something the footprints do not show changed). Replaying
        costs the changed files, not the design."""
        hit = self.parts.get(key)
        delta = self.delta
        if hit is not None and delta is not None and not rerun:
            changed = False
            for path, new in delta.files.items():
                self.visits += 1
                if path in hit.touched or hit.prints.get(path, _GONE) != (footprint(new) if new is not None else _GONE):
                    changed = True
                    break
            if not changed:
                self.diags.extend(hit.diags)
                self.reused.update(hit.children)
                return
        if hit is not None and delta is not None:  # the others' footprints are the same
            prints = dict(hit.prints)
            for path, new in delta.files.items():
                self.visits += 1
                if new is None:
                    prints.pop(path, None)
                else:
                    prints[path] = footprint(new)
        else:
            prints = {}
            for f in self.files:
                self.visits += 1
                prints[f.path] = footprint(f)
        asked, self.reused = self.reused, set()
        outer, self.diags = self.diags, []
        try:
            check()
            found = tuple(self.diags)
            self.parts[key] = Part(prints, found, _places(found), frozenset(self.reused))
        finally:
            outer.extend(self.diags)
            self.diags = outer
            asked |= self.reused
            self.reused = asked

    def recall(self, key: object) -> tuple[bool, object]:
        """(found, value) of a memoised computation; a hit replays the names it looked up."""
        hit = self.memo.get(key)
        if hit is None:
            return False, None
        if self.deps is not None:
            self.deps.update(hit[1])
        return True, hit[0]

    def tracked(self, compute: Callable[[], T]) -> tuple[T, frozenset[DepKey]]:
        """Run ``compute`` recording the names it looks up (also added to the current file's)."""
        outer = self.deps
        inner: set[DepKey] = set()
        self.deps, self.index.recording = inner, inner
        try:
            value = compute()
        finally:
            self.deps, self.index.recording = outer, outer
        if outer is not None:
            outer.update(inner)
        return value, frozenset(inner)

    def cached(self, key: object, compute: Callable[[], T]) -> T:
        """``compute()`` once per analysis; a hit replays the names the computation looked up."""
        found, value = self.recall(key)
        if found:
            return value  # type: ignore[return-value]
        result, deps = self.tracked(compute)
        self.memo[key] = (result, deps)
        return result


class _CachingBuilder(HttpBuilder):
    """Reuses a method's `MethodInfo` while nothing it looked up has changed (the session
    drops entries whose recorded names an edit touched)."""

    def __init__(self, ctx: Ctx) -> None:
        super().__init__(ctx.symbols, ctx.manifest, ctx.index)
        self.ctx = ctx

    def method(
        self, package: str, service: str, primary: ServiceDecl | None, block: ServiceDecl, method: Method
    ) -> MethodInfo:
        hit = self.ctx.methods.get(id(method))
        if hit is not None and hit[0] is method:
            return hit[1]
        info, deps = self.ctx.tracked(
            lambda: super(_CachingBuilder, self).method(package, service, primary, block, method)
        )
        extra = {("S", package, service)} | {("T", e.package, e.name) for e in info.errors}
        for dec in method.decorators:
            if dec.name == "errors":
                for lit in flat_args(dec):
                    pkg, _, name = literal_text(lit).rpartition(".")
                    extra.add(("T", pkg or package, name))
        looked_up = deps | extra
        self.ctx.methods[id(method)] = (method, info, looked_up)
        index = self.ctx.method_deps
        for dep in looked_up:
            ids = index.get(dep)
            if ids is None:
                index[dep] = {id(method)}
            else:
                ids.add(id(method))
        return info


_GONE = object()  # the footprint of a file that is not in the design


def _places(diags: Iterable[Diagnostic]) -> frozenset[str]:
    """The files the diagnostics name a place in (their own, related ones', fixes')."""
    out: set[str] = set()
    for d in diags:
        out.add(d.span.path)
        out.update(r.span.path for r in d.related)
        out.update(fx.span.path for fx in d.fixes)
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class Part:
    """A design-rule part's last result (`Ctx.design_part`): each file's footprint, the
    diagnostics, the files they name places in, and the `reuse` keys asked meanwhile."""

    prints: dict[str, object]
    diags: tuple[Diagnostic, ...]
    touched: frozenset[str]
    children: frozenset[object]


@dataclass
class Delta:
    """The files an analysis's edits changed since the session's last analysis: path -> the
    file now (None: removed), whether any method's HTTP binding was built again, and the
    packages those files were or are in."""

    files: dict[str, SourceFile | None] = field(default_factory=dict)
    http: bool = False
    packages: set[str] = field(default_factory=set)  # the packages of the files, before and after


def related(span: Span, message: str) -> tuple[Related, ...]:
    return (Related(span, message),)
