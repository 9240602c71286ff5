"""Stub drift: a stub whose signature no longer matches what the design generates, found by
the tree-sitter-go reader, reported on the design, fixed by rewriting the signature only."""

from __future__ import annotations

from pathlib import Path

from stub_helpers import KIT, PROTO, expected, generate, project, reader

from kit_core.gosource import GoSource
from kit_core.stubs import drift_diagnostics, find_drift
from kit_core.stubs.carry import stub_method
from kit_core.stubs.edits import apply_edits

# the body of a fresh stub (what the user replaces)
FRESH_BODY = (
    '\t// TODO: implement CreateItem; until then callers get 501 {"message":"CreateItem is not implemented yet"}.\n'
    '\treturn nil, svccontext.NotImplemented("CreateItem")\n'
)

STUB = "internal/service/items/create_item.go"
BODY = '\tl.Info("create", "name", in.Name)\n\treturn &types.Item{Name: in.Name}, nil\n'


def _implement(root: Path) -> Path:
    """The user's edit: a body, their own parameter name."""
    stub = root / STUB
    text = stub.read_text().replace("CreateItem(req *types.NewItem)", "CreateItem(in *types.NewItem)")
    text = text.replace(FRESH_BODY, BODY)
    stub.write_text(text)
    return stub


def _fixed(root: Path, path: str) -> str:
    (drift,) = [d for d in find_drift(expected(root), reader(root)) if d.expected.path == path]
    data = (root / path).read_bytes()
    return apply_edits(data, drift.edits).decode()


def test_in_step_stubs_have_no_drift(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    _implement(root)
    assert find_drift(expected(root), reader(root)) == []


def test_changed_request_and_response_are_drift_with_a_located_diagnostic(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    _implement(root)
    kit = root / "design/shop.kit"
    kit.write_text(KIT.replace("request  NewItem\n\t\tresponse Item", "request  Item\n\t\tresponse Money"))
    (drift,) = find_drift(expected(root), reader(root))
    assert drift.changes == (
        "request type changed from `*types.NewItem` to `*types.Item`",
        "response type changed from `*types.Item` to `*types.Money`",
    )
    (diag,) = drift_diagnostics([drift], root)
    assert diag.code == "stub/drift" and diag.span.path == str(root / "design/shop.kit")
    assert (diag.span.start_line, diag.span.start_col) == (25, 6)  # `CreateItem` in the design
    assert diag.related[0].span.path == str(root / STUB)
    assert "kit now generates `CreateItem(req *types.Item) (*types.Money, error)`" in diag.message


def test_fix_rewrites_the_signature_and_keeps_body_and_names(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    before = _implement(root).read_text()
    (root / "design/shop.kit").write_text(KIT.replace("response Item\n\t}\n\n\tget", "response Money\n\t}\n\n\tget"))
    after = _fixed(root, STUB)
    assert "func (l *CreateItemService) CreateItem(in *types.NewItem) (*types.Money, error) {\n" + BODY in after
    assert after.replace("*types.Money", "*types.Item") == before  # only the signature changed
    assert find_drift(expected(root), lambda p: after.encode() if p == STUB else reader(root)(p)) == []


def test_another_alias_and_spacing_are_not_drift(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    stub = root / STUB
    path = '"example.com/shop/internal/types/shop"'
    text = stub.read_text().replace(f"types {path}", f"shop {path}")
    text = text.replace("(req *types.NewItem) (*types.Item, error)", "( req  *shop.NewItem ) ( *shop.Item,error )")
    stub.write_text(text)
    assert find_drift(expected(root), reader(root)) == []


def test_fix_spells_types_with_the_users_alias_and_adds_a_missing_import(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    stub = root / STUB
    text = stub.read_text().replace('\ttypes "example.com/shop/internal/types/shop"\n', "")
    text = text.replace("(req *types.NewItem) (*types.Item, error)", "(req any) (any, error)")
    stub.write_text(text)
    fixed = _fixed(root, STUB)
    assert 'types "example.com/shop/internal/types/shop"' in fixed
    assert "CreateItem(req *types.NewItem) (*types.Item, error)" in fixed
    assert GoSource.parse(fixed).has_errors is False


def test_a_stub_without_its_method_is_reported(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    stub = root / STUB
    stub.write_text(stub.read_text().replace(") CreateItem(", ") Create("))
    (drift,) = find_drift(expected(root), reader(root))
    assert drift.found is None and drift.edits == ()
    (diag,) = drift_diagnostics([drift], root)
    assert "has no method CreateItemService.CreateItem" in diag.message


def test_grpc_streaming_kind_change_is_drift_and_the_fix_takes_the_stream(tmp_path: Path) -> None:
    root = project(tmp_path, kit=None, proto=PROTO)
    generate(root)
    path = "internal/service/stock/get.go"
    (root / "design/stock/v1/stock.proto").write_text(PROTO.replace("returns (Level);", "returns (stream Level);", 1))
    (drift,) = find_drift(expected(root), reader(root))
    assert drift.changes == ("streaming kind changed from unary to server streaming",)
    assert drift.expected.span.path.endswith("stock.proto") and drift.expected.span.start_line == 5
    fixed = GoSource.parse(_fixed(root, path))
    method = stub_method(fixed)
    assert method is not None and method.sig is not None
    assert method.signature == "Get(req *v1.GetRequest, stream grpc.ServerStreamingServer[v1.Level]) error"
    assert '\t"google.golang.org/grpc"\n' in fixed.text(0, len(fixed.data))  # the import it lacked


def test_kit_gen_prints_drift_as_notices(tmp_path: Path) -> None:
    root = project(tmp_path)
    generate(root)
    (root / "design/shop.kit").write_text(KIT.replace("request  ItemID", "request  ItemKey"))
    report = generate(root)
    (notice,) = [n for n in report.notices if n.path == "internal/service/items/get_item.go"]
    assert "request type changed from `*types.ItemID` to `*types.ItemKey`" in notice.message
    assert (root / "internal/service/items/get_item.go").read_text().count("req *types.ItemID") == 1  # untouched


def test_the_command_line_prints_drift_as_a_notice(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = project(tmp_path)
    generate(root)
    (root / "design/shop.kit").write_text(KIT.replace("request  ItemID", "request  ItemKey"))
    cmd = [sys.executable, "-m", "kit_core.cli", "gen", str(root / "design")]
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert (
        "notice: internal/service/items/get_item.go: logic stub of GetItem no longer matches the design: request "
        "type changed from `*types.ItemID` to `*types.ItemKey`"
    ) in proc.stderr
