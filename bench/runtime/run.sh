#!/usr/bin/env bash
# Compares a small JSON endpoint served through server.New(nil).Handler()
# (default middleware) with the same handler on a bare http.ServeMux:
#   1. Go benchmarks (ns/op, allocs/op) and their ratio;
#   2. a loopback load test (requests/s) and its ratio (target >= 0.9x).
# Usage: bench/runtime/run.sh [benchtime] [load duration per round]
set -euo pipefail
cd "$(dirname "$0")"
BENCHTIME="${1:-1s}"
DUR="${2:-3s}"

echo "== Go benchmarks (benchtime ${BENCHTIME})"
out="$(go test -run '^$' -bench 'BareMux|KitServer' -benchmem -benchtime "$BENCHTIME" -count 1 .)"
echo "$out" | grep -E '^Benchmark'
echo "$out" | awk '
  /^BenchmarkBareMux/   { for (i = 1; i <= NF; i++) { if ($i == "ns/op") bns = $(i-1); if ($i == "allocs/op") ba = $(i-1); if ($i == "B/op") bb = $(i-1) } }
  /^BenchmarkKitServer/ { for (i = 1; i <= NF; i++) { if ($i == "ns/op") kns = $(i-1); if ($i == "allocs/op") ka = $(i-1); if ($i == "B/op") kb = $(i-1) } }
  END {
    printf "  ns/op     kit/bare = %.2fx (kit %s, bare %s)\n", kns / bns, kns, bns
    printf "  allocs/op kit - bare = %+d (kit %s, bare %s)\n", ka - ba, ka, ba
    printf "  B/op      kit - bare = %+d (kit %s, bare %s)\n", kb - bb, kb, bb
    printf "  throughput ratio (in-process, no network) kit/bare = %.2fx\n", bns / kns
  }'

echo
echo "== Loopback load test"
go run ./loadtest -d "$DUR"
