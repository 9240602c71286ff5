#!/usr/bin/env bash
# Regenerates bench/grpc/catalog/catalogpb from catalog.proto with the plugins pinned in
# this folder's go.mod and grpcio-tools' protoc (pip install grpcio-tools).
set -euo pipefail
cd "$(dirname "$0")"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
go build -o bin/ google.golang.org/protobuf/cmd/protoc-gen-go google.golang.org/grpc/cmd/protoc-gen-go-grpc
python3 -m grpc_tools.protoc -Icatalog/catalogpb \
    --plugin=protoc-gen-go=bin/protoc-gen-go --plugin=protoc-gen-go-grpc=bin/protoc-gen-go-grpc \
    --go_out=paths=source_relative:catalog/catalogpb --go-grpc_out=paths=source_relative:catalog/catalogpb \
    catalog.proto
