"""Generated imports never hide the standard library or a predeclared identifier (issue 20,
item 5): the test design `shadow` has protos in grpc/testing/, context/, errors/, http/ and
string/, whose Go packages are named `testing`, `context`, `errors`, `http` and `string`. kit
imports each under `<parent dir><package>pb` (`grpctestingpb`, `contextpb`), so a generated
file uses the standard package beside the proto package, and the project builds, vets and
runs a user's test that imports both `testing`s."""

from __future__ import annotations

import pytest
from e2e_harness import Built, build_once, go_available, run

pytestmark = pytest.mark.skipif(not go_available(), reason="the Go toolchain is needed")


@pytest.fixture(scope="module")
def shadow_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    base = tmp_path_factory.getbasetemp()
    return build_once("shadow", base.parent if base.name.startswith("popen-gw") else base)


def test_std_and_proto_package_in_one_generated_file(shadow_built: Built) -> None:
    check = (shadow_built.root / "internal/grpc/probe/check.go").read_text()
    assert '\t"context"\n' in check
    assert '\tcontextpb "example.com/shadow/internal/pb/context"\n' in check
    assert "func (s *Server) Check(ctx context.Context, req *contextpb.Deadline) (*errorspb.Failure, error)" in check
    wiring = (shadow_built.root / "internal/wiring/grpc.go").read_text()
    assert '\t"errors"\n' in wiring and "grpctestingpb.RegisterProbeServer(" in wiring
    lines = (shadow_built.root / "internal/service/probe/lines.go").read_text()
    assert "req *httppb.Page, stream grpc.ServerStreamingServer[stringpb.Line]" in lines
    assert shadow_built.vet == "" and shadow_built.gofmt == ""


def test_user_test_imports_std_testing_and_the_testing_proto(shadow_built: Built) -> None:
    out = run(["go", "test", "-count=1", "./internal/service/probe/"], shadow_built.root)
    assert out.returncode == 0 and "ok" in out.stdout, out.stdout + out.stderr
