// Package reqctx holds the per-request state shared by the server and the
// telemetry middleware: the matched route pattern, the client-gone mark and
// the outermost response writer (status, bytes, committed or not).
package reqctx

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
)

// State is the per-request state. It is also the request context that
// carries it (a context.Context over the parent context), so installing it
// costs one request copy and no separate context value. Its methods are
// safe on a nil *State.
type State struct {
	context.Context
	pattern    atomic.Pointer[Pattern]
	clientGone atomic.Bool
	requestID  string
	idHeader   [1]string // the X-Request-Id header value, see RequestIDHeader
	idBytes    [32]byte  // storage of a generated request id, see IDBuffer
	// Storage of the request's logger for runtime/log (FromContext): the
	// first caller claims it (ClaimLog) and sets LogBase before sharing the
	// logger; LogBound is that logger once bound to the request.
	logClaimed atomic.Bool
	LogBase    any
	LogBound   atomic.Pointer[LogHeld]
	// W is the outermost recording writer, nil when none was installed.
	W *ResponseWriter
	// Storage for W and for the request carrying the state: one
	// allocation per request for all three.
	rw  ResponseWriter
	req http.Request
}

// New returns a state over the context of r whose W records writes to w,
// and a copy of r carrying it.
func New(r *http.Request, w http.ResponseWriter) (*http.Request, *State) {
	s := &State{Context: r.Context()}
	s.rw.ResponseWriter = w
	s.W = &s.rw
	s.req = *r.WithContext(s) // inlined: the copy WithContext makes stays on the stack
	return &s.req, s
}

// Value returns the state itself for its own key and asks the parent
// context otherwise.
func (s *State) Value(k any) any {
	if _, ok := k.(key); ok {
		return s
	}
	return s.Context.Value(k)
}

// String names the context for debugging.
func (s *State) String() string { return "reqctx.State" }

// SetRequestID stores the request id (read by log.RequestIDFromContext).
// Call it before the handler runs.
func (s *State) SetRequestID(id string) { s.requestID, s.idHeader[0] = id, id }

// LogHeld holds a logger (runtime/log's Logger) for State.LogBound.
type LogHeld struct{ L any }

// ClaimLog reports whether the caller is the first to claim the state's
// logger storage (LogBase, LogBound).
func (s *State) ClaimLog() bool { return s.logClaimed.CompareAndSwap(false, true) }

// IDBuffer returns storage for a generated request id of up to 32 bytes:
// the id is allocated with the state. Fill it once, before SetRequestID
// (the id string is a view of it, so it must not change afterwards).
func (s *State) IDBuffer() *[32]byte { return &s.idBytes }

// RequestIDHeader returns the request id as a header value slice (backed
// by the state, so setting the response header does not allocate).
func (s *State) RequestIDHeader() []string { return s.idHeader[:1:1] }

// RequestID returns the stored request id, or "".
func (s *State) RequestID() string {
	if s == nil {
		return ""
	}
	return s.requestID
}

type key struct{}

// From returns the state stored in ctx, or nil.
func From(ctx context.Context) *State {
	if s, ok := ctx.(*State); ok {
		return s
	}
	s, _ := ctx.Value(key{}).(*State)
	return s
}

// Ensure returns r carrying a state and that state, reusing one already
// present.
func Ensure(r *http.Request) (*http.Request, *State) {
	ctx := r.Context()
	if s := From(ctx); s != nil {
		return r, s
	}
	s := &State{Context: ctx}
	return r.WithContext(s), s
}

// Pattern is a mux pattern with its route, computed once per registered
// route.
type Pattern struct {
	Pattern string // "GET /users/{id}"
	Route   string // "/users/{id}"
}

// NewPattern returns p with its route.
func NewPattern(p string) *Pattern { return &Pattern{Pattern: p, Route: Route(p)} }

// SetPatternRef records the mux pattern that matched the request, given by
// a value that outlives the request (no allocation).
func (s *State) SetPatternRef(p *Pattern) {
	if s == nil || p == nil || p.Pattern == "" {
		return
	}
	s.pattern.Store(p)
}

// SetPattern records the mux pattern that matched the request.
func (s *State) SetPattern(p string) {
	if s == nil || p == "" {
		return
	}
	s.pattern.Store(NewPattern(p))
}

// Pattern returns the recorded mux pattern, or "".
func (s *State) Pattern() string {
	if s == nil {
		return ""
	}
	if p := s.pattern.Load(); p != nil {
		return p.Pattern
	}
	return ""
}

// Route returns the path part of the recorded pattern ("/users/{id}" for
// "GET /users/{id}"), or "".
func (s *State) Route() string {
	if s == nil {
		return ""
	}
	if p := s.pattern.Load(); p != nil {
		return p.Route
	}
	return ""
}

// MarkClientGone records that the client went away before a response was
// written; access logs report status 499.
func (s *State) MarkClientGone() {
	if s != nil {
		s.clientGone.Store(true)
	}
}

// ClientGone reports whether MarkClientGone was called.
func (s *State) ClientGone() bool { return s != nil && s.clientGone.Load() }

// Route strips the method and host of a Go 1.22 mux pattern:
// "GET example.com/users/{id}" gives "/users/{id}".
func Route(pattern string) string {
	if pattern == "" {
		return ""
	}
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		pattern = strings.TrimLeft(pattern[i+1:], " \t")
	}
	if i := strings.IndexByte(pattern, '/'); i > 0 {
		pattern = pattern[i:]
	}
	return pattern
}

// ResponseWriter records the status and the body size written through it.
type ResponseWriter struct {
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
	dropping    bool
	icpt        Interceptor
	icptReq     *http.Request
}

// Interceptor may take over the first final status written on an armed
// ResponseWriter.
type Interceptor interface {
	// Intercept is called with the writer (disarmed), the request given to
	// Arm and the status. It returns true when it answered itself; the
	// status and the body written after it are then dropped.
	Intercept(w http.ResponseWriter, r *http.Request, code int) bool
}

// Arm offers the next final status to i.
func (w *ResponseWriter) Arm(i Interceptor, r *http.Request) { w.icpt, w.icptReq = i, r }

// Disarm cancels Arm.
func (w *ResponseWriter) Disarm() { w.icpt, w.icptReq = nil, nil }

// NewResponseWriter wraps w.
func NewResponseWriter(w http.ResponseWriter) *ResponseWriter {
	return &ResponseWriter{ResponseWriter: w}
}

// Find returns the recording writer of w: w itself, one reached through
// Unwrap, or the one in the request state of ctx.
func Find(w http.ResponseWriter, ctx context.Context) *ResponseWriter {
	for i := 0; w != nil && i < 16; i++ {
		if rw, ok := w.(*ResponseWriter); ok {
			return rw
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	if s := From(ctx); s != nil {
		return s.W
	}
	return nil
}

// WriteHeader records the first final status and forwards it.
func (w *ResponseWriter) WriteHeader(code int) {
	if w.dropping {
		return
	}
	if !w.wroteHeader {
		if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
			w.ResponseWriter.WriteHeader(code)
			return
		}
		if i := w.icpt; i != nil {
			r := w.icptReq
			w.Disarm()
			if i.Intercept(w, r, code) {
				w.dropping = true
				return
			}
		}
		w.status = code
		w.wroteHeader = true
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write writes b, committing status 200 first when no status was written.
func (w *ResponseWriter) Write(b []byte) (int, error) {
	if w.dropping {
		return len(b), nil
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// ReadFrom copies from r, keeping the underlying writer's fast path.
func (w *ResponseWriter) ReadFrom(r io.Reader) (int64, error) {
	if w.dropping {
		return io.Copy(io.Discard, r)
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	n, err := io.Copy(w.ResponseWriter, r)
	w.bytes += n
	return n, err
}

// Flush commits the header and flushes when the underlying writer can.
func (w *ResponseWriter) Flush() {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack hands the connection over when the underlying writer can.
func (w *ResponseWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil && !w.wroteHeader {
		w.status = http.StatusSwitchingProtocols
		w.wroteHeader = true
	}
	return c, rw, err
}

// Unwrap returns the wrapped writer (for http.ResponseController).
func (w *ResponseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Status returns the committed status, 0 when nothing was written.
func (w *ResponseWriter) Status() int { return w.status }

// Bytes returns the number of body bytes written.
func (w *ResponseWriter) Bytes() int64 { return w.bytes }

// Started reports whether the status line was committed.
func (w *ResponseWriter) Started() bool { return w.wroteHeader }
