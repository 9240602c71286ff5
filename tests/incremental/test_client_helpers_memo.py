"""The Go client's `client.go` holds the helpers some method calls, so it depends on every
method; in a resident process an edit builds the method views of the directories it changed
only (the others' helper sets are kept by their units' keys), and the file is still the
one a full run writes, also when the edit changes which helpers are needed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from designs import FILES, ITEMS, copy_project, tree, write_project

from kit_core.generators.go import client
from kit_core.regenerate import Outcome, regenerate
from kit_core.resident.designs import ResidentDesigns, as_loaded

ERRORS = "\t@errors(shared.Missing)\n"  # an error with a JSON body: client.go's `decodeBody`
# GetItem without its error: then no method's error has a JSON body
WITHOUT = {**FILES, "items/items.kit": ITEMS.replace(ERRORS, "")}


def resident_gen(design: Path, designs: ResidentDesigns) -> Outcome:
    loaded = as_loaded(design, designs.snapshot(design), designs.disk(design))
    out = regenerate(design, loaded=loaded, resident=True)
    assert out.report is not None and out.report.ok, (out.diagnostics, out.report)
    return out


def toggle_errors(root: Path) -> None:
    """GetOrder's error, on and off: nothing else depends on the orders package."""
    orders = root / "design" / "orders" / "orders.kit"
    text = orders.read_text()
    edited = text.replace(ERRORS, "") if ERRORS in text else text.replace("\tget GetOrder", ERRORS + "\tget GetOrder")
    orders.write_text(edited)


def test_an_edit_builds_the_views_of_its_directory_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = tmp_path / "a"
    design = write_project(a, WITHOUT).resolve()
    designs = ResidentDesigns()
    resident_gen(design, designs)
    assert "decodeBody(" not in (a / "client" / "client.go").read_text()
    viewed: list[str] = []
    real = client.method_view

    def counted(g: Any, m: Any, name: str, imports: Any) -> Any:
        viewed.append(name)
        return real(g, m, name, imports)

    monkeypatch.setattr(client, "method_view", counted)
    for expect_decode_body in (True, False):
        toggle_errors(a)
        viewed.clear()
        resident_gen(design, designs)
        assert set(viewed) == {"GetOrder"}, viewed  # not the items directory's methods
        b = tmp_path / f"full-{expect_decode_body}"
        copy_project(a, b)
        full = regenerate(b / "design")  # a fresh run over the same files
        assert full.report is not None and full.report.ok
        assert tree(a) == tree(b)
        assert ("decodeBody(" in (a / "client" / "client.go").read_text()) is expect_decode_body
