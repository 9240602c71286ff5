"""Is a field's new set of checks narrower than the old one (a value the old accepted that the
new refuses)? Bounds are compared by their numbers; a check that is new, or whose argument
changed where no order exists (`@pattern`, `@format`, `@multipleOf`), counts as narrower."""

from __future__ import annotations

from collections.abc import Sequence

from kit_core.decorators.checks import flat_args, literal_text, number
from kit_core.model import Decorator

LOWER = frozenset({"minLength", "gte", "gt", "minItems"})  # raising these refuses more
UPPER = frozenset({"maxLength", "lte", "lt", "maxItems", "maxSize"})  # lowering these refuses more
PAIRS = frozenset({"length", "range"})  # (min, max)


def text(d: Decorator) -> str:
    args = f"({', '.join(a.text for a in d.args)})" if d.has_parens or d.args else ""
    return f"@{d.name}{args}"


def _numbers(d: Decorator) -> list[float | int | None]:
    return [number(a) for a in d.args]


def narrowed(old: Sequence[Decorator], new: Sequence[Decorator]) -> list[str]:
    """Why ``new`` refuses values ``old`` accepted (empty when it does not)."""
    before = {d.name: d for d in old}
    out = []
    for d in new:
        o = before.get(d.name)
        if o is None:
            out.append(f"now checks {text(d)}")
        elif _tighter(o, d):
            out.append(f"{text(o)} narrowed to {text(d)}")
    return out


def _tighter(o: Decorator, n: Decorator) -> bool:
    if n.name in LOWER | UPPER | PAIRS:
        a, b = _numbers(o), _numbers(n)
        if None in a or None in b or len(a) != len(b):
            return text(o) != text(n)
        if n.name in LOWER:
            return b[0] > a[0]  # type: ignore[operator]
        if n.name in UPPER:
            return b[0] < a[0]  # type: ignore[operator]
        return b[0] > a[0] or b[1] < a[1]  # type: ignore[operator]
    if n.name == "mimeTypes":
        return not {literal_text(x) for x in flat_args(n)} >= {literal_text(x) for x in flat_args(o)}
    return text(o) != text(n)
