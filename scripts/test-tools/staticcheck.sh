#!/usr/bin/env bash
# staticcheck is the linter the generated-Go tests hold kit's output to (tests/golden/
# test_staticcheck.py). Its version is pinned by tools/go.mod's `tool` directive; `go install tool`
# builds exactly that version into $GOPATH/bin.
set -euo pipefail
cd "$(dirname "$0")/../../tools"
export PATH="$HOME/go/bin:$(go env GOPATH)/bin:$PATH"
VERSION=$(GOTOOLCHAIN=local GOFLAGS= go list -m -f '{{.Version}}' honnef.co/go/tools)
if command -v staticcheck >/dev/null 2>&1 && go version -m "$(command -v staticcheck)" | grep -q "honnef.co/go/tools[[:space:]]*${VERSION}"; then
    exit 0
fi
GOTOOLCHAIN=local GOFLAGS= go install tool \
    || echo "setup: staticcheck not installed; the tests that need it will fail"
