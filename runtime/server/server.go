// Package server is the HTTP runtime of kit services: a thin layer over the
// standard library ServeMux (Go 1.22 patterns such as "GET /users/{id}")
// with health probes, docs routes, JSON framework errors, built-in
// middleware, limits and graceful shutdown.
//
// A request to a user route passes through, outermost first:
//
//	Recovery → telemetry (WithTelemetry) → RequestID → AccessLog →
//	Recovery → CORS → global middlewares (Use, in added order) → mux →
//	per-route middlewares (Handle, outermost first) → handler
//
// RequestID and AccessLog are installed by default (WithoutDefaultMiddleware
// drops them). Recovery is outermost, so a panic anywhere answers 500; a
// second one inside the observing layers keeps a panic of user code
// observable: its log line carries the trace ids, the access log and the
// span record the 500. Health probes and docs routes bypass everything but
// Recovery.
package server

import (
	"context"
	"errors"
	stdlog "log"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kitdev/kit/runtime/internal/jsonline"
	"github.com/kitdev/kit/runtime/internal/listener"
	"github.com/kitdev/kit/runtime/internal/logslot"
	"github.com/kitdev/kit/runtime/internal/reqctx"
	"github.com/kitdev/kit/runtime/log"
)

// Middleware wraps a handler; it is the chi/stdlib shape.
type Middleware = func(http.Handler) http.Handler

// Logger is the logging interface of the runtime.
//
// Deprecated: use log.Logger.
type Logger = log.Logger

// Server defaults applied to the underlying http.Server, and the default cap
// of request bodies. Each bounds what one client can hold: a body in memory,
// a connection that sends its head or body slowly, or one that never reads
// its answer.
const (
	DefaultReadTimeout       = 30 * time.Second
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	// DefaultWriteTimeout bounds handling plus writing the answer; a route
	// whose @timeout (or server.handlerTimeout) is longer gets its write
	// deadline extended for its requests.
	DefaultWriteTimeout  = 30 * time.Second
	DefaultMaxHeaderKB   = 32
	DefaultMaxBodySize   = 1 << 20 // 1 MiB; @maxBodySize raises or lowers it per method
	DefaultLivenessPath  = "/healthz"
	DefaultReadinessPath = "/readyz"
	DefaultAddr          = ":8080"
)

// Option configures New.
type Option func(*options)

type options struct {
	liveness, readiness string
	telemetry           Middleware
	noDefaultMW         bool
}

// WithHealthPaths replaces the liveness and readiness paths (defaults
// /healthz and /readyz). An empty path removes that probe.
func WithHealthPaths(liveness, readiness string) Option {
	return func(o *options) { o.liveness, o.readiness = liveness, readiness }
}

// WithoutDefaultHealth removes both health probes.
func WithoutDefaultHealth() Option {
	return func(o *options) { o.liveness, o.readiness = "", "" }
}

// WithTelemetry installs mw (usually telemetry.HTTPMiddleware()) outermost
// on user routes, so spans and metrics cover the whole chain and panic log
// lines carry trace ids. Do not also Use the same middleware.
func WithTelemetry(mw Middleware) Option {
	return func(o *options) { o.telemetry = mw }
}

// WithoutDefaultMiddleware drops the default RequestID and AccessLog
// middlewares. Recovery stays.
func WithoutDefaultMiddleware() Option {
	return func(o *options) { o.noDefaultMW = true }
}

// Server is an HTTP server over a ServeMux.
type Server struct {
	svcCtx any
	opts   options
	mux    *http.ServeMux

	logger logslot.Slot

	mu         sync.Mutex
	globals    []Middleware
	cors       Middleware
	named      map[string]Middleware
	checks     []healthCheck
	pipeline   atomic.Pointer[pipeline]
	sys        atomic.Pointer[map[string]http.Handler]
	notFound   atomic.Pointer[handlerBox]
	maxBody    atomic.Int64
	hTimeout   atomic.Int64
	readTO     time.Duration
	headerTO   time.Duration
	writeTO    time.Duration
	idleTO     time.Duration
	maxHeadKB  int
	httpServer *http.Server
	lis        listener.State
}

type handlerBox struct{ h http.Handler }

type pipeline struct{ user http.Handler }

// New builds a server around the service context svcCtx (kept for the
// caller; the runtime does not read it).
func New(svcCtx any, opts ...Option) *Server {
	o := options{liveness: DefaultLivenessPath, readiness: DefaultReadinessPath}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	s := &Server{
		svcCtx:    svcCtx,
		opts:      o,
		mux:       http.NewServeMux(),
		named:     map[string]Middleware{},
		readTO:    DefaultReadTimeout,
		headerTO:  DefaultReadHeaderTimeout,
		writeTO:   DefaultWriteTimeout,
		idleTO:    DefaultIdleTimeout,
		maxHeadKB: DefaultMaxHeaderKB,
	}
	s.maxBody.Store(DefaultMaxBodySize)
	empty := map[string]http.Handler{}
	s.sys.Store(&empty)
	if o.liveness != "" {
		s.addSystemRoute(o.liveness, http.HandlerFunc(s.serveLiveness))
	}
	if o.readiness != "" {
		s.addSystemRoute(o.readiness, http.HandlerFunc(s.serveReadiness))
	}
	return s
}

// ServiceContext returns the value given to New.
func (s *Server) ServiceContext() any { return s.svcCtx }

// Mux returns the underlying mux. Routes registered on it directly pass
// through the global middlewares but get no per-route middleware.
func (s *Server) Mux() *http.ServeMux { return s.mux }

// Use appends a global middleware. Nil is ignored.
func (s *Server) Use(mw Middleware) {
	if mw == nil {
		return
	}
	s.mu.Lock()
	s.globals = append(s.globals, mw)
	s.mu.Unlock()
	s.invalidate()
}

// Handle registers h for pattern with per-route middlewares, outermost
// first: Handle(p, h, A, B) runs A, then B, then h.
func (s *Server) Handle(pattern string, h http.Handler, mws ...Middleware) {
	if h == nil {
		panic("server: Handle " + pattern + ": nil handler")
	}
	lim := limitsOf(h)
	inner := NewChain(mws...).Then(h)
	s.mux.Handle(pattern, &route{
		s: s, next: inner, pattern: reqctx.NewPattern(pattern),
		ownBody: lim.MaxBodySize > 0, ownTimeout: lim.Timeout > 0,
		declaredFiles: lim.DeclaredFileSize, streaming: lim.Streaming,
	})
}

// HandleFunc registers fn for pattern.
func (s *Server) HandleFunc(pattern string, fn http.HandlerFunc) {
	if fn == nil {
		panic("server: HandleFunc " + pattern + ": nil handler")
	}
	s.Handle(pattern, fn)
}

// route applies the default handler timeout and body cap to routes without
// their own, the cap raised by the size the design declares for the route's
// files. It also records its pattern on the request state.
type route struct {
	s                   *Server
	next                http.Handler
	ownBody, ownTimeout bool
	declaredFiles       int64
	streaming           bool
	pattern             *reqctx.Pattern
}

func (rt *route) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reqctx.From(r.Context()).SetPatternRef(rt.pattern)
	if max := rt.s.maxBody.Load(); !rt.ownBody && max > 0 {
		if rt.declaredFiles > 0 && r.Body != nil && r.Body != http.NoBody {
			var ok bool
			if r, ok = raiseDefaultCap(w, r, max, rt.declaredFiles); !ok {
				return
			}
		} else if r.ContentLength > max {
			// a body the default cap refuses anyway: answer before reading it
			refuseContentLength(w)
			return
		}
	}
	if !rt.ownTimeout {
		if d := time.Duration(rt.s.hTimeout.Load()); d > 0 {
			ctx := withDeadline(r.Context(), d)
			defer ctx.stop()
			r = r.WithContext(ctx)
			if !rt.streaming {
				extendWriteDeadline(w, r, d)
			}
		}
	}
	rt.next.ServeHTTP(w, r)
}

// Handler returns the fully wrapped handler (for tests without a port).
// Configuration changes made later (Use, SetCORS, ...) still apply.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	p := s.pipeline.Load()
	if p == nil {
		p = s.build()
	}
	if g, _ := r.Context().Value(guardKey{}).(*guardConn); g != nil {
		g.handled.Store(true)
	}
	r, st := reqctx.New(r, w)
	rw := st.W
	if max := s.maxBody.Load(); max > 0 && r.Body != nil && r.Body != http.NoBody && !withinCap(r, max) {
		r.Body = &cappedBody{ReadCloser: http.MaxBytesReader(w, r.Body, max), orig: r.Body}
	}
	if h, ok := (*s.sys.Load())[r.URL.Path]; ok {
		h.ServeHTTP(rw, r)
		return
	}
	p.user.ServeHTTP(rw, r)
}

func (s *Server) invalidate() { s.pipeline.Store(nil) }

func (s *Server) build() *pipeline {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.pipeline.Load(); p != nil {
		return p
	}
	l := serverLogger{s}
	var user http.Handler = &muxLayer{s: s, mux: s.mux}
	for i := len(s.globals) - 1; i >= 0; i-- {
		user = s.globals[i](user)
	}
	if s.cors != nil {
		user = s.cors(user)
	}
	// Recovery inside the observing layers: a panic of user code is logged
	// with the trace ids of its span, and the access log and the telemetry
	// record the 500 it answers.
	user = Recovery(l)(user)
	observed := false
	if !s.opts.noDefaultMW {
		user = AccessLog(l)(user)
		user = RequestID()(user)
		observed = true
	}
	if s.opts.telemetry != nil {
		user = s.opts.telemetry(user)
		observed = true
	}
	if observed {
		// Recovery outermost (spec: recovery, then everything else): a panic
		// inside the telemetry middleware, RequestID or AccessLog answers 500
		// too, instead of net/http dropping the connection.
		user = Recovery(l)(user)
	}
	p := &pipeline{user: user}
	s.pipeline.Store(p)
	return p
}

// systemRoute answers GET and HEAD on a health or docs route, 405
// otherwise.
type systemRoute struct{ h http.Handler }

func (sr systemRoute) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		WriteFrameworkError(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	sr.h.ServeHTTP(w, r)
}

// addSystemRoute registers h on path, outside every middleware but
// Recovery.
func (s *Server) addSystemRoute(path string, h http.Handler) {
	h = Recovery(serverLogger{s})(systemRoute{h: h})
	s.mu.Lock()
	defer s.mu.Unlock()
	old := *s.sys.Load()
	m := make(map[string]http.Handler, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	m[path] = h
	s.sys.Store(&m)
}

// serverLogger writes through the server's current logger.
type serverLogger struct{ s *Server }

func (l serverLogger) Debug(msg string, args ...any) { l.s.Logger().Debug(msg, args...) }
func (l serverLogger) Info(msg string, args ...any)  { l.s.Logger().Info(msg, args...) }
func (l serverLogger) Warn(msg string, args ...any)  { l.s.Logger().Warn(msg, args...) }
func (l serverLogger) Error(msg string, args ...any) { l.s.Logger().Error(msg, args...) }
func (l serverLogger) With(args ...any) log.Logger   { return l.s.Logger().With(args...) }
func (l serverLogger) LineSink() *jsonline.Sink {
	if src, ok := l.s.Logger().(jsonline.Source); ok {
		return src.LineSink()
	}
	return nil
}
func (l serverLogger) LogAttrs(ctx context.Context, level log.Level, msg string, attrs ...slog.Attr) {
	log.LogAttrs(l.s.Logger(), ctx, level, msg, attrs...)
}

// SetLogger replaces the server's logger and installs it as the process
// default logger (log.SetDefault).
func (s *Server) SetLogger(l log.Logger) {
	s.logger.Set(l)
}

// Logger returns the server's logger: the one given to SetLogger, else the
// process default.
func (s *Server) Logger() log.Logger { return s.logger.Get() }

// SetJSONCodec replaces the process-wide JSON codec (see SetGlobalJSONCodec).
func (s *Server) SetJSONCodec(c Codec) { SetGlobalJSONCodec(c) }

// SetCORS installs CORS ahead of the global middlewares, so preflight
// requests are answered before them. A second call replaces the first.
func (s *Server) SetCORS(opts CORSOptions) {
	mw := newCORS(opts)
	s.mu.Lock()
	s.cors = mw
	s.mu.Unlock()
	s.invalidate()
}

// SetHandleNotFound replaces the 404 answer for every unmatched request.
// Nil restores the default JSON {"message":"not found"}.
func (s *Server) SetHandleNotFound(h http.Handler) {
	if h == nil {
		s.notFound.Store(nil)
		return
	}
	s.notFound.Store(&handlerBox{h: h})
}

// SetDefaultReadTimeout sets the http.Server read timeout: the time to
// read a request, head and body (default 30s; 0 restores the default, a
// negative value removes the bound). It applies to servers started
// afterwards.
func (s *Server) SetDefaultReadTimeout(d time.Duration) {
	s.setTimeout(&s.readTO, d, DefaultReadTimeout)
}

// SetDefaultReadHeaderTimeout sets the time to read a request's head
// (default 10s; 0 restores the default, negative removes the bound). A
// client that does not send its head in time gets 408 {"message":"request
// timeout"}. It applies to servers started afterwards.
func (s *Server) SetDefaultReadHeaderTimeout(d time.Duration) {
	s.setTimeout(&s.headerTO, d, DefaultReadHeaderTimeout)
}

// SetDefaultWriteTimeout sets the http.Server write timeout: the time from
// the end of reading a request's head to the end of writing its answer
// (default 30s; 0 restores the default, negative removes the bound). A
// route with a longer @timeout or server.handlerTimeout extends it for its
// requests. It applies to servers started afterwards.
func (s *Server) SetDefaultWriteTimeout(d time.Duration) {
	s.setTimeout(&s.writeTO, d, DefaultWriteTimeout)
}

// SetDefaultIdleTimeout sets how long a keep-alive connection waits for its
// next request (default 120s; 0 restores the default, negative removes the
// bound). It applies to servers started afterwards.
func (s *Server) SetDefaultIdleTimeout(d time.Duration) {
	s.setTimeout(&s.idleTO, d, DefaultIdleTimeout)
}

func (s *Server) setTimeout(field *time.Duration, d, def time.Duration) {
	switch {
	case d == 0:
		d = def
	case d < 0:
		d = 0 // net/http: no bound
	}
	s.mu.Lock()
	*field = d
	s.mu.Unlock()
}

// SetDefaultMaxHeaderSize sets the request header limit in KiB (default
// 32). A larger head is answered 431 {"message":"request header fields too
// large"}. It applies to servers started afterwards.
func (s *Server) SetDefaultMaxHeaderSize(kb int) {
	if kb <= 0 {
		kb = DefaultMaxHeaderKB
	}
	s.mu.Lock()
	s.maxHeadKB = kb
	s.mu.Unlock()
}

// SetDefaultMaxBodySize caps request bodies of every handler without a
// WithLimits body size: 1 MiB by default; 0 restores that default and a
// negative value removes the cap. A read past the cap fails with
// *http.MaxBytesError, which DecodeJSON passes on and WriteValidationError
// answers with 413; a Content-Length above it is answered 413 before the
// body is read.
func (s *Server) SetDefaultMaxBodySize(bytes int64) {
	if bytes == 0 {
		bytes = DefaultMaxBodySize
	}
	s.maxBody.Store(bytes)
}

// SetDefaultHandlerTimeout sets the deadline of the request context of every
// route registered with Handle whose handler has no WithLimits timeout
// (config server.handlerTimeout; 0, the default, means none). As with
// WithLimits, no status is written automatically.
func (s *Server) SetDefaultHandlerTimeout(d time.Duration) { s.hTimeout.Store(int64(d)) }

// RegisterMiddleware maps a DSL middleware name to an implementation for
// With.
//
// Deprecated: pass middlewares to Handle.
func (s *Server) RegisterMiddleware(name string, mw Middleware) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.named[name] = mw
}

// With wraps h with the middlewares registered under names, outermost
// first; unknown names are skipped.
//
// Deprecated: pass middlewares to Handle.
func (s *Server) With(names []string, h http.Handler) http.Handler {
	s.mu.Lock()
	mws := make([]Middleware, 0, len(names))
	for _, n := range names {
		if mw, ok := s.named[n]; ok {
			mws = append(mws, mw)
		}
	}
	s.mu.Unlock()
	return NewChain(mws...).Then(h)
}

// Start listens on addr (":8080" when empty) and serves until Stop; it
// returns nil after Stop and the listen or serve error otherwise.
func (s *Server) Start(addr string) error { return listener.Start(s, addr) }

// Listen binds addr (":8080" when empty; ":0" picks a free port) and
// records the listener for Addr.
func (s *Server) Listen(addr string) (net.Listener, error) { return s.lis.Listen(addr, DefaultAddr) }

// Serve serves on l until Stop; it returns nil after Stop.
func (s *Server) Serve(l net.Listener) error {
	var hs *http.Server
	ok, err := s.lis.Serve(l, "server", func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		hs = &http.Server{
			Handler:           s.Handler(),
			ReadTimeout:       s.readTO,
			ReadHeaderTimeout: s.headerTO,
			WriteTimeout:      s.writeTO,
			IdleTimeout:       s.idleTO,
			MaxHeaderBytes:    s.maxHeadKB << 10,
			ErrorLog:          httpErrorLog(),
			ConnState:         guardConnState,
			ConnContext:       guardConnContext,
		}
		if s.readTO > 0 && (hs.ReadHeaderTimeout <= 0 || s.readTO < hs.ReadHeaderTimeout) {
			hs.ReadHeaderTimeout = s.readTO
		}
		s.httpServer = hs
	})
	if !ok {
		return err
	}
	err = hs.Serve(guardListener{l})
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Addr returns the bound listen address once Listen or Start has bound it,
// else "".
func (s *Server) Addr() string { return s.lis.Addr() }

// Stop closes the listener, waits for in-flight requests within ctx, then
// returns. When ctx ends first the remaining connections are closed and the
// context error is returned. Stop is a no-op (nil) when the server never
// started; a Start after Stop returns nil at once.
func (s *Server) Stop(ctx context.Context) error {
	if !s.lis.Stop() {
		return nil
	}
	s.mu.Lock()
	hs := s.httpServer
	s.mu.Unlock()
	// The access lines of the last requests may be held for a batch: write
	// them out once the requests have ended.
	defer func() { _ = log.FlushLogger(s.Logger()) }()
	if err := hs.Shutdown(ctx); err != nil {
		_ = hs.Close()
		return err
	}
	return nil
}

// httpErrorLog routes the http.Server's own messages to the default logger
// at warn level.
func httpErrorLog() *stdlog.Logger {
	return slog.NewLogLogger(log.Slog().Handler(), slog.LevelWarn)
}
