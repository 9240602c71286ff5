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

Freeing is not free either: the model of a large file takes milliseconds to deallocate.
On an incremental path the previous versions are handed to :func:`retire` instead of
being dropped there, and the process frees them when it has time (:func:`release`: the
language server does so once it has published diagnostics). At most
``RETIRED_MAX`` values wait; beyond that the oldest are freed at once.

This is process-wide policy, so the library only marks its bulk phases (:func:`paused_gc`,
:func:`retire`); whether they pause, freeze and defer is decided by the process's entry
point with :func:`install` (the `kit` command, the resident kit, `kit-lsp` and its worker).
A program that imports kit_core as a library keeps its collector as it set it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_installed = False


def install() -> None:
    """Let kit's bulk phases pause the collector, freeze what they keep and defer frees (for an
    entry point: the policy holds for the whole process)."""
    global _installed
    _installed = True


@contextmanager
def paused_gc(freeze: bool = True) -> Iterator[None]:
    """No cyclic collection meanwhile, once an entry point :func:`install`-ed the policy.
    ``freeze``: when this is the outermost pause, hide what survived it from later collections
    (a model that stays; not for short-lived values such as a generation's outputs)."""
    if not _installed:
        yield
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if freeze:
                gc.freeze()
            gc.enable()


RETIRED_MAX = 64
_retired: list[object] = []


def retire(value: object) -> None:
    """Keep ``value`` alive until the next :func:`release` (a deferred free; without the
    policy it is freed where the caller drops it)."""
    if not _installed:
        return
    _retired.append(value)
    if len(_retired) > RETIRED_MAX:
        del _retired[: RETIRED_MAX // 2]


def release() -> None:
    """Free what was retired."""
    _retired.clear()


def collect() -> int:
    """A full collection, frozen objects included (for idle moments of a long-lived process)."""
    gc.unfreeze()
    return gc.collect()
