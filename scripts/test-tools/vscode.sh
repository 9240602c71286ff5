#!/usr/bin/env bash
# The VS Code extension's build and test tools (esbuild, mocha, vsce, vscode-tmgrammar-test),
# exactly as package-lock.json pins them. Install scripts are not run: none of these needs
# one (esbuild's binary is its platform package; keytar, an optional dependency of vsce for
# publishing tokens, would try to download a prebuilt).
set -euo pipefail
here="$(dirname "$0")/../.."
exec bash "$here/scripts/npm-ci" "$here/editors/vscode" "the VS Code extension tests will fail"
