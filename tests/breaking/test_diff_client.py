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
