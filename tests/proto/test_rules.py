"""go_package rules, RPC naming restrictions and directory clashes, as located diagnostics
on the proto; where the gRPC layer imports the pb code from."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import kit_gen, project

from kit_core import program
from kit_core.generators import go

SVC = "service Orders { rpc Get(Req) returns (Req); }\nmessage Req {}\n"


def proto(package: str, body: str = "message M {}\n", option: str = "") -> str:
    return f'syntax = "proto3";\npackage {package};\n{option}{body}'


def check(design: Path) -> list[tuple[str, str, int]]:
    result = program.check(program.load_design(design))
    return [(d.code, Path(d.span.path).name, d.span.start_line) for d in result.diagnostics]


def proto_set(design: Path):  # type: ignore[no-untyped-def]
    d = program.load_design(design)
    d.module = "example.com/app"
    assert not program.check(d).has_errors
    return program.proto_set(d)


def test_go_package_is_placed_by_directory(tmp_path: Path) -> None:
    design = project(
        tmp_path,
        {
            "shop/v1/a.proto": proto("shop.v1"),
            "billing/b.proto": proto("billing", option='option go_package = "github.com/else/where/zzz;billingpb";\n'),
            "audit/c.proto": proto("audit", option='option go_package = "github.com/else/where/zzz";\n'),
            "root.proto": proto("root"),
        },
    )
    ps = proto_set(design)
    pkgs = {name: (p.import_path, p.name) for name, p in ps.packages.items()}
    assert pkgs["shop/v1/a.proto"] == ("example.com/app/internal/pb/shop/v1", "v1")
    assert pkgs["billing/b.proto"] == ("example.com/app/internal/pb/billing", "billingpb")  # path ignored
    assert pkgs["audit/c.proto"] == ("example.com/app/internal/pb/audit", "audit")
    assert pkgs["root.proto"] == ("example.com/app/internal/pb", "pb")
    assert ps.pb_dirs["root.proto"] == "internal/pb" and ps.pb_dirs["shop/v1/a.proto"] == "internal/pb/shop/v1"
    assert "Mbilling/b.proto=example.com/app/internal/pb/billing;billingpb" in ps.go_mappings()


def test_one_directory_one_package(tmp_path: Path) -> None:
    design = project(tmp_path, {"shop/a.proto": proto("shop"), "shop/b.proto": proto("store")})
    assert check(design) == [("proto/package-mismatch", "b.proto", 1)]
    result = program.check(program.load_design(design))
    assert result.diagnostics[0].related[0].span.path.endswith("a.proto")
    design = project(
        tmp_path / "2",
        {
            "shop/a.proto": proto("shop", option='option go_package = "x;shoppb";\n'),
            "shop/b.proto": proto("shop", "message N {}\n", 'option go_package = "x;storepb";\n'),
        },
    )
    (d,) = program.check(program.load_design(design)).diagnostics
    assert d.code == "proto/package-mismatch" and "Go package storepb" in d.message


def test_pb_dash_needs_go_package_and_runs_no_plugin(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    manifest = 'output:\n  pb: "-"\n'
    design = project(tmp_path, {"shop/a.proto": proto("shop", SVC)}, manifest)
    assert check(design) == [("proto/go-package", "a.proto", 0)]
    (design / "shop/a.proto").write_text(
        proto("shop", SVC, 'option go_package = "example.com/shared/shoppb;shoppb";\n')
    )
    monkeypatch.chdir(tmp_path)
    code, out, err = kit_gen(str(design))  # no plugin is pinned in go.mod: none is needed
    assert code == 0, err
    assert not (tmp_path / "internal/pb").exists()
    layer = (tmp_path / "internal/grpc/orders/get.go").read_text()
    assert '"example.com/shared/shoppb"' in layer and "*shoppb.Req" in layer


@pytest.mark.parametrize(
    ("rpcs", "case", "expected"),
    [
        ("rpc Server(Req) returns (Req);", "snake", ["proto/rpc-name"]),
        ("rpc Logger(Req) returns (Req);", "snake", ["proto/rpc-name"]),
        ("rpc RunTest(Req) returns (Req);", "snake", ["proto/rpc-file-name"]),
        ("rpc RunTest(Req) returns (Req);", "kebab", []),
        ("rpc ListWindows(Req) returns (Req);", "snake", ["proto/rpc-file-name"]),
        ("rpc SyncLinuxAmd64(Req) returns (Req);", "snake", ["proto/rpc-file-name"]),
        ("rpc Order(Req) returns (Req); rpc NewOrder(Req) returns (Req);", "snake", ["proto/rpc-name"]),
        ("rpc GetURL(Req) returns (Req); rpc GetUrl(Req) returns (Req);", "snake", ["proto/rpc-name"]),
        ("rpc Get(Req) returns (Req); rpc List(Req) returns (stream Req);", "snake", []),
    ],
)
def test_rpc_naming_restrictions(tmp_path: Path, rpcs: str, case: str, expected: list[str]) -> None:
    body = f"service Orders {{ {rpcs} }}\nmessage Req {{}}\n"
    design = project(tmp_path, {"shop/a.proto": proto("shop", body)}, f"output:\n  fileCase: {case}\n")
    found = check(design)
    assert [c for c, _, _ in found] == expected
    assert all(line == 2 for _, _, line in found)  # on the RPC's line


def test_services_writing_one_directory(tmp_path: Path) -> None:
    design = project(tmp_path, {"a/v1/a.proto": proto("a.v1", SVC), "b/v1/b.proto": proto("b.v1", SVC)})
    assert check(design) == [("proto/service-dir", "b.proto", 2)]
    design = project(
        tmp_path / "2",
        {"a/a.proto": proto("a", SVC)},
        kit={"api/api.kit": "package api\n\nservice Orders {\n\tget Ping /ping {}\n}\n"},
    )
    assert check(design) == [("proto/service-dir", "a.proto", 2)]


def test_generated_layer_names(tmp_path: Path) -> None:
    body = (
        "service Orders {\n  rpc Get(Req) returns (Req);\n  rpc Watch(Req) returns (stream Req);\n"
        "  rpc Upload(stream Req) returns (google.protobuf.Empty);\n  rpc Chat(stream Req) returns (stream Req);\n}\n"
        "message Req { message Inner {} Inner inner = 1; }\n"
    )
    text = proto("shop.v1", body).replace("\n", '\nimport "google/protobuf/empty.proto";\n', 2)
    design = project(tmp_path, {"shop/v1/a.proto": text.replace('import "google/protobuf/empty.proto";\n', "", 1)})
    d = program.load_design(design)
    d.module = "example.com/app"
    files = {f.path: f.content for f in go.generate(program.gen_context(d, program.check(d).analysis))[0]}
    logic = "internal/service/orders/"
    assert "func (l *GetLogic) Get(req *v1.Req) (*v1.Req, error)" in files[logic + "get.go"]
    assert "Watch(req *v1.Req, stream grpc.ServerStreamingServer[v1.Req]) error" in files[logic + "watch.go"]
    assert "Upload(stream grpc.ClientStreamingServer[v1.Req, emptypb.Empty]) error" in files[logic + "upload.go"]
    assert "Chat(stream grpc.BidiStreamingServer[v1.Req, v1.Req]) error" in files[logic + "chat.go"]
    assert "v1.RegisterOrdersServer(srv, orders.NewServer(svcCtx))" in files["internal/wiring/grpc.go"]
    assert "v1.UnimplementedOrdersServer" in files["internal/grpc/orders/server.go"]
    assert "rpc.ValidateBidiStream(stream)" in files["internal/grpc/orders/chat.go"]
    config = files["config/config.yaml"]
    assert "grpc:" in config and "server:" not in config and "docs:" not in config
