package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/server"
)

// panics is a middleware that panics on the path /p, before calling next.
func panics(where string) server.Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/p" {
				panic(where + " exploded")
			}
			next.ServeHTTP(w, r)
		})
	}
}

// accessLogPanics is a logger whose access-log line panics: a panic inside
// AccessLog. Every other line goes to the wrapped logger.
type accessLogPanics struct{ log.Logger }

func (l accessLogPanics) Info(msg string, args ...any) {
	if msg == "http request" && hasArg(args, "/p") {
		panic("access log exploded")
	}
	l.Logger.Info(msg, args...)
}

func (l accessLogPanics) With(args ...any) log.Logger {
	return accessLogPanics{l.Logger.With(args...)}
}

// Recovery is the outermost layer (spec, Generated HTTP routes 9 and Server
// runtime Recovery): a panic inside any built-in layer, not only in user
// code, is answered 500 {"message":"internal server error"} (or keeps the
// status already committed, as the access log's panic after the handler
// answered) and logged, and the server goes on serving.
func TestAPanicInsideEveryLayerIsRecovered(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	cases := []struct {
		layer  string
		status int
		setup  func(t *testing.T) (*server.Server, *syncBuffer)
	}{
		{"telemetry option", http.StatusInternalServerError, func(t *testing.T) (*server.Server, *syncBuffer) {
			s, logs := newServer(t, server.WithTelemetry(panics("telemetry")))
			s.Handle("GET /p", ok)
			return s, logs
		}},
		{"access log", http.StatusNoContent, func(t *testing.T) (*server.Server, *syncBuffer) {
			s, logs := newServer(t)
			s.SetLogger(accessLogPanics{log.New(logs)})
			s.Handle("GET /p", ok)
			return s, logs
		}},
		{"CORS then a global middleware", http.StatusInternalServerError, func(t *testing.T) (*server.Server, *syncBuffer) {
			s, logs := newServer(t)
			s.SetCORS(server.CORSPermissive())
			s.Use(panics("global middleware"))
			s.Handle("GET /p", ok)
			return s, logs
		}},
		{"route middleware", http.StatusInternalServerError, func(t *testing.T) (*server.Server, *syncBuffer) {
			s, logs := newServer(t)
			s.Handle("GET /p", ok, panics("route middleware"))
			return s, logs
		}},
		{"handler", http.StatusInternalServerError, func(t *testing.T) (*server.Server, *syncBuffer) {
			s, logs := newServer(t)
			s.Handle("GET /p", http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("handler exploded") }))
			return s, logs
		}},
	}
	for _, tc := range cases {
		t.Run(tc.layer, func(t *testing.T) {
			s, logs := tc.setup(t)
			s.Handle("GET /alive", ok)
			base, _ := serve(t, s)
			req, _ := http.NewRequest("GET", base+"/p", nil)
			req.Header.Set("Origin", "https://app.example")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("the panic was not answered: %v", err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("answer %d %q, want %d", resp.StatusCode, body, tc.status)
			}
			var got map[string]any
			if tc.status == http.StatusInternalServerError && (json.Unmarshal(body, &got) != nil ||
				len(got) != 1 || got["message"] != server.MsgInternalServerError) {
				t.Fatalf("body %q, want {message: internal server error}", body)
			}
			if tc.layer == "CORS then a global middleware" && resp.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("the 500 written behind CORS lacks its headers: %v", resp.Header)
			}
			if len(logs.lines(t, "panic recovered")) == 0 {
				t.Errorf("no panic line in %s", logs.String())
			}
			alive, err := http.Get(base + "/alive")
			if err != nil || alive.StatusCode != http.StatusNoContent {
				t.Fatalf("the server stopped serving after the panic: %v %v", alive, err)
			}
			alive.Body.Close()
		})
	}
}

// headerPanicsOnce is a response writer whose first Header call panics:
// the first layer to touch the headers (RequestID, which sets X-Request-Id)
// panics inside its own code.
type headerPanicsOnce struct {
	*httptest.ResponseRecorder
	called bool
}

func (w *headerPanicsOnce) Header() http.Header {
	if !w.called {
		w.called = true
		panic("request id exploded")
	}
	return w.ResponseRecorder.Header()
}

func TestAPanicInsideRequestIDIsRecovered(t *testing.T) {
	s, logs := newServer(t)
	s.HandleFunc("GET /p", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	w := &headerPanicsOnce{ResponseRecorder: httptest.NewRecorder()}
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/p", nil))
	assertFramework(t, w.ResponseRecorder, http.StatusInternalServerError, server.MsgInternalServerError)
	if l := logs.lines(t, "panic recovered"); len(l) != 1 || l[0]["panic"] != "request id exploded" {
		t.Fatalf("panic lines %v", l)
	}
}

func hasArg(args []any, want string) bool {
	for _, a := range args {
		if fmt.Sprint(a) == "path="+want {
			return true
		}
	}
	return false
}
