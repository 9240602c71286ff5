package server_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/server"
)

// rawAnswer sends raw bytes on a new connection and reads one answer.
func rawAnswer(t *testing.T, base, raw string) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// assertFrameworkResp checks a framework error answered over a socket.
func assertFrameworkResp(t *testing.T, resp *http.Response, status int, msg string) {
	t.Helper()
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d: %q", resp.StatusCode, status, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("no nosniff: %v", resp.Header)
	}
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil || len(body) != 1 || body["message"] != msg {
		t.Fatalf("body %q, want {message: %q}", b, msg)
	}
}

// net/http's own refusals, written before any handler runs, carry the
// framework's JSON body and headers.
func TestNetHTTPRefusalsAreJSON(t *testing.T) {
	s, _ := newServer(t)
	s.HandleFunc("GET /h", func(w http.ResponseWriter, r *http.Request) {})
	base, _ := serve(t, s)
	tests := []struct {
		name, raw string
		status    int
		msg       string
	}{
		{"header too large", "GET /h HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 40<<10) + "\r\n\r\n",
			431, "request header fields too large"},
		{"unsupported transfer encoding", "POST /h HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
			501, "unsupported transfer encoding"},
		{"missing host", "GET /h HTTP/1.1\r\n\r\n", 400, "bad request: missing required Host header"},
		{"malformed request line", "GET\r\n\r\n", 400, "bad request"},
		{"unsupported version", "GET /h HTTP/2.5\r\nHost: x\r\n\r\n", 505, "http version not supported: unsupported protocol version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertFrameworkResp(t, rawAnswer(t, base, tt.raw), tt.status, tt.msg)
		})
	}
	// A handler's own plain-text answer shaped like net/http's is left alone.
	s.HandleFunc("GET /plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = nil
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Connection", "close")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "400 Bad Request")
	})
	resp := rawAnswer(t, base, "GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || string(b) != "400 Bad Request" {
		t.Fatalf("%d %q", resp.StatusCode, b)
	}
}

// A head not received within the read-header timeout is answered 408 with
// the JSON body; a connection idle between requests is closed silently.
func TestHeaderTimeoutAnswers408(t *testing.T) {
	s, _ := newServer(t)
	s.SetDefaultReadHeaderTimeout(200 * time.Millisecond)
	s.SetDefaultIdleTimeout(200 * time.Millisecond)
	s.HandleFunc("GET /h", func(w http.ResponseWriter, r *http.Request) {})
	base, _ := serve(t, s)
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	_, _ = io.WriteString(conn, "GET /h HTTP/1.1\r\nHost: x\r\n")
	all, _ := io.ReadAll(conn) // one answer, then the connection closes
	conn.Close()
	if n := strings.Count(string(all), "HTTP/1.1 "); n != 1 {
		t.Fatalf("%d answers: %q", n, all)
	}
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(all))), nil)
	if err != nil {
		t.Fatal(err)
	}
	assertFrameworkResp(t, resp, 408, "request timeout")

	// an idle keep-alive connection after a complete request: no 408
	conn, err = net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	_, _ = io.WriteString(conn, "GET /h HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(conn)
	resp, err = http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	resp.Body.Close()
	rest, err := io.ReadAll(br) // the server closes the idle connection
	if err != nil {
		t.Fatal(err)
	}
	if len(rest) != 0 {
		t.Fatalf("idle connection got %q", rest)
	}
}

// A body not received within the read timeout is answered 408.
func TestBodyReadTimeoutAnswers408(t *testing.T) {
	s, _ := newServer(t)
	s.SetDefaultReadTimeout(300 * time.Millisecond)
	s.HandleFunc("POST /d", decodeHandler(nil))
	base, _ := serve(t, s)
	resp := rawAnswer(t, base, "POST /d HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":")
	assertFrameworkResp(t, resp, 408, "request timeout")
}

// The write timeout cuts off a client that never reads its answer; a route
// whose @timeout is longer than the write timeout still answers after it.
func TestWriteTimeout(t *testing.T) {
	s, _ := newServer(t)
	s.SetDefaultWriteTimeout(300 * time.Millisecond)
	big := strings.Repeat("x", 64<<20)
	served := make(chan error, 1)
	s.HandleFunc("GET /big", func(w http.ResponseWriter, r *http.Request) {
		_, err := io.WriteString(w, big)
		served <- err
	})
	s.Handle("GET /slow", server.WithLimits(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(600 * time.Millisecond) // past the write timeout, within @timeout
		_, _ = io.WriteString(w, "done")
	}), server.Limits{Timeout: 5 * time.Second}))
	base, _ := serve(t, s)

	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	select { // the client reads nothing: the write fails once its deadline passed
	case err := <-served:
		if err == nil {
			t.Fatal("64 MiB written to a client that never read")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the handler is still blocked writing to a client that never reads")
	}
	n, _ := io.Copy(io.Discard, conn) // what was buffered, then the server's close
	if n >= int64(len(big)) {
		t.Fatalf("read %d bytes", n)
	}

	resp, err := http.Get(base + "/slow")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "done" {
		t.Fatalf("%d %q", resp.StatusCode, b)
	}
}

// A Content-Length above the default body cap is refused before the body is
// read; a route with its own cap decides for itself.
func TestDefaultBodyCap(t *testing.T) {
	s, _ := newServer(t)
	called := false
	s.HandleFunc("POST /d", decodeHandler(&called))
	s.Handle("POST /big", server.WithLimits(decodeHandler(nil), server.Limits{MaxBodySize: 4 << 20}))
	h := s.Handler()
	req := func(path string, n int64) *http.Request {
		r, _ := http.NewRequest("POST", path, failReader{t})
		r.ContentLength = n
		r.Header.Set("Content-Type", "application/json")
		return r
	}
	rec := doReq(h, req("/d", server.DefaultMaxBodySize+1))
	assertFramework(t, rec, 413, "request entity too large")
	if called {
		t.Fatal("handler ran")
	}
	body := bigJSON(2 << 20)
	r, _ := http.NewRequest("POST", "/big", strings.NewReader(body))
	if rec := doReq(h, r); rec.Code != 200 {
		t.Fatalf("own cap: %d %s", rec.Code, rec.Body.String())
	}
	r, _ = http.NewRequest("POST", "/d", io.MultiReader(strings.NewReader(body)))
	r.ContentLength = -1
	assertFramework(t, doReq(h, r), 413, "request entity too large")
	s.SetDefaultMaxBodySize(-1) // no cap
	r, _ = http.NewRequest("POST", "/d", io.MultiReader(strings.NewReader(body)))
	if rec := doReq(h, r); rec.Code != 200 {
		t.Fatalf("no cap: %d", rec.Code)
	}
}
