"""Packages and name resolution shared by the analyzer, generators and language server.

A design's files are grouped by their `package` clause (files declaring one package
anywhere under the root form one package). References are resolved here, once: the
analyzer reports what does not resolve, generators and the editor read the results.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from kit_core.fastnew import maker
from kit_core.model import (
    Decl,
    EnumDecl,
    ErrorDecl,
    EventDecl,
    MiddlewareDecl,
    ScalarDecl,
    ServiceDecl,
    SourceFile,
    TypeDecl,
    TypeRef,
)

PRIMITIVES = frozenset(
    "string bytes bool int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 float32 float64 "
    "datetime file any".split()
)
INT_PRIMITIVES = frozenset("int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64".split())
FLOAT_PRIMITIVES = frozenset({"float32", "float64"})
NUMBER_PRIMITIVES = INT_PRIMITIVES | FLOAT_PRIMITIVES
INT_RANGES: dict[str, tuple[int, int]] = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "int": (-(2**63), 2**63 - 1),
    "uint8": (0, 2**8 - 1),
    "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
    "uint": (0, 2**64 - 1),
}
"""The values each Go integer type holds (Go's `int`/`uint` are 64-bit on kit's targets)."""


class Kind(str, Enum):
    PRIMITIVE = "primitive"
    TYPE = "type"
    ENUM = "enum"
    SCALAR = "scalar"
    ERROR = "error"
    PARAM = "param"  # a type parameter of the enclosing generic type
    MAP = "map"


@dataclass(frozen=True, slots=True)
class Resolved:
    """What a `TypeRef`'s base name denotes (array/optional suffixes stay on the ref)."""

    kind: Kind
    name: str
    package: str | None = None  # declaring package for TYPE/ENUM/SCALAR/ERROR
    decl: Decl | None = None


@dataclass(slots=True)
class Package:
    name: str
    files: list[SourceFile] = field(default_factory=list)
    types: dict[str, TypeDecl] = field(default_factory=dict)
    enums: dict[str, EnumDecl] = field(default_factory=dict)
    scalars: dict[str, ScalarDecl] = field(default_factory=dict)
    errors: dict[str, ErrorDecl] = field(default_factory=dict)
    middlewares: dict[str, MiddlewareDecl] = field(default_factory=dict)
    services: dict[str, list[ServiceDecl]] = field(default_factory=dict)  # primary first when present
    events: dict[str, EventDecl] = field(default_factory=dict)
    decl_file: dict[int, SourceFile] = field(default_factory=dict)  # id(decl) -> file

    def lookup(self, name: str) -> Decl | None:
        """A type, enum, scalar or error of this package (the namespace references use)."""
        return self.types.get(name) or self.enums.get(name) or self.scalars.get(name) or self.errors.get(name)

    def file_of(self, decl: object) -> SourceFile | None:
        return self.decl_file.get(id(decl))

    def add(self, decl: Decl, file: SourceFile) -> None:
        """Index a declaration; the first of a name wins (the analyzer reports duplicates)."""
        self.decl_file[id(decl)] = file
        if isinstance(decl, ServiceDecl):
            blocks = self.services.setdefault(decl.name, [])
            has_primary = any(not b.extend for b in blocks)
            if decl.extend or has_primary:
                blocks.append(decl)
            else:
                blocks.insert(0, decl)
            return
        table = _TABLES[type(decl)](self)
        table.setdefault(decl.name, decl)


_TABLES = {
    TypeDecl: lambda p: p.types,
    EnumDecl: lambda p: p.enums,
    ScalarDecl: lambda p: p.scalars,
    ErrorDecl: lambda p: p.errors,
    MiddlewareDecl: lambda p: p.middlewares,
    EventDecl: lambda p: p.events,
}

_KIND_OF = {TypeDecl: Kind.TYPE, EnumDecl: Kind.ENUM, ScalarDecl: Kind.SCALAR, ErrorDecl: Kind.ERROR}
_Resolved = maker(Resolved)
_MAP = Resolved(Kind.MAP, "map")
_PRIMITIVE = {name: Resolved(Kind.PRIMITIVE, name) for name in PRIMITIVES}


@dataclass(slots=True)
class SymbolTable:
    packages: dict[str, Package] = field(default_factory=dict)

    @classmethod
    def build(cls, files: Iterable[SourceFile]) -> SymbolTable:
        table = cls()
        for f in files:
            if f.package is None:
                continue
            pkg = table.packages.setdefault(f.package, Package(f.package))
            pkg.files.append(f)
            for decl in f.declarations:
                pkg.add(decl, f)
        return table

    def middleware(self, name: str) -> MiddlewareDecl | None:
        """Middleware names are project-global."""
        for pkg in self.packages.values():
            if name in pkg.middlewares:
                return pkg.middlewares[name]
        return None

    def resolve(self, ref: TypeRef, package: str, params: Iterable[str] = ()) -> Resolved | None:
        """Resolve the base of ``ref`` seen from ``package``; None when nothing matches."""
        name = ref.name
        if ref.package is None:
            if name == "map":
                return _MAP
            if name in params:
                return _Resolved(Kind.PARAM, name, None, None)
            prim = _PRIMITIVE.get(name)
            if prim is not None:
                return prim
        owner = self.packages.get(ref.package or package)
        if owner is None:
            return None
        decl = owner.lookup(name)
        if decl is None:
            return None
        return _Resolved(_KIND_OF[type(decl)], decl.name, owner.name, decl)

    def scalar_primitive(self, resolved: Resolved) -> str | None:
        """The primitive under a scalar (or the primitive itself)."""
        if resolved.kind is Kind.PRIMITIVE:
            return resolved.name
        if resolved.kind is Kind.SCALAR and isinstance(resolved.decl, ScalarDecl):
            return resolved.decl.primitive.name
        return None
