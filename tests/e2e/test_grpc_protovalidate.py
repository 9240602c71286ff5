"""A rule-based validator without a Validate method on the messages - buf's protovalidate - is
installed as server interceptors (rpc.ValidateUnary / rpc.ValidateStream): the proto imports
`buf/validate/validate.proto` through `proto.includes`, main.go installs the interceptors,
and rule violations answer InvalidArgument over the wire."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from e2e_harness import GO_ENV, TEST_CONFIG, Built, generate, go_available, make_project, overlay_logic, run, start
from test_grpc import grpcurl

pytestmark = pytest.mark.skipif(not go_available(), reason="the Go toolchain is needed")

PROTOVALIDATE = "buf.build/go/protovalidate@v1.4.0"
RULES_MODULE = "github.com/bufbuild/protovalidate@v1.2.2"  # holds buf/validate/validate.proto

INSTALL = """\
	validate := func(m proto.Message) error { return protovalidate.Validate(m) }
	grpcSrv.Use(rpc.ValidateUnary(validate))
	grpcSrv.UseStream(rpc.ValidateStream(validate))
"""


def go_mod(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**GO_ENV, "GOFLAGS": "-mod=mod"}
    return subprocess.run(["go", *args], cwd=root, env=env, capture_output=True, text=True, timeout=600, check=True)


def with_rules(root: Path) -> None:
    """The notes proto with protovalidate rules, the rules' proto as an import root."""
    info = json.loads(go_mod(root, "mod", "download", "-json", RULES_MODULE).stdout)
    rules_root = Path(info["Dir"]) / "proto" / "protovalidate"
    assert (rules_root / "buf/validate/validate.proto").is_file()
    manifest = root / "design/kit.design.yaml"
    manifest.write_text(manifest.read_text() + f"proto:\n  includes:\n    - {rules_root}\n")
    proto = root / "design/notes/v1/notes.proto"
    text = proto.read_text().replace(
        'import "google/protobuf/timestamp.proto";',
        'import "buf/validate/validate.proto";\nimport "google/protobuf/timestamp.proto";',
    )
    text = text.replace(
        "message CreateNoteRequest {\n  string title = 1;",
        "message CreateNoteRequest {\n  string title = 1 [(buf.validate.field).string.min_len = 3];",
    )
    proto.write_text(text)


def install_interceptors(root: Path) -> None:
    main = root / "main.go"
    text = main.read_text()
    anchor = "\tstopGRPC, err := wiring.RegisterGRPC(ctx, grpcSrv, svcCtx)\n"
    assert text.count(anchor) == 1
    text = text.replace(anchor, INSTALL + anchor)
    imports = '\t"buf.build/go/protovalidate"\n\t"google.golang.org/protobuf/proto"\n'
    text = text.replace("import (\n", "import (\n" + imports, 1)
    main.write_text(text)


@pytest.fixture(scope="module")
def validated(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = make_project("notes", tmp_path_factory.mktemp("pv") / "notes")
    with_rules(root)
    generate(root)
    overlay_logic("notes", root)
    install_interceptors(root)
    go_mod(root, "get", PROTOVALIDATE)
    go_mod(root, "mod", "tidy")
    run(["gofmt", "-w", "main.go"], root)
    run(["go", "vet", "./..."], root)
    run(["go", "build", "-o", "bin/notes", "."], root)
    return Built(root, root / "bin/notes", "", "")


def call(svc_grpc: str, method: str, body: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [grpcurl(), "-plaintext", "-d", body, svc_grpc, f"notes.v1.Notes/{method}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_rules_answer_invalid_argument(validated: Built, tmp_path: Path) -> None:
    pb = (validated.root / "internal/pb/notes/v1/notes.pb.go").read_text()
    assert '"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"' in pb
    svc = start(validated, tmp_path, TEST_CONFIG)
    try:
        bad = call(svc.grpc, "CreateNote", '{"title": "ab"}')
        assert bad.returncode != 0 and "InvalidArgument" in bad.stderr and "title" in bad.stderr, bad.stderr
        ok = call(svc.grpc, "CreateNote", '{"title": "abcd"}')
        assert ok.returncode == 0 and json.loads(ok.stdout)["title"] == "abcd", ok.stderr
        streamed = call(svc.grpc, "ImportNotes", '{"title": "long enough"} {"title": "x"}')
        assert streamed.returncode != 0 and "InvalidArgument" in streamed.stderr, streamed.stderr
    finally:
        svc.stop()
