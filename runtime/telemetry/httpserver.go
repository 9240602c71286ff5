package telemetry

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/internal/reqctx"
)

// The server side of HTTP instrumentation, written for the request path: a
// span per request and the three http.server.* histograms, with the metric
// attribute set of each (method, route, status, protocol, host, scheme)
// built once and reused. (otelhttp built and filtered those attributes on
// every request: it cost more than the rest of a kit request.)

const scope = "github.com/kitdev/kit/runtime/telemetry"

// scopeVersion is the instrumentation scope version on spans and series.
const scopeVersion = "1.10.0"

// durationBuckets are the semantic conventions' advice for
// http.server.request.duration, in seconds.
var durationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

type serverInstr struct {
	next     http.Handler
	tracer   trace.Tracer // nil: no spans
	prop     propagation.TextMapPropagator
	duration metric.Float64Histogram // nil: no metrics
	reqSize  metric.Int64Histogram
	respSize metric.Int64Histogram
	sets     sync.Map // metricKey -> []metric.RecordOption (the attribute set of the series)
	nsets    atomic.Int32
}

// maxSets bounds the cached attribute sets (the host comes from the
// client); past it sets are built per request.
const maxSets = 4096

type metricKey struct {
	method, route, host string
	status, minor       int
	tls                 bool
}

func (t *Telemetry) newServerInstr(next http.Handler) *serverInstr {
	s := &serverInstr{next: next, prop: t.propagator}
	if t.cfg.Otel.Enabled {
		s.tracer = t.tp.Tracer(scope, trace.WithInstrumentationVersion(scopeVersion))
	}
	if t.cfg.Metrics.Enabled {
		m := t.mp.Meter(scope, metric.WithInstrumentationVersion(scopeVersion))
		s.duration, _ = m.Float64Histogram("http.server.request.duration", metric.WithUnit("s"),
			metric.WithDescription("Duration of HTTP server requests."), metric.WithExplicitBucketBoundaries(durationBuckets...))
		s.reqSize, _ = m.Int64Histogram("http.server.request.body.size", metric.WithUnit("By"),
			metric.WithDescription("Size of HTTP server request bodies."))
		s.respSize, _ = m.Int64Histogram("http.server.response.body.size", metric.WithUnit("By"),
			metric.WithDescription("Size of HTTP server response bodies."))
	}
	return s
}

func (s *serverInstr) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	st := reqctx.From(r.Context())
	rw := reqctx.Find(w, r.Context())
	if st == nil || rw == nil { // outside a kit server: record what the handler writes
		var nr *http.Request
		nr, st = reqctx.Ensure(r)
		r = nr
		rw = reqctx.NewResponseWriter(w)
		w = rw
	}
	var span trace.Span
	if s.tracer != nil {
		span = s.startSpan(st, r)
	}
	s.next.ServeHTTP(w, r)
	status := rw.Status()
	if status == 0 {
		status = http.StatusOK
	}
	route := st.Route()
	if route == "" {
		route = reqctx.Route(r.Pattern)
	}
	if span != nil {
		s.endSpan(span, r.Method, route, status)
	}
	if s.duration != nil {
		s.record(r, route, status, rw.Bytes(), time.Since(start))
	}
}

// startSpan starts the request's server span, a child of the caller's
// trace context, and makes it the context of the request state (no request
// copy: the state is the request's context).
func (s *serverInstr) startSpan(st *reqctx.State, r *http.Request) trace.Span {
	parent := s.prop.Extract(st.Context, propagation.HeaderCarrier(r.Header))
	if _, idsOnly := s.tracer.(idTracer); idsOnly { // nothing records attributes
		ctx, span := s.tracer.Start(parent, "")
		st.Context = ctx
		return span
	}
	attrs := [...]attribute.KeyValue{
		attribute.String("http.request.method", method(r.Method)),
		attribute.String("url.path", r.URL.Path),
		attribute.String("url.scheme", scheme(r)),
		attribute.String("server.address", host(r.Host)),
		attribute.String("network.protocol.version", protoVersion(r)),
		attribute.String("client.address", host(r.RemoteAddr)),
	}
	ctx, span := s.tracer.Start(parent, spanMethod(r.Method), trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attrs[:]...))
	st.Context = ctx
	return span
}

func (s *serverInstr) endSpan(span trace.Span, m, route string, status int) {
	if span.IsRecording() {
		if route != "" {
			span.SetName(spanMethod(m) + " " + route)
			span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status))
		} else {
			span.SetAttributes(attribute.Int("http.response.status_code", status))
		}
		if status >= 500 {
			span.SetStatus(codes.Error, "")
		}
	}
	span.End()
}

func (s *serverInstr) record(r *http.Request, route string, status int, written int64, d time.Duration) {
	key := metricKey{method: method(r.Method), route: route, host: host(r.Host), status: status, minor: r.ProtoMinor, tls: r.TLS != nil}
	opts := s.attributes(key, r)
	ctx := context.Background()
	s.duration.Record(ctx, d.Seconds(), opts...)
	s.reqSize.Record(ctx, max(r.ContentLength, 0), opts...)
	s.respSize.Record(ctx, written, opts...)
}

// attributes returns the record options (the attribute set) of a series, built
// once per key: passing them as a ready slice allocates nothing per request.
func (s *serverInstr) attributes(k metricKey, r *http.Request) []metric.RecordOption {
	if v, ok := s.sets.Load(k); ok {
		return v.([]metric.RecordOption)
	}
	kvs := make([]attribute.KeyValue, 0, 7)
	kvs = append(kvs,
		attribute.String("http.request.method", k.method),
		attribute.Int("http.response.status_code", k.status),
		attribute.String("network.protocol.name", "http"),
		attribute.String("network.protocol.version", protoVersion(r)),
		attribute.String("server.address", k.host),
		attribute.String("url.scheme", scheme(r)),
	)
	if k.route != "" {
		kvs = append(kvs, attribute.String("http.route", k.route))
	}
	opts := []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(kvs...))}
	if s.nsets.Load() < maxSets {
		if _, loaded := s.sets.LoadOrStore(k, opts); !loaded {
			s.nsets.Add(1)
		}
	}
	return opts
}

// otherMethod records a method the semantic conventions do not name.
const otherMethod = "_OTHER"

// method is the request method as the semantic conventions record it:
// a known method, else _OTHER.
func method(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return otherMethod
}

func scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

func protoVersion(r *http.Request) string {
	switch {
	case r.ProtoMajor == 1 && r.ProtoMinor == 1:
		return "1.1"
	case r.ProtoMajor == 2:
		return "2"
	}
	return strconv.Itoa(r.ProtoMajor) + "." + strconv.Itoa(r.ProtoMinor)
}

// host strips the port of a host[:port].
func host(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}
