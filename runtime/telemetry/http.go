package telemetry

import (
	"net/http"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
)

// HTTPMiddleware returns the server instrumentation: a span per request
// (adopting the caller's W3C trace context), named "<METHOD> <route>", and
// the http.server.request.duration, http.server.request.body.size and
// http.server.response.body.size histograms labelled with the matched
// route pattern (http.route), never the concrete path. Install it with
// server.WithTelemetry, not with Use.
//
// With both otel.enabled and metrics.enabled false it returns the handler
// it is given: nothing of telemetry is left on the request path.
func (t *Telemetry) HTTPMiddleware() func(http.Handler) http.Handler {
	if !t.cfg.Otel.Enabled && !t.cfg.Metrics.Enabled {
		return func(next http.Handler) http.Handler { return next }
	}
	return func(next http.Handler) http.Handler { return t.newServerInstr(next) }
}

// spanMethod is the method part of a span name: a known method, else HTTP.
func spanMethod(m string) string {
	if m = method(m); m == otherMethod {
		return "HTTP"
	}
	return m
}

// HTTPTransport wraps base (http.DefaultTransport when nil) so outbound
// requests get a client span and carry the W3C trace context.
func (t *Telemetry) HTTPTransport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return otelhttp.NewTransport(base,
		otelhttp.WithTracerProvider(t.tp),
		otelhttp.WithMeterProvider(t.instrMP),
		otelhttp.WithPropagators(t.propagator),
	)
}

// HTTPClient returns an http.Client over HTTPTransport(nil).
func (t *Telemetry) HTTPClient() *http.Client {
	return &http.Client{Transport: t.HTTPTransport(nil)}
}
