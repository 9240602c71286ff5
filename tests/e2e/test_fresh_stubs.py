"""A freshly generated project, its stubs untouched, says which methods have no logic yet:
every HTTP stub answers 501 `{"message":"<Method> is not implemented yet"}` (a framework
error: JSON content type, nosniff), every gRPC stub `Unimplemented` with the same words.
Replacing a stub's body is all it takes to implement it (no import to drop)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_harness import Built, Service, generate, go_available, make_project, request, run, start

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
    ("method", "path", "name"), [("GET", "/greetings/ada", "Greet"), ("POST", "/touch", "Touch"), ("GET", "/raw", "Raw")]
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
        capture_output=True, text=True, timeout=30, check=False,
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
