package benchruntime

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func run(b *testing.B, h http.Handler) {
	req := httptest.NewRequest("GET", "/users/42", nil)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// BenchmarkBareMux serves the endpoint on a bare http.ServeMux.
func BenchmarkBareMux(b *testing.B) { run(b, Bare()) }

// BenchmarkKitServer serves it through server.New(nil).Handler().
func BenchmarkKitServer(b *testing.B) {
	_, h := Kit()
	run(b, h)
}

func TestSameResponse(t *testing.T) {
	_, kit := Kit()
	for _, h := range []http.Handler{Bare(), kit} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/users/7", nil))
		if rec.Code != 200 || rec.Body.String() != `{"id":"7","name":"Ada Lovelace","email":"ada@example.com","admin":false}`+"\n" {
			t.Fatalf("%d %q", rec.Code, rec.Body.String())
		}
	}
}

// BenchmarkKitServerNoDefaultMiddleware serves it through
// server.New(nil, server.WithoutDefaultMiddleware()) (Recovery only), to
// show what RequestID and AccessLog cost.
func BenchmarkKitServerNoDefaultMiddleware(b *testing.B) {
	run(b, KitMinimal())
}
