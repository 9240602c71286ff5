"""kit_core.gcpause: the collector paused during bulk work, survivors frozen, deferred frees."""

from __future__ import annotations

import gc
import weakref

from kit_core import gcpause


class _Thing:
    pass


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
