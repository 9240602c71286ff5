"""The showcase's event path over HTTP: POST /orders publishes OrderPlaced from the logic,
the service's billing group consumes it, GET /orders/billed shows what billing recorded.

In-process by default, and on a real nats-server (JetStream) and a real Kafka by the
showcase's own `events:` config block (tests/brokers.py starts the brokers, or scripts/test
names them in KIT_NATS_URL and KIT_KAFKA_BROKERS).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from e2e_harness import TEST_CONFIG, Built, Service, request, start
from test_defaults import LINE

BROKERS_PY = Path(__file__).resolve().parents[1] / "brokers.py"


def _brokers() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kit_test_brokers", BROKERS_PY)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through it
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def nats_url() -> Iterator[str]:
    if url := os.environ.get("KIT_NATS_URL"):
        yield url
        return
    broker = _brokers().start_nats()
    yield broker.address
    broker.stop()


@pytest.fixture(scope="module")
def kafka_brokers() -> Iterator[str]:
    if brokers := os.environ.get("KIT_KAFKA_BROKERS"):
        yield brokers
        return
    broker = _brokers().start_kafka()
    yield broker.address
    broker.stop()


def place_and_wait_billed(svc: Service, timeout: float = 60) -> dict[str, Any]:
    """Place an order with a fresh id and wait until billing lists it."""
    order_id = str(uuid.uuid4())
    r = request(svc.base, "POST", "/v1/shop/orders", {"id": order_id, "lines": [LINE]})
    assert r.status == 201, r.body
    deadline = time.monotonic() + timeout
    while True:
        billed = request(svc.base, "GET", "/v1/shop/orders/billed")
        assert billed.status == 200, billed.body
        if order_id in billed.json["ids"]:
            return {"id": order_id, "billed": billed.json["ids"]}
        assert time.monotonic() < deadline, f"billing never recorded {order_id}: {billed.json}"
        time.sleep(0.1)


def with_events(block: str) -> str:
    """The test config with info logs, tracing on (no exporter) and an events block."""
    traced = TEST_CONFIG.replace("level: error", "level: info")
    traced = traced.replace("otel:\n  enabled: false\n", "otel:\n  enabled: true\n  exporter: none\n")
    assert "exporter: none" in traced
    return traced + "events:\n" + block


def test_in_process_by_default(showcase: Service) -> None:
    got = place_and_wait_billed(showcase, timeout=10)
    assert got["billed"].count(got["id"]) == 1


def test_on_nats_jetstream(showcase_built: Built, nats_url: str, tmp_path: Path) -> None:
    svc = start(showcase_built, tmp_path, with_events(f"  transport: nats\n  nats:\n    url: {nats_url}\n"))
    try:
        mark = svc.mark()
        got = place_and_wait_billed(svc)
        assert got["billed"].count(got["id"]) == 1
        line = svc.wait_log(mark, lambda line: line.get("msg") == "event" and line.get("group") == "billing")
        assert line["event"] == "shop.orders.placed" and line["disposition"] == "ack"
        assert "events over nats" in svc.log.read_text()  # the plan, printed before start
        # One trace from the HTTP request that published to the group that consumed.
        http = svc.wait_log(mark, lambda line: line.get("msg") == "http request" and line.get("method") == "POST")
        assert http["trace_id"] and line["trace_id"] == http["trace_id"], (http, line)
    finally:
        svc.stop()


def test_on_kafka(showcase_built: Built, kafka_brokers: str, tmp_path: Path) -> None:
    brokers = "".join(f"\n      - {b}" for b in kafka_brokers.split(","))
    svc = start(showcase_built, tmp_path, with_events(f"  transport: kafka\n  kafka:\n    brokers:{brokers}\n"))
    try:
        mark = svc.mark()
        got = place_and_wait_billed(svc)
        assert got["billed"].count(got["id"]) == 1
        line = svc.wait_log(mark, lambda line: line.get("msg") == "event" and line.get("group") == "billing")
        assert line["event"] == "shop.orders.placed" and line["key"] == got["id"]
        assert "events over kafka" in svc.log.read_text()
    finally:
        svc.stop()
