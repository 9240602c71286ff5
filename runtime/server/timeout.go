package server

import (
	"net/http"
	"time"
)

// Timeout bounds the whole handler: past d the request context is cancelled
// and the client gets a plain-text 503 "service unavailable"; later writes
// of the handler are dropped. The handler runs on its own goroutine with a
// buffered writer (http.TimeoutHandler), so it cannot flush or hijack.
//
// Deprecated: use WithLimits (@timeout) or SetDefaultHandlerTimeout, which
// cancel the context and let WriteError answer 504.
func Timeout(d time.Duration) Middleware {
	return func(next http.Handler) http.Handler {
		if d <= 0 {
			return next
		}
		return http.TimeoutHandler(next, d, "service unavailable\n")
	}
}
