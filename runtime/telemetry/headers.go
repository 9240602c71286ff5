package telemetry

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
)

// InjectHeaders writes the trace context of ctx (W3C traceparent and tracestate, and
// baggage) into a message's string headers through the global propagator that Init
// installs. Nothing is written when ctx carries no span.
func InjectHeaders(ctx context.Context, h map[string]string) {
	otel.GetTextMapPropagator().Inject(ctx, propagation.MapCarrier(h))
}

// ExtractHeaders returns ctx with the remote trace context read from a message's headers,
// so the consumer's span continues the publisher's trace.
func ExtractHeaders(ctx context.Context, h map[string]string) context.Context {
	return otel.GetTextMapPropagator().Extract(ctx, propagation.MapCarrier(h))
}
