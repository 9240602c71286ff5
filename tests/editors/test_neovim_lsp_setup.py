"""The Neovim setup of editors/neovim/README.md, as a user has it (no `cmd` of their own):
kit-lsp is found in the virtualenv Neovim was started from when it is not on PATH, and when
it is nowhere, the editor says why nothing starts (a WARN notification), once."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from nvim_support import NVIM_RTP, REPO, isolated_env, needs_nvim, run_nvim

HERE = Path(__file__).parent / "nvim"
BARE_PATH = "/usr/bin:/bin"  # no kit-lsp on it (nor python's bin folder)


def _open(tmp_path: Path, wait_ms: int, **env: str) -> dict[str, object]:
    design = tmp_path / "project/design"
    design.mkdir(parents=True)
    (design / "kit.design.yaml").write_text("")
    (design / "a.kit").write_text("package a\n\ntype T {\n\tname string\n}\n")
    (design / "b.kit").write_text("package a\n\ntype U {\n\tname string\n}\n")
    out = tmp_path / "result.json"
    full = isolated_env(
        tmp_path,
        KIT_NVIM_RTP=str(NVIM_RTP),
        KIT_NVIM_OUT=str(out),
        KIT_FILE=str(design / "a.kit"),
        KIT_FILE2=str(design / "b.kit"),
        KIT_WAIT_MS=str(wait_ms),
        PATH=BARE_PATH,
        **env,
    )
    if "VIRTUAL_ENV" not in env:
        full.pop("VIRTUAL_ENV", None)
    proc = run_nvim(["-u", str(HERE / "lsp_setup.lua")], full, design)
    assert out.exists(), f"Neovim wrote no result:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(out.read_text())  # type: ignore[no-any-return]


@needs_nvim
def test_kit_lsp_is_found_in_the_virtualenv(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    exe = venv / "bin/kit-lsp"
    exe.write_text(f'#!/bin/sh\nPYTHONPATH="{REPO}" exec "{sys.executable}" -m kit_lsp "$@"\n')
    exe.chmod(0o755)
    r = _open(tmp_path, 60_000, VIRTUAL_ENV=str(venv))
    assert (r["filetype"], r["notes"], r["started"]) == ("kit", [], True), r
    assert r["cmd"] == [str(exe)]


@needs_nvim
def test_without_kit_lsp_the_editor_says_why(tmp_path: Path) -> None:
    r = _open(tmp_path, 5_000)
    assert (r["filetype"], r["started"]) == ("kit", False)
    notes = r["notes"]
    assert isinstance(notes, list) and len(notes) == 1, notes
    assert notes[0]["level"] == r["warn"] and notes[0]["msg"].startswith("kit-lsp not found")
    assert "vim.lsp.config('kit', { cmd = " in notes[0]["msg"]
