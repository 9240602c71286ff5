package server

import (
	"fmt"
	"net/http"
	"runtime/debug"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/internal/reqctx"
	"github.com/kitdev/kit/runtime/log"
)

// Recovery turns a panic into 500 {"message":"internal server error"} and
// logs "panic recovered" at error level with the panic value, the stack and
// the trace ids of the request. When the response already started it logs
// and keeps the committed status. A nil logger follows the default logger.
// http.ErrAbortHandler is re-panicked so the server aborts the response.
func Recovery(l log.Logger) Middleware {
	if l == nil {
		l = log.Follow()
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rw := reqctx.Find(w, r.Context())
			if rw == nil {
				rw = reqctx.NewResponseWriter(w)
				w = rw
			}
			defer func() {
				p := recover()
				if p == nil {
					return
				}
				if p == http.ErrAbortHandler {
					panic(p)
				}
				started := rw.Started()
				span := trace.SpanFromContext(r.Context())
				span.RecordError(fmt.Errorf("panic: %v", p))
				span.SetStatus(codes.Error, "panic")
				args := []any{
					"panic", fmt.Sprint(p),
					"method", r.Method,
					"path", r.URL.Path,
					"response_started", started,
					"stack", string(debug.Stack()),
				}
				if started {
					args = append(args, "status", rw.Status())
				}
				log.WithContext(l, r.Context()).Error("panic recovered", args...)
				if !started {
					WriteFrameworkError(w, http.StatusInternalServerError, MsgInternalServerError)
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}
