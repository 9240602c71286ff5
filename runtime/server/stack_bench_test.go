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

// BenchmarkStackLayers prices each layer of the default stack on a GET with
// a path wildcard and a POST with a small JSON body (in process, no
// network): a bare ServeMux, then the ServeMux behind each middleware alone,
// then the whole server as generated services run it (request state, body
// cap, RequestID, AccessLog at warn, Recovery twice), and the same with a
// handler deadline. Differences between the rows are what each layer costs.
func BenchmarkStackLayers(b *testing.B) {
	prev := log.Default()
	b.Cleanup(func() { log.SetDefault(prev) })
	level := log.GetLevel()
	b.Cleanup(func() { log.SetLevel(level) })
	log.SetLevel(log.LevelWarn) // the lean config: no access line below 500
	quiet := log.New(io.Discard)
	get, post := getUser, createUser
	mux := http.NewServeMux()
	mux.HandleFunc("GET /users/{id}", get)
	mux.HandleFunc("POST /users", post)
	full := func(timeout time.Duration) http.Handler {
		s := server.New(nil)
		s.SetLogger(quiet)
		s.SetDefaultHandlerTimeout(timeout)
		s.HandleFunc("GET /users/{id}", get)
		s.HandleFunc("POST /users", post)
		return s.Handler()
	}
	stacks := []struct {
		name string
		h    http.Handler
	}{
		{"mux", mux},
		{"requestid", server.RequestID()(mux)},
		{"accesslog", server.AccessLog(quiet)(mux)},
		{"recovery", server.Recovery(quiet)(mux)},
		{"server", full(0)},
		{"server+timeout", full(time.Minute)},
	}
	const payload = `{"name":"Ada"}`
	for _, st := range stacks {
		b.Run("get/"+st.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/users/42", nil)
			w := &statusWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				st.h.ServeHTTP(w, req)
			}
		})
		b.Run("post/"+st.name, func(b *testing.B) {
			body := strings.NewReader(payload)
			req := httptest.NewRequest("POST", "/users", body)
			req.Header.Set("Content-Type", "application/json")
			w := &statusWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				body.Reset(payload)
				clear(w.h)
				st.h.ServeHTTP(w, req)
			}
		})
	}
}

// statusWriter keeps the status of each answer and drops its bytes.
type statusWriter struct {
	h      http.Header
	status int
}

func (w *statusWriter) Header() http.Header         { return w.h }
func (w *statusWriter) WriteHeader(status int)      { w.status = status }
func (w *statusWriter) Write(p []byte) (int, error) { return len(p), nil }

// getUser answers GET /users/{id} with the id, as a generated handler's
// answer: WriteResponse of a small struct.
func getUser(w http.ResponseWriter, r *http.Request) {
	server.WriteResponse(w, r, 200, struct {
		ID string `json:"id"`
	}{r.PathValue("id")})
}

// createUser decodes a small JSON body and answers it back with 201.
func createUser(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name string `json:"name"`
	}
	if err := server.DecodeJSONBody(r, &in); err != nil {
		server.WriteValidationError(w, r, err)
		return
	}
	server.WriteResponse(w, r, 201, &in)
}
