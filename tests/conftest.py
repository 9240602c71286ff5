"""Every test run keeps kit's per-project state (run lock, journal, generation cache) in a
folder of its own, not in the user's `~/.cache/kit`: set before any test starts a `kit`
process, so those inherit it too. (`KIT_CACHE_DIR`, not `XDG_CACHE_HOME`: the Go build
cache and other tools' caches stay where they are.)"""

from __future__ import annotations

import os
import shutil
import tempfile

_STATE = tempfile.mkdtemp(prefix="kit-test-state-")
os.environ["KIT_CACHE_DIR"] = _STATE


def pytest_unconfigure(config: object) -> None:
    shutil.rmtree(_STATE, ignore_errors=True)
