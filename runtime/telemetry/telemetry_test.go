package telemetry_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/server"
	"github.com/kitdev/kit/runtime/telemetry"
)

func init() { log.SetDefault(log.Discard()) }

func config(otel, metrics bool) telemetry.Config {
	var c telemetry.Config
	c.ServiceName = "users-svc"
	c.Otel.Enabled = otel
	c.Metrics.Enabled = metrics
	c.Metrics.AdminAddr = "127.0.0.1:0"
	return c
}

func initTelemetry(t *testing.T, cfg telemetry.Config, opts ...telemetry.Option) *telemetry.Telemetry {
	t.Helper()
	tel, err := telemetry.Init(context.Background(), cfg, append(opts, telemetry.WithoutGlobals())...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = tel.Shutdown(ctx)
	})
	return tel
}

// start serves s on a loopback port and returns its base URL.
func start(t *testing.T, s *server.Server) string {
	t.Helper()
	ln, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.Stop(ctx)
	})
	return "http://" + s.Addr()
}

func get(t *testing.T, c *http.Client, url string, hdr ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// scrape reads the metrics listener and parses the exposition.
func scrape(t *testing.T, tel *telemetry.Telemetry) (map[string]*dto.MetricFamily, string) {
	t.Helper()
	if tel.AdminAddr() == "" {
		t.Fatal("no admin listener")
	}
	_, body := get(t, http.DefaultClient, "http://"+tel.AdminAddr()+"/metrics")
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, body)
	}
	return fams, body
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// copyRequest is a user middleware that copies the request, hiding the
// mux's r.Pattern from the outer layers.
func copyRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), struct{}{}, 1)))
	})
}

func usersServer(tel *telemetry.Telemetry) *server.Server {
	s := server.New(nil, server.WithTelemetry(tel.HTTPMiddleware()))
	s.Use(copyRequest)
	s.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, r *http.Request) {
		server.WriteResponse(w, r, 200, map[string]string{"id": r.PathValue("id")})
	})
	s.HandleFunc("POST /users", func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := server.DecodeJSON(r, &v); err != nil {
			server.WriteValidationError(w, r, err)
			return
		}
		server.WriteResponse(w, r, 201, v)
	})
	return s
}

func TestPrometheusScrape(t *testing.T) {
	tel := initTelemetry(t, config(true, true))
	base := start(t, usersServer(tel))
	for _, id := range []string{"42", "43"} {
		if code, _ := get(t, http.DefaultClient, base+"/users/"+id); code != 200 {
			t.Fatalf("status %d", code)
		}
	}
	resp, err := http.Post(base+"/users", "application/json", strings.NewReader(`{"name":"ann"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	get(t, http.DefaultClient, base+"/healthz")
	get(t, http.DefaultClient, base+"/nowhere")

	fams, body := scrape(t, tel)
	for _, bad := range []string{"/users/42", "/users/43", "/healthz", "/nowhere", "server_port"} {
		if strings.Contains(body, bad) {
			t.Errorf("scrape mentions %q", bad)
		}
	}

	ti := fams["target_info"]
	if ti == nil || labels(ti.GetMetric()[0])["service_name"] != "users-svc" {
		t.Fatalf("target_info = %v", ti)
	}

	wantLabels := []string{
		"http_request_method", "http_response_status_code", "http_route", "network_protocol_name",
		"network_protocol_version", "otel_scope_name", "otel_scope_schema_url", "otel_scope_version",
		"server_address", "url_scheme",
	}
	for _, name := range []string{
		"http_server_request_duration_seconds",
		"http_server_request_body_size_bytes",
		"http_server_response_body_size_bytes",
	} {
		f := fams[name]
		if f == nil {
			t.Fatalf("family %s missing; have %v", name, keys(fams))
		}
		if f.GetType() != dto.MetricType_HISTOGRAM {
			t.Errorf("%s type %v", name, f.GetType())
		}
		routes := map[string]uint64{}
		for _, m := range f.GetMetric() {
			ls := labels(m)
			var names []string
			for k := range ls {
				if !strings.HasPrefix(k, "otel_scope_") || slices.Contains(wantLabels, k) {
					names = append(names, k)
				}
			}
			sort.Strings(names)
			for _, want := range wantLabels {
				optional := want == "otel_scope_schema_url" ||
					(want == "http_route" && ls["http_response_status_code"] == "404") // unmatched: no route
				if _, ok := ls[want]; !ok && !optional {
					t.Errorf("%s: label %s missing in %v", name, want, ls)
				}
			}
			for _, k := range names {
				if !slices.Contains(wantLabels, k) {
					t.Errorf("%s: unexpected label %s", name, k)
				}
			}
			if ls["http_route"] != "" {
				routes[ls["http_request_method"]+" "+ls["http_route"]+" "+ls["http_response_status_code"]] += m.GetHistogram().GetSampleCount()
			}
			if ls["url_scheme"] != "http" || ls["network_protocol_name"] != "http" || ls["network_protocol_version"] != "1.1" ||
				ls["server_address"] != "127.0.0.1" {
				t.Errorf("%s labels %v", name, ls)
			}
		}
		if routes["GET /users/{id} 200"] != 2 || routes["POST /users 201"] != 1 {
			t.Errorf("%s routes %v", name, routes)
		}
	}
}

func keys(m map[string]*dto.MetricFamily) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestTracePropagationAcrossServers(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tel := initTelemetry(t, config(true, true), telemetry.WithSpanProcessor(rec))

	type ids struct {
		A, B string
	}
	b := server.New(nil, server.WithTelemetry(tel.HTTPMiddleware()))
	b.HandleFunc("GET /b/{x}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, trace.SpanContextFromContext(r.Context()).TraceID().String())
	})
	baseB := start(t, b)

	client := tel.HTTPClient()
	a := server.New(nil, server.WithTelemetry(tel.HTTPMiddleware()))
	a.HandleFunc("GET /a", func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), "GET", baseB+"/b/1", nil)
		resp, err := client.Do(req)
		if err != nil {
			server.WriteError(w, r, err)
			return
		}
		defer resp.Body.Close()
		bb, _ := io.ReadAll(resp.Body)
		server.WriteResponse(w, r, 200, ids{A: trace.SpanContextFromContext(r.Context()).TraceID().String(), B: string(bb)})
	})
	baseA := start(t, a)

	const caller = "4bf92f3577b34da6a3ce929d0e0e4736"
	_, body := get(t, http.DefaultClient, baseA+"/a", "traceparent", "00-"+caller+"-00f067aa0ba902b7-01")
	var got ids
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if got.A != caller || got.B != caller {
		t.Fatalf("trace ids A=%s B=%s, want the caller's %s", got.A, got.B, caller)
	}

	// Without a caller context A starts a trace and B joins it.
	_, body = get(t, http.DefaultClient, baseA+"/a")
	got = ids{}
	_ = json.Unmarshal([]byte(body), &got)
	if got.A == "" || got.A == caller || got.A != got.B || got.A == strings.Repeat("0", 32) {
		t.Fatalf("new trace: A=%s B=%s", got.A, got.B)
	}

	// Server spans are named after the route; B's span is a child of A's
	// client span.
	// Spans end after the response reached the client: wait for them.
	var names []string
	var serverB, clientA sdktrace.ReadOnlySpan
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		names, serverB, clientA = nil, nil, nil
		for _, s := range rec.Ended() {
			if s.SpanContext().TraceID().String() != caller {
				continue
			}
			names = append(names, s.Name())
			switch {
			case s.Name() == "GET /b/{x}":
				serverB = s
			case s.SpanKind() == trace.SpanKindClient:
				clientA = s
			}
		}
		if serverB != nil && clientA != nil && slices.Contains(names, "GET /a") {
			break
		}
	}
	if serverB == nil || clientA == nil || serverB.Parent().SpanID() != clientA.SpanContext().SpanID() {
		t.Fatalf("spans %v", names)
	}
	if !slices.Contains(names, "GET /a") {
		t.Fatalf("spans %v", names)
	}
}

func TestOtelDisabledKeepsMetrics(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tel := initTelemetry(t, config(false, true), telemetry.WithSpanProcessor(rec))
	s := server.New(nil, server.WithTelemetry(tel.HTTPMiddleware()))
	var valid bool
	s.HandleFunc("GET /x", func(w http.ResponseWriter, r *http.Request) {
		valid = trace.SpanContextFromContext(r.Context()).IsValid()
	})
	base := start(t, s)
	get(t, http.DefaultClient, base+"/x")
	if valid || len(rec.Ended()) != 0 {
		t.Fatalf("spans with otel disabled: valid=%v ended=%d", valid, len(rec.Ended()))
	}
	fams, _ := scrape(t, tel)
	if fams["http_server_request_duration_seconds"] == nil {
		t.Fatal("metrics stopped with otel disabled")
	}
}

func TestMetricsDisabled(t *testing.T) {
	tel := initTelemetry(t, config(true, false))
	base := start(t, usersServer(tel))
	get(t, http.DefaultClient, base+"/users/1")
	fams, _ := scrape(t, tel)
	for name := range fams {
		if strings.HasPrefix(name, "http_server_") {
			t.Fatalf("%s present with metrics disabled", name)
		}
	}
	if fams["target_info"] == nil {
		t.Fatal("target_info missing")
	}
}

func TestGRPCHandlers(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tel := initTelemetry(t, config(true, true), telemetry.WithSpanProcessor(rec))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer(grpc.StatsHandler(tel.GRPCServerHandler()))
	healthpb.RegisterHealthServer(gs, health.NewServer())
	go func() { _ = gs.Serve(ln) }()
	defer gs.Stop()

	conn, err := grpc.NewClient(ln.Addr().String(),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithStatsHandler(tel.GRPCClientHandler()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}

	// The server records the call after the client has its answer: wait
	// for it.
	fams, _ := scrape(t, tel)
	for wait := time.Now().Add(5 * time.Second); fams["rpc_server_call_duration_seconds"] == nil && time.Now().Before(wait); {
		time.Sleep(5 * time.Millisecond)
		fams, _ = scrape(t, tel)
	}
	if f := fams["rpc_server_call_duration_seconds"]; f == nil || f.GetType() != dto.MetricType_HISTOGRAM {
		t.Fatalf("rpc_server_call_duration_seconds missing; have %v", keys(fams))
	}
	if fams["rpc_client_call_duration_seconds"] == nil {
		t.Fatalf("rpc_client_call_duration_seconds missing")
	}
	var srv, cli sdktrace.ReadOnlySpan
	deadline := time.Now().Add(5 * time.Second)
	for (srv == nil || cli == nil) && time.Now().Before(deadline) {
		for _, s := range rec.Ended() {
			switch s.SpanKind() {
			case trace.SpanKindServer:
				srv = s
			case trace.SpanKindClient:
				cli = s
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	if srv == nil || cli == nil || srv.SpanContext().TraceID() != cli.SpanContext().TraceID() ||
		srv.Parent().SpanID() != cli.SpanContext().SpanID() {
		t.Fatalf("grpc spans not linked: server %v client %v", srv, cli)
	}
}

func TestShutdownClosesListener(t *testing.T) {
	tel, err := telemetry.Init(context.Background(), config(true, true), telemetry.WithoutGlobals())
	if err != nil {
		t.Fatal(err)
	}
	addr := tel.AdminAddr()
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatalf("second Shutdown: %v", err)
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Fatal("scrape listener still open")
	}
}

func TestInitExporters(t *testing.T) {
	tests := []struct {
		name            string
		traces, metrics string
		endpoint        string
		wantErr         bool
	}{
		{"in-process", "", "", "", false},
		{"none", "none", "none", "", false},
		{"stdout", "stdout", "prometheus", "", false},
		{"otlp grpc", "otlp_grpc", "none", "127.0.0.1:4317", false},
		{"otlp http url", "otlp_http", "none", "http://127.0.0.1:4318", false},
		{"unknown traces", "zipkin", "", "", true},
		{"unknown metrics", "", "statsd", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c telemetry.Config
			c.ServiceName = "x"
			c.Otel.Enabled = true
			c.Otel.Exporter = tt.traces
			c.Otel.Endpoint = tt.endpoint
			c.Metrics.Enabled = true
			c.Metrics.Exporter = tt.metrics
			tel, err := telemetry.Init(context.Background(), c, telemetry.WithoutGlobals())
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if err != nil {
				return
			}
			if tel.AdminAddr() != "" {
				t.Error("listener started without adminAddr")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if err := tel.Shutdown(ctx); err != nil {
				t.Fatalf("shutdown: %v", err)
			}
		})
	}
}

func TestPanicLineCarriesTraceIDs(t *testing.T) {
	tel := initTelemetry(t, config(true, true))
	buf := &lockedBuf{}
	s := server.New(nil, server.WithTelemetry(tel.HTTPMiddleware()))
	s.SetLogger(log.New(buf))
	defer log.SetDefault(log.Discard())
	s.HandleFunc("GET /boom", func(w http.ResponseWriter, r *http.Request) { panic("x") })
	base := start(t, s)
	const caller = "4bf92f3577b34da6a3ce929d0e0e4736"
	if code, _ := get(t, http.DefaultClient, base+"/boom", "traceparent", "00-"+caller+"-00f067aa0ba902b7-01"); code != 500 {
		t.Fatalf("status %d", code)
	}
	found := false
	for _, ln := range strings.Split(buf.String(), "\n") {
		if strings.Contains(ln, `"panic recovered"`) && strings.Contains(ln, `"trace_id":"`+caller+`"`) &&
			strings.Contains(ln, `"span_id"`) {
			found = true
		}
	}
	if !found {
		t.Fatalf("logs: %s", buf.String())
	}
}

// The middleware also labels the route when installed with Use or around a
// bare mux (no kit server).
func TestRouteLabelOutsideWithTelemetry(t *testing.T) {
	tel := initTelemetry(t, config(true, true))
	s := server.New(nil)
	s.Use(tel.HTTPMiddleware())
	s.Use(copyRequest)
	s.HandleFunc("GET /orders/{id}", func(w http.ResponseWriter, r *http.Request) {})
	base := start(t, s)
	get(t, http.DefaultClient, base+"/orders/9")

	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {})
	bare := &http.Server{Handler: tel.HTTPMiddleware()(mux)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = bare.Serve(ln) }()
	defer bare.Close()
	get(t, http.DefaultClient, "http://"+ln.Addr().String()+"/items/3")

	fams, body := scrape(t, tel)
	routes := map[string]bool{}
	for _, m := range fams["http_server_request_duration_seconds"].GetMetric() {
		routes[labels(m)["http_route"]] = true
	}
	if !routes["/orders/{id}"] || !routes["/items/{id}"] || strings.Contains(body, "/orders/9") {
		t.Fatalf("routes %v", routes)
	}
}

// With tracing and metrics both off the middleware is the identity: the
// handler it returns is the one it was given (nothing runs per request),
// and a request is still served. With either on, it wraps.
func TestHTTPMiddlewareOffIsIdentity(t *testing.T) {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	off := initTelemetry(t, config(false, false)).HTTPMiddleware()(inner)
	if reflect.ValueOf(off).Pointer() != reflect.ValueOf(inner).Pointer() {
		t.Fatalf("telemetry off still wraps the handler: %T", off)
	}
	rec := httptest.NewRecorder()
	off.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	if rec.Code != http.StatusTeapot {
		t.Fatalf("status %d", rec.Code)
	}
	for _, c := range []telemetry.Config{config(true, false), config(false, true)} {
		h := initTelemetry(t, c).HTTPMiddleware()(inner)
		if reflect.ValueOf(h).Kind() == reflect.Func && reflect.ValueOf(h).Pointer() == reflect.ValueOf(inner).Pointer() {
			t.Fatalf("config %+v: not instrumented", c)
		}
	}
}

// With otel.exporter none (and no span processor) spans are not recorded,
// yet a request gets real ids: in the caller's trace when it sent one, in a
// new sampled trace otherwise, and propagated to outbound calls.
func TestExporterNoneGivesIDsOnly(t *testing.T) {
	tel := initTelemetry(t, config(true, false))
	if _, sdk := tel.TracerProvider().(*sdktrace.TracerProvider); sdk {
		t.Fatal("an SDK tracer provider records spans nothing reads")
	}
	var got []trace.SpanContext
	var outbound []string
	b := server.New(nil, server.WithTelemetry(tel.HTTPMiddleware()))
	b.HandleFunc("GET /b", func(w http.ResponseWriter, r *http.Request) { outbound = append(outbound, r.Header.Get("traceparent")) })
	baseB := start(t, b)
	a := server.New(nil, server.WithTelemetry(tel.HTTPMiddleware()))
	a.HandleFunc("GET /a", func(w http.ResponseWriter, r *http.Request) {
		sc := trace.SpanContextFromContext(r.Context())
		got = append(got, sc)
		req, _ := http.NewRequestWithContext(r.Context(), "GET", baseB+"/b", nil)
		resp, err := tel.HTTPClient().Do(req)
		if err == nil {
			resp.Body.Close()
		}
	})
	base := start(t, a)
	const caller = "4bf92f3577b34da6a3ce929d0e0e4736"
	get(t, http.DefaultClient, base+"/a", "traceparent", "00-"+caller+"-00f067aa0ba902b7-01")
	get(t, http.DefaultClient, base+"/a")
	if len(got) != 2 || got[0].TraceID().String() != caller || got[0].SpanID().String() == "00f067aa0ba902b7" ||
		!got[0].IsValid() || !got[1].IsValid() || !got[1].IsSampled() || got[1].TraceID().String() == caller {
		t.Fatalf("span contexts %v", got)
	}
	if len(outbound) != 2 || !strings.HasPrefix(outbound[0], "00-"+caller+"-") {
		t.Fatalf("outbound traceparent %q", outbound)
	}
}
