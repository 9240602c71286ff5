#!/usr/bin/env bash
# Compares a small JSON endpoint served through server.New(nil).Handler()
# (default middleware) with the same handler on a bare http.ServeMux:
#   1. Go benchmarks (ns/op, allocs/op) and their ratio;
#   2. a loopback load test (requests/s) and its ratio (target >= 0.9x), with
#      the median of per-round ratios and each server's CPU time per request
#      (from /proc), which noise from other work on the machine barely moves.
# Usage: bench/runtime/run.sh [benchtime=1s] [load round=1s] [rounds=7]
# Rounds alternate between the servers and the median is reported, which
# keeps the ratio usable on a machine shared with other work; the Go
# benchmarks are in-process (httptest recorder), so their ratio shows the
# per-request cost of the runtime without any network or syscall.
set -euo pipefail
cd "$(dirname "$0")"
BENCHTIME="${1:-1s}"
DUR="${2:-1s}"
ROUNDS="${3:-7}"

echo "== Go benchmarks (benchtime ${BENCHTIME})"
out="$(go test -run '^$' -bench 'BareMux|KitServer' -benchmem -benchtime "$BENCHTIME" -count 1 .)"
echo "$out" | grep -E '^Benchmark'
echo "$out" | awk '
  function field(unit,   i) { for (i = 1; i <= NF; i++) if ($i == unit) return $(i-1) }
  /^BenchmarkBareMux-/                       { bns = field("ns/op"); bb = field("B/op"); ba = field("allocs/op") }
  /^BenchmarkKitServer-/                     { kns = field("ns/op"); kb = field("B/op"); ka = field("allocs/op") }
  /^BenchmarkKitServerNoDefaultMiddleware-/  { mns = field("ns/op"); mb = field("B/op"); ma = field("allocs/op") }
  END {
    printf "  kit default:            ns/op %.2fx bare (%s vs %s), allocs/op %+d, B/op %+d; in-process throughput ratio %.2fx\n", kns / bns, kns, bns, ka - ba, kb - bb, bns / kns
    printf "  kit without access log: ns/op %.2fx bare (%s vs %s), allocs/op %+d, B/op %+d; in-process throughput ratio %.2fx\n", mns / bns, mns, bns, ma - ba, mb - bb, bns / mns
  }'

echo
echo "== Loopback load test"
go run ./loadtest -d "$DUR" -rounds "$ROUNDS"
