"""`kit diff <ref>`: the changes that break clients between the design at a git ref and
the work tree, for `.kit` and `.proto` together; deterministic; `--exit-code` for CI; the
work tree is never touched."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kit_core.cli import main

KIT = """\
package shop

enum Color {
	Red  = "red"
	Blue = "blue"
}

type Item {
	id    string
	name  string? @length(2, 50)
	note  string?
	color Color?
}

type ItemID {
	id string @path
}

error NotFound ItemMissing

@prefix("/items")
service Items {
	post CreateItem / {
		request  Item
		response Item
	}

	@errors(ItemMissing)
	get GetItem /{id} {
		request  ItemID
		response Item
	}

	delete DropItem /{id} {
		request  ItemID
	}
}
"""

PROTO = """\
syntax = "proto3";

package stock.v1;

service Stock {
  rpc Get(GetRequest) returns (Level);
  rpc Watch(GetRequest) returns (stream Level);
  rpc Drop(GetRequest) returns (Level);
}

message GetRequest {
  string sku = 1;
  int32 depth = 2;
}

message Level {
  int64 count = 1;
  string where = 2;
  string old = 3;
}

enum Unit {
  UNIT_UNSPECIFIED = 0;
  UNIT_BOX = 1;
}
"""


def _git(root: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    proc = subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True, env={**env, "PATH": "/usr/bin:/bin"}
    )
    return proc.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "design/stock/v1").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n")
    (root / "design/kit.design.yaml").write_text("openapi:\n  basePath: /api\n")
    (root / "design/shop.kit").write_text(KIT)
    (root / "design/stock/v1/stock.proto").write_text(PROTO)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base")
    return root


def _diff(root: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, list[str]]:
    code = main(["diff", "main", str(root / "design"), *flags])
    return code, capsys.readouterr().out.splitlines()


def _edit(root: Path, kit: dict[str, str], proto: dict[str, str]) -> None:
    text = KIT
    for a, b in kit.items():
        assert a in text, a
        text = text.replace(a, b)
    (root / "design/shop.kit").write_text(text)
    text = PROTO
    for a, b in proto.items():
        assert a in text, a
        text = text.replace(a, b)
    (root / "design/stock/v1/stock.proto").write_text(text)


def test_no_change_breaks_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _diff(repo, capsys, "--exit-code") == (0, [])


def test_additions_and_widening_are_not_breaking(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit(
        repo,
        {
            "\tnote  string?\n": "\tnote  string?\n\textra string?\n",
            '\tBlue = "blue"\n': '\tBlue = "blue"\n\tGreen = "green"\n',
            "@length(2, 50)": "@length(1, 60)",
        },
        {
            "  string old = 3;\n": "  string old = 3;\n  string added = 4;\n",
            "rpc Drop(": "rpc More(GetRequest) returns (Level);\n  rpc Drop(",
        },
    )
    assert _diff(repo, capsys, "--exit-code") == (0, [])


def test_every_kind_of_http_break(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit(
        repo,
        {
            '\tBlue = "blue"\n': "",
            "name  string? @length(2, 50)": "name  string? @length(3, 50)",
            "note  string?": "note  string",
            "\tcolor Color?\n": "\tcolour Color?\n",
            "get GetItem /{id}": "get GetItem /by-id/{id}",
            "delete DropItem": "delete RemoveItem",
            "error NotFound ItemMissing": "error Gone ItemMissing",
        },
        {},
    )
    code, lines = _diff(repo, capsys, "--exit-code")
    assert code == 1
    shop = "design/shop.kit"
    expected = [
        f'{shop}:3:6: warning breaking/removed: enum value Color.Blue ("blue") was removed '
        "(at color in the request of Items.CreateItem)",
        f'{shop}:9:2: warning breaking/narrowed: request field name (body "name") of Items.CreateItem: '
        "@length(2, 50) narrowed to @length(3, 50)",
        f'{shop}:10:2: warning breaking/required: request field note (body "note") of Items.CreateItem became required',
        f"{shop}:11:2: warning breaking/renamed: request field color of Items.CreateItem was renamed to colour "
        '(body "color" is now body "colour")',
        f"{shop}:11:2: warning breaking/renamed: response field color of Items.CreateItem was renamed to colour "
        '(body "color" is now body "colour")',
        f"{shop}:11:2: warning breaking/renamed: response field color of Items.GetItem was renamed to colour "
        '(body "color" is now body "colour")',
        f"{shop}:18:7: warning breaking/status: error ItemMissing now answers 410 (was 404)",
        f"{shop}:28:6: warning breaking/route: route of Items.GetItem changed from GET /api/items/{{id}} to "
        "GET /api/items/by-id/{id}",
        f"{shop}:33:9: warning breaking/renamed: method Items.DropItem was renamed to RemoveItem: its operationId "
        "DropItem is now RemoveItem",
    ]
    assert [line.replace(str(repo) + "/", "") for line in lines] == expected


def test_every_kind_of_proto_break(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit(
        repo,
        {},
        {
            "rpc Watch(GetRequest) returns (stream Level);": "rpc Watch(GetRequest) returns (Level);",
            "  rpc Drop(GetRequest) returns (Level);\n": "",
            "  int32 depth = 2;": "  int32 depth = 5;",
            "  int64 count = 1;": "  int32 count = 1;",
            "  string where = 2;": "  string place = 2;",
            "  string old = 3;\n": "",
            "  UNIT_BOX = 1;\n": "",
        },
    )
    code, lines = _diff(repo, capsys)
    assert code == 0  # without --exit-code
    proto = "design/stock/v1/stock.proto"
    rpcs = "stock.v1.Stock/Drop, stock.v1.Stock/Get, stock.v1.Stock/Watch"
    assert [line.replace(str(repo) + "/", "") for line in lines] == [
        f"{proto}:5:9: warning breaking/removed: RPC stock.v1.Stock/Drop was removed",
        f"{proto}:7:7: warning breaking/streaming: RPC stock.v1.Stock/Watch changed from server streaming to unary",
        f"{proto}:12:9: warning breaking/field-number: field stock.v1.GetRequest.depth moved from number 2 to 5 "
        f"(at depth in the request of {rpcs})",
        f"{proto}:15:9: warning breaking/removed: field stock.v1.Level.old (3) was removed without reserving its "
        f"number (at old in the response of {rpcs})",
        f"{proto}:16:9: warning breaking/type: type of field stock.v1.Level.count changed from int64 to int32 "
        f"(at count in the response of {rpcs})",
        f"{proto}:17:10: warning breaking/renamed: field 2 of stock.v1.Level was renamed from where to place, "
        f"which changes its JSON name (at where in the response of {rpcs})",
        f"{proto}:20:6: warning breaking/removed: enum value stock.v1.Unit.UNIT_BOX (1) was removed",
    ]


def test_a_renamed_method_keeping_its_operation_id_is_safe(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kit = KIT.replace("\tpost CreateItem", '\t@operationId("CreateItem")\n\tpost CreateItem')
    (repo / "design/shop.kit").write_text(kit)
    _git(repo, "commit", "-qam", "explicit id")
    (repo / "design/shop.kit").write_text(kit.replace("post CreateItem", "post AddItem"))
    assert _diff(repo, capsys, "--exit-code") == (0, [])


def test_a_reserved_number_makes_a_removal_safe(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit(repo, {}, {"  string old = 3;\n": "  reserved 3;\n"})
    assert _diff(repo, capsys, "--exit-code") == (0, [])


def test_a_removed_file_is_reported_at_the_baseline(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "design/stock/v1/stock.proto").unlink()
    code, lines = _diff(repo, capsys, "--exit-code")
    assert code == 1
    was = "main:design/stock/v1/stock.proto"
    assert f"{was}:5:9: warning breaking/removed: service stock.v1.Stock was removed" in lines
    assert (
        f"{was}:11:9: warning breaking/removed: message stock.v1.GetRequest was removed (in the request of "
        "stock.v1.Stock/Drop, stock.v1.Stock/Get, stock.v1.Stock/Watch)"
    ) in lines


def test_the_work_tree_is_untouched_and_the_output_is_stable(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit(repo, {'\tBlue = "blue"\n': ""}, {"  UNIT_BOX = 1;\n": ""})
    status = _git(repo, "status", "--porcelain")
    first = _diff(repo, capsys)
    assert _diff(repo, capsys) == first and len(first[1]) == 2
    assert _git(repo, "status", "--porcelain") == status
    assert _git(repo, "stash", "list") == ""


def test_errors_are_reported(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "no-such-ref", str(repo / "design")]) == 1
    assert "cannot read the design at no-such-ref" in capsys.readouterr().err
    (repo / "design/shop.kit").write_text(KIT.replace("request  ItemID", "request  Missing", 1))
    assert main(["diff", "main", str(repo / "design")]) == 1
    assert "ref/unknown-symbol" in capsys.readouterr().err


def test_exit_code_from_the_command_line(repo: Path) -> None:
    _edit(repo, {'\tBlue = "blue"\n': ""}, {})
    cmd = [sys.executable, "-m", "kit_core.cli", "diff", "main", "--exit-code"]
    proc = subprocess.run(cmd, cwd=repo / "design", capture_output=True, text=True, check=False)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("shop.kit:3:6: warning breaking/removed:")
    assert "1 change breaks clients since main" in proc.stderr
