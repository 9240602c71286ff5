"""The OpenAPI 3.1 document: built as data, sorted, serialized deterministically.

    generate(ctx) -> [OutputFile(manifest.output.openapi, yaml, REGEN)]   ([] when it is `-`)

`document_for(analysis, manifest)` returns the document as a dict (for tests and tools).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kit_core.generators.base import GenContext, OutputFile, Owner
from kit_core.generators.units import RenderUnit
from kit_core.semantics import HttpModel, TypeIndex, http_model
from kit_core.symbols import SymbolTable

from .document import build_document
from .incremental import kept, render_incremental
from .security import SchemeError, scheme_problems
from .serialize import to_yaml

__all__ = [
    "SchemeError",
    "build_document",
    "document_for",
    "generate",
    "render",
    "scheme_problems",
    "symbols_of",
    "units",
]


def symbols_of(analysis: Any) -> SymbolTable:
    """The symbol table inside the analyzer's result (or the table itself)."""
    if isinstance(analysis, SymbolTable):
        return analysis
    symbols = getattr(analysis, "symbols", None)
    if isinstance(symbols, SymbolTable):
        return symbols
    files = getattr(analysis, "files", None)
    if files is not None:
        return SymbolTable.build(files)
    raise TypeError(f"cannot find the symbol table in {type(analysis).__name__}")


def document_for(analysis: Any, manifest: Any) -> dict[str, Any]:
    """The document as data; reuses the analysis's TypeIndex and HTTP model when it has them."""
    symbols, index, http = _parts(analysis, manifest)
    return build_document(symbols, manifest, http, index)


def render(analysis: Any, manifest: Any) -> str:
    return to_yaml(document_for(analysis, manifest))


def generate(ctx: GenContext) -> list[OutputFile]:
    path = ctx.manifest.output.path("openapi")
    if path is None or not symbols_of(ctx.analysis).packages:
        return []
    if ctx.keys is None:
        return [OutputFile(path, render(ctx.analysis, ctx.manifest), Owner.REGEN)]
    symbols, index, http = _parts(ctx.analysis, ctx.manifest)
    return [OutputFile(path, render_incremental(symbols, ctx.manifest, http, index, ctx.keys), Owner.REGEN)]


def _parts(analysis: Any, manifest: Any) -> tuple[SymbolTable, TypeIndex, HttpModel]:
    symbols = symbols_of(analysis)
    index = getattr(analysis, "index", None)
    if not isinstance(index, TypeIndex):
        index = TypeIndex(symbols)
    http = getattr(analysis, "http", None)
    if not isinstance(http, HttpModel):
        http = http_model(symbols, manifest, index)
    return symbols, index, http


def units(ctx: GenContext) -> list[RenderUnit]:
    """One unit: the document reads the whole design (names, operation ids, components)."""
    if ctx.manifest.output.path("openapi") is None:
        return []
    symbols = symbols_of(ctx.analysis)
    weight = sum(len(p.types) + len(p.enums) + len(p.errors) + len(p.scalars) for p in symbols.packages.values())
    http = getattr(ctx.analysis, "http", None)
    weight += len(http.methods) if http is not None else 0
    weight //= 2  # measured: a declaration costs the document about half what its Go files cost
    if ctx.keys is not None:
        if kept():  # measured: the partials of the last render kept, ~1/20 of a whole render
            weight = 1 + weight // 20
    keeps = ctx.keys is not None
    return [RenderUnit("openapi/document", partial(generate, ctx), whole_design=True, weight=weight, keeps=keeps)]
