package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/server"
)

// plainLogger hides every optional interface of the logger it wraps, so
// AccessLog formats through slog (the path of any third-party logger).
type plainLogger struct{ log.Logger }

var (
	timeRE     = regexp.MustCompile(`"time":"[^"]*"`)
	durationRE = regexp.MustCompile(`"duration_ms":[0-9.e+-]+`)
)

func normalise(s string) string {
	s = timeRE.ReplaceAllString(s, `"time":"T"`)
	return durationRE.ReplaceAllString(s, `"duration_ms":0`)
}

// The access line written by hand is the line slog writes, byte for byte
// (time and duration aside), for every kind of request.
func TestAccessLogLineSameAsSlog(t *testing.T) {
	defer log.SetLevel(log.LevelInfo)
	traceID, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	spanID, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	traced := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled})
			next.ServeHTTP(w, r.WithContext(trace.ContextWithSpanContext(r.Context(), sc)))
		})
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("do") {
		case "fail":
			server.WriteFrameworkError(w, 503, "down")
		case "gone":
			server.WriteError(w, r, context.Canceled)
		case "nothing":
		default:
			server.WriteResponse(w, r, 200, map[string]string{"id": r.PathValue("id")})
		}
	})
	build := func(l log.Logger, withTrace bool) http.Handler {
		s := server.New(nil, server.WithoutDefaultHealth())
		if withTrace {
			s = server.New(nil, server.WithoutDefaultHealth(), server.WithTelemetry(traced))
		}
		s.SetLogger(l)
		s.HandleFunc("GET /users/{id}", handler)
		return s.Handler()
	}
	targets := []string{
		"/users/42", "/users/42?do=fail", "/users/42?do=nothing", "/missing",
		`/users/%22q%22%5C%0A%E2%80%A8%FF%C3%A9`, "/users/%F0%9F%99%82",
	}
	cases := []struct {
		name      string
		with      []any
		trace     bool
		requestID string
		level     log.Level
	}{
		{name: "plain"},
		{name: "traced", trace: true, requestID: `id-"1"`},
		{name: "with attrs", with: []any{"service", "shop", "n", 3, "nested", map[string]any{"a": "<b>"}}},
		{name: "error level only", level: log.LevelError},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			log.SetLevel(tc.level)
			fastBuf, slowBuf := &syncBuffer{}, &syncBuffer{}
			fast, slow := log.New(fastBuf), log.New(slowBuf)
			if tc.with != nil {
				fast, slow = fast.With(tc.with...), slow.With(tc.with...)
			}
			prev := log.Default()
			t.Cleanup(func() { log.SetDefault(prev) })
			hFast := build(fast, tc.trace)
			hSlow := build(plainLogger{slow}, tc.trace)
			for _, target := range targets {
				for _, h := range []http.Handler{hFast, hSlow} {
					req := httptest.NewRequest("GET", target, nil)
					if tc.requestID != "" {
						req.Header.Set("X-Request-Id", tc.requestID)
					} else {
						req.Header.Set("X-Request-Id", "fixed")
					}
					h.ServeHTTP(httptest.NewRecorder(), req)
				}
			}
			// A client gone: 499.
			for _, h := range []http.Handler{hFast, hSlow} {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				req := httptest.NewRequest("GET", "/users/1?do=gone", nil).WithContext(ctx)
				req.Header.Set("X-Request-Id", "fixed")
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
			got, want := normalise(fastBuf.String()), normalise(slowBuf.String())
			if got != want {
				t.Fatalf("hand-made lines differ from slog's:\n%s\nwant\n%s", got, want)
			}
			n := strings.Count(want, `"msg":"http request"`)
			if tc.level == log.LevelError && n != 1 || tc.level != log.LevelError && n != len(targets)+1 {
				t.Fatalf("%d access lines:\n%s", n, want)
			}
			if tc.trace && !strings.Contains(got, `"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","span_id":"00f067aa0ba902b7","request_id":"id-\"1\""`) {
				t.Fatalf("trace ids missing:\n%s", got)
			}
			if !strings.Contains(want, `"status":499`) && tc.level != log.LevelError {
				t.Fatalf("no 499 line:\n%s", want)
			}
		})
	}
}

// Lines written by hand and through slog by one logger never interleave.
func TestAccessLogConcurrentWithOtherLines(t *testing.T) {
	buf := &syncBuffer{}
	l := log.New(buf)
	h := server.AccessLog(l)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.Info("inside", "path", r.URL.Path)
	}))
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Go(func() {
			for j := 0; j < 50; j++ {
				h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil))
			}
		})
	}
	wg.Wait()
	if n := len(buf.lines(t, "http request")); n != 400 {
		t.Fatalf("%d access lines", n)
	}
	if n := len(buf.lines(t, "inside")); n != 400 {
		t.Fatalf("%d inside lines", n)
	}
}

func TestGeneratedRequestIDsAreUnique(t *testing.T) {
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	h := server.RequestID()(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Go(func() {
			for j := 0; j < 2000; j++ {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
				id := rec.Header().Get("X-Request-Id")
				mu.Lock()
				if seen[id] || !hex32.MatchString(id) {
					mu.Unlock()
					t.Errorf("id %q repeated or malformed", id)
					return
				}
				seen[id] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	// Consecutive ids do not share a visible prefix.
	a, b := newID(t, h), newID(t, h)
	if a[:8] == b[:8] {
		t.Fatalf("consecutive ids %s %s look alike", a, b)
	}
}

func newID(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	return rec.Header().Get("X-Request-Id")
}
