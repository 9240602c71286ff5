"""A real editor: a current Neovim (0.11+), headless, set up as editors/neovim/README.md
says (the folder on 'runtimepath', `vim.lsp.enable('kit')`), drives kit-lsp through its
own LSP client: diagnostics, hover, definition, completion, formatting, rename and
generate-on-save (tests/lsp/nvim/drive.lua)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lsp_helpers import DESIGN, write_design
from nvim_support import NVIM_RTP, isolated_env, needs_nvim, run_nvim

from kit_core.format import format_source

HERE = Path(__file__).parent / "nvim"

BROKEN = """\
package users

// Order is placed by a user.
type Order {
  id string
  owner User
  item Missing
}
"""


@needs_nvim
def test_neovim_drives_kit_lsp_through_its_own_client(tmp_path: Path) -> None:
    root = write_design(tmp_path / "project", DESIGN)
    (root / "design/users/orders.kit").write_text(BROKEN)
    out = tmp_path / "result.json"
    env = isolated_env(
        tmp_path,
        KIT_NVIM_OUT=str(out),
        KIT_NVIM_RTP=str(NVIM_RTP),
        KIT_LSP_CMD=json.dumps([sys.executable, "-m", "kit_lsp"]),
        KIT_ROOT=str(root),
    )
    proc = run_nvim(["-u", str(HERE / "init.lua"), "-c", f"luafile {HERE / 'drive.lua'}"], env, root)
    assert out.exists(), f"Neovim wrote no result:\n{proc.stdout}\n{proc.stderr}"
    r = json.loads(out.read_text())
    assert r["errors"] == []
    assert r["filetype"] == "kit"  # editors/neovim/ftdetect
    assert r["root_dir"] == str(root / "design")  # lsp/kit.lua root_markers: the design folder
    assert [(d["lnum"], d["code"]) for d in r["diagnostics"]] == [(6, "ref/unknown-symbol")]
    assert "Missing" in r["diagnostics"][0]["message"]
    assert "User is a person with an account." in r["hover"]
    assert r["definition"]["file"] == str(root / "design/users/users.kit")
    assert r["definition"]["cursor"][0] == 4  # `type User {` (1-based)
    assert r["completion_mode"] == "i"
    assert {"doc", "deprecated", "json", "sensitive"} <= {w.lstrip("@") for w in r["completion"]}
    assert r["formatted"] == format_source("orders.kit", BROKEN).text
    assert "type Member {" in r["renamed_users"] and "type User {" not in r["renamed_users"]
    assert "owner Member" in r["renamed_orders"].replace("\t", " ").replace("  ", " ")
    assert r["generated"] is True
    assert "type Member struct" in (root / "internal/types/users/types.go").read_text()
