package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"

	"github.com/kitdev/kit/runtime/internal/reqctx"
	"github.com/kitdev/kit/runtime/log"
)

// RequestIDHeader is the header read and written by RequestID.
const RequestIDHeader = "X-Request-Id"

// RequestID reads the X-Request-Id header, or generates a random id when it
// is absent or unusable (longer than 128 bytes or not printable ASCII),
// sets it on the response and stores it on the request context
// (RequestIDFromContext, log.FromContext).
func RequestID() Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id := r.Header.Get(RequestIDHeader)
			if !validRequestID(id) {
				id = newRequestID()
			}
			w.Header().Set(RequestIDHeader, id)
			if st := reqctx.From(r.Context()); st != nil {
				st.SetRequestID(id) // no request copy inside the server
				next.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(w, r.WithContext(log.ContextWithRequestID(r.Context(), id)))
		})
	}
}

// RequestIDFromContext returns the request id stored by RequestID, or "".
func RequestIDFromContext(ctx context.Context) string { return log.RequestIDFromContext(ctx) }

func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	var out [32]byte
	hex.Encode(out[:], b[:])
	return string(out[:])
}
