// Package gzipcheck holds a test that links runtime/rpc and nothing that
// registers a gRPC compressor on its own (no OpenTelemetry exporter, no
// telemetry package): a gzip call passing there proves runtime/rpc
// registers gzip itself.
package gzipcheck
