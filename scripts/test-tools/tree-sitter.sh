#!/usr/bin/env bash
# The tree-sitter CLI checks the committed parser.c and runs the grammar corpus.
set -euo pipefail
export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v tree-sitter >/dev/null 2>&1; then
    cargo install tree-sitter-cli --locked --quiet || echo "setup: tree-sitter CLI not installed; corpus tests will skip"
fi
