package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/kitdev/kit/runtime/internal/reqctx"
	"github.com/kitdev/kit/runtime/log"
)

// AccessLog writes one "http request" line per request with method, path,
// route (the matched pattern), status, bytes, duration_ms, remote, and the
// trace_id, span_id and request_id of the request when present. Status 5xx
// logs at error level, the rest at info. A request whose client went away
// before anything was written (see WriteError) is recorded with status
// 499. Pass log.Follow() (or nil) to follow later logger swaps.
func AccessLog(l log.Logger) Middleware {
	if l == nil {
		l = log.Follow()
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			r, st := reqctx.Ensure(r)
			rw := reqctx.Find(w, r.Context())
			if rw == nil {
				rw = reqctx.NewResponseWriter(w)
				w = rw
				st.W = rw
			}
			next.ServeHTTP(w, r)

			status := rw.Status()
			switch {
			case st.ClientGone():
				status = StatusClientClosedRequest
			case status == 0 && errors.Is(r.Context().Err(), context.Canceled):
				status = StatusClientClosedRequest
			case status == 0:
				status = http.StatusOK
			}
			if status < 500 && log.GetLevel() > log.LevelInfo {
				return
			}
			route := st.Route()
			if route == "" {
				route = reqctx.Route(r.Pattern)
			}
			var buf [12]slog.Attr
			attrs := append(buf[:0],
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("route", route),
				slog.Int("status", status),
				slog.Int64("bytes", rw.Bytes()),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
				slog.String("remote", r.RemoteAddr),
			)
			attrs = log.ContextSlogAttrs(r.Context(), attrs)
			level := log.LevelInfo
			if status >= 500 {
				level = log.LevelError
			}
			log.LogAttrs(l, r.Context(), level, "http request", attrs...)
		})
	}
}
