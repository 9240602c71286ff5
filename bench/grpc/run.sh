#!/usr/bin/env bash
# A unary RPC through the kit rpc server (default interceptors: recovery, access log
# written to a sink, unary timeout check) against the same handler on a bare
# grpc.NewServer, both over loopback TCP with a parallel client, in one run.
# kit's server runs calls on stream workers (grpc.NumStreamWorkers); a third variant, a
# bare server with the same workers, isolates the cost of kit's interceptors.
# Rounds alternate between the variants; the medians and their ratio are printed
# (target: kit >= 0.9x bare in throughput), with the process CPU time per call,
# which other work on a shared machine barely moves.
# Usage: bench/grpc/run.sh [benchtime=1s] [rounds=7]
set -euo pipefail
cd "$(dirname "$0")"
BENCHTIME="${1:-1s}"
ROUNDS="${2:-7}"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
go test -c -o bench.test .
for _ in $(seq "$ROUNDS"); do
    ./bench.test -test.run '^$' -test.bench '^BenchmarkBareUnary$' -test.benchtime "$BENCHTIME"
    ./bench.test -test.run '^$' -test.bench '^BenchmarkKitUnary$' -test.benchtime "$BENCHTIME"
    ./bench.test -test.run '^$' -test.bench '^BenchmarkBareWorkersUnary$' -test.benchtime "$BENCHTIME"
done | awk '
  function field(unit,   i) { for (i = 1; i <= NF; i++) if ($i == unit) return $(i-1) }
  function median(a, n,   i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  /^BenchmarkBareUnary/ { print; bn++; bns[bn] = field("ns/op"); bcpu[bn] = field("cpu-ns/op"); ba = field("allocs/op") }
  /^BenchmarkKitUnary/  { print; kn++; kns[kn] = field("ns/op"); kcpu[kn] = field("cpu-ns/op"); ka = field("allocs/op") }
  /^BenchmarkBareWorkersUnary/ { print; wn++; wns[wn] = field("ns/op"); wcpu[wn] = field("cpu-ns/op") }
  END {
    b = median(bns, bn); k = median(kns, kn); bc = median(bcpu, bn); kc = median(kcpu, kn)
    printf "\nmedian of %d rounds: bare %.0f ns/op, kit %.0f ns/op -> kit throughput %.2fx bare (target >= 0.90x)\n", bn, b, k, b / k
    printf "process CPU per call: bare %.0f ns, kit %.0f ns -> %.2fx; allocs/op %+d\n", bc, kc, bc / kc, ka - ba
    w = median(wns, wn); wc = median(wcpu, wn)
    printf "against a bare server with the same stream workers (the interceptors alone): throughput %.2fx, CPU %.2fx\n", w / k, wc / kc
  }'
rm -f bench.test
