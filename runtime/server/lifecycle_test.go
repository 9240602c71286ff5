package server_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/server"
)

// serve starts s on a loopback port and returns its base URL and the
// channel receiving Serve's result.
func serve(t *testing.T, s *server.Server) (string, <-chan error) {
	t.Helper()
	ln, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.Stop(ctx)
	})
	return "http://" + s.Addr(), done
}

func TestStartAddrStop(t *testing.T) {
	s, _ := newServer(t)
	s.HandleFunc("GET /ping", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "pong") })
	done := make(chan error, 1)
	go func() { done <- s.Start("127.0.0.1:0") }()
	deadline := time.Now().Add(5 * time.Second)
	for s.Addr() == "" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if s.Addr() == "" {
		t.Fatal("Addr never set")
	}
	var resp *http.Response
	var err error
	for time.Now().Before(deadline) {
		if resp, err = http.Get("http://" + s.Addr() + "/ping"); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "pong" {
		t.Fatalf("body %q", b)
	}
	if err := s.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Start returned %v after Stop", err)
	}
	if err := s.Stop(context.Background()); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
}

func TestStopNeverStarted(t *testing.T) {
	s := server.New(nil)
	if err := s.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("Start after Stop: %v", err)
	}
}

func TestGracefulStopDrainsInFlight(t *testing.T) {
	s, _ := newServer(t)
	entered := make(chan struct{})
	release := make(chan struct{})
	s.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		_, _ = io.WriteString(w, "finished")
	})
	base, served := serve(t, s)

	type result struct {
		body string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get(base + "/slow")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{string(b), err}
	}()
	<-entered

	stopped := make(chan error, 1)
	go func() { stopped <- s.Stop(context.Background()) }()

	// Stop waits for the in-flight request; the listener is already closed.
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned %v before the request finished", err)
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second); err == nil {
		t.Error("listener still accepts connections during Stop")
	}
	close(release)
	r := <-got
	if r.err != nil || r.body != "finished" {
		t.Fatalf("in-flight request: %q %v", r.body, r.err)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

func TestStopBudgetExpires(t *testing.T) {
	s, _ := newServer(t)
	entered := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	s.HandleFunc("GET /stuck", func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
	})
	base, _ := serve(t, s)
	clientErr := make(chan error, 1)
	go func() {
		resp, err := http.Get(base + "/stuck")
		if err == nil {
			resp.Body.Close()
		}
		clientErr <- err
	}()
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Stop = %v, want deadline exceeded", err)
	}
	if err := <-clientErr; err == nil {
		t.Fatal("the cut-off request succeeded")
	}
}

func TestPanicAfterResponseStartedOverSocket(t *testing.T) {
	s, logs := newServer(t)
	s.HandleFunc("GET /half", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, "partial")
		http.NewResponseController(w).Flush()
		panic("after commit")
	})
	base, _ := serve(t, s)
	resp, err := http.Get(base + "/half")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || string(b) != "partial" {
		t.Fatalf("got %d %q", resp.StatusCode, b)
	}
	lines := logs.lines(t, "panic recovered")
	if len(lines) != 1 || lines[0]["response_started"] != true || lines[0]["status"] != float64(202) {
		t.Fatalf("logs = %s", logs.String())
	}
	if a := logs.lines(t, "http request"); len(a) != 1 || a[0]["status"] != float64(202) {
		t.Fatalf("access log = %v", a)
	}
}

func TestClientGoneOverSocket(t *testing.T) {
	s, logs := newServer(t)
	entered := make(chan struct{})
	handled := make(chan struct{})
	s.HandleFunc("GET /wait", func(w http.ResponseWriter, r *http.Request) {
		defer close(handled)
		close(entered)
		<-r.Context().Done()
		server.WriteError(w, r, r.Context().Err())
	})
	base, _ := serve(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/wait", nil)
	go func() {
		<-entered
		cancel()
	}()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("request succeeded")
	}
	<-handled
	deadline := time.Now().Add(5 * time.Second)
	for len(logs.lines(t, "http request")) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	a := logs.lines(t, "http request")
	if len(a) != 1 || a[0]["status"] != float64(499) {
		t.Fatalf("access log = %s", logs.String())
	}
	if n := len(logs.lines(t, "unhandled service error")); n != 0 {
		t.Fatalf("client-gone error reached the unknown-error path")
	}
}

func TestMaxHeaderSize(t *testing.T) {
	tests := []struct {
		name   string
		kb     int
		header int
		status int
	}{
		{"default 32KB refuses 40KB", 0, 40 << 10, http.StatusRequestHeaderFieldsTooLarge},
		{"default accepts 16KB", 0, 16 << 10, http.StatusOK},
		{"raised to 64KB accepts 40KB", 64, 40 << 10, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newServer(t)
			if tt.kb > 0 {
				s.SetDefaultMaxHeaderSize(tt.kb)
			}
			s.HandleFunc("GET /h", func(w http.ResponseWriter, r *http.Request) {})
			base, _ := serve(t, s)
			conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_, _ = io.WriteString(conn, "GET /h HTTP/1.1\r\nHost: x\r\nX-Big: "+strings.Repeat("a", tt.header)+"\r\nConnection: close\r\n\r\n")
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
		})
	}
}

func TestContentLengthPrecheckOverSocket(t *testing.T) {
	s, _ := newServer(t)
	called := false
	s.Handle("POST /upload", server.WithLimits(decodeHandler(&called), server.Limits{MaxBodySize: 1 << 10}))
	base, _ := serve(t, s)
	resp, err := http.Post(base+"/upload", "application/json", strings.NewReader(bigJSON(4<<10)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || strings.TrimSpace(string(b)) != `{"message":"request entity too large"}` ||
		resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("got %d %q %v", resp.StatusCode, b, resp.Header)
	}
	if called {
		t.Fatal("handler ran")
	}
}
