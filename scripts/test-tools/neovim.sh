#!/usr/bin/env bash
# Neovim drives the real-editor test of kit-lsp.
set -euo pipefail
if ! command -v nvim >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq neovim) >/dev/null 2>&1 || echo "setup: neovim not installed; its test will skip"
fi
