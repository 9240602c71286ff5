"""kit_core.gcpause: the collector paused during bulk work, survivors frozen, deferred frees."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from kit_core import gcpause


class _Thing:
    pass


@pytest.fixture(autouse=True)
def policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """What an entry point (`kit`, `kit-lsp`) installs; undone after each test."""
    monkeypatch.setattr(gcpause, "_installed", True)


def test_without_the_policy_the_library_leaves_the_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gcpause, "_installed", False)
    frozen = gc.get_freeze_count()
    with gcpause.paused_gc():
        assert gc.isenabled()
        kept = [_Thing() for _ in range(100)]
    assert gc.get_freeze_count() == frozen and kept
    thing = _Thing()
    ref = weakref.ref(thing)
    gcpause.retire(thing)
    del thing
    assert ref() is None  # not kept for a later release


def test_the_cli_the_language_server_and_the_resident_kit_install_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    from kit_core import cli

    monkeypatch.setattr(gcpause, "_installed", False)
    assert cli.main(["version"]) == 0
    assert gcpause._installed
    root = Path(__file__).resolve().parents[1]
    for entry in ("kit_lsp/startup/boot.py", "kit_lsp/worker.py", "kit_core/daemon/server.py"):
        assert "gcpause.install()" in (root / entry).read_text(), entry


def test_pause_restores_the_collector_and_freezes_what_survived() -> None:
    assert gc.isenabled()
    with gcpause.paused_gc():
        assert not gc.isenabled()
        with gcpause.paused_gc():  # nested: only the outermost pause ends it
            pass
        assert not gc.isenabled()
        kept = [_Thing() for _ in range(100)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(kept)
    gcpause.collect()  # unfreezes and collects
    assert gc.get_freeze_count() == 0


def test_retired_values_live_until_released_and_never_pile_up() -> None:
    gcpause.release()
    thing = _Thing()
    ref = weakref.ref(thing)
    gcpause.retire(thing)
    del thing
    assert ref() is not None
    gcpause.release()
    assert ref() is None
    refs = []
    for _ in range(gcpause.RETIRED_MAX * 3):
        t = _Thing()
        refs.append(weakref.ref(t))
        gcpause.retire(t)
        del t
    assert sum(r() is not None for r in refs) <= gcpause.RETIRED_MAX + 1
    gcpause.release()
    assert all(r() is None for r in refs)
