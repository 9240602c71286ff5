package middleware

import (
	"net/http"

	"github.com/kitdev/kit/runtime/server"
)

// NewAuthMiddleware refuses a request without the X-Key header.
func NewAuthMiddleware() server.Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Key") == "" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"message":"no key"}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
