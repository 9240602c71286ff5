"""Go spellings of sizes and durations: `2 << 20`, `5 * time.Second` (1.10: sizes as shifts)."""

from __future__ import annotations

_SHIFTS = ((30, "GB"), (20, "MB"), (10, "KB"))
_UNITS = (
    (3_600_000_000_000, "time.Hour"),
    (60_000_000_000, "time.Minute"),
    (1_000_000_000, "time.Second"),
    (1_000_000, "time.Millisecond"),
    (1_000, "time.Microsecond"),
)


def size_expr(n: int, compact: bool = False) -> str:
    """``compact``: spelled as gofmt prints it among several call arguments (`32<<20`)."""
    op = "<<" if compact else " << "
    for shift, _ in _SHIFTS:
        if n and n % (1 << shift) == 0:
            return f"{n >> shift}{op}{shift}"
    return str(n)


def duration_expr(ns: int) -> str:
    for unit, name in _UNITS:
        if ns and ns % unit == 0:
            count = ns // unit
            return name if count == 1 else f"{count} * {name}"
    return f"{ns} * time.Nanosecond"
