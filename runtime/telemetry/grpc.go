package telemetry

import (
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"google.golang.org/grpc/stats"
)

// GRPCServerHandler returns the gRPC server stats handler: a span per RPC
// adopting the caller's trace context from metadata, and the
// rpc.server.call.duration histogram. Install it with
// rpc.WithStatsHandler(...) (or grpc.StatsHandler(...), which needs a
// non-nil handler).
//
// With both otel.enabled and metrics.enabled false it returns nil and
// rpc.WithStatsHandler(nil) installs nothing: any stats handler makes
// grpc-go copy the incoming metadata of every call. The rpc server then
// still adopts a caller's traceparent for its log lines, without
// OpenTelemetry on the call path.
func (t *Telemetry) GRPCServerHandler() stats.Handler {
	if !t.cfg.Otel.Enabled && !t.cfg.Metrics.Enabled {
		return nil
	}
	return otelgrpc.NewServerHandler(
		otelgrpc.WithTracerProvider(t.tp),
		otelgrpc.WithMeterProvider(t.instrMP),
		otelgrpc.WithPropagators(t.propagator),
	)
}

// GRPCClientHandler returns the gRPC client stats handler: a client span,
// the rpc.client.call.duration histogram and the trace context sent in
// request metadata. Install it with grpc.WithStatsHandler(...).
func (t *Telemetry) GRPCClientHandler() stats.Handler {
	return otelgrpc.NewClientHandler(
		otelgrpc.WithTracerProvider(t.tp),
		otelgrpc.WithMeterProvider(t.instrMP),
		otelgrpc.WithPropagators(t.propagator),
	)
}
