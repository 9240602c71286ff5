"""A process keeps the run cache it saved (or loaded) by the digest of the file's body: its
next run reads the file and checks the digest, but does not parse it again. A file changed
since (another process's run, a damaged copy) is read from disk as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kit_core.incremental import store

BUILD, PROJECT = "build-1", "/p"


def cache(stat: int) -> store.Cache:
    c = store.Cache(BUILD, PROJECT, inputs="in", targets=["go"])
    c.units["u"] = store.UnitEntry("k", [("a.go", "regen", "d")])
    c.stats["a.go"] = [stat, 1, 2, 3]
    return c


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = store._from_json

    def counted(data: Any) -> store.Cache:
        calls.append(1)
        return real(data)

    monkeypatch.setattr(store, "_from_json", counted)
    return calls


def test_a_saved_cache_is_not_parsed_again(tmp_path: Path, parses: list[int]) -> None:
    store.save(tmp_path, cache(7))
    first = store.load(tmp_path, BUILD, PROJECT)
    assert first is not None and first.stats["a.go"][0] == 7 and parses == []
    first.stats["a.go"] = [0, 0, 0, 0]  # a run changes its copy: the kept one stays as saved
    first.units.clear()
    again = store.load(tmp_path, BUILD, PROJECT)
    assert again is not None and again.stats["a.go"][0] == 7 and "u" in again.units and parses == []


def test_a_file_changed_since_is_read_from_disk(tmp_path: Path, parses: list[int]) -> None:
    store.save(tmp_path, cache(7))
    other = tmp_path / "other"
    other.mkdir()
    store.save(other, cache(8))
    store.path_of(tmp_path).write_bytes(store.path_of(other).read_bytes())  # another process's save
    loaded = store.load(tmp_path, BUILD, PROJECT)
    assert loaded is not None and loaded.stats["a.go"][0] == 8 and parses == [1]
    raw = store.path_of(tmp_path).read_bytes()
    store.path_of(tmp_path).write_bytes(raw.replace(b'"in"', b'"IN"'))  # damaged: the digest differs
    assert store.load(tmp_path, BUILD, PROJECT) is None
    assert store.load(tmp_path, "build-2", PROJECT) is None  # another kit's, also when kept
