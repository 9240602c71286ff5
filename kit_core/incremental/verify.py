"""Is an output on disk still what the last run left? Checked, never assumed.

A REGEN output counts as intact when its bytes have the digest recorded in the cache. To
spare reading every file, a file whose `lstat` (size, mtime, ctime, inode) equals the one
recorded is trusted - unless it was modified within two seconds before the record was
taken: a later edit could then share its timestamps (file systems keep coarse clocks), so
such a file is read (git's "racy" rule). ctime cannot be set back by a user, so an edit
always shows. A GEN-ONCE output counts as intact when a regular file is there (the user
owns its content). A symlink or a directory at an output's path is never intact: the run
then renders the unit, and the writer reports the link.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field

from kit_core.incremental.keys import digest
from kit_core.incremental.store import Cache, Output

RACY_NS = 2_000_000_000
GEN_ONCE = "gen-once"


def stat_record(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


@dataclass(slots=True)
class Check:
    """The outputs of a set of units checked against the disk."""

    read: int = 0  # files read (their stat could not be trusted)
    stats: dict[str, list[int]] = field(default_factory=dict)  # fresh records of REGEN outputs


def check_outputs(root: str, outputs: list[Output], cache: Cache, check: Check) -> bool:
    """Whether every output is intact; records fresh stats into ``check``."""
    trusted_before = cache.saved_at - RACY_NS
    for path, owner, want in outputs:
        full = os.path.join(root, path)
        try:
            st = os.lstat(full)
        except OSError:
            return False
        if not stat.S_ISREG(st.st_mode):
            return False
        if owner == GEN_ONCE:
            continue
        record = stat_record(st)
        if cache.stats.get(path) == record and st.st_mtime_ns < trusted_before and st.st_ctime_ns < trusted_before:
            check.stats[path] = record
            continue
        try:
            with open(full, "rb") as fh:
                data = fh.read()
        except OSError:
            return False
        check.read += 1
        if digest(data) != want:
            return False
        check.stats[path] = record
    return True
