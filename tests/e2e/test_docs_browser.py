"""The /docs page of a generated service in a real browser with the network cut off: with
`docs.assets: embedded` every UI renders the operations from the binary alone; with `cdn`
it cannot (which also shows the block works). Screenshots land in tests/artifacts/docs/."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from browser import render
from e2e_harness import REPO, RUNTIME, TEST_CONFIG, Built, Service, request, run, start

ARTIFACTS = REPO / "tests" / "artifacts" / "docs"
UIS = ("redoc", "swagger", "scalar")
CDN_PREFIX = "https://cdn.jsdelivr.net/npm/"


def docs_config(ui: str, assets: str) -> str:
    old = "  ui: redoc\n"
    assert old in TEST_CONFIG
    return TEST_CONFIG.replace(old, f"  ui: {ui}\n  assets: {assets}\n")


@pytest.fixture(params=[(ui, assets) for assets in ("embedded", "cdn") for ui in UIS], ids=lambda p: f"{p[0]}-{p[1]}")
def docs_service(
    request: pytest.FixtureRequest, todo_built: Built, tmp_path: Path
) -> Iterator[tuple[str, str, Service]]:
    ui, assets = request.param
    svc = start(todo_built, tmp_path / "run", docs_config(ui, assets))
    yield ui, assets, svc
    svc.stop()


def operation_labels(spec: str) -> list[str]:
    """What every UI shows of the document's operations: each path and each summary (an
    operation without one is listed under its path, or its operationId in Redoc)."""
    paths = yaml.safe_load(spec)["paths"]
    summaries = [
        op["summary"] for ops in paths.values() for op in ops.values() if isinstance(op, dict) and "summary" in op
    ]
    assert summaries, "the design should give at least one operation a summary"
    return sorted(paths) + summaries


def shown(label: str, text: str) -> bool:
    """label is in the page's text; compared without white space, since a UI may break
    "/todos/{id}" over two elements."""
    return "".join(label.split()) in "".join(text.split())


def test_docs_page_in_an_offline_browser(docs_service: tuple[str, str, Service], tmp_path: Path) -> None:
    ui, assets, svc = docs_service
    served = request(svc.base, "GET", "/docs").text
    assert "<title>Todo API</title>" in served
    labels = operation_labels(request(svc.base, "GET", "/openapi.yaml").text)
    assert not any(s in served for s in labels), "the page itself must not hold the operations"
    shot = ARTIFACTS / f"{ui}-{assets}.png"
    # Offline the CDN page has nothing to wait for once loaded: its scripts failed.
    page = render(
        svc.base + "/docs", tmp_path / "chromium", shot, [*labels, "Todo API"], 90 if assets == "embedded" else 3
    )
    print(f"screenshot: {shot}")
    outside = [u for u in page.requests if not u.startswith(svc.base + "/")]
    if assets == "embedded":
        missing = [s for s in labels if not shown(s, page.text)]
        assert page.shown and not missing, f"{ui}: operations not rendered offline: {missing}\n{page.text[:3000]}"
        assert outside == [], f"{ui}: the page asked for other hosts: {outside}"
        assert any("/docs/assets/" in u for u in page.requests), page.requests
        # The only failures allowed are the ones the page's CSP stopped before the network
        # (Redoc's logo): nothing of the service's failed to load.
        assert not [u for u in page.failed if u.startswith(svc.base)], page.failed
    else:
        # Blocked: the browser asked the CDN for the pinned files, got nothing, rendered nothing.
        assert outside and all(u.startswith(CDN_PREFIX) and "@" in u for u in outside), outside
        assert set(outside) <= set(page.failed), (outside, page.failed)
        assert not page.shown and not any(shown(s, page.text) for s in labels), f"{ui}: rendered offline from a CDN"


def test_a_binary_built_without_the_copies_is_smaller_and_uses_the_cdn(todo_built: Built, tmp_path: Path) -> None:
    """`go build -tags kit_nodocsassets` leaves the copies out (the measured cost of the
    embedded assets), and the page then loads them from the CDN whatever docs.assets says."""
    lean = todo_built.root / "bin" / "todo-nodocsassets"
    run(["go", "build", "-tags", "kit_nodocsassets", "-o", str(lean), "."], todo_built.root)
    full, small = todo_built.binary.stat().st_size, lean.stat().st_size
    compressed = sum(f.stat().st_size for f in (RUNTIME / "server" / "docsassets" / "files").rglob("*.gz"))
    print(
        f"service binary: {full} bytes with the docs assets, {small} without: {full - small} bytes ({compressed} gzip)"
    )
    assert compressed <= full - small < compressed + 256 * 1024
    svc = start(
        dataclasses.replace(todo_built, binary=lean),
        tmp_path / "run",
        docs_config("swagger", "embedded").replace("level: error", "level: warn"),
    )
    try:
        page = request(svc.base, "GET", "/docs").text
        assert CDN_PREFIX + "swagger-ui-dist@" in page and "/docs/assets/" not in page
        assert "kit_nodocsassets" in svc.log.read_text()
    finally:
        svc.stop()
