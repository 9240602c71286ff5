package server_test

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/server"
)

// readAll answers 200 with the number of body bytes read, or the read error.
func readAll(w http.ResponseWriter, r *http.Request) {
	n, err := io.Copy(io.Discard, r.Body)
	if err != nil {
		server.WriteValidationError(w, r, err)
		return
	}
	server.WriteResponse(w, r, http.StatusOK, map[string]int64{"read": n})
}

// Without its own MaxBodySize, a route whose design declares files of up to
// DeclaredFileSize bytes takes a body of the default cap plus them: the
// default never refuses an upload the design allows (issue 20 item 3).
func TestDeclaredFileSizeRaisesTheDefaultCap(t *testing.T) {
	s, _ := newServer(t)
	s.SetDefaultMaxBodySize(1 << 10)
	s.Handle("POST /upload", server.WithLimits(http.HandlerFunc(readAll), server.Limits{DeclaredFileSize: 4 << 10}))
	s.Handle("POST /plain", http.HandlerFunc(readAll))
	base, _ := serve(t, s)
	post := func(path string, n int, chunked bool) int {
		t.Helper()
		var body io.Reader = strings.NewReader(strings.Repeat("x", n))
		if chunked {
			body = io.MultiReader(body) // no length known: sent chunked
		}
		resp, err := http.Post(base+path, "application/octet-stream", body)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, chunked := range []bool{false, true} {
		if got := post("/upload", 5<<10-10, chunked); got != http.StatusOK {
			t.Errorf("chunked=%v: a body within default + declared answered %d", chunked, got)
		}
		if got := post("/upload", 5<<10+10, chunked); got != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked=%v: a body past default + declared answered %d", chunked, got)
		}
		if got := post("/plain", 2<<10, chunked); got != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked=%v: a route without declared files took a body past the default: %d", chunked, got)
		}
	}
	s.SetDefaultMaxBodySize(-1) // no default cap stays no cap
	if got := post("/upload", 64<<10, true); got != http.StatusOK {
		t.Errorf("without a default cap: %d", got)
	}
}

// A Streaming route (@passthrough) writes for as long as it likes: the
// server's write timeout does not cut it (issue 20 item 3); a plain route
// is still cut by it.
func TestStreamingLiftsTheWriteTimeout(t *testing.T) {
	s, _ := newServer(t)
	s.SetDefaultWriteTimeout(300 * time.Millisecond)
	ticks := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := 0; i < 8; i++ {
			if _, err := io.WriteString(w, "data: tick\n\n"); err != nil {
				return
			}
			_ = rc.Flush()
			time.Sleep(100 * time.Millisecond)
		}
	}
	s.Handle("GET /events", server.WithLimits(http.HandlerFunc(ticks), server.Limits{Streaming: true}))
	s.Handle("GET /plain", http.HandlerFunc(ticks))
	base, _ := serve(t, s)
	count := func(path string) int {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		n := 0
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() == "data: tick" {
				n++
			}
		}
		return n
	}
	if n := count("/events"); n != 8 {
		t.Fatalf("the streaming route was cut after %d of 8 events", n)
	}
	if n := count("/plain"); n == 8 {
		t.Fatal("the write timeout did not apply to a plain route: the test proves nothing")
	}
}
