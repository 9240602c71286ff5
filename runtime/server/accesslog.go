package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/kitdev/kit/runtime/internal/ctxline"
	"github.com/kitdev/kit/runtime/internal/jsonline"
	"github.com/kitdev/kit/runtime/internal/reqctx"
	"github.com/kitdev/kit/runtime/log"
)

// AccessLog writes one "http request" line per request with method, path,
// route (the matched pattern), status, bytes, duration_ms, remote, and the
// trace_id, span_id and request_id of the request when present. Status 5xx
// logs at error level, the rest at info. A request whose client went away
// before anything was written (see WriteError) is recorded with status
// 499. Pass log.Follow() (or nil) to follow later logger swaps.
//
// With a logger built by log.New (directly, through Follow or through the
// server's logger) the line is appended by hand into a pooled buffer and
// written with one Write, byte for byte what the logger's slog handler
// would write; other loggers receive it through slog.
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
			level := log.LevelInfo
			if status >= 500 {
				level = log.LevelError
			}
			route := st.Route()
			if route == "" {
				route = reqctx.Route(r.Pattern)
			}
			if src, ok := l.(jsonline.Source); ok {
				if sink := src.LineSink(); sink != nil {
					if sink.Enabled(level) {
						writeAccessLine(sink, r, level, route, status, rw.Bytes(), start)
					}
					return
				}
			}
			if status < 500 && log.GetLevel() > log.LevelInfo {
				return
			}
			var buf [12]slog.Attr
			attrs := append(buf[:0],
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("route", route),
				slog.Int("status", status),
				slog.Int64("bytes", rw.Bytes()),
				slog.Float64("duration_ms", durationMS(time.Since(start))),
				slog.String("remote", r.RemoteAddr),
			)
			attrs = log.ContextSlogAttrs(r.Context(), attrs)
			log.LogAttrs(l, r.Context(), level, "http request", attrs...)
		})
	}
}

func durationMS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// writeAccessLine is the hand-made twin of the slog path of AccessLog:
// same keys, same order, same encoding.
func writeAccessLine(sink *jsonline.Sink, r *http.Request, level log.Level, route string, status int, bytes int64, start time.Time) {
	// One clock read: the monotonic elapsed time, and the wall time as
	// start plus it.
	d := time.Since(start)
	ln := sink.Begin(start.Add(d), level, "http request")
	ln.String("method", r.Method)
	ln.String("path", r.URL.Path)
	ln.String("route", route)
	ln.Int("status", int64(status))
	ln.Int("bytes", bytes)
	ln.Millis("duration_ms", d.Microseconds())
	ln.String("remote", r.RemoteAddr)
	ctxline.AppendIDs(ln, r.Context())
	// Held for the logger's next batch when it writes to a file (see
	// log.New): the lines of requests ending together share one write(2).
	_ = sink.Hold(ln)
}
