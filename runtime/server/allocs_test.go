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
	prev := log.Default()
	t.Cleanup(func() { log.SetDefault(prev) })
	endpoint := func(w http.ResponseWriter, r *http.Request) {
		log.FromContext(r.Context()).Debug("not written")
		server.WriteResponse(w, r, 200, struct {
			ID string `json:"id"`
		}{r.PathValue("id")})
	}
	bare := http.NewServeMux()
	bare.HandleFunc("GET /users/{id}", endpoint)
	s := server.New(nil)
	s.SetLogger(log.New(io.Discard))
	s.HandleFunc("GET /users/{id}", endpoint)
	kit := s.Handler()

	req := httptest.NewRequest("GET", "/users/42", nil)
	rec := httptest.NewRecorder()
	allocs := func(h http.Handler) float64 {
		return testing.AllocsPerRun(200, func() {
			clear(rec.Header())
			h.ServeHTTP(rec, req)
		})
	}
	b, k := allocs(bare), allocs(kit)
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
	prev := log.Default()
	t.Cleanup(func() { log.SetDefault(prev) })
	endpoint := func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Name string `json:"name"`
		}
		if err := server.DecodeJSONBody(r, &in); err != nil {
			server.WriteValidationError(w, r, err)
			return
		}
		server.WriteResponse(w, r, 201, &in)
	}
	bare := http.NewServeMux()
	bare.HandleFunc("POST /users", endpoint)
	s := server.New(nil)
	s.SetLogger(log.New(io.Discard))
	s.HandleFunc("POST /users", endpoint)
	kit := s.Handler()

	const payload = `{"name":"Ada"}`
	body := strings.NewReader(payload)
	req := httptest.NewRequest("POST", "/users", body)
	req.Header.Set("Content-Type", "application/json")
	rec := &statusWriter{h: http.Header{}}
	allocs := func(h http.Handler) float64 {
		return testing.AllocsPerRun(200, func() {
			body.Reset(payload)
			clear(rec.h)
			rec.status = 0
			h.ServeHTTP(rec, req)
			if rec.status != 201 {
				t.Fatalf("status %d", rec.status)
			}
		})
	}
	b, k := allocs(bare), allocs(kit)
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
		server.WriteResponse(w, r, 200, struct {
			ID string `json:"id"`
		}{r.PathValue("id")})
	}
	build := func(d time.Duration) http.Handler {
		s := server.New(nil)
		s.SetLogger(log.New(io.Discard))
		s.SetDefaultHandlerTimeout(d)
		s.HandleFunc("GET /users/{id}", endpoint)
		return s.Handler()
	}
	req := httptest.NewRequest("GET", "/users/42", nil)
	rec := &statusWriter{h: http.Header{}}
	allocs := func(h http.Handler) float64 {
		return testing.AllocsPerRun(200, func() {
			clear(rec.h)
			h.ServeHTTP(rec, req)
		})
	}
	without, with := allocs(build(0)), allocs(build(time.Minute))
	t.Logf("with a handler timeout %.0f, without %.0f", with, without)
	if with-without > 2 {
		t.Fatalf("a handler timeout costs %.0f allocations per request", with-without)
	}
}
