"""End to end (issue 20 items 3 and 10): a test design generated, vetted, built and run on
loopback. A default never cuts what the design declares (an upload within its files'
`@maxSize` under the default body cap, a `@timeout` longer than the write timeout, a
`@passthrough` stream); and spec rows that had no test: the multipart in-memory budget,
`docs.enabled: false`, `output.config`, no `types.go` for a package without types,
`validate.go` only where a type validates, the map value of a nil-holding type, validators
on an error body as documentation only."""

from __future__ import annotations

import http.client
import json
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from e2e_harness import (
    TEST_CONFIG,
    Built,
    Service,
    build_once,
    connect,
    go_available,
    multipart,
    request,
    shared_tmp,
    start,
)

pytestmark = pytest.mark.skipif(not go_available(), reason="the Go toolchain is needed")

MIB = 1 << 20
DEFAULT_CAP = MIB  # the runtime's default body cap (server.DefaultMaxBodySize)
# A write timeout shorter than the design's long answers: /slow (1.5 s within its
# @timeout(3s)) and the /events stream (10 events 150 ms apart).
SHORT_WRITE = TEST_CONFIG.replace("  strictJSON: true\n", "  strictJSON: true\n  writeTimeout: 1s\n")


@pytest.fixture(scope="module")
def limits_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return build_once("limits", shared_tmp(tmp_path_factory))


@pytest.fixture(scope="module")
def limits(limits_built: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    assert "writeTimeout: 1s" in SHORT_WRITE
    svc = start(limits_built, tmp_path_factory.mktemp("limits-run"), SHORT_WRITE)
    yield svc
    svc.stop()


def _upload(svc: Service, path: str, size: int) -> tuple[int, object]:
    body, ctype = multipart({}, [("file", "f.bin", "application/octet-stream", b"x" * size)])
    r = request(svc.base, "POST", path, raw=body, headers={"Content-Type": ctype}, timeout=60)
    return r.status, (r.json if r.body else None)


def _head_only(svc: Service, path: str, length: int) -> int:
    """The status answered to a request head announcing ``length`` body bytes, none sent:
    a cap is checked on Content-Length before the body is read."""
    with connect(svc.base) as s:
        s.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
            f"Content-Length: {length}\r\n\r\n".encode()
        )
        head = s.recv(4096).decode()
    return int(head.split()[1])


def test_generated_code_is_gofmt_clean_and_vets(limits_built: Built) -> None:
    assert limits_built.gofmt == "" and limits_built.vet == ""


# ---------------------------------------------------------------- item 3: defaults never cut the design


def test_an_upload_the_design_declares_is_not_refused_by_the_default_cap(limits: Service) -> None:
    """`file @form @maxSize(8MB)` without `@maxBodySize`: the route's cap is the default plus
    the declared 8 MiB, so 2 MiB (and 8 MiB) uploads are taken; the 1 MiB default alone
    refused them with 413."""
    assert _upload(limits, "/upload", 2 * MIB) == (201, {"size": 2 * MIB, "inMemory": True})
    assert _upload(limits, "/upload", 8 * MIB) == (201, {"size": 8 * MIB, "inMemory": True})
    assert _upload(limits, "/upload", 8 * MIB + 1)[0] == 400  # the file's own @maxSize
    assert _head_only(limits, "/upload", DEFAULT_CAP + 8 * MIB + 1) == 413


def test_a_method_without_files_keeps_the_default_cap(limits: Service) -> None:
    assert _head_only(limits, "/bag", DEFAULT_CAP + 1) == 413


def test_a_timeout_longer_than_the_write_timeout_is_answered(limits: Service) -> None:
    started = time.monotonic()
    r = request(limits.base, "GET", "/slow", timeout=10)
    assert (r.status, r.json) == (200, {"slept": "1.5s"})
    assert time.monotonic() - started >= 1.5


def test_a_passthrough_stream_outlives_the_write_timeout(limits: Service) -> None:
    """`@passthrough` (here server-sent events for 1.5 s) is not cut by the 1 s write timeout."""
    url = urllib.parse.urlsplit(limits.base)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=10)
    try:
        conn.request("GET", "/events")
        resp = conn.getresponse()
        assert resp.status == 200 and resp.getheader("Content-Type") == "text/event-stream"
        events = [line for line in resp.read().decode().splitlines() if line.startswith("data: ")]
    finally:
        conn.close()
    assert events == [f"data: {i}" for i in range(10)]


def test_the_routes_carry_the_rule(limits_built: Built) -> None:
    routes = (limits_built.root / "internal/routes/limits/routes.go").read_text()
    assert "server.Limits{DeclaredFileSize: 8 << 20}" in routes
    assert "server.Limits{MaxBodySize: 40 << 20}" in routes  # @maxBodySize wins over the rule
    assert "server.Limits{Streaming: true}" in routes


# ---------------------------------------------------------------- item 10: spec rows without a test


def test_max_body_size_keeps_files_up_to_the_cap_in_memory(limits: Service) -> None:
    """Spec "Limits": `@maxBodySize(40MB)` lifts the multipart in-memory budget above its
    32 MiB floor, so a 34 MiB file stays in memory; the same file on a route without it is
    spilled to disk (the floor), which shows the test sees where the parser keeps it."""
    assert _upload(limits, "/big", 34 * MIB) == (201, {"size": 34 * MIB, "inMemory": True})
    assert _upload(limits, "/spill", 34 * MIB) == (201, {"size": 34 * MIB, "inMemory": False})


def test_spilled_upload_files_are_removed_after_the_request(limits_built: Built, tmp_path: Path) -> None:
    """A file the multipart parser spills to disk is removed once the handler returns (the
    handler's request is a copy made by the middlewares, whose files net/http does not remove)."""
    spill = tmp_path / "tmp"
    spill.mkdir()
    svc = start(limits_built, tmp_path / "run", SHORT_WRITE, env={"TMPDIR": str(spill)})
    try:
        assert _upload(svc, "/spill", 34 * MIB) == (201, {"size": 34 * MIB, "inMemory": False})
    finally:
        svc.stop()
    assert sorted(p.name for p in spill.iterdir()) == []


def test_docs_disabled_removes_both_routes(limits_built: Built, tmp_path: Path) -> None:
    on = start(limits_built, tmp_path / "on", TEST_CONFIG)
    try:
        assert request(on.base, "GET", "/docs").status == 200
        assert request(on.base, "GET", "/openapi.yaml").status == 200
    finally:
        on.stop()
    disabled = TEST_CONFIG.replace("  enabled: true\n  ui:", "  enabled: false\n  ui:")
    assert disabled != TEST_CONFIG
    off = start(limits_built, tmp_path / "off", disabled)
    try:
        for path in ("/docs", "/openapi.yaml"):
            r = request(off.base, "GET", path)
            assert (r.status, r.json) == (404, {"message": "not found"}), path
    finally:
        off.stop()


def test_output_config_names_the_directory_of_config_yaml(limits_built: Built, tmp_path: Path) -> None:
    """`output.config: ./settings`: config.yaml is written there, and the entry point reads
    `settings/config.yaml` by default (run here from a directory holding only that file)."""
    root = limits_built.root
    assert (root / "settings/config.yaml").is_file() and not (root / "config").exists()
    (tmp_path / "settings").mkdir()
    config = TEST_CONFIG.replace("serviceName: e2e", "serviceName: from-settings")
    (tmp_path / "settings/config.yaml").write_text(config)
    log = tmp_path / "out.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([str(limits_built.binary)], cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while "listening on" not in log.read_text() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "from-settings listening on http://127.0.0.1:" in log.read_text(), log.read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_types_and_validate_files_only_where_they_have_content(limits_built: Built, limits: Service) -> None:
    """No `types.go` for a package that declares no type (`ops`); `validate.go` only where a
    type has something to validate (`api`, not `plain`); the packages still serve."""
    types = limits_built.root / "internal/types"
    assert not (types / "ops").exists()
    assert (types / "plain/types.go").is_file() and not (types / "plain/validate.go").exists()
    assert (types / "api/types.go").is_file() and (types / "api/validate.go").is_file()
    assert request(limits.base, "GET", "/ping").status == 204
    note = {"text": "hi", "tags": ["a"]}
    r = request(limits.base, "POST", "/notes", note)
    assert (r.status, r.json) == (201, note)


def test_an_optional_map_value_that_holds_nil_is_not_a_pointer(limits_built: Built, limits: Service) -> None:
    """Spec Resources rule 8: `map<string, Blob?>` over a bytes scalar is `map[string]Blob`
    (the logic, which stores a nil `Blob`, only compiles so), and null travels both ways."""
    types_go = (limits_built.root / "internal/types/api/types.go").read_text()
    assert 'Items map[string]Blob `json:"items"`' in types_go
    r = request(limits.base, "POST", "/bag", {"items": {"a": "aGk=", "b": None}})
    assert r.status == 201
    assert r.json == {"items": {"a": "aGk=", "b": None, "added": "YWRkZWQ=", "none": None}}


def test_validators_on_an_error_body_are_documentation_only(limits_built: Built, limits: Service) -> None:
    """Decorator rule 7: `@maxLength(3)` on an error body field is an OpenAPI constraint and
    no runtime check: the error is answered with a longer value as the logic set it."""
    doc = yaml.safe_load((limits_built.root / "docs/openapi.yaml").read_text())
    assert doc["components"]["schemas"]["Taken"]["properties"]["name"] == {"type": "string", "maxLength": 3}
    r = request(limits.base, "POST", "/claim", {"name": "much too long"})
    assert (r.status, json.loads(r.body)) == (409, {"name": "much too long"})
