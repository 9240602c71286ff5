#!/usr/bin/env bash
# The VS Code extension's build and test tools (esbuild, mocha, vsce, vscode-tmgrammar-test),
# exactly as package-lock.json pins them, from the npm registry. Install scripts are not
# run: none of these needs one (esbuild's binary is its platform package; keytar, an
# optional dependency of vsce for publishing tokens, would try to download a prebuilt).
# Skipped when node_modules already matches the lock file.
set -euo pipefail
cd "$(dirname "$0")/../../editors/vscode"
if ! command -v npm >/dev/null 2>&1; then
    echo "setup: npm not installed; the VS Code extension tests will fail" >&2
    exit 0
fi
stamp=node_modules/.kit-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    exit 0
fi
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
echo "$want" > "$stamp"
