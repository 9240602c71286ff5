#!/usr/bin/env bash
# Events bus against the raw client (nats.go jetstream, franz-go) on the same brokers in one
# run. Uses KIT_NATS_URL / KIT_KAFKA_BROKERS when set, else starts a nats-server and a Kafka
# with tests/brokers.py (scripts/test-tools/nats.sh and kafka.sh install them) and stops
# them after. Arguments go to the Go program (-n, -batch, -rounds, -nats, -kafka).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$HOME/go/bin:$PATH" GOTOOLCHAIN=local
if [ -z "${KIT_NATS_URL:-}" ] && [ -z "${KIT_KAFKA_BROKERS:-}" ]; then
    env_file="$(mktemp)"
    exec {brokers_in}> >(exec python3 ../../tests/brokers.py serve nats kafka --env-file "$env_file" >/dev/null)
    for _ in $(seq 180); do grep -q READY "$env_file" 2>/dev/null && break; sleep 1; done
    set -a && . <(grep = "$env_file") && set +a
    rm -f "$env_file"
fi
go run . "$@"
