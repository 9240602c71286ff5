// Package benchcmp compares, in process, each generated handler with its hand-written
// twin and the generated peers (ogen, oapi-codegen with its request validator): the same
// request through each one's router to a discarding writer (no network), so ns/op and
// allocs/op are the handlers' own; kitstack is the generated handler behind kit's whole
// server stack (what the hand-written and peer servers have no counterpart of).
package benchcmp

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"github.com/kitdev/kit/runtime/log"
	"github.com/kitdev/kit/runtime/server"

	"example.com/benchsvc/config"
	"example.com/benchsvc/internal/handwritten"
	"example.com/benchsvc/internal/peers/oapi"
	"example.com/benchsvc/internal/peers/ogen"
	handler "example.com/benchsvc/internal/transport/users"
	"example.com/benchsvc/internal/wiring"
	"example.com/benchsvc/svccontext"
)

const (
	createBody  = `{"name":"Ada Lovelace","email":"ada@example.com","age":36,"role":"admin","tags":["math","engines","poetry"],"address":{"street":"12 St James's Square","city":"London","zip":"12345"}}`
	invalidBody = `{"name":"Ada Lovelace","email":"ada@example.com","age":5,"role":"admin","tags":["math"],"address":{"street":"12 St James's Square","city":"London","zip":"12345"}}`
)

// kitStack is the generated service's whole HTTP stack as the lean config runs it: kit's
// server with its default middleware (request id, access log at warn, recovery, the
// per-request state), routes registered by the generated wiring.
func kitStack(b *testing.B) http.Handler {
	log.SetLevel(log.LevelWarn)
	svcCtx := svccontext.NewServiceContext(&config.Config{})
	srv := server.New(svcCtx)
	if err := wiring.Register(context.Background(), srv, svcCtx); err != nil {
		b.Fatal(err)
	}
	return srv.Handler()
}

func kitMux() http.Handler {
	svcCtx := svccontext.NewServiceContext(&config.Config{})
	mux := http.NewServeMux()
	mux.Handle("POST /v1/users", handler.CreateUser(svcCtx))
	mux.Handle("GET /v1/users/{id}", handler.GetUser(svcCtx))
	mux.Handle("GET /v1/users", handler.ListUsers(svcCtx))
	return mux
}

// body is a request body that can be read again.
type body struct{ bytes.Reader }

func (*body) Close() error { return nil }

// discard is a ResponseWriter that keeps the status and drops the bytes.
type discard struct {
	h      http.Header
	status int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(status int)      { d.status = status }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }

func run(b *testing.B, h http.Handler, method, target, payload string, status int) {
	r, err := http.NewRequest(method, "http://bench"+target, nil)
	if err != nil {
		b.Fatal(err)
	}
	var rb *body
	if payload != "" {
		rb = &body{}
		r.Body = rb
		r.ContentLength = int64(len(payload))
		r.Header.Set("Content-Type", "application/json")
	}
	raw := []byte(payload)
	w := &discard{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		if rb != nil {
			rb.Reset(raw)
		}
		clear(w.h)
		w.status = 0
		h.ServeHTTP(w, r)
	}
	if w.status != status {
		b.Fatalf("status %d, want %d", w.status, status)
	}
}

func benchAll(b *testing.B, method, target, payload string, status int) {
	b.Run("kit", func(b *testing.B) { run(b, kitMux(), method, target, payload, status) })
	b.Run("kitstack", func(b *testing.B) { run(b, kitStack(b), method, target, payload, status) })
	b.Run("hand", func(b *testing.B) { run(b, handwritten.Handler(), method, target, payload, status) })
	b.Run("ogen", func(b *testing.B) { run(b, ogen.Handler(), method, target, payload, status) })
	b.Run("oapi", func(b *testing.B) { run(b, oapi.Handler(), method, target, payload, status) })
}

func BenchmarkCreate(b *testing.B)  { benchAll(b, "POST", "/v1/users", createBody, 201) }
func BenchmarkInvalid(b *testing.B) { benchAll(b, "POST", "/v1/users", invalidBody, 400) }
func BenchmarkGet(b *testing.B)     { benchAll(b, "GET", "/v1/users/u-42?verbose=true", "", 200) }
func BenchmarkList(b *testing.B)    { benchAll(b, "GET", "/v1/users?limit=50", "", 200) }
