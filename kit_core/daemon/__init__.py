"""The resident kit: one process per user that keeps designs analysed between `kit gen` runs,
so a one-file edit is not a whole parse and analysis.

    kit gen                      # hands its run to the user's resident kit, starting it if needed
    kit gen --no-daemon          # runs in this process (also: KIT_NO_DAEMON=1)

A fresh `kit gen` process pays Python's start, its imports, and a parse and analysis of the
whole design before it knows what an edit changed (~2 s on 2,000 types). The resident kit
(`server.py`) keeps each design it served parsed and analysed (`kit_core.resident`, the
engine kit-lsp runs on too) and runs the very `kit gen` of this process
(`kit_core.cli.gen_here`), sending back what it prints and its exit status.

- One per user, on a Unix socket in the user's resident-kit folder (`protocol.daemon_dir`,
  mode 0700, checked), started detached by the first `kit gen` that finds none; a `flock`
  on `daemon.lock` makes a second one exit at once. Both ends check the other's user id.
- It serves only a client of its own identity (`identity.py`: kit's files, the interpreter,
  the import path and what is installed on it, the environment a run reads); any other
  client is refused and it exits, so a change to any of them never meets an old process.
- Bounded: it drops a project whose folder is gone (checked every `server.TICK` seconds) and
  exits when none is left, keeps at most `KIT_DAEMON_DESIGNS` designs and drops the least
  recently used past a memory budget (`KIT_DAEMON_MEMORY`, MB), and exits after
  `KIT_DAEMON_IDLE` seconds without a client (15 minutes after a run from a terminal,
  1 minute after a non-interactive one).
- Not started (`may_start`) under `CI`, for a folder that holds no design, or with
  `KIT_NO_DAEMON=1`; a Ctrl-C in the client cancels the run at its next stage.
- Whatever goes wrong on the way (no resident kit within a few seconds, refused, it dies
  mid-run), the client runs the generation itself: the resident kit only ever saves time.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from kit_core.designfiles import MANIFEST_NAME, design_files

DISABLE_ENV = "KIT_NO_DAEMON"
_FALSE = ("", "0", "false", "no")


def enabled() -> bool:
    """Whether `kit gen` may use a resident kit at all: not with `KIT_NO_DAEMON=1`, not in
    CI (a job's process would outlive the job's use of it)."""
    if os.environ.get(DISABLE_ENV, "") not in ("", "0"):
        return False
    return os.environ.get("CI", "").strip().lower() in _FALSE


def holds_design(root: Path) -> bool:
    """Whether ``root`` is a design folder (a manifest, or design files): no resident kit is
    started for a folder that is none (the run in the client reports it)."""

    if (root / MANIFEST_NAME).is_file():
        return True
    return root.is_dir() and bool(design_files(root, (".kit", ".proto")))


def interactive() -> bool:
    """A run from a terminal (one of stdin, stdout, stderr is one): its resident kit stays
    15 minutes; after a script's or a suite's run it stays one minute."""
    return any(s is not None and s.isatty() for s in (sys.stdin, sys.stdout, sys.stderr))
