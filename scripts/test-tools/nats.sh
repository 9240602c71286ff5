#!/usr/bin/env bash
# nats-server (with JetStream) for the events NATS transport's conformance run, the
# showcase's end-to-end test and bench/events: built from its Go module into GOPATH/bin.
set -euo pipefail
export PATH="$HOME/go/bin:$PATH"
VERSION=v2.12.1
bin="$(go env GOPATH)/bin/nats-server"
if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q "${VERSION#v}"; then
    exit 0
fi
GOTOOLCHAIN=local GOFLAGS= go install "github.com/nats-io/nats-server/v2@$VERSION"
