"""One module per feature; each has ``register(server)`` and declares what it handles and
advertises in `kit_lsp.features.declared.<name>`. `NAMES` is the registration order.

Light on purpose (the boot reads the declarations through this package before the server
is imported): the feature modules are imported by `modules()`, not here.
"""

from __future__ import annotations

import importlib
from types import ModuleType

NAMES: tuple[str, ...] = (
    "lifecycle",
    "sync",
    "hover",
    "completion",
    "signature_help",
    "formatting",
    "navigation",
    "rename",
    "symbols",
    "semantic_tokens",
    "folding",
    "code_actions",
    "inlay_hints",
    "code_lens",
    "stub_drift",
    "breaking",
)


def modules() -> tuple[ModuleType, ...]:
    """The feature modules, in registration order."""
    return tuple(importlib.import_module(f"{__name__}.{name}") for name in NAMES)


def __getattr__(name: str) -> tuple[ModuleType, ...]:  # `features.ALL`, as before
    if name == "ALL":
        return modules()
    raise AttributeError(name)
