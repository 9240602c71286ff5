#!/bin/sh
# Fails when grammar/src/ is stale: regenerates the parser from grammar.js in a temporary
# copy and compares it with the committed src/. Skips (exit 0) without the tree-sitter CLI.
set -eu

here=$(cd "$(dirname "$0")" && pwd)

if ! command -v tree-sitter >/dev/null 2>&1; then
    echo "check-generated: tree-sitter CLI not installed - skipped"
    exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$here/grammar.js" "$here/tree-sitter.json" "$here/package.json" "$tmp/"
(cd "$tmp" && tree-sitter generate >/dev/null)

status=0
for f in parser.c grammar.json node-types.json; do
    if ! cmp -s "$here/src/$f" "$tmp/src/$f"; then
        echo "check-generated: grammar/src/$f differs from 'tree-sitter generate' output" >&2
        status=1
    fi
done
if [ "$status" -ne 0 ]; then
    echo "check-generated: run 'cd grammar && tree-sitter generate' and commit grammar/src" >&2
    echo "check-generated: (committed src/ was made with tree-sitter-cli 0.27.1; this is $(tree-sitter --version))" >&2
fi
exit "$status"
