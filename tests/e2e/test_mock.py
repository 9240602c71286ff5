"""`kit mock` (issue 22 item 3): the examples' mocks build, every answer passes its type's
generated `Validate()`, requests are validated as by the real service, and schemathesis,
with the real service's document, checks, seed and example count, finds nothing."""

from __future__ import annotations

import fcntl
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_harness import GO_ENV, REPO, Built, Service, make_project, request, shared_tmp, start
from test_schemathesis import SERVER_ERRORS_BY_DESIGN, run_schemathesis


def build_mock(example: str, tmp: Path) -> Built:
    """`kit mock --build-only` on a copy of the example (once per run, under a file lock)."""
    tmp.mkdir(parents=True, exist_ok=True)
    project, out = tmp / f"mock-{example}-project", tmp / f"mock-{example}"
    marker = tmp / f"mock-{example}.json"
    with open(tmp / f"mock-{example}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not marker.exists():
            make_project(example, project)
            env = {**GO_ENV, "PYTHONPATH": str(REPO), "KIT_NO_DAEMON": "1"}
            cmd = [sys.executable, "-m", "kit_core.cli", "mock", "-f", str(project / "design"), "-c", str(project),
                   "--out", str(out), "--build-only"]  # fmt: skip
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
            assert proc.returncode == 0, proc.stdout + proc.stderr
            assert proc.stderr == "", proc.stderr  # no mock/no-example warning for the examples
            marker.write_text(json.dumps({"binary": proc.stdout.strip()}))
        binary = Path(json.loads(marker.read_text())["binary"])
    return Built(out, binary, "", "")


@pytest.fixture(scope="module", params=["showcase", "todo"])
def mock(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Built, Service]]:
    example: str = request.param
    built = build_mock(example, shared_tmp(tmp_path_factory))
    svc = start(built, tmp_path_factory.mktemp(f"mock-{example}-run"))
    yield example, built, svc
    svc.stop()


def test_every_answer_passes_validate(mock: tuple[str, Built, Service]) -> None:
    """The generated Go test of the answers package: each answer's Validate() returns nil."""
    _, built, _ = mock
    proc = subprocess.run(["go", "test", "-count=1", "-v", "./internal/mockanswers"], cwd=built.root, env=GO_ENV,
                          capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "--- PASS: TestAnswersValidate" in proc.stdout


def test_mock_is_gofmt_and_vet_clean(mock: tuple[str, Built, Service]) -> None:
    _, built, _ = mock
    fmt = subprocess.run(["gofmt", "-l", "."], cwd=built.root, capture_output=True, text=True, check=True)
    assert fmt.stdout == ""
    vet = subprocess.run(["go", "vet", "./..."], cwd=built.root, env=GO_ENV, capture_output=True, text=True,
                         timeout=600, check=False)  # fmt: skip
    assert vet.returncode == 0, vet.stdout + vet.stderr


def test_schemathesis_finds_nothing(
    mock: tuple[str, Built, Service], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real service's run (document, checks, seed, example count), stricter by one: no
    operation is excused a 5xx (the mock's logic fails nowhere on purpose)."""
    example, _, svc = mock
    monkeypatch.setitem(SERVER_ERRORS_BY_DESIGN, example, [])
    proc = run_schemathesis(example, svc, tmp_path)
    report = proc.stdout + proc.stderr
    assert "operations" in report.lower(), report
    assert proc.returncode == 0, f"schemathesis found disagreements in the {example} mock:\n{report}"


def test_todo_answers_and_validates(mock: tuple[str, Built, Service]) -> None:
    example, _, svc = mock
    if example != "todo":
        pytest.skip("todo's routes")
    created = request(svc.base, "POST", "/api/todos", {"title": "x"})
    assert created.status == 201, created.text
    assert created.json == {
        "id": "example", "title": "example", "status": "open", "tags": ["example"],
        "createdAt": "2024-01-02T03:04:05Z",
    }  # fmt: skip
    listed = request(svc.base, "GET", "/api/todos")
    assert listed.status == 200 and listed.json["total"] == 1 and len(listed.json["items"]) == 1
    # validated exactly as the real service: a missing title, an out-of-range limit
    bad = request(svc.base, "POST", "/api/todos", {"tags": []})
    assert bad.status == 400 and bad.json == {"message": "title: required"}, bad.text
    assert request(svc.base, "GET", "/api/todos?limit=0").status == 400
    deleted = request(svc.base, "DELETE", "/api/todos/abc")
    assert deleted.status == 204 and deleted.body == b""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_kit_mock_runs_the_service_at_addr(tmp_path: Path) -> None:
    """`kit mock --addr` (no --build-only): builds, then becomes the service, listening there
    with the project's own config (config/config.yaml of todo)."""
    project = make_project("todo", tmp_path / "project")
    addr = f"127.0.0.1:{free_port()}"
    env = {**GO_ENV, "PYTHONPATH": str(REPO), "KIT_NO_DAEMON": "1"}
    log = tmp_path / "mock.log"
    with open(log, "w") as out:
        cmd = [sys.executable, "-m", "kit_core.cli", "mock", "--out", str(tmp_path / "mock"), "--addr", addr]
        proc = subprocess.Popen(cmd, cwd=project, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 300
        while f"listening on http://{addr}" not in log.read_text():
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        got = request(f"http://{addr}", "GET", "/api/todos/x")
        assert got.status == 200 and got.json["id"] == "example", got.text
    finally:
        proc.terminate()
        proc.wait(timeout=10)
