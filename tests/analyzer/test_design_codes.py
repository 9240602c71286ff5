"""The two design-locating codes, raised before any analysis (kit_core.program)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit_core.program import DesignError, find_design_root, find_go_module


def test_no_manifest(tmp_path: Path) -> None:
    with pytest.raises(DesignError) as err:
        find_design_root(tmp_path)
    assert err.value.diagnostic.code == "design/no-manifest"


def test_manifest_found_is_a_near_miss(tmp_path: Path) -> None:
    (tmp_path / "kit.design.yaml").write_text("openapi:\n  title: T\n")
    assert find_design_root(tmp_path) == tmp_path.resolve()


def test_no_go_mod(tmp_path: Path) -> None:
    if any((p / "go.mod").exists() for p in tmp_path.parents):
        pytest.skip("a go.mod above the temporary folder")
    with pytest.raises(DesignError) as err:
        find_go_module(tmp_path / "project")
    assert err.value.diagnostic.code == "design/no-go-mod"


def test_go_mod_found_is_a_near_miss(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n")
    assert find_go_module(tmp_path)[1] == "example.com/shop"
