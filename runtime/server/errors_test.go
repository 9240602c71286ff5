package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/server"
)

// emailTakenErr mimics a typed error generated from the DSL.
type emailTakenErr struct{ Email string }

func (e *emailTakenErr) Error() string   { return "email already taken" }
func (e *emailTakenErr) ErrCode() string { return "EMAIL_TAKEN" }
func (e *emailTakenErr) HTTPStatus() int { return http.StatusConflict }
func (e *emailTakenErr) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Email string `json:"email"`
	}{e.Email})
}
func (e *emailTakenErr) WriteResponseHeaders(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
}

// notFoundErr has no body fields and no headers.
type notFoundErr struct{}

func (notFoundErr) Error() string   { return "user not found" }
func (notFoundErr) ErrCode() string { return "USER_NOT_FOUND" }
func (notFoundErr) HTTPStatus() int { return http.StatusNotFound }
func (notFoundErr) MarshalJSON() ([]byte, error) {
	return []byte(`{"code":"USER_NOT_FOUND","message":"user not found"}`), nil
}

// spanCtx returns a context carrying a valid remote span context.
func spanCtx() (context.Context, string) {
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled})
	return trace.ContextWithSpanContext(context.Background(), sc), tid.String()
}

func TestWriteError(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		status  int
		body    string
		headers map[string]string
	}{
		{"typed with headers", fmt.Errorf("create: %w", &emailTakenErr{Email: "a@b.c"}), 409,
			`{"email":"a@b.c"}`, map[string]string{"Retry-After": "5", "Content-Type": "application/json; charset=utf-8"}},
		{"typed without body fields", notFoundErr{}, 404,
			`{"code":"USER_NOT_FOUND","message":"user not found"}`, nil},
		{"deadline", fmt.Errorf("db: %w", context.DeadlineExceeded), 504,
			`{"message":"gateway timeout"}`, map[string]string{"X-Content-Type-Options": "nosniff"}},
		{"unknown", errors.New("boom"), 500,
			`{"message":"internal server error"}`, map[string]string{"X-Content-Type-Options": "nosniff"}},
		{"not implemented (a fresh stub)", fmt.Errorf("logic: %w", server.NotImplemented("CreateTodo")), 501,
			`{"message":"CreateTodo is not implemented yet"}`,
			map[string]string{"X-Content-Type-Options": "nosniff", "Content-Type": "application/json; charset=utf-8"}},
		{"canceled while client still there", context.Canceled, 500,
			`{"message":"internal server error"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			captureLogs(t)
			rec := httptest.NewRecorder()
			server.WriteError(rec, httptest.NewRequest("GET", "/x", nil), tt.err)
			if rec.Code != tt.status || strings.TrimSpace(rec.Body.String()) != tt.body {
				t.Fatalf("got %d %q, want %d %s", rec.Code, rec.Body.String(), tt.status, tt.body)
			}
			for k, v := range tt.headers {
				if got := rec.Header().Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestWriteErrorUnknownIsLoggedWithTraceIDs(t *testing.T) {
	logs := captureLogs(t)
	ctx, tid := spanCtx()
	rec := httptest.NewRecorder()
	server.WriteError(rec, httptest.NewRequest("GET", "/x", nil).WithContext(ctx), errors.New("db exploded"))
	lines := logs.lines(t, "unhandled service error")
	if len(lines) != 1 || lines[0]["error"] != "db exploded" || lines[0]["trace_id"] != tid || lines[0]["level"] != "ERROR" {
		t.Fatalf("log = %v", logs.String())
	}
	if strings.Contains(rec.Body.String(), "exploded") {
		t.Fatal("internal error text leaked to the client")
	}
}

func TestUnknownErrorHandler(t *testing.T) {
	captureLogs(t)
	var calls []error
	server.SetHandleUnknownError(func(w http.ResponseWriter, r *http.Request, err error) {
		calls = append(calls, err)
		server.WriteFrameworkError(w, http.StatusTeapot, "custom")
	})
	defer server.SetHandleUnknownError(nil)

	rec := httptest.NewRecorder()
	server.WriteError(rec, httptest.NewRequest("GET", "/x", nil), errors.New("boom"))
	assertFramework(t, rec, http.StatusTeapot, "custom")

	// Deadline, client-gone and typed errors never reach it.
	server.WriteError(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil), context.DeadlineExceeded)
	server.WriteError(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil), notFoundErr{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	server.WriteError(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil).WithContext(ctx), context.Canceled)
	if len(calls) != 1 {
		t.Fatalf("unknown handler called %d times", len(calls))
	}
}

// recordingWriter notes whether anything was written.
type recordingWriter struct {
	h       http.Header
	touched bool
}

func (w *recordingWriter) Header() http.Header {
	if w.h == nil {
		w.h = http.Header{}
	}
	return w.h
}
func (w *recordingWriter) Write(b []byte) (int, error) { w.touched = true; return len(b), nil }
func (w *recordingWriter) WriteHeader(int)             { w.touched = true }

func TestWriteErrorClientGone(t *testing.T) {
	s, logs := newServer(t)
	s.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		server.WriteError(w, r, fmt.Errorf("query: %w", r.Context().Err()))
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := &recordingWriter{}
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/slow", nil).WithContext(ctx))
	if w.touched {
		t.Fatal("a response was written for a gone client")
	}
	lines := logs.lines(t, "http request")
	if len(lines) != 1 || lines[0]["status"] != float64(499) || lines[0]["route"] != "/slow" {
		t.Fatalf("access log = %s", logs.String())
	}
}

func TestWriteErrorAfterResponseStarted(t *testing.T) {
	s, logs := newServer(t)
	s.HandleFunc("GET /x", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write([]byte("partial"))
		server.WriteError(w, r, errors.New("late failure"))
		server.WriteValidationError(w, r, errors.New("late validation"))
	})
	rec := do(t, s.Handler(), "GET", "/x", "")
	if rec.Code != http.StatusAccepted || rec.Body.String() != "partial" {
		t.Fatalf("got %d %q", rec.Code, rec.Body.String())
	}
	if len(logs.lines(t, "error after response started")) != 1 ||
		len(logs.lines(t, "validation error after response started")) != 1 {
		t.Fatalf("logs = %s", logs.String())
	}
}

func TestWriteValidationError(t *testing.T) {
	tests := []struct {
		name   string
		hook   func(w http.ResponseWriter, r *http.Request, err error)
		err    error
		status int
		msg    string
	}{
		{"default", nil, errors.New("name: required"), 400, "name: required"},
		{"too large", nil, fmt.Errorf("decode: %w", &http.MaxBytesError{Limit: 10}), 413, "request entity too large"},
		{"hook", func(w http.ResponseWriter, r *http.Request, err error) {
			server.WriteFrameworkError(w, 422, "hooked: "+err.Error())
		}, errors.New("bad"), 422, "hooked: bad"},
		{"hook skipped for 413", func(w http.ResponseWriter, r *http.Request, err error) {
			t.Error("hook called for an over-cap body")
		}, &http.MaxBytesError{Limit: 1}, 413, "request entity too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server.SetDefaultValidationFailed(tt.hook)
			defer server.SetDefaultValidationFailed(nil)
			rec := httptest.NewRecorder()
			server.WriteValidationError(rec, httptest.NewRequest("POST", "/x", nil), tt.err)
			assertFramework(t, rec, tt.status, tt.msg)
		})
	}
}

func TestWriteResponse(t *testing.T) {
	t.Run("ok", func(t *testing.T) {
		rec := httptest.NewRecorder()
		server.WriteResponse(rec, httptest.NewRequest("POST", "/x", nil), 201, map[string]any{"id": 1})
		if rec.Code != 201 || strings.TrimSpace(rec.Body.String()) != `{"id":1}` ||
			rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("got %d %q %v", rec.Code, rec.Body.String(), rec.Header())
		}
	})
	t.Run("no content", func(t *testing.T) {
		rec := httptest.NewRecorder()
		server.WriteResponse(rec, httptest.NewRequest("DELETE", "/x", nil), 204, nil)
		if rec.Code != 204 || rec.Body.Len() != 0 {
			t.Fatalf("got %d %q", rec.Code, rec.Body.String())
		}
	})
	t.Run("unencodable", func(t *testing.T) {
		logs := captureLogs(t)
		rec := httptest.NewRecorder()
		server.WriteResponse(rec, httptest.NewRequest("GET", "/x", nil), 200, map[string]float64{"v": math.NaN()})
		assertFramework(t, rec, 500, "internal server error")
		if len(logs.lines(t, "unhandled service error")) != 1 {
			t.Fatalf("logs = %s", logs.String())
		}
	})
}
