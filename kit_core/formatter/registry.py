"""What the formatter needs to know about decorators and words, read from their owners.

`registered_idents` asks the decorator registry (`kit_core.decorators`) which bare names a
decorator's arguments accept (the `@format` names).
"""

from __future__ import annotations

from functools import cache


@cache
def registered_idents(decorator: str) -> frozenset[str]:
    """Names the decorator's arguments accept bare (a quoted one is rewritten bare):
    the `@format` names for the decorators the registry marks (`IDENT_ARGS`)."""
    # deferred: `kit fmt` loads the decorator table only for a decorator that takes names
    from kit_core import decorators as registry

    if decorator not in registry.IDENT_ARGS:
        return frozenset()
    return frozenset(registry.FORMATS)
