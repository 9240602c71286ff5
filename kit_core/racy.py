"""git's "racy" rule, which every cache kit keeps by a file's `stat` follows.

A file's size and times vouch for its bytes only when its times are older than the moment
it was read (or listed) by more than the file system's clock could hide: a change made in
the same clock tick as the read would leave them as they were. Tests shorten the window by
setting `RACY_NS` here; every user reads it at call time.
"""

from __future__ import annotations

RACY_NS = 2_000_000_000  # more than the coarsest timestamp granularity kit meets (2 s)


def settled(mtime_ns: int, ctime_ns: int, read_ns: int) -> bool:
    """Whether a file with these times, read at ``read_ns``, cannot have changed unseen since:
    its `stat` may stand for its bytes from now on."""
    return max(mtime_ns, ctime_ns) < read_ns - RACY_NS
