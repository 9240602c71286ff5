"""User regexes (`@pattern`) compiled with RE2, the spec's regex language.

RE2 runs in time linear in the input, so checking a `@default` against a pathological
pattern (`^(a+)+$`) finishes at once where a backtracking engine takes minutes; and a
pattern RE2 refuses (a backreference, a lookaround) is refused with RE2's own message,
as the Go runtime (whose `regexp` is RE2) would refuse it.
"""

from __future__ import annotations

from functools import lru_cache

import re2

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # the error comes back as the exception; nothing on stderr


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> tuple[re2._Regexp | None, str | None]:  # type: ignore[name-defined]
    """(compiled, None), or (None, RE2's reason) when RE2 refuses the pattern."""
    try:
        return re2.compile(pattern, options=_OPTIONS), None
    except re2.error as exc:
        reason = exc.args[0] if exc.args else str(exc)
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        return None, str(reason)


def pattern_problem(pattern: str) -> str | None:
    """Why RE2 refuses the pattern, or None when it compiles."""
    return compile_pattern(pattern)[1]


def matches(pattern: str, value: str) -> bool | None:
    """Whether the pattern matches somewhere in ``value`` (Go's `MatchString`); None when
    the pattern does not compile."""
    compiled, _ = compile_pattern(pattern)
    if compiled is None:
        return None
    return compiled.search(value) is not None
