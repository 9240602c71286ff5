#!/usr/bin/env bash
# The Go modules the runtime's tests build with, and the Go 1.25 toolchain scripts/test builds
# the runtime and its transports with (they declare `go 1.25`), fetched from the Go module
# proxy beside the other setup steps: on a fresh machine these downloads took minutes in the
# middle of the test run, one after the other.
set -euo pipefail
cd "$(dirname "$0")/../.."
for module in runtime runtime/events/nats runtime/events/kafka; do
    (cd "$module" && GOFLAGS= go mod download)
done
(cd runtime && GOTOOLCHAIN=go1.25.0 GOFLAGS= go version >/dev/null)
