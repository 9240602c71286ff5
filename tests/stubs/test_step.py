"""The stubs' part of a run (`stubs_step`): what it reads and parses."""

from __future__ import annotations

from pathlib import Path

import pytest
from stub_helpers import generate, load, project

from kit_core import program
from kit_core.generators import go
from kit_core.gosource import GoSource
from kit_core.stubs.expected import method_in
from kit_core.stubs.step import stubs_step
from kit_core.writer import MemoryHost


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = GoSource.parse

    def counting(data: bytes | str) -> GoSource:
        calls.append(1)
        return real(data)

    monkeypatch.setattr(GoSource, "parse", staticmethod(counting))
    method_in.cache_clear()
    return calls


def test_a_clean_run_parses_no_stub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No stub is on disk yet: none can drift or carry code, so none is parsed (a clean run
    of a large design parsed every stub it wrote, twice)."""
    design, analysis = load(project(tmp_path))
    files, _ = go.generate(program.gen_context(design, analysis))
    calls = _parses(monkeypatch)
    out, notices = stubs_step(MemoryHost(), files, design.manifest)
    assert out == list(files) and notices == [] and calls == []


def test_a_stub_on_disk_is_still_checked_for_drift(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path)
    generate(root)
    stub = root / "internal/service/items/create_item.go"
    stub.write_text(stub.read_text().replace("CreateItem(req *types.NewItem)", "CreateItem(req *types.Item)"))
    design, analysis = load(root)
    files, _ = go.generate(program.gen_context(design, analysis))
    on_disk = {f.path: (root / f.path).read_text() for f in files if (root / f.path).is_file()}
    calls = _parses(monkeypatch)
    _, notices = stubs_step(MemoryHost(on_disk), files, design.manifest)
    assert [n.path for n in notices] == ["internal/service/items/create_item.go"] and calls
