package middleware

import (
	"net/http"

	"github.com/kitdev/kit/runtime/server"
)

// NewAuthMiddleware refuses requests without an Authorization header (e2e test version).
func NewAuthMiddleware() server.Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") == "" {
				server.WriteFrameworkError(w, http.StatusUnauthorized, "unauthorized")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
