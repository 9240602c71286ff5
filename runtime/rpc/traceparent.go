package rpc

import (
	"context"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// adoptTraceparent returns ctx carrying the caller's span context, read from
// the W3C traceparent (and tracestate) metadata of the call, when ctx has no
// span context yet: no stats handler is installed (telemetry off) yet the
// call's log lines, and the logic's, carry the caller's trace ids, as they
// did through the OpenTelemetry handler with a no-op tracer. A call without
// traceparent costs one metadata lookup and nothing is allocated. ok is false
// when ctx is returned unchanged.
func adoptTraceparent(ctx context.Context) (_ context.Context, ok bool) {
	// The metadata first: most calls carry no traceparent, and the span
	// context's lookup walks the whole context chain to find none.
	v := metadata.ValueFromIncomingContext(ctx, "traceparent")
	if len(v) == 0 {
		return ctx, false
	}
	// The handler has already done it: the span it started is in ctx.
	if trace.SpanContextFromContext(ctx).IsValid() {
		return ctx, false
	}
	cfg, ok := parseTraceparent(v[0])
	if !ok {
		return ctx, false
	}
	// The first value of each, as the OpenTelemetry handler reads them.
	if ts := metadata.ValueFromIncomingContext(ctx, "tracestate"); len(ts) > 0 {
		if state, err := trace.ParseTraceState(ts[0]); err == nil {
			cfg.TraceState = state
		}
	}
	cfg.Remote = true
	return trace.ContextWithRemoteSpanContext(ctx, trace.NewSpanContext(cfg)), true
}

// parseTraceparent reads a W3C traceparent header value
// ("00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>") by the rules of
// OpenTelemetry's TraceContext propagator (the one the stats handler uses
// when telemetry is on): lower-case hex, version ff invalid, the flags
// followed by nothing or '-' (and for version 00 by at most that '-', with
// no reserved flag bit set), non-zero ids; of the flags only "sampled" and
// "random" are kept.
func parseTraceparent(h string) (trace.SpanContextConfig, bool) {
	var cfg trace.SpanContextConfig
	if len(h) < 55 || h[2] != '-' || h[35] != '-' || h[52] != '-' || len(h) > 55 && h[55] != '-' {
		return cfg, false
	}
	var version, flags [1]byte
	if !unhex(version[:], h[0:2]) || !unhex(cfg.TraceID[:], h[3:35]) || !unhex(cfg.SpanID[:], h[36:52]) ||
		!unhex(flags[:], h[53:55]) || version[0] == 0xff || version[0] == 0 && (len(h) > 56 || flags[0] > 3) ||
		!cfg.TraceID.IsValid() || !cfg.SpanID.IsValid() {
		return cfg, false
	}
	cfg.TraceFlags = trace.TraceFlags(flags[0]) & (trace.FlagsSampled | trace.FlagsRandom)
	return cfg, true
}

// unhex decodes lower-case hex s into dst (len(s) == 2*len(dst)).
func unhex(dst []byte, s string) bool {
	for i := range dst {
		hi, ok1 := hexDigit(s[2*i])
		lo, ok2 := hexDigit(s[2*i+1])
		if !ok1 || !ok2 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// tracedStream is a server stream whose context carries the adopted caller's
// span context (adoptTraceparent).
type tracedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s tracedStream) Context() context.Context { return s.ctx }
