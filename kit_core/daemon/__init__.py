"""A resident `kit gen` per project, so a one-file edit is not a whole parse and analysis.

    kit gen                      # hands its run to the project's daemon, starting it if needed
    kit gen --no-daemon          # runs in this process (also: KIT_NO_DAEMON=1)

A fresh `kit gen` process pays Python's start, its imports, and a parse and analysis of the
whole design before it knows what an edit changed (~2 s on 2,000 types); loading a pickled
model is slower than parsing it. The daemon (`server.py`) keeps the design parsed and
analysed (`kit_lsp.generation.ResidentDesigns`, the engine kit-lsp's generation worker runs
on: re-parse what changed on disk, re-analyse incrementally, generate from that analysis
only when it is byte for byte what is on disk) and runs the very `kit gen` of this process
(`kit_core.cli.gen_here`), sending back what it prints and its exit status.

- One daemon per project, on a Unix socket in the project's state folder
  (`kit_core.statedir`, mode 0700: only this user reaches it), started detached by the first
  `kit gen` that finds none; a `flock` on `daemon.lock` makes a second one exit at once.
- It serves only a client of its own identity (`protocol.identity`: kit's build - version,
  every file of the package, gofmt - and the environment variables a run reads); any other
  client is refused and the daemon exits, so a kit upgrade never talks to an old daemon.
- It exits after `KIT_DAEMON_IDLE` seconds without a client (default 900), on request
  (`python -m kit_core.daemon stop PROJECT`), or when its socket is no longer its own.
- Whatever goes wrong on the way (no daemon within a few seconds, refused, the daemon dies
  mid-run), the client runs the generation itself: the daemon only ever saves time.
"""

from __future__ import annotations

import os

DISABLE_ENV = "KIT_NO_DAEMON"


def enabled() -> bool:
    return os.environ.get(DISABLE_ENV, "") in ("", "0")
