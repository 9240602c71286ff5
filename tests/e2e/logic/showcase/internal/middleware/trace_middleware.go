package middleware

import (
	"net/http"

	"github.com/kitdev/kit/runtime/server"
)

// NewTraceMiddleware marks responses with X-Trace (e2e test version).
func NewTraceMiddleware() server.Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Trace", "1")
			next.ServeHTTP(w, r)
		})
	}
}
