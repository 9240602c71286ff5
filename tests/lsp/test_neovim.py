"""A real editor: Neovim (Debian's package) headless starts kit-lsp, opens a design file
and receives diagnostics, hover and formatting. Skipped when `nvim` is not installed
(`apt-get install -y neovim`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lsp_helpers import DESIGN, write_design

from kit_core.format import format_source

NVIM = shutil.which("nvim")
SCRIPT = Path(__file__).parent / "nvim" / "check.lua"

BROKEN = """\
package users

// Order is placed by a user.
type Order {
  id string
  owner User
  item Missing
}
"""


@pytest.mark.skipif(NVIM is None, reason="nvim not installed (apt-get install -y neovim)")
def test_neovim_gets_diagnostics_hover_and_formatting(tmp_path: Path) -> None:
    root = write_design(tmp_path, DESIGN)
    file = root / "design/users/orders.kit"
    file.write_text(BROKEN)
    out = tmp_path / "result.json"
    env = {
        **os.environ,
        "KIT_NVIM_OUT": str(out),
        "KIT_LSP_CMD": json.dumps([sys.executable, "-m", "kit_lsp"]),
        "KIT_FILE": str(file),
        "KIT_ROOT": str(root / "design"),
        "KIT_HOVER_LINE": "5",  # `owner User`
        "KIT_HOVER_CHAR": "9",
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        "XDG_DATA_HOME": str(tmp_path / "xdg"),
        "XDG_STATE_HOME": str(tmp_path / "xdg"),
    }
    cmd = [str(NVIM), "--headless", "--clean", "-c", f"luafile {SCRIPT}"]
    subprocess.run(cmd, env=env, cwd=tmp_path, timeout=90, check=False, capture_output=True)
    result = json.loads(out.read_text())
    assert result["errors"] == []
    assert any(d["lnum"] == 6 and "Missing" in d["message"] for d in result["diagnostics"])
    assert "User is a person with an account." in result["hover"]
    assert result["formatting"] == format_source("orders.kit", BROKEN).text
