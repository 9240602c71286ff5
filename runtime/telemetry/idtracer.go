package telemetry

import (
	"context"
	"math/rand/v2"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// idProvider is the tracer provider of otel.exporter none without span
// processors: spans that nothing records or exports, but that carry real
// trace and span ids - a child of the caller's trace, or a new sampled one -
// so log lines hold trace ids and outbound calls propagate the trace. The
// SDK would build and drop a full span for each request.
type idProvider struct{ embedded.TracerProvider }

func (idProvider) Tracer(string, ...trace.TracerOption) trace.Tracer { return idTracer{} }

type idTracer struct{ embedded.Tracer }

// Start returns ctx carrying a span context with a new span id, in the
// trace of the span context ctx carries (its flags and state kept), or in
// a new sampled trace.
func (idTracer) Start(ctx context.Context, _ string, _ ...trace.SpanStartOption) (context.Context, trace.Span) {
	parent := trace.SpanContextFromContext(ctx)
	cfg := trace.SpanContextConfig{TraceID: parent.TraceID(), TraceFlags: parent.TraceFlags(), TraceState: parent.TraceState()}
	if !parent.IsValid() {
		cfg.TraceID, cfg.TraceFlags = newTraceID(), trace.FlagsSampled
	}
	cfg.SpanID = newSpanID()
	ctx = trace.ContextWithSpanContext(ctx, trace.NewSpanContext(cfg))
	return ctx, trace.SpanFromContext(ctx)
}

func newTraceID() trace.TraceID {
	var id trace.TraceID
	for id == (trace.TraceID{}) {
		hi, lo := rand.Uint64(), rand.Uint64()
		for i := 0; i < 8; i++ {
			id[i], id[8+i] = byte(hi>>(56-8*i)), byte(lo>>(56-8*i))
		}
	}
	return id
}

func newSpanID() trace.SpanID {
	var id trace.SpanID
	for id == (trace.SpanID{}) {
		v := rand.Uint64()
		for i := 0; i < 8; i++ {
			id[i] = byte(v >> (56 - 8*i))
		}
	}
	return id
}
