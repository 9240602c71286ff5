//go:build !race

package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

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
