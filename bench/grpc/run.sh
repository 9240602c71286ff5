#!/usr/bin/env bash
# The catalog service (catalog/catalogpb/catalog.proto: an 11-field item with strings, a
# nested message, an enum and a repeated field) served by kit - the rpc server as the
# generated main builds it, the generated server layer and logic scaffold - and by a bare
# grpc-go server of the same proto with the same validation, in one run:
#
# 1. in process over loopback TCP (go test -bench): time and allocations per unary GetItem
#    and per 50-item ListItems stream, client and server in one process (the client is the
#    same for all, so the differences are the servers'); target: kit's allocations at most
#    bare's (validation is in both; bare-novalid, the bare server without it, shows what
#    validation itself allocates; kit-oldstats is kit's stats handler before issue 23);
# 2. loopback load (cmd/grpcload): each server in its own process, the load generator on
#    CPU 1; in each round every kit variant is loaded for one window together with the bare
#    server, both pinned to CPU 0, so both see the same state of this shared machine; the
#    servers' CPU time per RPC (their CPU clocks, ns) and the ratio to bare of the same
#    window; the median of the rounds' ratios, its IQR and 95% confidence interval
#    (target: kit with telemetry off <= 1.05x). bare-2, a second bare process, is the A/A
#    control: its ratio is the method's own error.
#
# Variants: bare; kit (otel and metrics off, access log at info to stderr, /dev/null); kit-warn (the
# same at logging.level warn: no access line); kit-otel (otel on with exporter none,
# metrics on with the Prometheus exporter): kit-otel minus kit is what telemetry costs.
# Usage: bench/grpc/run.sh [rounds=30] [window=250ms] [benchtime=20000x]
set -euo pipefail
cd "$(dirname "$0")"
ROUNDS="${1:-30}"
WINDOW="${2:-250ms}"
BENCHTIME="${3:-20000x}"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
go build -o bin/grpcload ./cmd/grpcload
echo "load before: $(uptime)"
echo "== in process, loopback TCP (benchtime $BENCHTIME)"
go test -run '^$' -bench . -benchtime "$BENCHTIME" . | awk '
  /^Benchmark/ {
    split($1, p, "/"); kind = p[1]; sub(/-[0-9]+$/, "", p[2])
    for (i = 1; i <= NF; i++) if ($i == "allocs/op") a = $(i-1)
    if (p[2] == "bare") base[kind] = a
    printf "%-60s allocs %+d against bare\n", $0, a - base[kind]
  }'
echo "== loopback load"
taskset -c 1 bin/grpcload -rounds "$ROUNDS" -paired "$WINDOW" -core 0
echo "load after: $(uptime)"
