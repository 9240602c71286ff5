package server_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/server"
)

func TestRecoveryBeforeResponse(t *testing.T) {
	s, logs := newServer(t)
	s.HandleFunc("GET /boom", func(w http.ResponseWriter, r *http.Request) { panic("kaboom") })
	ctx, tid := spanCtx()
	req := httptest.NewRequest("GET", "/boom", nil).WithContext(ctx)
	req.Header.Set("X-Request-Id", "req-1")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	assertFramework(t, rec, 500, "internal server error")
	lines := logs.lines(t, "panic recovered")
	if len(lines) != 1 {
		t.Fatalf("logs = %s", logs.String())
	}
	l := lines[0]
	if l["panic"] != "kaboom" || l["trace_id"] != tid || l["request_id"] != "req-1" ||
		!strings.Contains(l["stack"].(string), "runtime/debug.Stack") || l["response_started"] != false {
		t.Fatalf("panic line = %v", l)
	}
	access := logs.lines(t, "http request")
	if len(access) != 1 || access[0]["status"] != float64(500) {
		t.Fatalf("access log = %v", access)
	}
}

func TestRecoveryStandalone(t *testing.T) {
	logs := &syncBuffer{}
	h := server.Recovery(log.New(logs))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		panic("late")
	}))
	rec := do(t, h, "GET", "/", "")
	if rec.Code != http.StatusAccepted {
		t.Fatalf("committed status replaced: %d", rec.Code)
	}
	lines := logs.lines(t, "panic recovered")
	if len(lines) != 1 || lines[0]["response_started"] != true || lines[0]["status"] != float64(202) {
		t.Fatalf("logs = %s", logs.String())
	}
}

func TestRequestID(t *testing.T) {
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	tests := []struct {
		name, in string
		keep     bool
	}{
		{"kept", "abc-123", true},
		{"generated", "", false},
		{"too long", strings.Repeat("a", 129), false},
		{"not printable", "a b", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logs := captureLogs(t)
			var fromCtx string
			h := server.RequestID()(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				fromCtx = server.RequestIDFromContext(r.Context())
				log.FromContext(r.Context()).Info("inside")
			}))
			rec := do(t, h, "GET", "/", "", "X-Request-Id", tt.in)
			got := rec.Header().Get("X-Request-Id")
			if got != fromCtx {
				t.Fatalf("header %q, context %q", got, fromCtx)
			}
			if tt.keep && got != tt.in {
				t.Fatalf("id %q not kept (%q)", tt.in, got)
			}
			if !tt.keep && !hex32.MatchString(got) {
				t.Fatalf("generated id %q", got)
			}
			if l := logs.lines(t, "inside"); len(l) != 1 || l[0]["request_id"] != got {
				t.Fatalf("log = %s", logs.String())
			}
		})
	}
}

// Inside the server a generated id lives in the request state, and so does the
// first logger taken from the request: the ids and the lines are the same as
// outside it, for that logger, a second one and one derived with With, also
// after the request (a goroutine of the handler may log late).
func TestRequestIDAndLoggerInState(t *testing.T) {
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	s, logs := newServer(t)
	var late log.Logger
	s.HandleFunc("GET /x", func(w http.ResponseWriter, r *http.Request) {
		first := log.FromContext(r.Context())
		first.Info("first")
		log.FromContext(r.Context()).With("k", 1).Warn("second")
		late = first
		w.WriteHeader(204)
	})
	ids := map[string]bool{}
	for range 3 {
		id := do(t, s.Handler(), "GET", "/x", "").Header().Get("X-Request-Id")
		if !hex32.MatchString(id) || ids[id] {
			t.Fatalf("generated id %q (ids so far %v)", id, ids)
		}
		ids[id] = true
		late.Error("late")
		for _, msg := range []string{"first", "second", "late"} {
			if l := logs.lines(t, msg); len(l) != len(ids) || l[len(l)-1]["request_id"] != id {
				t.Fatalf("%s: %s", msg, logs.String())
			}
		}
	}
}

func TestAccessLog(t *testing.T) {
	s, logs := newServer(t)
	s.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, r *http.Request) {
		server.WriteResponse(w, r, 200, map[string]string{"id": r.PathValue("id")})
	})
	s.HandleFunc("GET /fail", func(w http.ResponseWriter, r *http.Request) {
		server.WriteFrameworkError(w, 503, "down")
	})
	do(t, s.Handler(), "GET", "/users/42", "")
	do(t, s.Handler(), "GET", "/fail", "")
	do(t, s.Handler(), "GET", "/missing", "")
	lines := logs.lines(t, "http request")
	if len(lines) != 3 {
		t.Fatalf("logs = %s", logs.String())
	}
	tests := []struct {
		path, route, level string
		status             float64
	}{
		{"/users/42", "/users/{id}", "INFO", 200},
		{"/fail", "/fail", "ERROR", 503},
		{"/missing", "", "INFO", 404},
	}
	for i, tt := range tests {
		l := lines[i]
		if l["path"] != tt.path || l["route"] != tt.route || l["status"] != tt.status || l["level"] != tt.level ||
			l["method"] != "GET" || l["request_id"] == nil || l["duration_ms"] == nil || l["bytes"] == nil {
			t.Errorf("line %d = %v", i, l)
		}
	}
}

func TestAccessLogFollow(t *testing.T) {
	first := captureLogs(t)
	h := server.AccessLog(log.Follow())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	do(t, h, "GET", "/a", "")
	second := &syncBuffer{}
	log.SetDefault(log.New(second))
	do(t, h, "GET", "/b", "")
	if len(first.lines(t, "http request")) != 1 || len(second.lines(t, "http request")) != 1 {
		t.Fatalf("first %q second %q", first.String(), second.String())
	}
}

func TestDeprecatedTimeout(t *testing.T) {
	h := server.Timeout(20 * time.Millisecond)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	rec := do(t, h, "GET", "/", "")
	if rec.Code != http.StatusServiceUnavailable || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("got %d %v %q", rec.Code, rec.Header(), rec.Body.String())
	}
}

func TestCompress(t *testing.T) {
	big := strings.Repeat(`{"hello":"world"}`, 200)
	tests := []struct {
		name        string
		accept      string
		contentType string
		preEncoded  bool
		body        string
		method      string
		wantEnc     string
	}{
		{"gzip", "gzip, deflate", "application/json", false, big, "GET", "gzip"},
		{"deflate only", "deflate", "application/json", false, big, "GET", "deflate"},
		{"gzip refused", "gzip;q=0, deflate", "application/json", false, big, "GET", "deflate"},
		{"preference", "gzip;q=0.5, deflate;q=0.9", "text/plain", false, big, "GET", "deflate"},
		{"star", "*", "text/html", false, big, "GET", "gzip"},
		{"none accepted", "", "application/json", false, big, "GET", ""},
		{"below min size", "gzip", "application/json", false, `{"a":1}`, "GET", ""},
		{"not compressible", "gzip", "image/png", false, big, "GET", ""},
		{"already encoded", "gzip", "application/json", true, big, "GET", "br"},
		{"sniffed type", "gzip", "", false, strings.Repeat("plain text ", 300), "GET", "gzip"},
		{"head", "gzip", "application/json", false, "", "HEAD", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := server.Compress(server.CompressOptions{})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				}
				if tt.preEncoded {
					w.Header().Set("Content-Encoding", "br")
				}
				w.Header().Set("Content-Length", "999999")
				// Write in pieces to exercise buffering.
				for i := 0; i < len(tt.body); i += 100 {
					_, _ = io.WriteString(w, tt.body[i:min(i+100, len(tt.body))])
				}
			}))
			rec := do(t, h, tt.method, "/", "", "Accept-Encoding", tt.accept)
			if got := rec.Header().Get("Content-Encoding"); got != tt.wantEnc {
				t.Fatalf("Content-Encoding %q, want %q", got, tt.wantEnc)
			}
			if rec.Header().Get("Vary") != "Accept-Encoding" {
				t.Errorf("Vary = %q", rec.Header().Get("Vary"))
			}
			var r io.Reader = rec.Body
			switch tt.wantEnc {
			case "gzip":
				zr, err := gzip.NewReader(rec.Body)
				if err != nil {
					t.Fatal(err)
				}
				r = zr
			case "deflate":
				r = flate.NewReader(rec.Body)
			}
			if tt.wantEnc == "gzip" || tt.wantEnc == "deflate" {
				if rec.Header().Get("Content-Length") != "" {
					t.Errorf("Content-Length kept on a compressed body")
				}
				if rec.Header().Get("Content-Type") == "" {
					t.Errorf("no Content-Type on a compressed body")
				}
			}
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, []byte(tt.body)) {
				t.Fatalf("body mismatch: %d bytes, want %d", len(got), len(tt.body))
			}
		})
	}
}

func TestCompressFlush(t *testing.T) {
	h := server.Compress(server.CompressOptions{Level: 1, MinSize: 10})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: 1\n\n")
		http.NewResponseController(w).Flush()
		_, _ = io.WriteString(w, "data: 2\n\n")
	}))
	rec := do(t, h, "GET", "/", "", "Accept-Encoding", "gzip")
	if rec.Header().Get("Content-Encoding") != "gzip" || !rec.Flushed {
		t.Fatalf("flush: %v flushed=%v", rec.Header(), rec.Flushed)
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(zr)
	if string(got) != "data: 1\n\ndata: 2\n\n" {
		t.Fatalf("body %q", got)
	}
}
