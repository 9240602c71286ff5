"""The whole document: info, servers, paths, components.

* `info.title`: manifest `openapi.title`, else the first DSL package name alphabetically.
* `info.version`: a file's `@version` (the first file in path order that has one) wins
  over `openapi.version`; `info.description`: a file's `@doc` over `openapi.description`.
* `openapi.basePath` is the server URL; each `{var}` in it is a server variable (its
  default is the variable's name), so paths are `@prefix` + method route.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kit_core.model import LiteralKind, SourceFile
from kit_core.semantics import HttpModel, MethodInfo, TypeIndex
from kit_core.symbols import SymbolTable

from .names import DeclNames
from .operations import Operations
from .schemas import Schemas
from .security import security_schemes

OPENAPI_VERSION = "3.1.0"


def build_document(symbols: SymbolTable, manifest: Any, http: HttpModel, index: TypeIndex) -> dict[str, Any]:
    builder = Builder(symbols, manifest, http, index)
    return builder.assemble(builder.partial(http.methods))


@dataclass(slots=True)
class Partial:
    """What the operations of some methods put in the document: their path items and every
    component they reach."""

    paths: dict[str, dict[str, Any]] = field(default_factory=dict)
    components: dict[str, Any] = field(default_factory=dict)


class Builder:
    """The document in pieces: a partial per set of methods (the union of the partials of a
    split is the partial of the whole), and the design-wide head and tail around them."""

    def __init__(self, symbols: SymbolTable, manifest: Any, http: HttpModel, index: TypeIndex) -> None:
        self.symbols, self.manifest, self.http, self.index = symbols, manifest, http, index
        self.base = (manifest.openapi.base_path or "").rstrip("/")
        self.names = DeclNames(symbols)
        self.operation_ids = operation_ids(http.methods)

    def partial(self, methods: Iterable[MethodInfo]) -> Partial:
        schemas = Schemas(self.index, self.names)
        ops = Operations(schemas, self.base, self.operation_ids)
        out = Partial(components=schemas.components)
        for info in sorted(methods, key=lambda m: (m.package, m.service, m.method.name)):
            path, verb, op = ops.build(info)
            out.paths.setdefault(path, {})[verb] = op
        return out

    def head(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"openapi": OPENAPI_VERSION, "info": _info(self.symbols, self.manifest)}
        if self.base:
            doc["servers"] = [_server(self.base, _base_vars(self.http, self.base))]
        return doc

    def security(self) -> dict[str, Any]:
        return security_schemes(self.manifest)

    def assemble(self, part: Partial) -> dict[str, Any]:
        doc = self.head()
        doc["paths"] = part.paths
        components: dict[str, Any] = {}
        if part.components:
            components["schemas"] = part.components
        schemes = self.security()
        if schemes:
            components["securitySchemes"] = schemes
        if components:
            doc["components"] = components
        return doc


def operation_ids(methods: tuple[MethodInfo, ...]) -> dict[int, str]:
    """`@operationId`, else the method name; a name two methods would share falls back to
    the shared model's `<Service>_<Method>` for those methods (operationIds must be unique)."""
    wanted = {id(m): m.operation_id if m.explicit_operation_id else m.method.name for m in methods}
    counts = Counter(wanted.values())
    return {
        id(m): (wanted[id(m)] if counts[wanted[id(m)]] == 1 or m.explicit_operation_id else m.operation_id)
        for m in methods
    }


def _base_vars(http: HttpModel, base: str) -> tuple[str, ...]:
    if http.methods:
        return http.methods[0].base_vars
    return tuple(seg[1:-1] for seg in base.split("/") if seg.startswith("{") and seg.endswith("}"))


def _files(symbols: SymbolTable) -> list[SourceFile]:
    return sorted((f for p in symbols.packages.values() for f in p.files), key=lambda f: f.path)


def _file_string(f: SourceFile, name: str) -> str | None:
    d = f.decorator(name)
    if d and d.args and d.args[0].kind in (LiteralKind.STRING, LiteralKind.RAW_STRING):
        return str(d.args[0].value)
    return None


def _info(symbols: SymbolTable, manifest: Any) -> dict[str, Any]:
    oa = manifest.openapi
    files = _files(symbols)
    title = oa.title or min(symbols.packages, default="API")
    version = next((v for v in (_file_string(f, "version") for f in files) if v), None)
    description = next((d for d in (_file_string(f, "doc") for f in files) if d), None)
    info: dict[str, Any] = {"title": title, "version": version or oa.version or "0.1.0"}
    if description or oa.description:
        info["description"] = description or oa.description
    return info


def _server(base: str, variables: tuple[str, ...]) -> dict[str, Any]:
    server: dict[str, Any] = {"url": base}
    if variables:
        server["variables"] = {
            v: {"default": v, "description": f"`{{{v}}}` of openapi.basePath"} for v in sorted(variables)
        }
    return server
