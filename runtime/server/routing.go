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
	if rw, ok := w.(*reqctx.ResponseWriter); ok && !rw.Started() {
		// No wrapper between the server's own writer and the mux: let it
		// intercept, without a per-request writer.
		rw.Arm(m, r)
		m.mux.ServeHTTP(rw, r)
		rw.Disarm()
	} else {
		m.mux.ServeHTTP(&muxWriter{ResponseWriter: w, r: r, s: m.s}, r)
	}
	// The mux stores the matched pattern on r before calling the handler;
	// routes registered with Handle record it themselves.
	if r.Pattern != "" {
		if st := reqctx.From(r.Context()); st.Pattern() == "" {
			st.SetPattern(r.Pattern)
		}
	}
}

// Intercept answers the mux's own 404 and 405 (reqctx.Interceptor).
func (m *muxLayer) Intercept(w http.ResponseWriter, r *http.Request, code int) bool {
	if r.Pattern != "" || (code != http.StatusNotFound && code != http.StatusMethodNotAllowed) {
		return false
	}
	answerUnmatched(m.s, w, r, code)
	return true
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
			answerUnmatched(m.s, m.ResponseWriter, m.r, code)
			return
		}
	}
	m.ResponseWriter.WriteHeader(code)
}

// answerUnmatched writes the framework 404 (or the custom not-found
// handler) or 405 in place of the mux's plain-text answer.
func answerUnmatched(s *Server, w http.ResponseWriter, r *http.Request, code int) {
	h := w.Header()
	h.Del("Content-Type")
	h.Del("X-Content-Type-Options")
	if code == http.StatusNotFound {
		if nf := s.notFound.Load(); nf != nil {
			nf.h.ServeHTTP(w, r)
			return
		}
		WriteFrameworkError(w, code, MsgNotFound)
		return
	}
	WriteFrameworkError(w, code, MsgMethodNotAllowed)
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
