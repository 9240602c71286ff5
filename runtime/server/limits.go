package server

import (
	"context"
	"io"
	"net/http"
	"time"
)

// Limits are the per-handler limits that @timeout and @maxBodySize compile
// to. Zero fields mean no limit of that kind.
type Limits struct {
	// Timeout is the deadline of the request context. When it passes the
	// context is cancelled; no status is written automatically.
	Timeout time.Duration
	// MaxBodySize caps the request body: a Content-Length above it answers
	// 413 without reading (and closes the connection), and a read past it
	// fails with *http.MaxBytesError. It replaces SetDefaultMaxBodySize for
	// the handler (larger or smaller).
	MaxBodySize int64
}

// WithLimits wraps h with l.
func WithLimits(h http.Handler, l Limits) http.Handler {
	if l.Timeout <= 0 && l.MaxBodySize <= 0 {
		return h
	}
	return &limitsHandler{next: h, l: l}
}

type limitsHandler struct {
	next http.Handler
	l    Limits
}

// limitsOf reports whether h is a WithLimits handler with a body size and
// with a timeout.
func limitsOf(h http.Handler) (body, timeout bool) {
	if lh, ok := h.(*limitsHandler); ok {
		return lh.l.MaxBodySize > 0, lh.l.Timeout > 0
	}
	return false, false
}

func (lh *limitsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if max := lh.l.MaxBodySize; max > 0 && r.Body != nil && r.Body != http.NoBody {
		if r.ContentLength > max {
			refuseContentLength(w)
			return
		}
		body := r.Body
		if cb, ok := body.(*cappedBody); ok {
			body = cb.orig // this limit replaces the server default
		}
		r2 := *r
		r2.Body = http.MaxBytesReader(innermost(w), body, max)
		r = &r2
	}
	if d := lh.l.Timeout; d > 0 {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		r = r.WithContext(ctx)
		extendWriteDeadline(w, r, d)
	}
	lh.next.ServeHTTP(w, r)
}

// extendWriteDeadline gives a request whose handler may run for d a full
// write timeout after d: the server's write deadline (set when the head was
// read) would otherwise cut off the answer of a handler allowed to take
// longer than it. Nothing happens without a write timeout or when d is well
// within it.
func extendWriteDeadline(w http.ResponseWriter, r *http.Request, d time.Duration) {
	hs, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	if hs == nil || hs.WriteTimeout <= 0 || d <= hs.WriteTimeout/2 {
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d + hs.WriteTimeout))
}

// refuseContentLength answers 413 to a request whose Content-Length is
// above a cap, without reading the body. The answer closes the connection:
// otherwise net/http would drain an unread body under 256 KiB before
// sending it, and a client that waits for the answer would hang.
func refuseContentLength(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	WriteFrameworkError(w, http.StatusRequestEntityTooLarge, MsgEntityTooLarge)
}

// cappedBody is a body capped by SetDefaultMaxBodySize; WithLimits swaps
// the cap for its own.
type cappedBody struct {
	io.ReadCloser
	orig io.ReadCloser
}

// innermost unwraps w down to the server's own writer, so that
// http.MaxBytesReader can tell the server to close the connection.
func innermost(w http.ResponseWriter) http.ResponseWriter {
	for i := 0; i < 16; i++ {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
	return w
}
