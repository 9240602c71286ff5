package server

import (
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
	// DeclaredFileSize is what the design lets a request's files take (the
	// sum of their @maxSize, what a method without @maxBodySize compiles
	// to): the server's default cap is raised by it for the handler, so the
	// default never refuses an upload the design declares. A negative
	// default (no cap) stays no cap. Ignored when MaxBodySize is set.
	DeclaredFileSize int64
	// Streaming marks a handler that owns its answer and may write it for as
	// long as it likes (what @passthrough compiles to, for example
	// server-sent events): the server's write timeout bounds each write rather
	// than the whole answer, so a stream that keeps moving is never cut, and a
	// client that stops reading is cut one write timeout after it stopped.
	Streaming bool
}

// WithLimits wraps h with l.
func WithLimits(h http.Handler, l Limits) http.Handler {
	if l.Timeout <= 0 && l.MaxBodySize <= 0 && l.DeclaredFileSize <= 0 && !l.Streaming {
		return h
	}
	return &limitsHandler{next: h, l: l}
}

type limitsHandler struct {
	next http.Handler
	l    Limits
}

// limitsOf returns the limits of a WithLimits handler (zero for another).
func limitsOf(h http.Handler) Limits {
	if lh, ok := h.(*limitsHandler); ok {
		return lh.l
	}
	return Limits{}
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
		ctx := withDeadline(r.Context(), d)
		defer ctx.stop()
		r = r.WithContext(ctx)
		if !lh.l.Streaming {
			extendWriteDeadline(w, r, d)
		}
	}
	if lh.l.Streaming {
		if pw := streamWriter(w, r); pw != nil {
			defer pw.arm() // the server's own end of the answer gets a write timeout too
			w = pw
		}
	}
	lh.next.ServeHTTP(w, r)
}

// streamWriter returns w with the server's write timeout applied per write:
// the deadline the server set when it read the head is lifted, and each write
// or flush gets one write timeout. Nil without a write timeout.
func streamWriter(w http.ResponseWriter, r *http.Request) *progressWriter {
	timeout := writeTimeout(r)
	if timeout <= 0 {
		return nil
	}
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	return &progressWriter{ResponseWriter: w, rc: rc, timeout: timeout}
}

// writeTimeout is the write timeout of the server serving r (0: none).
func writeTimeout(r *http.Request) time.Duration {
	if hs, _ := r.Context().Value(http.ServerContextKey).(*http.Server); hs != nil {
		return hs.WriteTimeout
	}
	return 0
}

// progressWriter pushes the write deadline one timeout ahead of every write.
type progressWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (p *progressWriter) arm() { _ = p.rc.SetWriteDeadline(time.Now().Add(p.timeout)) }

func (p *progressWriter) Write(b []byte) (int, error) {
	p.arm()
	return p.ResponseWriter.Write(b)
}

// Flush sends what is buffered, within one write timeout.
func (p *progressWriter) Flush() {
	p.arm()
	_ = p.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (p *progressWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// raiseDefaultCap caps r's body at the server default max plus the bytes the
// design declares for the route's files, in place of the default cap alone.
// It answers 413 (and reports false) for a Content-Length above that.
func raiseDefaultCap(w http.ResponseWriter, r *http.Request, max, declared int64) (*http.Request, bool) {
	max += declared
	if r.ContentLength > max {
		refuseContentLength(w)
		return r, false
	}
	cb, ok := r.Body.(*cappedBody)
	if !ok {
		return r, true
	}
	r2 := *r
	r2.Body = &cappedBody{ReadCloser: http.MaxBytesReader(innermost(w), cb.orig, max), orig: cb.orig}
	return &r2, true
}

// extendWriteDeadline gives a request whose handler may run for d a full
// write timeout after d: the server's write deadline (set when the head was
// read) would otherwise cut off the answer of a handler allowed to take
// longer than it. Nothing happens without a write timeout or when d is well
// within it.
func extendWriteDeadline(w http.ResponseWriter, r *http.Request, d time.Duration) {
	timeout := writeTimeout(r)
	if timeout <= 0 || d <= timeout/2 {
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d + timeout))
}

// refuseContentLength answers 413 to a request whose Content-Length is
// above a cap, without reading the body. The answer closes the connection:
// otherwise net/http would drain an unread body under 256 KiB before
// sending it, and a client that waits for the answer would hang.
func refuseContentLength(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	WriteFrameworkError(w, http.StatusRequestEntityTooLarge, MsgEntityTooLarge)
}

// withinCap reports whether r's body cannot pass max bytes anyway: net/http
// ends a body with a Content-Length at that length, so a declared length
// within the cap needs no counting reader (two allocations per request
// saved). A chunked body (length -1) or a longer one is capped.
func withinCap(r *http.Request, max int64) bool {
	return r.ContentLength >= 0 && r.ContentLength <= max
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
