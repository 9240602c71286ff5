"""The showcase's gRPC listener beside its HTTP one: every RPC kind called from a Go client
over loopback, every row of the HTTP-status -> gRPC-code table and every rule of "Errors /
gRPC" over the wire, health transitions during a real Stop, reflection through grpcurl."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_harness import GO_ENV, TEST_CONFIG, Built, Service, request, start

GRPC_TIMEOUT = "400ms"
# Info-level logs with trace ids, and a unary deadline to drop late responses.
GRPC_CONFIG = (
    TEST_CONFIG.replace("  reflection: true\n", f"  reflection: true\n  handlerTimeout: {GRPC_TIMEOUT}\n")
    .replace("level: error", "level: info")
    .replace("otel:\n  enabled: false\n", "otel:\n  enabled: true\n  exporter: none\n")
)


@pytest.fixture(scope="session")
def showcase_grpc(showcase_built: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    assert f"handlerTimeout: {GRPC_TIMEOUT}" in GRPC_CONFIG and "exporter: none" in GRPC_CONFIG
    svc = start(showcase_built, tmp_path_factory.mktemp("showcase-grpc"), GRPC_CONFIG)
    yield svc
    svc.stop()


def grpcurl() -> str:
    found = shutil.which("grpcurl") or str(Path.home() / "go" / "bin" / "grpcurl")
    assert Path(found).is_file(), "grpcurl is missing: run scripts/test-tools/grpcurl.sh"
    return found


def go_client(built: Built, svc: Service, run: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The showcase's Go client tests (logic/showcase/internal/e2eclient) against ``svc``."""
    extra = {"KIT_E2E_GRPC": svc.grpc, "KIT_E2E_GRPC_TIMEOUT": GRPC_TIMEOUT, **env}
    return subprocess.run(
        [str(built.root / "bin" / "e2eclient"), "-test.run", run, "-test.v", "-test.count=1"],
        cwd=built.root,
        env={**GO_ENV, **extra},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def assert_passed(proc: subprocess.CompletedProcess[str], *names: str) -> None:
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    for name in names:  # passed, not skipped
        assert re.search(rf"^--- PASS: {name} ", out, re.M), f"{name} did not pass:\n{out}"


def test_every_rpc_kind_from_a_go_client(showcase_built: Built, showcase_grpc: Service) -> None:
    proc = go_client(showcase_built, showcase_grpc, "TestUnary|TestServerStreaming|TestClientStreaming|TestBidi")
    assert_passed(proc, "TestUnary", "TestServerStreaming", "TestClientStreaming", "TestBidiStreaming")


def test_every_row_of_the_status_table_over_the_wire(showcase_built: Built, showcase_grpc: Service) -> None:
    mark = showcase_grpc.mark()
    assert_passed(go_client(showcase_built, showcase_grpc, "TestEveryRowOfTheStatusTable"), "TestEveryRow.*")
    logged = [line for line in showcase_grpc.log_since(mark) if line.get("msg") == "unhandled service error"]
    assert logged == [], "typed errors are not logged"


def test_error_rules_and_their_logs(showcase_built: Built, showcase_grpc: Service) -> None:
    mark = showcase_grpc.mark()
    assert_passed(go_client(showcase_built, showcase_grpc, "TestErrorRules"), "TestErrorRules")
    unknown = showcase_grpc.wait_log(mark, lambda line: line.get("msg") == "unhandled service error")
    assert unknown["error"] == "database password is hunter2" and re.fullmatch(r"[0-9a-f]{32}", unknown["trace_id"])
    panic = showcase_grpc.wait_log(mark, lambda line: line.get("msg") == "panic recovered")
    assert panic["panic"] == "inventory exploded" and panic["trace_id"] and "fail.go" in panic["stack"]
    access = showcase_grpc.wait_log(
        mark, lambda line: line.get("msg") == "grpc request" and line.get("code") == "OutOfRange"
    )
    assert access["method"] == "/showcase.inventory.v1.Inventory/Fail" and access["trace_id"]


def test_late_response_is_dropped(showcase_built: Built, showcase_grpc: Service) -> None:
    assert_passed(go_client(showcase_built, showcase_grpc, "TestLateResponseIsDropped"), "TestLateResponseIsDropped")


def test_both_listeners_in_one_process(showcase_built: Built, showcase_grpc: Service) -> None:
    assert showcase_grpc.base.startswith("http://") and showcase_grpc.grpc
    assert request(showcase_grpc.base, "GET", "/healthz").status == 200
    assert_passed(go_client(showcase_built, showcase_grpc, "TestHealthServing"), "TestHealthServing")
    health = [line for line in showcase_grpc.log_since(0) if "grpc.health" in str(line.get("method", ""))]
    assert health == [], "health calls are not access-logged"


def test_grpcurl_lists_and_calls_through_reflection(showcase_grpc: Service) -> None:
    listed = subprocess.run(
        [grpcurl(), "-plaintext", showcase_grpc.grpc, "list"], capture_output=True, text=True, timeout=60, check=True
    ).stdout.split()
    assert {"showcase.inventory.v1.Inventory", "grpc.health.v1.Health"} <= set(listed)
    described = subprocess.run(
        [grpcurl(), "-plaintext", showcase_grpc.grpc, "describe", "showcase.inventory.v1.Inventory"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert "rpc Chat ( stream .showcase.inventory.v1.ChatLine ) returns ( stream" in described
    called = subprocess.run(
        [
            grpcurl(),
            "-plaintext",
            "-d",
            '{"sku": "sku-1"}',
            showcase_grpc.grpc,
            "showcase.inventory.v1.Inventory/GetItem",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    item = json.loads(called)
    assert item["sku"] == "sku-1" and item["location"] == {"aisle": "A", "shelf": 3}


def test_reflection_off_by_config(showcase_built: Built, tmp_path: Path) -> None:
    svc = start(showcase_built, tmp_path, TEST_CONFIG.replace("reflection: true", "reflection: false"))
    try:
        proc = subprocess.run(
            [grpcurl(), "-plaintext", svc.grpc, "list"], capture_output=True, text=True, timeout=60, check=False
        )
        assert proc.returncode != 0 and "does not support the reflection API" in proc.stderr
    finally:
        svc.stop()


def _stop_under_client(built: Built, tmp_path: Path, run: str) -> tuple[str, int, float]:
    """Start the showcase, run the e2eclient test ``run`` until it prints READY, send
    SIGTERM (main's shutdown: stopGRPC within its 10 s budget) and wait for both ends:
    the client's output, the service's exit status and its seconds from SIGTERM to exit."""
    svc = start(built, tmp_path, TEST_CONFIG)
    client = subprocess.Popen(
        [str(built.root / "bin" / "e2eclient"), "-test.run", f"^{run}$", "-test.v"],
        cwd=built.root,
        env={**GO_ENV, "KIT_E2E_GRPC": svc.grpc, "KIT_E2E_STOP": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert client.stdout is not None
        lines = []
        for line in client.stdout:
            lines.append(line)
            if line.strip() == "READY":
                break
        assert lines and lines[-1].strip() == "READY", "".join(lines)
        sent = time.monotonic()
        svc.proc.send_signal(signal.SIGTERM)
        code = svc.proc.wait(timeout=30)
        took = time.monotonic() - sent
        out, _ = client.communicate(timeout=60)
        text = "".join(lines) + out
        assert client.returncode == 0 and f"--- PASS: {run}" in text, text
        return text, code, took
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
        svc.stop()


def test_health_turns_not_serving_during_a_real_stop(showcase_built: Built, tmp_path: Path) -> None:
    text, code, _ = _stop_under_client(showcase_built, tmp_path, "TestHealthDuringStop")
    assert "NOT_SERVING" in text and code == 0


def test_a_stop_with_health_watches_held_open_is_fast_and_clean(showcase_built: Built, tmp_path: Path) -> None:
    """Issue 20 item 1: grpc-go's client-side health checking (and Envoy) hold a Watch open
    for as long as the connection lives; the stopping server ends it after NOT_SERVING,
    so a rolling deploy does not wait out the stop budget and main exits 0."""
    text, code, took = _stop_under_client(showcase_built, tmp_path, "TestHealthWatchEndsWithTheStop")
    assert "NOT_SERVING" in text
    assert code == 0
    assert took < 1.0, f"the service took {took:.2f}s to stop with health watches open"


def test_generated_grpc_layer_is_formatted_and_vetted(showcase_built: Built) -> None:
    root = showcase_built.root
    assert showcase_built.gofmt == "" and showcase_built.vet == ""
    for path in (
        "internal/pb/inventory/v1/inventory.pb.go",
        "internal/pb/inventory/v1/inventory_grpc.pb.go",
        "internal/grpc/inventory/server.go",
        "internal/grpc/inventory/get_item.go",
        "internal/wiring/grpc.go",
    ):
        assert (root / path).is_file(), path
    main = (root / "main.go").read_text()
    assert "wiring.Register(ctx, srv, svcCtx)" in main and "wiring.RegisterGRPC(ctx, grpcSrv, svcCtx)" in main
    config = (root / "config" / "config.yaml").read_text()
    assert 'grpc:\n  addr: ":9000"\n  handlerTimeout: 0s\n  reflection: true\n' in config
    assert "server:" in config and "docs:" in config
    assert os.access(root / "bin" / "e2eclient", os.X_OK)
