"""The gRPC side of `kit mock` (issue 22 item 3): every RPC of the showcase answers messages
built from its proto types, over a real loopback socket (grpcurl through reflection), and
requests are validated by the same server layer as the real service's, with the user's own
`Validate` methods beside the pb code."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_harness import GO_ENV, REPO, Built, Service, generate, go_available, make_project, start
from test_grpc import grpcurl
from test_grpc_protovalidate import PROTOVALIDATE, go_mod, with_rules

pytestmark = pytest.mark.skipif(not go_available(), reason="the Go toolchain is needed")

INVENTORY = "showcase.inventory.v1.Inventory"
# the user's file beside the plugins' pb code: GetItemRequest and ChatLine have a Validate
VALIDATE = Path(__file__).parent / "logic/showcase/internal/pb/inventory/v1/validate.go"
ITEM = {
    "sku": "example",
    "name": "example",
    "stock": "1",
    "updatedAt": "1970-01-01T00:00:01.000000001Z",
    "location": {"aisle": "example", "shelf": 1},
}


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    tmp = tmp_path_factory.mktemp("mock-grpc")
    project, out = make_project("showcase", tmp / "project"), tmp / "mock"
    user = project / "internal/pb/inventory/v1/validate.go"
    user.parent.mkdir(parents=True)
    shutil.copy(VALIDATE, user)
    env = {**GO_ENV, "PYTHONPATH": str(REPO), "KIT_NO_DAEMON": "1"}
    cmd = [sys.executable, "-m", "kit_core.cli", "mock", "-f", str(project / "design"), "-c", str(project),
           "--out", str(out), "--build-only"]  # fmt: skip
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not list(project.glob("internal/pb/**/*.pb.go")), "kit mock wrote into the project"
    svc = start(Built(out, Path(proc.stdout.strip()), "", ""), tmp / "run")
    yield svc
    svc.stop()


def call(svc: Service, method: str, *messages: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [grpcurl(), "-plaintext", "-d", "\n".join(messages), svc.grpc, f"{INVENTORY}/{method}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def answers(proc: subprocess.CompletedProcess[str]) -> list[object]:
    """grpcurl's messages (it prints each as indented JSON, one after the other)."""
    assert proc.returncode == 0, proc.stderr
    decoder, text, out = json.JSONDecoder(), proc.stdout.strip(), []
    while text:
        value, end = decoder.raw_decode(text)
        out.append(value)
        text = text[end:].strip()
    return out


def test_a_unary_rpc_answers_a_message_built_from_its_type(mock: Service) -> None:
    assert answers(call(mock, "GetItem", '{"sku": "sku-1"}')) == [ITEM]
    assert answers(call(mock, "Fail", '{"kind": "panic"}')) == [{}]  # google.protobuf.Empty


def test_a_server_stream_sends_a_few_messages(mock: Service) -> None:
    assert answers(call(mock, "Watch", '{"sku": "sku-1", "changes": 1}')) == [ITEM, ITEM, ITEM]


def test_client_and_bidirectional_streams_answer(mock: Service) -> None:
    summary = answers(call(mock, "Restock", '{"sku": "a", "quantity": 2}', '{"sku": "b", "quantity": 3}'))
    assert summary == [{"requests": 1, "total": "1"}]
    assert answers(call(mock, "Chat", '{"text": "hi"}', '{"text": "again"}')) == [{"text": "example"}] * 2


def test_requests_are_validated_as_by_the_service(mock: Service) -> None:
    refused = call(mock, "GetItem", "{}")
    assert refused.returncode != 0
    assert "Code: InvalidArgument" in refused.stderr and "Message: sku: required" in refused.stderr
    refused = call(mock, "Chat", '{"text": "hi"}', '{"text": "invalid"}')
    assert "Code: InvalidArgument" in refused.stderr and "text: must not be invalid" in refused.stderr


# rules on the answered messages: "example" (the plain value) breaks each of them
RULES = {
    "Note {\n  string id = 1;": "Note {\n  string id = 1 [(buf.validate.field).string.uuid = true];",
    "  string title = 2;": "  string title = 2 [(buf.validate.field).string = "
    '{min_len: 9, max_len: 12, prefix: "T-"}];',
    "  string body = 3;": '  string body = 3 [(buf.validate.field).string.pattern = "^[a-z]{3}-[0-9]{2}$"];\n'
    "  repeated string tags = 5 [(buf.validate.field).repeated = {min_items: 2, items: {string: {len: 4}}}];",
    "  int32 imported = 1;": "  int32 imported = 1 [(buf.validate.field).int32 = {gt: 5, lt: 10}];",
}
RULES_TEST = """\
package mockanswers

import (
	"testing"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"

	notesv1 "example.com/notes/internal/pb/notes/v1"
)

func TestAnswersPassTheRules(t *testing.T) {
	for _, m := range []proto.Message{Message(new(notesv1.Note)), Message(new(notesv1.ImportSummary))} {
		if err := protovalidate.Validate(m); err != nil {
			t.Errorf("%T: %v", m, err)
		}
	}
	// the plain values break every rule: the answers above passed because of them
	if protovalidate.Validate(&notesv1.ImportSummary{Imported: 1}) == nil {
		t.Error("the rule on imported is not enforced")
	}
}
"""


def test_answers_pass_the_protovalidate_rules(tmp_path: Path) -> None:
    project = make_project("notes", tmp_path / "project")
    with_rules(project)
    proto = project / "design/notes/v1/notes.proto"
    text = proto.read_text()
    for plain, ruled in RULES.items():
        assert text.count(plain) == 1, plain
        text = text.replace(plain, ruled)
    proto.write_text(text)
    generate(project)
    go_mod(project, "get", PROTOVALIDATE)
    go_mod(project, "mod", "tidy")
    out = tmp_path / "mock"
    env = {**GO_ENV, "PYTHONPATH": str(REPO), "KIT_NO_DAEMON": "1"}
    cmd = [sys.executable, "-m", "kit_core.cli", "mock", "-f", str(project / "design"), "-c", str(project),
           "--out", str(out), "--build-only"]  # fmt: skip
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (out / "internal/mockanswers/rules_test.go").write_text(RULES_TEST)
    go_mod(out, "get", PROTOVALIDATE)
    tested = subprocess.run(["go", "test", "-count=1", "-run", "TestAnswersPassTheRules", "./internal/mockanswers"],
                            cwd=out, env={**GO_ENV, "GOFLAGS": "-mod=mod"}, capture_output=True, text=True,
                            timeout=900, check=False)  # fmt: skip
    assert tested.returncode == 0, tested.stdout + tested.stderr
    svc = start(Built(out, Path(proc.stdout.strip()), "", ""), tmp_path / "run")
    try:
        called = subprocess.run([grpcurl(), "-plaintext", "-d", '{"id": "x"}', svc.grpc, "notes.v1.Notes/GetNote"],
                                capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
        note = json.loads(called.stdout)
        assert note["title"].startswith("T-") and 9 <= len(note["title"]) <= 12
        assert note["tags"] == ["exam", "exam"]
    finally:
        svc.stop()
