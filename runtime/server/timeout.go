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
		th := http.TimeoutHandler(next, d, "service unavailable\n")
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			th.ServeHTTP(&plain503Writer{ResponseWriter: w}, r)
		})
	}
}

// plain503Writer labels the timeout answer as plain text.
type plain503Writer struct{ http.ResponseWriter }

func (p *plain503Writer) WriteHeader(code int) {
	if code == http.StatusServiceUnavailable && p.Header().Get("Content-Type") == "" {
		p.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	p.ResponseWriter.WriteHeader(code)
}

// Unwrap returns the wrapped writer (for http.ResponseController).
func (p *plain503Writer) Unwrap() http.ResponseWriter { return p.ResponseWriter }
