"""Pausing Python's cyclic garbage collector around bulk work on the model.

Lowering and analysis allocate many small acyclic values; on a large design the
collector's passes over them cost as much as the work itself. Reference counting still
frees everything; the pause only skips cycle detection while the work runs.
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
        if enabled:
            gc.enable()
