#!/usr/bin/env bash
# The tree-sitter CLI checks the committed parser.c and runs the grammar corpus and the
# highlight tests. No registry ships it prebuilt for this machine (npm's tree-sitter-cli
# downloads its binary at install time, which the network refuses; PyPI has none), so
# it is built from crates.io once, at the version grammar/src was generated with, and kept
# in ~/.cargo/bin; later runs find it there and build nothing. The demo never needs it.
#
# The build is the longest step of a fresh setup, so it is made lighter:
# - without the default `qjs-rt` feature (an embedded QuickJS, a large C build, to read
#   grammar.js): `tree-sitter generate` runs grammar.js with Node instead, which the test
#   setup needs anyway (npm), and writes the same parser;
# - at opt-level 1 rather than 3: the build takes about half as long, and the CLI's work
#   here (generate, test) stays within seconds.
set -euo pipefail
export PATH="$HOME/.cargo/bin:$PATH"
want=0.27.1
have=$(tree-sitter --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
    if command -v cargo >/dev/null 2>&1; then
        CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
            cargo install tree-sitter-cli --version "$want" --locked --no-default-features --quiet \
            || echo "setup: tree-sitter CLI not installed; corpus tests will skip" >&2
    else
        echo "setup: cargo not installed, so no tree-sitter CLI; corpus tests will skip" >&2
    fi
fi
