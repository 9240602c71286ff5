// Package ctxline appends a context's ids to a hand-made log line: the HTTP and
// gRPC access logs write them exactly as log.ContextSlogAttrs gives them to slog.
package ctxline

import (
	"context"

	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/internal/jsonline"
	"github.com/kitdev/kit/runtime/log"
)

// AppendIDs appends trace_id and span_id (for a valid span) and request_id (when
// one is stored) to ln, in that order.
func AppendIDs(ln *jsonline.Line, ctx context.Context) {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		tid, sid := sc.TraceID(), sc.SpanID()
		ln.Hex("trace_id", tid[:])
		ln.Hex("span_id", sid[:])
	}
	if id := log.RequestIDFromContext(ctx); id != "" {
		ln.String("request_id", id)
	}
}
