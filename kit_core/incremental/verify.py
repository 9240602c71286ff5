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

from kit_core import racy
from kit_core.incremental.keys import digest
from kit_core.incremental.store import Cache, Output

GEN_ONCE = "gen-once"


def stat_record(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


@dataclass(slots=True)
class Check:
    """The outputs of a set of units checked against the disk."""

    read: int = 0  # files read (their stat could not be trusted)
    stats: dict[str, list[int]] = field(default_factory=dict)  # fresh records of REGEN outputs


def check_outputs(root: str, outputs: list[Output], cache: Cache, check: Check) -> bool:
    """Whether every output is intact; records fresh stats into ``check``. One `lstat` per
    output (an edit in place changes only the file's own times); the loop is kept lean, as a
    resident kit's run at 10,000 types makes it 10,000 times."""
    trusted_before = cache.saved_at - racy.RACY_NS
    prefix = os.path.join(root, "")
    recorded, fresh = cache.stats, check.stats
    lstat, is_reg = os.lstat, stat.S_ISREG
    for path, owner, want in outputs:
        try:
            st = lstat(prefix + path)
        except OSError:
            return False
        if not is_reg(st.st_mode):
            return False
        if owner == GEN_ONCE:
            continue
        record = recorded.get(path)
        if (
            record is not None
            and record[1] == st.st_mtime_ns
            and record[2] == st.st_ctime_ns
            and record[0] == st.st_size
            and record[3] == st.st_ino
            and st.st_mtime_ns < trusted_before
            and st.st_ctime_ns < trusted_before
        ):
            fresh[path] = record  # the same record (never changed in place: replaced whole)
            continue
        try:
            with open(prefix + path, "rb") as fh:
                data = fh.read()
        except OSError:
            return False
        check.read += 1
        if digest(data) != want:
            return False
        fresh[path] = stat_record(st)
    return True
