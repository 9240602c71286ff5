"""Server settings: typed, every field defaulted, read leniently.

They arrive as `initializationOptions` and from `workspace/configuration` (section `kit`),
in the editor's camelCase (`generateOnSave`) and possibly wrapped in `{"kit": {...}}`.
Unknown keys are ignored; a value of the wrong type leaves the defaults in place and is
reported to the user (never a crash).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cattrs
from cattrs.gen import make_dict_structure_fn, override


@dataclass(frozen=True, kw_only=True)
class Settings:
    generate_on_save: bool = True
    """Run the full generation of the design when a design file is saved."""
    diagnostics_delay_ms: int = 20
    """Debounce within a burst of edits: an edit to an idle design is analysed at once,
    edits arriving during an analysis or within this delay of the last one are coalesced
    into one analysis this long after the last of them."""
    generate_delay_ms: int = 30
    """Debounce between a save and generation: the saves of a "save all" arrive within a
    few milliseconds and are coalesced into one run (a save during a run cancels it at its
    next stage anyway, so a longer wait only delays every save)."""
    save_summary: bool = False
    """After each generation on save, show a one-line summary of what was written
    (`window/showMessage`); a failed generation is always shown."""
    breaking_baseline: str = ""
    """A git ref (`main`, `v1.2.0`): show the changes that break clients since the design at
    that ref, as `kit diff <ref>` lists them. Empty: off."""


def _strict_bool(value: Any, _: type) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _strict_str(value: Any, _: type) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {value!r}")
    return value


def _strict_int(value: Any, _: type) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"expected a non-negative integer, got {value!r}")
    return value


_converter = cattrs.Converter()
_converter.register_structure_hook(bool, _strict_bool)
_converter.register_structure_hook(int, _strict_int)
_converter.register_structure_hook(str, _strict_str)
_converter.register_structure_hook(
    Settings,
    make_dict_structure_fn(
        Settings,
        _converter,
        generate_on_save=override(rename="generateOnSave"),
        diagnostics_delay_ms=override(rename="diagnosticsDelayMs"),
        generate_delay_ms=override(rename="generateDelayMs"),
        save_summary=override(rename="saveSummary"),
        breaking_baseline=override(rename="breakingBaseline"),
    ),
)


def load_settings(raw: Any, base: Settings | None = None) -> tuple[Settings, str | None]:
    """Settings from a client payload; on a bad value: (the base settings, a message)."""
    base = base or Settings()
    if raw is None:
        return base, None
    if isinstance(raw, dict) and isinstance(raw.get("kit"), dict):
        raw = raw["kit"]
    if not isinstance(raw, dict):
        return base, f"kit: settings must be an object, got {type(raw).__name__}; using defaults"
    merged = {**_as_raw(base), **raw}
    try:
        return _converter.structure(merged, Settings), None
    except Exception as exc:  # cattrs wraps every failure; any of them means "bad settings"
        detail = "; ".join(str(e) for e in getattr(exc, "exceptions", [exc]))
        return base, f"kit: invalid settings ({detail}); using defaults"


def _as_raw(s: Settings) -> dict[str, Any]:
    return {
        "generateOnSave": s.generate_on_save,
        "diagnosticsDelayMs": s.diagnostics_delay_ms,
        "generateDelayMs": s.generate_delay_ms,
        "saveSummary": s.save_summary,
        "breakingBaseline": s.breaking_baseline,
    }
