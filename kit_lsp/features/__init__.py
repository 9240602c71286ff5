"""One module per feature; each has ``register(server)``. `ALL` is the registration order."""

from __future__ import annotations

from types import ModuleType

from kit_lsp.features import diagnostics, lifecycle, sync

ALL: tuple[ModuleType, ...] = (lifecycle, sync)

__all__ = ["ALL", "diagnostics"]
