"""A regex matching exactly the decimal integers of a range, for integer map keys.

JSON object keys are strings, so the document states an integer key type as a
`propertyNames.pattern`. The pattern accepts the spelling the decoder accepts (kitjson's
`IntKey`/`UintKey`): JSON's own number spelling, an optional `-`, no `+`, no leading zeros,
no `-0`, and only values in [lo, hi].

Hand-written: the only PyPI package for this (range-regex) is unmaintained since 2013. The
method is the usual one: split the range into spans of one digit count, then split each span
at its first differing digit into a lower edge, a run of free digits and an upper edge.
"""

from __future__ import annotations


def int_range_pattern(lo: int, hi: int) -> str:
    """An anchored regex matching the canonical decimal spelling of every n with lo <= n <= hi."""
    if lo > hi:
        raise ValueError(f"empty range [{lo}, {hi}]")
    alternatives: list[str] = []
    if lo < 0:
        negatives = _non_negative(max(-hi, 1), -lo)
        alternatives.append("-" + _group(negatives))
    if hi >= 0:
        alternatives.extend(_non_negative(max(lo, 0), hi))
    return f"^{_group(alternatives)}$"


def _group(alternatives: list[str]) -> str:
    return alternatives[0] if len(alternatives) == 1 and "|" not in alternatives[0] else f"(?:{'|'.join(alternatives)})"


def _non_negative(lo: int, hi: int) -> list[str]:
    """Alternatives matching the canonical spellings of [lo, hi], 0 <= lo <= hi."""
    out: list[str] = []
    full: list[int] = []  # a run of digit counts whose every value is in range: one repeat
    for width in range(len(str(lo)), len(str(hi)) + 1):
        first = 0 if width == 1 else 10 ** (width - 1)
        a, b = max(lo, first), min(hi, 10**width - 1)
        if width > 1 and (a, b) == (first, 10**width - 1):
            full.append(width)
            continue
        out.extend(_full_widths(full) + _same_width(str(a), str(b)))
        full = []
    return out + _full_widths(full)


def _full_widths(widths: list[int]) -> list[str]:
    return [f"[1-9]{_repeat(widths[0] - 1, widths[-1] - 1)}"] if widths else []


def _same_width(a: str, b: str) -> list[str]:
    """Alternatives matching every digit string of a's width from a to b (a <= b)."""
    if a == b:
        return [a]
    if a[0] == b[0]:
        return [a[0] + rest for rest in _same_width(a[1:], b[1:])]
    tail = len(a) - 1
    if tail == 0:
        return [_digits(int(a), int(b))]
    out: list[str] = []
    low, high = int(a[0]), int(b[0])
    if a[1:] != "0" * tail:  # the lower edge: a's first digit, then a's tail up to 99..9
        out.extend(a[0] + rest for rest in _same_width(a[1:], "9" * tail))
        low += 1
    upper = [] if b[1:] == "9" * tail else [b[0] + rest for rest in _same_width("0" * tail, b[1:])]
    if upper:
        high -= 1
    if low <= high:  # first digits whose whole tail is free
        out.append(_digits(low, high) + _repeat(tail, tail))
    return out + upper


def _digits(low: int, high: int) -> str:
    if low == high:
        return str(low)
    return "[0-9]" if (low, high) == (0, 9) else f"[{low}-{high}]"


def _repeat(least: int, most: int) -> str:
    if most == 0:
        return ""
    if least == most:
        return "[0-9]" if least == 1 else f"[0-9]{{{least}}}"
    return f"[0-9]{{{least},{most}}}"
