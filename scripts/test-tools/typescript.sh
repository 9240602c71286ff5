#!/usr/bin/env bash
# TypeScript (tsc) for the generated TypeScript client's tests (tests/e2e/test_ts_client.py,
# which type-checks the client with `tsc --strict` and runs it under Node), exactly as
# tests/ts/package-lock.json pins it. No install scripts run (tsc needs none).
set -euo pipefail
here="$(dirname "$0")/../.."
exec bash "$here/scripts/npm-ci" "$here/tests/ts" "the TypeScript client tests will be skipped"
