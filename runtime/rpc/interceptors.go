package rpc

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"runtime/debug"
	"strings"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	grpccodes "google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	"github.com/kitdev/kit/runtime/internal/ctxline"
	"github.com/kitdev/kit/runtime/internal/jsonline"
	"github.com/kitdev/kit/runtime/log"
)

// isSystem reports whether a full method belongs to the built-in health or
// reflection services, which bypass interceptors and stats.
func isSystem(fullMethod string) bool {
	return strings.HasPrefix(fullMethod, "/grpc.health.v1.") || strings.HasPrefix(fullMethod, "/grpc.reflection.")
}

// unaryChain is the user interceptors (Use), swapped whole on each Use.
type unaryChain struct {
	user []grpc.UnaryServerInterceptor
	// intercept is run as an interceptor, bound once (nil without user interceptors).
	intercept grpc.UnaryServerInterceptor
}

func newUnaryChain(user []grpc.UnaryServerInterceptor) *unaryChain {
	c := &unaryChain{user: user}
	if len(user) > 0 {
		c.intercept = c.run
	}
	return c
}

func (c *unaryChain) run(ctx context.Context, req any, info *grpc.UnaryServerInfo, final grpc.UnaryHandler) (any, error) {
	if len(c.user) == 0 {
		return final(ctx, req)
	}
	return c.user[0](ctx, req, info, c.from(1, info, final))
}

func (c *unaryChain) from(i int, info *grpc.UnaryServerInfo, final grpc.UnaryHandler) grpc.UnaryHandler {
	if i == len(c.user) {
		return final
	}
	return func(ctx context.Context, req any) (any, error) {
		return c.user[i](ctx, req, info, c.from(i+1, info, final))
	}
}

// then is the interceptor a generated method handler runs: the user
// interceptors, then next (grpc-go's own, from WithServerOptions); nil when
// there is neither, and the handler then calls the method without building
// call info or a closure.
func (c *unaryChain) then(next grpc.UnaryServerInterceptor) grpc.UnaryServerInterceptor {
	switch {
	case next == nil:
		return c.intercept
	case c.intercept == nil:
		return next
	}
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, final grpc.UnaryHandler) (any, error) {
		return c.run(ctx, req, info, func(ctx context.Context, req any) (any, error) {
			return next(ctx, req, info, final)
		})
	}
}

type streamChain struct {
	user []grpc.StreamServerInterceptor
}

func (c *streamChain) run(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, final grpc.StreamHandler) error {
	if len(c.user) == 0 {
		return final(srv, ss)
	}
	return c.user[0](srv, ss, info, c.from(1, info, final))
}

func (c *streamChain) from(i int, info *grpc.StreamServerInfo, final grpc.StreamHandler) grpc.StreamHandler {
	if i == len(c.user) {
		return final
	}
	return func(srv any, ss grpc.ServerStream) error {
		return c.user[i](srv, ss, info, c.from(i+1, info, final))
	}
}

// intercepted returns a copy of desc whose method handlers run kit's
// interceptors around the registered ones. kit installs no grpc-go
// interceptor: with one installed, every generated unary handler allocates
// its call info and a closure per call, and grpc-go a stream's info.
// Health and reflection are left as they are (they bypass interceptors).
func (s *Server) intercepted(desc *grpc.ServiceDesc) *grpc.ServiceDesc {
	d := *desc
	d.Methods = make([]grpc.MethodDesc, len(desc.Methods))
	for i, m := range desc.Methods {
		if name := "/" + desc.ServiceName + "/" + m.MethodName; !isSystem(name) {
			method, handler := name, m.Handler
			m.Handler = func(srv any, ctx context.Context, dec func(any) error, next grpc.UnaryServerInterceptor) (any, error) {
				return s.serveUnary(method, handler, srv, ctx, dec, next)
			}
		}
		d.Methods[i] = m
	}
	d.Streams = make([]grpc.StreamDesc, len(desc.Streams))
	for i, sd := range desc.Streams {
		if name := "/" + desc.ServiceName + "/" + sd.StreamName; !isSystem(name) {
			// One info per method, shared by its calls (grpc-go builds one per call).
			info := &grpc.StreamServerInfo{FullMethod: name, IsClientStream: sd.ClientStreams, IsServerStream: sd.ServerStreams}
			handler := sd.Handler
			sd.Handler = func(srv any, ss grpc.ServerStream) error {
				return s.interceptStream(srv, ss, info, handler)
			}
		}
		d.Streams[i] = sd
	}
	return &d
}

// decodeWatch passes a call's request decoding through and records whether
// it failed: such a call is answered by grpc-go itself (Internal; the
// transport then ends the call's context) before kit's interceptors would
// have run when they were grpc-go interceptors, and still gets no access
// line. Watches are recycled through a free list, their decode bound once,
// so watching allocates nothing (a channel rather than a sync.Pool, whose
// random drops under the race detector would make calls allocate).
type decodeWatch struct {
	dec    func(any) error
	failed bool
	decode func(any) error
}

var decodeWatches = make(chan *decodeWatch, 256)

func getDecodeWatch(dec func(any) error) *decodeWatch {
	var w *decodeWatch
	select {
	case w = <-decodeWatches:
	default:
		w = &decodeWatch{}
		w.decode = func(m any) error {
			err := w.dec(m)
			w.failed = err != nil
			return err
		}
	}
	w.dec, w.failed = dec, false
	return w
}

func putDecodeWatch(w *decodeWatch) {
	w.dec = nil
	select {
	case decodeWatches <- w:
	default:
	}
}

// serveUnary is recovery (outermost) → access log → timeout → Use'd
// interceptors → handler (which decodes the request first). A handler
// returning after the deadline (or after the caller cancelled) has its
// response dropped.
func (s *Server) serveUnary(method string, handler grpc.MethodHandler, srv any, ctx context.Context, dec func(any) error, next grpc.UnaryServerInterceptor) (resp any, err error) {
	ctx, _ = adoptTraceparent(ctx)
	w := getDecodeWatch(dec)
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, s.panicked(ctx, method, p)
		}
	}()
	start := time.Now()
	returned := false
	defer func() {
		if !w.failed {
			s.logCall(ctx, method, callCode(err, returned), start)
		}
		putDecodeWatch(w)
	}()
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	resp, err = handler(srv, ctx, w.decode, s.unary.Load().then(next))
	if cerr := ctx.Err(); cerr != nil && !w.failed {
		resp, err = nil, status.FromContextError(cerr).Err()
	}
	returned = true
	return resp, err
}

// interceptStream is recovery (outermost) → access log → UseStream'd
// interceptors → handler. Streams have no deadline of their own.
func (s *Server) interceptStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
	ctx, traced := adoptTraceparent(ss.Context())
	if traced {
		ss = tracedStream{ServerStream: ss, ctx: ctx}
	}
	defer func() {
		if p := recover(); p != nil {
			err = s.panicked(ctx, info.FullMethod, p)
		}
	}()
	start := time.Now()
	returned := false
	defer func() { s.logCall(ctx, info.FullMethod, callCode(err, returned), start) }()
	err = s.stream.Load().run(srv, ss, info, handler)
	returned = true
	return err
}

// callCode is the code the caller receives; a call that did not return is
// panicking, and recovery answers Internal.
func callCode(err error, returned bool) grpccodes.Code {
	if !returned {
		return grpccodes.Internal
	}
	return status.Code(err)
}

// panicked logs a recovered panic with its stack and the trace ids of the
// call, marks the span, and returns the opaque Internal status.
func (s *Server) panicked(ctx context.Context, method string, p any) error {
	span := trace.SpanFromContext(ctx)
	span.RecordError(fmt.Errorf("panic: %v", p))
	span.SetStatus(codes.Error, "panic")
	log.WithContext(s.Logger(), ctx).Error("panic recovered",
		"panic", fmt.Sprint(p),
		"method", method,
		"stack", string(debug.Stack()),
	)
	return status.Error(grpccodes.Internal, MsgInternal)
}

// callLevel is the level of a call's access-log line, by the cause of its
// code:
//   - ERROR for server faults: Internal (panics and unhandled errors answer
//     it) and DataLoss;
//   - WARN for outcomes that may be the server's or a dependency's doing and
//     deserve a look, though the logic may return them on purpose: Unknown,
//     Unavailable, DeadlineExceeded (the call's deadline passed);
//   - INFO for the rest: OK, codes the caller caused (Canceled,
//     InvalidArgument, Unauthenticated, PermissionDenied, ...) and those the
//     design answers on purpose (NotFound, AlreadyExists, FailedPrecondition,
//     Aborted, OutOfRange, ResourceExhausted, Unimplemented: a fresh stub).
//
// This mirrors the HTTP access log, where 4xx is INFO.
func callLevel(c grpccodes.Code) log.Level {
	switch c {
	case grpccodes.Internal, grpccodes.DataLoss:
		return log.LevelError
	case grpccodes.Unknown, grpccodes.Unavailable, grpccodes.DeadlineExceeded:
		return log.LevelWarn
	}
	return log.LevelInfo
}

// logCall writes the access-log line "grpc request": method, code,
// duration_ms, peer and the trace and request ids of the call. With a logger
// built by log.New (the default) the line is appended by hand and written at
// once, byte for byte what the slog handler writes (as the HTTP access log).
func (s *Server) logCall(ctx context.Context, method string, code grpccodes.Code, start time.Time) {
	level := callLevel(code)
	l := s.Logger()
	if src, ok := l.(jsonline.Source); ok {
		if sink := src.LineSink(); sink != nil {
			if sink.Enabled(level) {
				writeCallLine(sink, ctx, level, method, code, start)
			}
			return
		}
	}
	if level < log.GetLevel() {
		return
	}
	var buf [8]slog.Attr
	attrs := append(buf[:0],
		slog.String("method", method),
		slog.String("code", code.String()),
		slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
	)
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		attrs = append(attrs, slog.String("peer", p.Addr.String()))
	}
	attrs = log.ContextSlogAttrs(ctx, attrs)
	log.LogAttrs(l, ctx, level, "grpc request", attrs...)
}

// appendPeer appends "peer":"<addr.String()>"; a TCP address (every call over TCP) is
// written without building its string (net.TCPAddr.String allocates two or three times).
func appendPeer(ln *jsonline.Line, addr net.Addr) {
	if ta, ok := addr.(*net.TCPAddr); ok && ta.Zone == "" {
		// net.IP prints an IPv4-mapped IPv6 address (and a 16-byte IPv4 one) as IPv4.
		if ip, ok := netip.AddrFromSlice(ta.IP); ok && 0 <= ta.Port && ta.Port <= 0xffff {
			ln.AddrPort("peer", netip.AddrPortFrom(ip.Unmap(), uint16(ta.Port)))
			return
		}
	}
	ln.String("peer", addr.String())
}

// writeCallLine is the hand-made twin of the slog path of logCall: same keys,
// same order, same encoding.
func writeCallLine(sink *jsonline.Sink, ctx context.Context, level log.Level, method string, code grpccodes.Code, start time.Time) {
	d := time.Since(start)
	ln := sink.Begin(start.Add(d), level, "grpc request")
	ln.String("method", method)
	ln.String("code", code.String())
	ln.Millis("duration_ms", d.Microseconds())
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		appendPeer(ln, p.Addr)
	}
	ctxline.AppendIDs(ln, ctx)
	// Held for the logger's next batch (one system call for the lines of the calls that
	// end together); Stop flushes it.
	_ = sink.Hold(ln)
}
