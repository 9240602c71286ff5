"""Session fixtures: one generated and built project per example, one running service each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_harness import Built, Service, build_once, go_available, start

pytestmark = pytest.mark.skipif(not go_available(), reason="the Go toolchain is needed")


def _shared_tmp(factory: pytest.TempPathFactory) -> Path:
    base = factory.getbasetemp()
    # Under xdist every worker has its own base temp; their parent is shared by the run.
    return base.parent if base.name.startswith("popen-gw") else base


@pytest.fixture(scope="session")
def todo_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    if not go_available():
        pytest.skip("the Go toolchain is needed")
    return build_once("todo", _shared_tmp(tmp_path_factory))


@pytest.fixture(scope="session")
def showcase_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    if not go_available():
        pytest.skip("the Go toolchain is needed")
    return build_once("showcase", _shared_tmp(tmp_path_factory))


@pytest.fixture(scope="session")
def todo(todo_built: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    svc = start(todo_built, tmp_path_factory.mktemp("todo-run"))
    yield svc
    svc.stop()


@pytest.fixture(scope="session")
def showcase(showcase_built: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    svc = start(showcase_built, tmp_path_factory.mktemp("showcase-run"))
    yield svc
    svc.stop()
