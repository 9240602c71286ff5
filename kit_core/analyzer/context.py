"""What every rule family receives: the symbols, a type index, the manifest, a sink.

Rules never raise on bad input; they call ``ctx.report(code, span, **fields)``. While a
file's own rules run, every name they look up is recorded (``ctx.deps``) so that the
incremental `Analyzer` knows which cached results an edit elsewhere invalidates.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from kit_core.diagnostics import Diagnostic, Related, make
from kit_core.model import Decl, SourceFile, TypeRef
from kit_core.semantics.http import HttpModel, http_model
from kit_core.semantics.types import Params, TypeIndex, TypeShape
from kit_core.source import Span
from kit_core.symbols import SymbolTable

if TYPE_CHECKING:
    from kit_core.manifest import Manifest

DepKey = tuple[str, str, str]
"""(namespace, package, name): "T" types/enums/scalars/errors, "S" services, "E" events,
"M" middlewares (package "*"), "P" a whole package's existence."""


class TrackingIndex(TypeIndex):
    """A TypeIndex that records every (package, name) it resolves, cache hits included."""

    def __init__(self, symbols: SymbolTable) -> None:
        super().__init__(symbols)
        self.recording: set[DepKey] | None = None
        self._field_deps: dict[tuple[int, tuple[TypeShape, ...]], frozenset[DepKey]] = {}

    def _shape(self, ref: TypeRef, package: str, scope: Params, depth: int) -> TypeShape:
        if self.recording is not None and not ref.is_map:
            self.recording.add(("T", ref.package or package, ref.name))
        return super()._shape(ref, package, scope, depth)

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


@dataclass
class Ctx:
    symbols: SymbolTable
    manifest: Manifest | None
    index: TrackingIndex
    diags: list[Diagnostic] = field(default_factory=list)
    deps: set[DepKey] | None = None

    @classmethod
    def create(cls, symbols: SymbolTable, manifest: Manifest | None) -> Ctx:
        return cls(symbols, manifest, TrackingIndex(symbols))

    @cached_property
    def http(self) -> HttpModel:
        return http_model(self.symbols, self.manifest, self.index)

    @cached_property
    def schemes(self) -> dict[str, dict[str, object]] | None:
        """Declared security schemes; None when the manifest declares none (any name passes)."""
        if self.manifest is None or not self.manifest.openapi.security_schemes:
            return None
        return dict(self.manifest.openapi.security_schemes)

    @property
    def file_case(self) -> str:
        return self.manifest.output.file_case if self.manifest else "snake"

    def report(self, code: str, span: Span, *, related: tuple[Related, ...] = (), **fields: Any) -> None:
        self.diags.append(make(code, span, related=related, **fields))

    def warn(self, code: str, span: Span, *, related: tuple[Related, ...] = (), **fields: Any) -> None:
        from kit_core.diagnostics import Severity

        self.diags.append(make(code, span, related=related, severity=Severity.WARNING, **fields))

    def dep(self, namespace: str, package: str, name: str) -> None:
        if self.deps is not None:
            self.deps.add((namespace, package, name))

    def shape(self, ref: TypeRef, package: str, params: Params | tuple[str, ...] = ()) -> TypeShape:
        return self.index.shape(ref, package, params)

    def file_of(self, decl: Decl, package: str) -> SourceFile | None:
        pkg = self.symbols.packages.get(package)
        return pkg.file_of(decl) if pkg else None

    @contextmanager
    def tracking(self) -> Iterator[set[DepKey]]:
        """Record the names looked up inside the block (for one file's cached results)."""
        deps: set[DepKey] = set()
        self.deps, self.index.recording = deps, deps
        try:
            yield deps
        finally:
            self.deps, self.index.recording = None, None


def related(span: Span, message: str) -> tuple[Related, ...]:
    return (Related(span, message),)
