#!/usr/bin/env bash
# grpcurl is the real gRPC client the end-to-end tests list services with (reflection) and call
# RPCs through. Installed into $GOPATH/bin from the Go module proxy, pinned.
set -euo pipefail
VERSION=v1.9.4
export PATH="$HOME/go/bin:$(go env GOPATH)/bin:$PATH"
# `go install` sets no -version text: the module version recorded in the binary decides.
if command -v grpcurl >/dev/null 2>&1 && go version -m "$(command -v grpcurl)" | grep -q "grpcurl[[:space:]]*${VERSION}"; then
    exit 0
fi
GOTOOLCHAIN=local GOFLAGS= go install "github.com/fullstorydev/grpcurl/cmd/grpcurl@${VERSION}" \
    || echo "setup: grpcurl not installed; the tests that need it will fail"
