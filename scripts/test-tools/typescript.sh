#!/usr/bin/env bash
# TypeScript (tsc) for the generated TypeScript client's tests (tests/e2e/test_ts_client.py,
# which type-checks the client with `tsc --strict` and runs it under Node), exactly as
# tests/ts/package-lock.json pins it, from the npm registry. No install scripts run (tsc
# needs none). Skipped when node_modules already matches the lock file.
set -euo pipefail
cd "$(dirname "$0")/../../tests/ts"
if ! command -v npm >/dev/null 2>&1; then
    echo "setup: npm not installed; the TypeScript client tests will be skipped" >&2
    exit 0
fi
stamp=node_modules/.kit-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    exit 0
fi
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
echo "$want" > "$stamp"
