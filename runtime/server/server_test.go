package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/server"
)

func TestMiddlewareOrder(t *testing.T) {
	s, _ := newServer(t)
	var mu sync.Mutex
	var got []string
	s.Use(mark(&mu, &got, "global1"))
	s.Use(mark(&mu, &got, "global2"))
	s.SetCORS(server.CORSPermissive())
	s.Handle("GET /things/{id}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, "handler:"+r.PathValue("id"))
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}), mark(&mu, &got, "route1"), mark(&mu, &got, "route2"))

	rec := do(t, s.Handler(), "GET", "/things/7", "", "Origin", "https://app.example")
	if rec.Code != http.StatusNoContent {
		t.Fatalf("status %d", rec.Code)
	}
	want := []string{"global1", "global2", "route1", "route2", "handler:7"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("order = %v, want %v", got, want)
	}
	if rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("CORS header missing: %v", rec.Header())
	}
	if rec.Header().Get("X-Request-Id") == "" {
		t.Errorf("default RequestID middleware did not run")
	}

	// A preflight is answered by CORS before any global middleware runs.
	got = nil
	rec = do(t, s.Handler(), "OPTIONS", "/things/7", "",
		"Origin", "https://app.example", "Access-Control-Request-Method", "GET")
	if rec.Code != http.StatusNoContent || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("preflight: %d %v", rec.Code, rec.Header())
	}
	if len(got) != 0 {
		t.Fatalf("preflight reached %v", got)
	}
}

func TestUseAfterHandlerApplies(t *testing.T) {
	s, _ := newServer(t)
	h := s.Handler()
	s.HandleFunc("GET /x", func(w http.ResponseWriter, r *http.Request) {})
	do(t, h, "GET", "/x", "") // builds the pipeline
	var mu sync.Mutex
	var got []string
	s.Use(mark(&mu, &got, "late"))
	do(t, h, "GET", "/x", "")
	if len(got) != 1 {
		t.Fatalf("late Use not applied: %v", got)
	}
}

func TestCORSStrict(t *testing.T) {
	s, _ := newServer(t)
	s.SetCORS(server.CORSPermissive())
	s.SetCORS(server.CORSStrict("https://ok.example")) // replaces the first
	s.HandleFunc("GET /x", func(w http.ResponseWriter, r *http.Request) {})
	tests := []struct {
		origin, wantAllow, wantCreds string
	}{
		{"https://ok.example", "https://ok.example", "true"},
		{"https://evil.example", "", ""},
	}
	for _, tt := range tests {
		rec := do(t, s.Handler(), "GET", "/x", "", "Origin", tt.origin)
		if got := rec.Header().Get("Access-Control-Allow-Origin"); got != tt.wantAllow {
			t.Errorf("%s: allow-origin %q, want %q", tt.origin, got, tt.wantAllow)
		}
		if got := rec.Header().Get("Access-Control-Allow-Credentials"); got != tt.wantCreds {
			t.Errorf("%s: allow-credentials %q, want %q", tt.origin, got, tt.wantCreds)
		}
	}
}

// wrapWriter is a user middleware that wraps the response writer.
func wrapWriter(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(struct{ http.ResponseWriter }{w}, r)
	})
}

func TestFrameworkRoutingErrors(t *testing.T) {
	for _, wrapped := range []bool{false, true} {
		t.Run(fmt.Sprintf("writer wrapped=%v", wrapped), func(t *testing.T) {
			testFrameworkRoutingErrors(t, wrapped)
		})
	}
}

func testFrameworkRoutingErrors(t *testing.T, wrapped bool) {
	s, _ := newServer(t)
	if wrapped {
		s.Use(wrapWriter)
	}
	s.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, r *http.Request) {})
	s.HandleFunc("DELETE /users/{id}", func(w http.ResponseWriter, r *http.Request) {})
	s.HandleFunc("GET /teapot", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "user 404", http.StatusNotFound) // a handler's own 404 is kept
	})
	tests := []struct {
		name, method, path string
		status             int
		msg                string
		allow              string
	}{
		{"no route", "GET", "/nope", 404, "not found", ""},
		{"wrong method", "POST", "/users/1", 405, "method not allowed", "DELETE, GET, HEAD"},
		{"probe wrong method", "POST", "/healthz", 405, "method not allowed", "GET, HEAD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := do(t, s.Handler(), tt.method, tt.path, "")
			assertFramework(t, rec, tt.status, tt.msg)
			if got := rec.Header().Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
		})
	}
	rec := do(t, s.Handler(), "GET", "/teapot", "")
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "user 404") {
		t.Fatalf("handler 404 rewritten: %d %q", rec.Code, rec.Body.String())
	}
}

func TestCustomNotFound(t *testing.T) {
	for _, wrapped := range []bool{false, true} {
		t.Run(fmt.Sprintf("writer wrapped=%v", wrapped), func(t *testing.T) {
			testCustomNotFound(t, wrapped)
		})
	}
}

func testCustomNotFound(t *testing.T, wrapped bool) {
	s, _ := newServer(t)
	if wrapped {
		s.Use(wrapWriter)
	}
	s.HandleFunc("GET /a", func(w http.ResponseWriter, r *http.Request) {})
	s.SetHandleNotFound(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "custom "+r.URL.Path)
	}))
	rec := do(t, s.Handler(), "GET", "/missing", "")
	if rec.Code != 404 || rec.Body.String() != "custom /missing" || rec.Header().Get("Content-Type") != "text/plain" {
		t.Fatalf("got %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
	// 405 stays the framework answer.
	assertFramework(t, do(t, s.Handler(), "PUT", "/a", ""), 405, "method not allowed")
}

func TestHealth(t *testing.T) {
	s, logs := newServer(t)
	var mu sync.Mutex
	var seen []string
	s.Use(mark(&mu, &seen, "global"))
	s.SetCORS(server.CORSPermissive())
	rec := do(t, s.Handler(), "GET", "/healthz", "", "Origin", "https://x.example")
	if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"status":"ok"}` {
		t.Fatalf("liveness: %d %q", rec.Code, rec.Body.String())
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("liveness content type %q", ct)
	}
	if rec.Header().Get("Access-Control-Allow-Origin") != "" || rec.Header().Get("X-Request-Id") != "" {
		t.Errorf("probe went through middleware: %v", rec.Header())
	}
	rec = do(t, s.Handler(), "GET", "/readyz", "")
	if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"status":"ready","checks":{}}` {
		t.Fatalf("readiness without checks: %d %q", rec.Code, rec.Body.String())
	}
	if len(seen) != 0 {
		t.Fatalf("probes reached global middleware: %v", seen)
	}
	if n := len(logs.lines(t, "http request")); n != 0 {
		t.Fatalf("probes were access-logged %d times", n)
	}
}

func TestReadiness(t *testing.T) {
	ok := func(context.Context) error { return nil }
	fail := func(context.Context) error { return errors.New("db down") }
	slow := func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	stubborn := func(context.Context) error { time.Sleep(300 * time.Millisecond); return nil }
	okText := func(context.Context) error { return errors.New("ok") }
	type check struct {
		name string
		fn   func(context.Context) error
	}
	tests := []struct {
		name   string
		checks []check
		status int
		body   string
	}{
		{"all ok", []check{{"db", ok}, {"cache", ok}}, 200,
			`{"status":"ready","checks":{"cache":"ok","db":"ok"}}`},
		{"one fails", []check{{"db", fail}, {"cache", ok}}, 503,
			`{"status":"not_ready","checks":{"cache":"ok","db":"db down"}}`},
		{"timeout", []check{{"slow", slow}}, 503,
			`{"status":"not_ready","checks":{"slow":"context deadline exceeded"}}`},
		{"ignores ctx", []check{{"stubborn", stubborn}}, 503,
			`{"status":"not_ready","checks":{"stubborn":"context deadline exceeded"}}`},
		{"error text ok still fails", []check{{"x", okText}}, 503,
			`{"status":"not_ready","checks":{"x":"ok"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newServer(t)
			for _, c := range tt.checks {
				s.RegisterHealthCheck(c.name, 50*time.Millisecond, c.fn)
			}
			rec := do(t, s.Handler(), "GET", "/readyz", "")
			if rec.Code != tt.status || strings.TrimSpace(rec.Body.String()) != tt.body {
				t.Fatalf("got %d %s, want %d %s", rec.Code, rec.Body.String(), tt.status, tt.body)
			}
		})
	}
}

func TestReadinessChecksRunConcurrently(t *testing.T) {
	s, _ := newServer(t)
	var wg sync.WaitGroup
	wg.Add(2)
	// Each check waits for the other to start: sequential runs would time out.
	both := func(context.Context) error {
		wg.Done()
		wg.Wait()
		return nil
	}
	s.RegisterHealthCheck("a", 5*time.Second, both)
	s.RegisterHealthCheck("b", 5*time.Second, both)
	if rec := do(t, s.Handler(), "GET", "/readyz", ""); rec.Code != 200 {
		t.Fatalf("status %d %s", rec.Code, rec.Body.String())
	}
}

func TestRegisterHealthCheckNeedsTimeout(t *testing.T) {
	s := server.New(nil)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a zero timeout")
		}
	}()
	s.RegisterHealthCheck("x", 0, func(context.Context) error { return nil })
}

func TestHealthPaths(t *testing.T) {
	tests := []struct {
		name   string
		opts   []server.Option
		path   string
		status int
	}{
		{"default liveness", nil, "/healthz", 200},
		{"moved liveness", []server.Option{server.WithHealthPaths("/live", "/ready")}, "/live", 200},
		{"moved readiness", []server.Option{server.WithHealthPaths("/live", "/ready")}, "/ready", 200},
		{"old path gone", []server.Option{server.WithHealthPaths("/live", "/ready")}, "/healthz", 404},
		{"removed", []server.Option{server.WithoutDefaultHealth()}, "/healthz", 404},
		{"removed readiness", []server.Option{server.WithoutDefaultHealth()}, "/readyz", 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newServer(t, tt.opts...)
			if rec := do(t, s.Handler(), "GET", tt.path, ""); rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
		})
	}
}

func TestDeprecatedNamedMiddleware(t *testing.T) {
	s, _ := newServer(t)
	var mu sync.Mutex
	var got []string
	s.RegisterMiddleware("Auth", mark(&mu, &got, "auth"))
	s.RegisterMiddleware("Audit", mark(&mu, &got, "audit"))
	h := s.With([]string{"Audit", "Unknown", "Auth"}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, "handler")
	}))
	s.Handle("GET /x", h)
	do(t, s.Handler(), "GET", "/x", "")
	if fmt.Sprint(got) != "[audit auth handler]" {
		t.Fatalf("got %v", got)
	}
}

func TestChain(t *testing.T) {
	var mu sync.Mutex
	var got []string
	a, b, c := mark(&mu, &got, "A"), mark(&mu, &got, "B"), mark(&mu, &got, "C")
	base := server.NewChain(a, nil, b)
	ext := base.Append(c)
	final := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = append(got, "h") })
	tests := []struct {
		name string
		h    http.Handler
		want string
	}{
		{"then", base.Then(final), "[A B h]"},
		{"append returns a new chain", ext.ThenFunc(final), "[A B C h]"},
		{"base unchanged", base.ThenFunc(final), "[A B h]"},
		{"empty", server.NewChain().Then(final), "[h]"},
	}
	for _, tt := range tests {
		got = nil
		do(t, tt.h, "GET", "/", "")
		if fmt.Sprint(got) != tt.want {
			t.Errorf("%s: %v, want %s", tt.name, got, tt.want)
		}
	}
}

func TestLoggerSwap(t *testing.T) {
	s, _ := newServer(t)
	buf := &syncBuffer{}
	s.HandleFunc("GET /x", func(w http.ResponseWriter, r *http.Request) {})
	do(t, s.Handler(), "GET", "/x", "") // pipeline built with the first logger
	l := newJSONLogger(buf)
	s.SetLogger(l)
	if s.Logger() != l {
		t.Fatal("Logger() does not return the new logger")
	}
	do(t, s.Handler(), "GET", "/x", "")
	if n := len(buf.lines(t, "http request")); n != 1 {
		t.Fatalf("access log after swap: %d lines in %q", n, buf.String())
	}
}

func TestJSONCodecSwap(t *testing.T) {
	s := server.New(nil)
	defer server.SetGlobalJSONCodec(nil)
	c := upperCodec{}
	s.SetJSONCodec(c)
	if server.JSON() != server.Codec(c) {
		t.Fatal("SetJSONCodec did not swap the process-wide codec")
	}
	server.SetGlobalJSONCodec(nil)
	if _, ok := server.JSON().(server.JSONCodec); !ok {
		t.Fatal("nil did not restore the default codec")
	}
}

type upperCodec struct{}

func (upperCodec) Encode(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }
func (upperCodec) Decode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
