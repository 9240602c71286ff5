"""A freshly generated project, its stubs untouched, says which methods have no logic yet:
every HTTP stub answers 501 `{"message":"<Method> is not implemented yet"}` (a framework
error: JSON content type, nosniff), every gRPC stub `Unimplemented` with the same words.
Replacing a stub's body is all it takes to implement it (no import to drop). And a second
copy started with the same config says which listener setting to change."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_harness import TEST_CONFIG, Built, Service, generate, go_available, make_project, request, run, start

pytestmark = pytest.mark.skipif(not go_available(), reason="the Go toolchain builds the service")

HELLO = """\
package hello

type Greeting {
	message string
}

type GreetReq {
	name string @path
}

service Greeter {
	get Greet /greetings/{name} {
		request  GreetReq
		response Greeting
	}

	post Touch /touch {}

	@passthrough
	get Raw /raw {}
}
"""


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The notes example (protos) plus an HTTP design, generated, built with no logic."""
    root = make_project("notes", tmp_path_factory.mktemp("fresh") / "fresh")
    (root / "design/hello.kit").write_text(HELLO)
    generate(root)
    binary = root / "bin" / "fresh"
    run(["go", "build", "-o", str(binary), "."], root)
    return Built(root, binary, "", "")


@pytest.fixture(scope="module")
def service(fresh: Built, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    svc = start(fresh, tmp_path_factory.mktemp("fresh-run"))
    yield svc
    svc.stop()


@pytest.mark.parametrize(
    ("method", "path", "name"),
    [("GET", "/greetings/ada", "Greet"), ("POST", "/touch", "Touch"), ("GET", "/raw", "Raw")],
)
def test_a_fresh_http_stub_answers_501(service: Service, method: str, path: str, name: str) -> None:
    r = request(service.base, method, path)
    assert r.status == 501, r.body
    assert r.body == f'{{"message":"{name} is not implemented yet"}}\n'.encode()
    assert r.headers["Content-Type"] == "application/json; charset=utf-8"
    assert r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.skipif(shutil.which("grpcurl") is None, reason="grpcurl calls the gRPC listener")
def test_a_fresh_grpc_stub_answers_unimplemented_with_the_same_words(service: Service) -> None:
    out = subprocess.run(
        ["grpcurl", "-plaintext", "-format-error", "-d", '{"id":"n1"}', service.grpc, "notes.v1.Notes/GetNote"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert out.returncode != 0
    err = json.loads(out.stdout or out.stderr)
    assert (err["code"], err["message"]) == (12, "GetNote is not implemented yet")  # 12: Unimplemented


def test_replacing_the_body_is_all_it_takes(fresh: Built, tmp_path: Path) -> None:
    """The user's edit (the README's): the method's body, nothing else; the project builds."""
    stub = fresh.root / "internal/service/greeter/greet.go"
    text = stub.read_text()
    body = re.search(r"\) \(\*types\.Greeting, error\) \{\n(.*?)\n\}\n", text, re.S)
    assert body is not None and 'svccontext.NotImplemented("Greet")' in body.group(1)
    edited = text.replace(body.group(1), '\treturn &types.Greeting{Message: "hi " + req.Name}, nil')
    project = tmp_path / "edited"
    shutil.copytree(fresh.root, project, ignore=shutil.ignore_patterns("bin"))
    (project / "internal/service/greeter/greet.go").write_text(edited)
    run(["go", "build", "-o", str(project / "bin" / "edited"), "."], project)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _config(http: str, grpc: str, metrics: str) -> str:
    return (
        TEST_CONFIG.replace('  addr: "127.0.0.1:0"\n  strictJSON', f'  addr: "{http}"\n  strictJSON', 1)
        .replace('  addr: "127.0.0.1:0"\n  reflection', f'  addr: "{grpc}"\n  reflection', 1)
        .replace('  enabled: false\n  adminAddr: ""', f'  enabled: true\n  adminAddr: "{metrics}"', 1)
    )


def test_a_listener_that_cannot_bind_names_the_setting(fresh: Built, tmp_path: Path) -> None:
    """Two services on one machine with one config: the second says which key to change."""
    http, grpc, metrics = (f"127.0.0.1:{_free_port()}" for _ in range(3))
    first = start(fresh, tmp_path / "first", _config(http, grpc, metrics))
    try:
        assert first.base == f"http://{http}" and first.grpc == grpc
        for name, config, wanted in (
            (
                "metrics",
                _config(http, grpc, metrics),
                f"metrics listener: listen tcp {metrics}: bind: "
                "address already in use (set metrics.adminAddr, or empty to disable)",
            ),
            (
                "http",
                _config(http, grpc, ""),
                f"http listener: listen tcp {http}: bind: address already in use (set server.addr)",
            ),
            (
                "grpc",
                _config("127.0.0.1:0", grpc, ""),
                f"grpc listener: listen tcp {grpc}: bind: address already in use (set grpc.addr)",
            ),
        ):
            path = tmp_path / f"{name}.yaml"
            path.write_text(config)
            second = subprocess.run(
                [str(fresh.binary), "-config", str(path)], cwd=fresh.root, capture_output=True, text=True, timeout=60
            )
            assert second.returncode == 1, second.stdout
            assert second.stderr.strip() == f"{path}: {wanted}", name
    finally:
        first.stop()
