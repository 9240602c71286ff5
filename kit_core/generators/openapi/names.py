"""Component names (spec "Rules on types" 7).

A declaration keeps its name; when two packages declare one name, each is prefixed with
its package in Go case (`billing.Invoice` -> `BillingInvoice`). A generic instance is its
declaration's name + `Of` + its arguments joined by `And`; an array argument leads with
`ArrayOf`, a map with `MapOf<K>And<V>`, an optional one with `OptionalOf`:
`Page<map<string, Item>[]>` -> `PageOfArrayOfMapOfStringAndItem`.
"""

from __future__ import annotations

from kit_core.naming import go_name
from kit_core.semantics import TypeShape
from kit_core.symbols import Kind, SymbolTable


class DeclNames:
    def __init__(self, symbols: SymbolTable) -> None:
        # set operations on each table's names (a name twice in one package, as a type and an
        # enum, clashes too): a `Counter` updated per table was ~7 ms a run at 10,000 types
        seen: set[str] = set()
        clashing: set[str] = set()
        for pkg in symbols.packages.values():
            for table in (pkg.types, pkg.enums, pkg.scalars, pkg.errors):
                if table:
                    # `set` methods iterate the table once (a resident session's tables are
                    # mappings whose `keys() & set` would iterate the growing set instead)
                    clashing.update(seen.intersection(table))
                    seen.update(table)
        self._clashing = clashing

    @property
    def clashing(self) -> frozenset[str]:
        """Names declared in more than one package (those get their package as a prefix)."""
        return frozenset(self._clashing)

    def decl(self, package: str, name: str) -> str:
        return go_name(package) + name if name in self._clashing else name

    def of(self, shape: TypeShape) -> str:
        """The name of any shape (primitives included, as generic arguments)."""
        prefix = ("OptionalOf" if shape.optional else "") + "ArrayOf" * shape.array_dims
        return prefix + self._base(shape)

    def _base(self, shape: TypeShape) -> str:
        if shape.kind is Kind.MAP and len(shape.args) == 2:
            return f"MapOf{self.of(shape.args[0])}And{self.of(shape.args[1])}"
        if shape.kind in (Kind.PRIMITIVE, Kind.PARAM, None) or shape.package is None:
            return shape.name[:1].upper() + shape.name[1:]
        name = self.decl(shape.package, shape.name)
        if shape.args:
            name += "Of" + "And".join(self.of(a) for a in shape.args)
        return name
