"""Which declaration names clash (`DeclNames.clashing`): a name declared in two places."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from kit_core.generators.openapi.names import DeclNames


def _package(**tables: list[str]) -> Any:
    kinds = ("types", "enums", "scalars", "errors")
    return SimpleNamespace(**{k: dict.fromkeys(tables.get(k, []), object()) for k in kinds})


def test_a_name_in_two_packages_or_two_tables_clashes() -> None:
    symbols: Any = SimpleNamespace(
        packages={
            "a": _package(types=["Invoice", "Only"], enums=["Status"]),
            "b": _package(types=["Invoice"], errors=["NotFound"]),
            "c": _package(types=["Twice"], enums=["Twice"], scalars=["Status"]),
            "d": _package(),
        }
    )
    names = DeclNames(symbols)
    assert names.clashing == {"Invoice", "Status", "Twice"}
    assert names.decl("b", "Invoice") == "BInvoice" and names.decl("a", "Only") == "Only"
