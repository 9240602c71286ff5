"""Session fixtures: one generated and built project per example, one running service each."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from e2e_harness import TEST_CONFIG, Built, Service, build_once, go_available, shared_tmp, start

pytestmark = pytest.mark.skipif(not go_available(), reason="the Go toolchain is needed")


@pytest.fixture(scope="session")
def todo_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    if not go_available():
        pytest.skip("the Go toolchain is needed")
    return build_once("todo", shared_tmp(tmp_path_factory))


@pytest.fixture(scope="session")
def showcase_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    if not go_available():
        pytest.skip("the Go toolchain is needed")
    return build_once("showcase", shared_tmp(tmp_path_factory))


@pytest.fixture(scope="session")
def notes_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    if not go_available():
        pytest.skip("the Go toolchain is needed")
    return build_once("notes", shared_tmp(tmp_path_factory))


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


# Info-level logs (access lines), tracing on without an exporter (trace ids in log lines),
# and a global handler deadline for routes without @timeout.
LOGGED_CONFIG = (
    TEST_CONFIG.replace("  strictJSON: true\n", "  strictJSON: true\n  handlerTimeout: 600ms\n")
    .replace("level: error", "level: info")
    .replace("otel:\n  enabled: false\n", "otel:\n  enabled: true\n  exporter: none\n")
)


@pytest.fixture(scope="session")
def showcase_logged(showcase_built: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """The showcase with LOGGED_CONFIG: tests read its log lines (Service.wait_log)."""
    assert "handlerTimeout: 600ms" in LOGGED_CONFIG and "exporter: none" in LOGGED_CONFIG
    svc = start(showcase_built, tmp_path_factory.mktemp("showcase-logged"), LOGGED_CONFIG)
    yield svc
    svc.stop()


@pytest.fixture(scope="session")
def showcase_hooked(showcase_built: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """The showcase with main.go's test edit switched on (logic/showcase/e2e_hooks.go): its own
    validation-failure hook (422) and the deprecated blanket Timeout middleware (300ms)."""
    env = {"KIT_E2E_HOOKS": "1", "KIT_E2E_BLANKET_TIMEOUT": "300ms"}
    svc = start(showcase_built, tmp_path_factory.mktemp("showcase-hooked"), env=env)
    yield svc
    svc.stop()


# Tight limits (issue 8 item 13): a short head timeout, a short write timeout, info logs; and
# lenient JSON (server.strictJSON: false).
LIMITS_CONFIG = TEST_CONFIG.replace(
    "  strictJSON: true\n", "  strictJSON: false\n  readHeaderTimeout: 300ms\n  writeTimeout: 500ms\n"
).replace("level: error", "level: info")


@pytest.fixture(scope="session")
def showcase_limits(showcase_built: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """The showcase in a process of its own with LIMITS_CONFIG (its memory is measured)."""
    assert "writeTimeout: 500ms" in LIMITS_CONFIG and "strictJSON: false" in LIMITS_CONFIG
    svc = start(showcase_built, tmp_path_factory.mktemp("showcase-limits"), LIMITS_CONFIG)
    yield svc
    svc.stop()
