"""Fault injection for the tests of a run killed while it writes.

`KIT_TEST_EXIT_AFTER=<step>:<n>` makes the process end at once (`os._exit(99)`, no
cleanup, as a kill would) right after the n-th occurrence of a step of the commit:
`stage` (a staged file written), `journal` (the commit point recorded), `rename` (an output
moved into place), `remove` (a swept file deleted), `recover` (a step of a recovery). Unset,
a checkpoint costs one dictionary lookup.
"""

from __future__ import annotations

import os

ENV = "KIT_TEST_EXIT_AFTER"
KILLED = 99

_counts: dict[str, int] = {}


def checkpoint(step: str) -> None:
    spec = os.environ.get(ENV)
    if not spec:
        return
    name, _, number = spec.partition(":")
    if name != step:
        return
    _counts[step] = _counts.get(step, 0) + 1
    if _counts[step] == int(number or 1):
        os._exit(KILLED)
