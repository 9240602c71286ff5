"""What a plan looked at on disk, and whether, by `lstat` alone, all of it is still so.

A run with nothing to render still plans over every output: each output folder's symlink
checks, the sweep's walk of the output folders, the notices' reads of gen-once files (about
0.1 s on the 2,000-type design). That plan depends on the run's outputs, manifest and
targets (the memo's key, `regenerate`) and on what the disk held where the plan looked.
`DiskHost` records, in a `Seen`, the `lstat` of every path it looks at: a folder it
resolves or lists, a file it reads, a path found missing (as missing). The next run with
the same key takes the last plan's result when every recorded `lstat` is unchanged: a file
or folder created, deleted or renamed in a folder changes that folder's times, an edit
changes the file's, a folder swapped for a link changes its mode and inode.

Trusted only when it cannot be fooled:
- every time recorded is older than the record by more than the file system's clock could
  hide (git's "racy" rule): a change made in the same clock tick as the look would keep the
  times it saw, so such a record is not kept (the next run looks again);
- no symlink anywhere the plan looked: a link's target can change while the link does not.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Mapping

from kit_core import racy

Stamp = tuple[int, int, int, int, int] | None  # (mode, inode, size, mtime_ns, ctime_ns); None: missing


def stamp_of(st: os.stat_result) -> Stamp:
    return (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def lstamp(full: str) -> Stamp:
    """The stamp of a path (None: nothing there); raises OSError when it cannot be looked at."""
    try:
        return stamp_of(os.lstat(full))
    except (FileNotFoundError, NotADirectoryError):
        return None


class Seen:
    """The stamps of what a plan looked at, by project-relative path."""

    def __init__(self) -> None:
        self.since = time.time_ns()  # before anything was looked at
        self.stamps: dict[str, Stamp] = {}
        self.usable = True  # False: something seen cannot be vouched for by its stamp

    def saw(self, path: str, st: os.stat_result | None) -> None:
        """``path`` looked at, with its `lstat` (None: missing)."""
        if st is None:
            self.stamps.setdefault(path, None)
            return
        if stat.S_ISLNK(st.st_mode):
            self.usable = False
        self.stamps.setdefault(path, stamp_of(st))

    def link_inside(self) -> None:
        """A listed folder holds a symlink."""
        self.usable = False

    def settled(self) -> bool:
        """Whether the record can be trusted later: no link, nothing changed in the last
        `racy.RACY_NS` before the looks began."""
        if not self.usable:
            return False
        return all(s is None or racy.settled(s[3], s[4], self.since) for s in self.stamps.values())


def unchanged(root: str, stamps: Mapping[str, Stamp]) -> bool:
    """Whether every path under ``root`` still has the recorded stamp."""
    prefix = os.path.join(root, "")
    for path, want in stamps.items():
        try:
            if lstamp(prefix + path if path else root) != want:
                return False
        except OSError:
            return False
    return True
