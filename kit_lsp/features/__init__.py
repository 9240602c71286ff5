"""One module per feature; each has ``register(server)``. `ALL` is the registration order."""

from __future__ import annotations

from types import ModuleType

from kit_lsp.features import (
    breaking,
    code_actions,
    code_lens,
    completion,
    diagnostics,
    folding,
    formatting,
    hover,
    inlay_hints,
    lifecycle,
    navigation,
    rename,
    semantic_tokens,
    signature_help,
    stub_drift,
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
    inlay_hints,
    code_lens,
    stub_drift,
    breaking,
)

__all__ = ["ALL", "diagnostics"]
