"""Keeping Python's cyclic garbage collector away from the model.

Lowering and analysis allocate many small acyclic values; on a large design the
collector's passes over them cost as much as the work itself. Reference counting frees
all of them, so the collector is paused while the work runs and, when it ends, whatever
is alive is moved out of the collector's sight (``gc.freeze``): later collections no
longer walk the model again and again (a fresh model per keystroke in the language
server would otherwise trigger full collections over the whole design). Frozen objects
are still freed by reference counting; only cyclic garbage that existed at the moment
of a freeze waits for :func:`collect`, which a long-running process (the language
server) calls when idle.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:  # the outermost pause: hide what survived from later collections
            gc.freeze()
            gc.enable()


def collect() -> int:
    """A full collection, frozen objects included (for idle moments of a long-lived process)."""
    gc.unfreeze()
    return gc.collect()
