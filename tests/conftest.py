"""Settings every test shares."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _kit_cache_in_temp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """kit's cache (its runtime copies, `kit_core.runtime_dist`; its per-project run lock,
    journal and generation cache, `kit_core.statedir`) goes to the run's temp folder,
    not the user's; subprocesses (`kit gen`, editors) inherit it."""
    before = os.environ.get("KIT_CACHE_DIR")
    os.environ["KIT_CACHE_DIR"] = str(tmp_path_factory.getbasetemp() / "kit-cache")
    yield
    if before is None:
        os.environ.pop("KIT_CACHE_DIR", None)
    else:
        os.environ["KIT_CACHE_DIR"] = before


@pytest.fixture(scope="session", autouse=True)
def _no_kit_daemon() -> Iterator[None]:
    """`kit gen` run by a test stays in its own process: no test leaves a resident kit
    (`kit_core.daemon`) behind. The daemon's own tests start and stop theirs explicitly."""
    before = os.environ.get("KIT_NO_DAEMON")
    os.environ["KIT_NO_DAEMON"] = "1"
    yield
    if before is None:
        os.environ.pop("KIT_NO_DAEMON", None)
    else:
        os.environ["KIT_NO_DAEMON"] = before
