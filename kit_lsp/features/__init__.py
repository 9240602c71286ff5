"""One module per feature; each has ``register(server)``. `ALL` is the registration order."""

from __future__ import annotations

from types import ModuleType

from kit_lsp.features import (
    code_actions,
    completion,
    diagnostics,
    folding,
    formatting,
    hover,
    lifecycle,
    navigation,
    rename,
    semantic_tokens,
    signature_help,
    symbols,
    sync,
)

ALL: tuple[ModuleType, ...] = (
    lifecycle,
    sync,
    hover,
    completion,
    signature_help,
    formatting,
    navigation,
    rename,
    symbols,
    semantic_tokens,
    folding,
    code_actions,
)

__all__ = ["ALL", "diagnostics"]
