"""The TypeScript client: `types.ts` and `client.ts` into `output.tsClient` (opt-in).

    units(ctx) -> [RenderUnit("typescript/client")]   ([] while `output.tsClient` is unset or `-`)

`.ts` sources, not `.js` + `.d.ts`: a frontend compiles its TypeScript with its own toolchain
(tsc, esbuild, Vite...), which then picks its target and module format; the files are ES
modules with no dependency beyond `fetch`, `FormData` and `Blob` (browsers, Node 18+, Deno).
"""

from __future__ import annotations

import posixpath
from functools import partial
from typing import Any

from kit_core.generators.base import GenContext, OutputFile, Owner
from kit_core.generators.openapi import symbols_of
from kit_core.generators.openapi.names import DeclNames
from kit_core.generators.units import RenderUnit
from kit_core.semantics import HttpModel, TypeIndex, http_model
from kit_core.symbols import SymbolTable

from .client import client_module
from .declarations import types_module
from .typemap import TsNames, TypeMap

__all__ = ["render", "units"]


def render(symbols: SymbolTable, manifest: Any, http: HttpModel, index: TypeIndex) -> dict[str, str]:
    """File name -> text of the client's files."""
    names = TsNames(DeclNames(symbols))
    return {
        "types.ts": types_module(symbols, index, TypeMap(names)),
        "client.ts": client_module(symbols, index, http, TypeMap(names, "T.")),
    }


def generate(ctx: GenContext) -> list[OutputFile]:
    out_dir = ctx.manifest.output.path("tsClient")
    if out_dir is None:
        return []

    symbols = symbols_of(ctx.analysis)
    index = getattr(ctx.analysis, "index", None)
    if not isinstance(index, TypeIndex):
        index = TypeIndex(symbols)
    http = getattr(ctx.analysis, "http", None)
    if not isinstance(http, HttpModel):
        http = http_model(symbols, ctx.manifest, index)
    files = render(symbols, ctx.manifest, http, index)
    return [OutputFile(posixpath.join(out_dir, name), text, Owner.REGEN) for name, text in files.items()]


def units(ctx: GenContext) -> list[RenderUnit]:
    """One unit reading the whole design (names are design-wide); none while the key is unset."""
    if ctx.manifest.output.path("tsClient") is None:
        return []
    return [RenderUnit("typescript/client", partial(generate, ctx), whole_design=True)]
