package server

import (
	"bufio"
	"io"
	"net"
	"net/http"

	"github.com/kitdev/kit/runtime/internal/reqctx"
)

// muxLayer dispatches to the mux, turns the mux's own plain-text 404 and
// 405 answers into JSON framework errors (or the custom not-found handler)
// and records the matched pattern for the outer layers.
type muxLayer struct {
	s   *Server
	mux *http.ServeMux
}

func (m *muxLayer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	mw := &muxWriter{ResponseWriter: w, r: r, s: m.s}
	m.mux.ServeHTTP(mw, r)
	// The mux stores the matched pattern on r before calling the handler.
	if r.Pattern != "" {
		reqctx.From(r.Context()).SetPattern(r.Pattern)
	}
}

// muxWriter intercepts the first status written when no pattern matched:
// that status comes from the mux's NotFound or method-not-allowed handler.
type muxWriter struct {
	http.ResponseWriter
	r           *http.Request
	s           *Server
	decided     bool
	intercepted bool
}

func (m *muxWriter) WriteHeader(code int) {
	if m.intercepted {
		return
	}
	if !m.decided && code >= 200 {
		m.decided = true
		if m.r.Pattern == "" && (code == http.StatusNotFound || code == http.StatusMethodNotAllowed) {
			m.intercepted = true
			m.answer(code)
			return
		}
	}
	m.ResponseWriter.WriteHeader(code)
}

func (m *muxWriter) answer(code int) {
	h := m.ResponseWriter.Header()
	h.Del("Content-Type")
	h.Del("X-Content-Type-Options")
	if code == http.StatusNotFound {
		if nf := m.s.notFound.Load(); nf != nil {
			nf.h.ServeHTTP(m.ResponseWriter, m.r)
			return
		}
		WriteFrameworkError(m.ResponseWriter, code, "not found")
		return
	}
	WriteFrameworkError(m.ResponseWriter, code, "method not allowed")
}

func (m *muxWriter) Write(b []byte) (int, error) {
	if m.intercepted {
		return len(b), nil
	}
	m.decided = true
	return m.ResponseWriter.Write(b)
}

func (m *muxWriter) ReadFrom(src io.Reader) (int64, error) {
	if m.intercepted {
		return io.Copy(io.Discard, src)
	}
	m.decided = true
	return io.Copy(m.ResponseWriter, src)
}

func (m *muxWriter) Flush() {
	if m.intercepted {
		return
	}
	m.decided = true
	_ = http.NewResponseController(m.ResponseWriter).Flush()
}

func (m *muxWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(m.ResponseWriter).Hijack()
}

// Unwrap returns the wrapped writer (for http.ResponseController).
func (m *muxWriter) Unwrap() http.ResponseWriter { return m.ResponseWriter }
