// Package telemetry owns the tracing and metrics stack of a kit service: an
// OpenTelemetry tracer provider, a meter provider, the Prometheus registry
// and the scrape listener on metrics.adminAddr. It hands out the HTTP
// middleware (server.WithTelemetry(t.HTTPMiddleware())), an instrumented
// HTTP client transport and the gRPC stats handlers.
//
// The package does not import package server: HTTPMiddleware returns a
// func(http.Handler) http.Handler, which is server.Middleware. It shares
// the per-request route holder of the server through an internal package,
// so the http.route label and the span name carry the matched mux pattern
// ("/users/{id}") even when middlewares copy the request.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// Config is the telemetry part of config.yaml; its YAML keys are those of
// the generated file (serviceName, otel.*, metrics.*).
type Config struct {
	// ServiceName is service.name on traces and on target_info.
	ServiceName string        `yaml:"serviceName" json:"serviceName"`
	Otel        OtelConfig    `yaml:"otel" json:"otel"`
	Metrics     MetricsConfig `yaml:"metrics" json:"metrics"`
}

// OtelConfig configures tracing.
type OtelConfig struct {
	// Enabled false stops spans (a no-op tracer provider); metrics go on.
	Enabled bool `yaml:"enabled" json:"enabled"`
	// Exporter is "" or "none" (no span is recorded or exported, but every
	// request still gets trace and span ids, for logs and propagation),
	// "stdout", "otlp_grpc" or "otlp_http".
	Exporter string `yaml:"exporter" json:"exporter"`
	// Endpoint of the OTLP collector: host:port (plain text) or a URL
	// (http:// or https://). Empty uses the SDK default and OTEL_* env.
	Endpoint string `yaml:"endpoint" json:"endpoint"`
	// ServiceName overrides Config.ServiceName for traces.
	ServiceName string `yaml:"serviceName,omitempty" json:"serviceName,omitempty"`
}

// MetricsConfig configures metrics.
type MetricsConfig struct {
	// Enabled controls the http.server.* and rpc.* series.
	Enabled bool `yaml:"enabled" json:"enabled"`
	// Exporter is "" or "prometheus" (scrape), "otlp_grpc" or "otlp_http"
	// (push every 30s), or "none".
	Exporter string `yaml:"exporter" json:"exporter"`
	// Endpoint of the OTLP collector for the otlp exporters.
	Endpoint string `yaml:"endpoint" json:"endpoint"`
	// AdminAddr is the scrape listener address; empty starts none.
	AdminAddr string `yaml:"adminAddr" json:"adminAddr"`
	// Path is the scrape path, default /metrics.
	Path string `yaml:"path" json:"path"`
	// ServiceName overrides Config.ServiceName for metrics.
	ServiceName string `yaml:"serviceName,omitempty" json:"serviceName,omitempty"`
}

// Option tunes Init beyond the config file.
type Option func(*initOptions)

type initOptions struct {
	spanProcessors []sdktrace.SpanProcessor
	noGlobals      bool
}

// WithSpanProcessor adds a span processor (for example a test recorder)
// to the tracer provider.
func WithSpanProcessor(sp sdktrace.SpanProcessor) Option {
	return func(o *initOptions) { o.spanProcessors = append(o.spanProcessors, sp) }
}

// WithoutGlobals keeps Init from installing its providers and propagator
// as the OpenTelemetry globals.
func WithoutGlobals() Option { return func(o *initOptions) { o.noGlobals = true } }

// Telemetry owns the providers, the registry and the scrape listener.
type Telemetry struct {
	cfg        Config
	tp         trace.TracerProvider
	sdkTP      *sdktrace.TracerProvider
	mp         *sdkmetric.MeterProvider
	instrMP    metric.MeterProvider
	propagator propagation.TextMapPropagator
	registry   *prometheus.Registry
	admin      *http.Server
	adminLn    net.Listener
	adminDone  chan struct{}
	once       sync.Once
	shutErr    error
}

// Init builds the telemetry stack of cfg and, unless WithoutGlobals, makes
// its providers and the W3C trace-context + baggage propagator the
// OpenTelemetry globals. It starts the scrape listener when
// cfg.Metrics.AdminAddr is set.
func Init(ctx context.Context, cfg Config, opts ...Option) (*Telemetry, error) {
	var o initOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	t := &Telemetry{
		cfg:        cfg,
		propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
		registry:   prometheus.NewRegistry(),
	}
	t.registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)

	if err := t.initTraces(ctx, o); err != nil {
		return nil, err
	}
	if err := t.initMetrics(ctx); err != nil {
		_ = t.shutdownProviders(context.Background())
		return nil, err
	}
	if addr := cfg.Metrics.AdminAddr; addr != "" {
		if err := t.startAdmin(addr); err != nil {
			_ = t.shutdownProviders(context.Background())
			return nil, err
		}
	}
	if !o.noGlobals {
		otel.SetTracerProvider(t.tp)
		otel.SetMeterProvider(t.mp)
		otel.SetTextMapPropagator(t.propagator)
	}
	return t, nil
}

func serviceName(override, name string) string {
	if override != "" {
		return override
	}
	if name != "" {
		return name
	}
	return "unknown_service:" + filepath.Base(os.Args[0])
}

func newResource(ctx context.Context, name string) (*resource.Resource, error) {
	res, err := resource.New(ctx,
		resource.WithTelemetrySDK(),
		resource.WithAttributes(semconv.ServiceName(name)),
		resource.WithFromEnv(),
	)
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	return res, nil
}

func (t *Telemetry) initTraces(ctx context.Context, o initOptions) error {
	c := t.cfg.Otel
	if !c.Enabled {
		t.tp = tracenoop.NewTracerProvider()
		return nil
	}
	res, err := newResource(ctx, serviceName(c.ServiceName, t.cfg.ServiceName))
	if err != nil {
		return err
	}
	tpOpts := []sdktrace.TracerProviderOption{
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.AlwaysSample())),
	}
	var exp sdktrace.SpanExporter
	switch strings.ToLower(c.Exporter) {
	case "", "none":
	case "stdout":
		exp, err = stdouttrace.New(stdouttrace.WithWriter(os.Stdout))
	case "otlp_grpc":
		var eo []otlptracegrpc.Option
		if c.Endpoint != "" {
			if strings.Contains(c.Endpoint, "://") {
				eo = append(eo, otlptracegrpc.WithEndpointURL(c.Endpoint))
			} else {
				eo = append(eo, otlptracegrpc.WithEndpoint(c.Endpoint), otlptracegrpc.WithInsecure())
			}
		}
		exp, err = otlptracegrpc.New(ctx, eo...)
	case "otlp_http":
		var eo []otlptracehttp.Option
		if c.Endpoint != "" {
			if strings.Contains(c.Endpoint, "://") {
				eo = append(eo, otlptracehttp.WithEndpointURL(c.Endpoint))
			} else {
				eo = append(eo, otlptracehttp.WithEndpoint(c.Endpoint), otlptracehttp.WithInsecure())
			}
		}
		exp, err = otlptracehttp.New(ctx, eo...)
	default:
		return fmt.Errorf("telemetry: unknown otel.exporter %q (want none, stdout, otlp_grpc or otlp_http)", c.Exporter)
	}
	if err != nil {
		return fmt.Errorf("telemetry: trace exporter: %w", err)
	}
	if exp == nil && len(o.spanProcessors) == 0 {
		t.tp = idProvider{} // nothing would read the spans: ids only
		return nil
	}
	if exp != nil {
		tpOpts = append(tpOpts, sdktrace.WithBatcher(exp))
	}
	for _, sp := range o.spanProcessors {
		tpOpts = append(tpOpts, sdktrace.WithSpanProcessor(sp))
	}
	t.sdkTP = sdktrace.NewTracerProvider(tpOpts...)
	t.tp = t.sdkTP
	return nil
}

func (t *Telemetry) initMetrics(ctx context.Context) error {
	c := t.cfg.Metrics
	res, err := newResource(ctx, serviceName(c.ServiceName, t.cfg.ServiceName))
	if err != nil {
		return err
	}
	// The http.server.* series carry exactly the attributes the server
	// instrumentation records (httpserver.go): no view filters them.
	mpOpts := []sdkmetric.Option{sdkmetric.WithResource(res)}
	switch strings.ToLower(c.Exporter) {
	case "", "prometheus":
		exp, err := otelprom.New(otelprom.WithRegisterer(t.registry))
		if err != nil {
			return fmt.Errorf("telemetry: prometheus exporter: %w", err)
		}
		mpOpts = append(mpOpts, sdkmetric.WithReader(exp))
	case "none":
	case "otlp_grpc":
		var eo []otlpmetricgrpc.Option
		if c.Endpoint != "" {
			if strings.Contains(c.Endpoint, "://") {
				eo = append(eo, otlpmetricgrpc.WithEndpointURL(c.Endpoint))
			} else {
				eo = append(eo, otlpmetricgrpc.WithEndpoint(c.Endpoint), otlpmetricgrpc.WithInsecure())
			}
		}
		exp, err := otlpmetricgrpc.New(ctx, eo...)
		if err != nil {
			return fmt.Errorf("telemetry: metric exporter: %w", err)
		}
		mpOpts = append(mpOpts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	case "otlp_http":
		var eo []otlpmetrichttp.Option
		if c.Endpoint != "" {
			if strings.Contains(c.Endpoint, "://") {
				eo = append(eo, otlpmetrichttp.WithEndpointURL(c.Endpoint))
			} else {
				eo = append(eo, otlpmetrichttp.WithEndpoint(c.Endpoint), otlpmetrichttp.WithInsecure())
			}
		}
		exp, err := otlpmetrichttp.New(ctx, eo...)
		if err != nil {
			return fmt.Errorf("telemetry: metric exporter: %w", err)
		}
		mpOpts = append(mpOpts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	default:
		return fmt.Errorf("telemetry: unknown metrics.exporter %q (want prometheus, otlp_grpc, otlp_http or none)", c.Exporter)
	}
	t.mp = sdkmetric.NewMeterProvider(mpOpts...)
	if c.Enabled {
		t.instrMP = t.mp
	} else {
		t.instrMP = metricnoop.NewMeterProvider()
	}
	return nil
}

func (t *Telemetry) startAdmin(addr string) error {
	path := t.cfg.Metrics.Path
	if path == "" {
		path = "/metrics"
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		// names the setting to change: two services on one machine both default to :9090
		return fmt.Errorf("metrics listener: %w (set metrics.adminAddr, or empty to disable)", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+path, t.MetricsHandler())
	t.adminLn = ln
	t.admin = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	t.adminDone = make(chan struct{})
	go func() {
		defer close(t.adminDone)
		_ = t.admin.Serve(ln)
	}()
	return nil
}

// MetricsHandler returns the Prometheus scrape handler of the registry, to
// mount elsewhere when no admin listener is wanted.
func (t *Telemetry) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(t.registry, promhttp.HandlerOpts{})
}

// AdminAddr returns the bound scrape address, or "" when no listener runs.
func (t *Telemetry) AdminAddr() string {
	if t.adminLn == nil {
		return ""
	}
	return t.adminLn.Addr().String()
}

// Registry returns the Prometheus registry (to register more collectors).
func (t *Telemetry) Registry() *prometheus.Registry { return t.registry }

// TracerProvider returns the tracer provider (a no-op one when
// otel.enabled is false).
func (t *Telemetry) TracerProvider() trace.TracerProvider { return t.tp }

// MeterProvider returns the meter provider.
func (t *Telemetry) MeterProvider() metric.MeterProvider { return t.mp }

// Propagator returns the W3C trace-context + baggage propagator.
func (t *Telemetry) Propagator() propagation.TextMapPropagator { return t.propagator }

// Shutdown closes the scrape listener, then flushes and stops both
// providers. Later calls return the first result.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	t.once.Do(func() {
		var errs []error
		if t.admin != nil {
			if err := t.admin.Shutdown(ctx); err != nil {
				errs = append(errs, err)
				_ = t.admin.Close()
			}
			<-t.adminDone
		}
		errs = append(errs, t.shutdownProviders(ctx))
		t.shutErr = errors.Join(errs...)
	})
	return t.shutErr
}

func (t *Telemetry) shutdownProviders(ctx context.Context) error {
	var errs []error
	if t.sdkTP != nil {
		errs = append(errs, t.sdkTP.Shutdown(ctx))
	}
	if t.mp != nil {
		errs = append(errs, t.mp.Shutdown(ctx))
	}
	return errors.Join(errs...)
}
