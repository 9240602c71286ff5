package server_test

import (
	"context"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/internal/logfile"
	"github.com/kitdev/kit/runtime/server"
)

// A logger over a file holds the access lines for a batch (log.New): once
// Stop returns, every request's line is in the file, whole.
func TestAccessLinesToAFileAreCompleteAfterStop(t *testing.T) {
	const callers, each = 8, 25
	lf := logfile.New(t)
	s := server.New(nil)
	s.SetLogger(lf.Logger())
	s.HandleFunc("GET /ping", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "pong") })
	base, _ := serve(t, s)
	// A client of its own, whose idle connections are closed before Stop:
	// Shutdown waits up to 5 s for a connection that never sent a request.
	tr := &http.Transport{}
	client := &http.Client{Transport: tr}
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range each {
				resp, err := client.Get(base + "/ping")
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	tr.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	access := 0
	for _, m := range lf.Lines() {
		if m["msg"] == "http request" && m["route"] == "/ping" {
			access++
		}
	}
	if access != callers*each {
		t.Fatalf("%d access lines after Stop, want %d", access, callers*each)
	}
}
