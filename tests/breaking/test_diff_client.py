"""`kit diff` reads designs only: the generated Go client beside them changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git

from kit_core.cli import main

KIT = """\
package shop

type ItemID {
	id string @path
}

@prefix("/items")
service Items {
	delete DropItem /{id} {
		request ItemID
	}
}
"""


def test_a_generated_client_is_no_design_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "repo"
    (root / "design").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n")
    (root / "design/kit.design.yaml").write_text("openapi:\n  basePath: /api\n")
    (root / "design/shop.kit").write_text(KIT)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    assert main(["gen", str(root / "design")]) == 0
    assert "func (c *Client) DropItem(" in (root / "client/items_client.go").read_text()
    capsys.readouterr()
    assert main(["diff", "main", str(root / "design"), "--exit-code"]) == 0
    assert capsys.readouterr().out == ""
    git(root, "add", "-A")
    git(root, "commit", "-qm", "generated, client included")
    assert main(["diff", "main", str(root / "design"), "--exit-code"]) == 0
    assert capsys.readouterr().out == ""


BROKEN = KIT.replace(
    "\tdelete DropItem /{id} {\n\t\trequest ItemID\n\t}\n", "\tpost DropItem /{id} {\n\t\trequest ItemID\n\t}\n"
)


def _repo(root: Path, manifest: str, generate: bool) -> Path:
    (root / "design").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/shop\n\ngo 1.26\n")
    (root / "design/kit.design.yaml").write_text(manifest)
    (root / "design/shop.kit").write_text(KIT)
    if generate:
        assert main(["gen", str(root / "design")]) == 0
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    (root / "design/shop.kit").write_text(BROKEN)
    if generate:
        assert main(["gen", str(root / "design")]) == 0
    return root


def test_kit_diff_says_the_same_with_and_without_the_clients(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One breaking edit, in a project without clients and in one with both clients
    generated (the Go one and the TypeScript one) before and after it: the same report."""
    bare = _repo(tmp_path / "bare", 'output:\n  client: "-"\n', generate=False)
    both = _repo(tmp_path / "both", "output:\n  client: ./client\n  tsClient: ./web/api\n", generate=True)
    assert "dropItem(" in (both / "web/api/client.ts").read_text()
    assert "func (c *Client) DropItem(" in (both / "client/items_client.go").read_text()
    capsys.readouterr()
    reports = []
    for root in (bare, both):
        for fmt in ("text", "json"):
            code = main(["diff", "main", str(root / "design"), "--format", fmt])
            reports.append((code, capsys.readouterr().out.replace(str(root), "<root>")))
    assert reports[0][1] and "DropItem" in reports[0][1]
    assert reports[:2] == reports[2:]
