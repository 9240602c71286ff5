package server

import (
	"context"
	"errors"
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
			args := make([]any, 0, 22)
			args = append(args,
				"method", r.Method,
				"path", r.URL.Path,
				"route", route,
				"status", status,
				"bytes", rw.Bytes(),
				"duration_ms", float64(time.Since(start).Microseconds())/1000,
				"remote", r.RemoteAddr,
			)
			args = append(args, log.ContextAttrs(r.Context())...)
			if status >= 500 {
				l.Error("http request", args...)
			} else {
				l.Info("http request", args...)
			}
		})
	}
}
