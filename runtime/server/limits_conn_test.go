package server_test

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/server"
)

// A Content-Length above the cap is answered 413 at once, without waiting
// for the body: the answer closes the connection, so net/http does not
// first drain the unread body (it would for one under 256 KiB, and a
// client that waits for the answer before sending would hang).
func TestContentLengthPrecheckAnswersWithoutTheBody(t *testing.T) {
	s := server.New(nil)
	s.SetLogger(newJSONLogger(&syncBuffer{}))
	s.Handle("POST /limited", server.WithLimits(decodeHandler(nil), server.Limits{MaxBodySize: 64}))
	global := server.New(nil)
	global.SetLogger(newJSONLogger(&syncBuffer{}))
	global.Use(server.BodyLimit(64))
	global.Handle("POST /limited", decodeHandler(nil))
	for name, h := range map[string]http.Handler{"WithLimits": s.Handler(), "BodyLimit": global.Handler()} {
		t.Run(name, func(t *testing.T) {
			ts := httptest.NewServer(h)
			defer ts.Close()
			conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
			if _, err := conn.Write([]byte("POST /limited HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer before the body was sent: %v", err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge || !resp.Close {
				t.Fatalf("status %d, close %v", resp.StatusCode, resp.Close)
			}
		})
	}
}
