//go:build !race

package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/server"
)

// The default stack (RequestID, AccessLog, Recovery, routing) costs one
// allocation per request over a bare ServeMux: the request state, which
// holds the request copy carrying it, the generated request id and the
// logger the handler takes from the request (as generated logic does).
// (Not run under -race, where sync.Pool drops items at random.)
func TestDefaultStackAllocations(t *testing.T) {
	endpoint := func(w http.ResponseWriter, r *http.Request) {
		log.FromContext(r.Context()).Debug("not written")
		getUser(w, r)
	}
	req := httptest.NewRequest("GET", "/users/42", nil)
	b, k := overBare(t, "GET /users/{id}", endpoint, req, nil, 200)
	t.Logf("kit %.0f bare %.0f", k, b)
	if k-b > 1 {
		t.Fatalf("default stack: %.0f allocations per request, bare mux %.0f", k, b)
	}
}

// A body whose Content-Length is within the default cap is read as it is:
// net/http ends it at that length, so the cap's counting reader (two
// allocations) is left out. The default stack then costs a POST what it
// costs a GET: one allocation over a bare ServeMux.
func TestDefaultStackAllocationsWithBody(t *testing.T) {
	const payload = `{"name":"Ada"}`
	body := strings.NewReader(payload)
	req := httptest.NewRequest("POST", "/users", body)
	req.Header.Set("Content-Type", "application/json")
	b, k := overBare(t, "POST /users", createUser, req, func() { body.Reset(payload) }, 201)
	t.Logf("kit %.0f bare %.0f", k, b)
	if k-b > 1 {
		t.Fatalf("default stack: %.0f allocations per POST, bare mux %.0f", k, b)
	}
}

// A handler deadline (server.handlerTimeout, @timeout) costs a route the
// request copy that carries it and the deadline's context: no timer, no
// child registered on the request context, unless the handler waits on it.
func TestHandlerTimeoutAllocations(t *testing.T) {
	prev := log.Default()
	t.Cleanup(func() { log.SetDefault(prev) })
	endpoint := func(w http.ResponseWriter, r *http.Request) {
		if err := r.Context().Err(); err != nil {
			server.WriteError(w, r, err)
			return
		}
		getUser(w, r)
	}
	build := func(d time.Duration) http.Handler {
		s := server.New(nil)
		s.SetLogger(log.New(io.Discard))
		s.SetDefaultHandlerTimeout(d)
		s.HandleFunc("GET /users/{id}", endpoint)
		return s.Handler()
	}
	req := httptest.NewRequest("GET", "/users/42", nil)
	allocs := func(h http.Handler) float64 { return allocsPerRequest(t, h, req, nil, 200) }
	without, with := allocs(build(0)), allocs(build(time.Minute))
	t.Logf("with a handler timeout %.0f, without %.0f", with, without)
	if with-without > 2 {
		t.Fatalf("a handler timeout costs %.0f allocations per request", with-without)
	}
}

// allocsPerRequest is the allocations of one request to h, reset (if not
// nil) run before each; every answer must have the status want.
func allocsPerRequest(t *testing.T, h http.Handler, req *http.Request, reset func(), want int) float64 {
	t.Helper()
	rec := &statusWriter{h: http.Header{}}
	return testing.AllocsPerRun(200, func() {
		if reset != nil {
			reset()
		}
		clear(rec.h)
		rec.status = 0
		h.ServeHTTP(rec, req)
		if rec.status != want {
			t.Fatalf("status %d, want %d", rec.status, want)
		}
	})
}

// overBare is the allocations of one request to a bare ServeMux and to the
// default server stack, both serving endpoint on pattern.
func overBare(t *testing.T, pattern string, endpoint http.HandlerFunc, req *http.Request, reset func(), want int) (bare, kit float64) {
	t.Helper()
	prev := log.Default()
	t.Cleanup(func() { log.SetDefault(prev) })
	mux := http.NewServeMux()
	mux.HandleFunc(pattern, endpoint)
	s := server.New(nil)
	s.SetLogger(log.New(io.Discard))
	s.HandleFunc(pattern, endpoint)
	return allocsPerRequest(t, mux, req, reset, want), allocsPerRequest(t, s.Handler(), req, reset, want)
}
