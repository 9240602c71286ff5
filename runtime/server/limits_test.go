package server_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/server"
)

// decodeHandler decodes into a map and answers 200 or the decode error.
func decodeHandler(called *bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if called != nil {
			*called = true
		}
		var v map[string]any
		if err := server.DecodeJSON(r, &v); err != nil {
			server.WriteValidationError(w, r, err)
			return
		}
		server.WriteResponse(w, r, 200, v)
	}
}

// failReader fails the test when read.
type failReader struct{ t *testing.T }

func (f failReader) Read([]byte) (int, error) {
	f.t.Error("body was read")
	return 0, io.EOF
}

func bigJSON(n int) string { return `{"k":"` + strings.Repeat("a", n) + `"}` }

func TestWithLimitsBody(t *testing.T) {
	tests := []struct {
		name       string
		defaultMax int64
		routeMax   int64
		body       string
		status     int
	}{
		{"under route cap", 0, 64, bigJSON(10), 200},
		{"over route cap, chunked", 0, 64, bigJSON(100), 413},
		{"default cap applies", 32, 0, bigJSON(100), 413},
		{"route cap overrides a smaller default", 32, 1024, bigJSON(100), 200},
		{"route cap overrides a larger default", 1024, 32, bigJSON(100), 413},
		{"no caps", 0, 0, bigJSON(5000), 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newServer(t)
			s.SetDefaultMaxBodySize(tt.defaultMax)
			s.Handle("POST /x", server.WithLimits(decodeHandler(nil), server.Limits{MaxBodySize: tt.routeMax}))
			req := httptest.NewRequest("POST", "/x", io.MultiReader(strings.NewReader(tt.body)))
			req.ContentLength = -1 // chunked: only the capped reader can stop it
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body.String())
			}
			if tt.status == 413 {
				assertFramework(t, rec, 413, "request entity too large")
			}
		})
	}
}

func TestWithLimitsContentLengthPrecheck(t *testing.T) {
	s, _ := newServer(t)
	called := false
	s.Handle("POST /x", server.WithLimits(decodeHandler(&called), server.Limits{MaxBodySize: 10}))
	req := httptest.NewRequest("POST", "/x", failReader{t})
	req.ContentLength = 11
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	assertFramework(t, rec, 413, "request entity too large")
	if called {
		t.Fatal("handler ran")
	}
}

func TestBodyLimitMiddleware(t *testing.T) {
	tests := []struct {
		name   string
		length int64
		body   string
		status int
	}{
		{"content-length over cap", 100, bigJSON(95), 413},
		{"chunked over cap", -1, bigJSON(95), 413},
		{"under cap", -1, bigJSON(5), 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := server.BodyLimit(32)(decodeHandler(nil))
			req := httptest.NewRequest("POST", "/x", io.MultiReader(strings.NewReader(tt.body)))
			req.ContentLength = tt.length
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
		})
	}
}

func TestWithLimitsTimeout(t *testing.T) {
	captureLogs(t)
	t.Run("deadline error answers 504", func(t *testing.T) {
		s, _ := newServer(t)
		s.Handle("GET /x", server.WithLimits(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
			server.WriteError(w, r, r.Context().Err())
		}), server.Limits{Timeout: 20 * time.Millisecond}))
		assertFramework(t, do(t, s.Handler(), "GET", "/x", ""), 504, "gateway timeout")
	})
	t.Run("no status written automatically", func(t *testing.T) {
		s, _ := newServer(t)
		s.Handle("GET /x", server.WithLimits(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
			if !errors.Is(r.Context().Err(), context.DeadlineExceeded) {
				t.Errorf("ctx err %v", r.Context().Err())
			}
			w.WriteHeader(http.StatusAccepted)
		}), server.Limits{Timeout: 20 * time.Millisecond}))
		if rec := do(t, s.Handler(), "GET", "/x", ""); rec.Code != http.StatusAccepted {
			t.Fatalf("status %d", rec.Code)
		}
	})
}

func TestDefaultHandlerTimeout(t *testing.T) {
	s, _ := newServer(t)
	s.SetDefaultHandlerTimeout(50 * time.Millisecond)
	remaining := func(out *time.Duration) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if dl, ok := r.Context().Deadline(); ok {
				*out = time.Until(dl)
			} else {
				*out = -1
			}
		}
	}
	var plain, longer, shorter time.Duration
	s.Handle("GET /plain", remaining(&plain))
	s.Handle("GET /longer", server.WithLimits(remaining(&longer), server.Limits{Timeout: time.Hour}))
	s.Handle("GET /shorter", server.WithLimits(remaining(&shorter), server.Limits{Timeout: 10 * time.Millisecond}))
	for _, p := range []string{"/plain", "/longer", "/shorter"} {
		do(t, s.Handler(), "GET", p, "")
	}
	if plain <= 0 || plain > 50*time.Millisecond {
		t.Errorf("default deadline: %v", plain)
	}
	if longer < 50*time.Minute {
		t.Errorf("@timeout longer than the default was cut: %v", longer)
	}
	if shorter <= 0 || shorter > 10*time.Millisecond {
		t.Errorf("shorter @timeout: %v", shorter)
	}
}
