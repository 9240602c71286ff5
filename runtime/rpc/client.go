package rpc

import (
	"context"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"

	"github.com/kitdev/kit/runtime/log"
)

// ClientOption configures Dial.
type ClientOption func(*clientOptions)

type clientOptions struct {
	stats     stats.Handler
	timeout   time.Duration
	accessLog log.Logger
	creds     credentials.TransportCredentials
	dial      []grpc.DialOption
}

// WithClientStatsHandler installs h (usually telemetry's GRPCClientHandler):
// a client span, the rpc.client.call.duration metric and the trace context
// sent in request metadata. Without it no trace context is sent.
func WithClientStatsHandler(h stats.Handler) ClientOption {
	return func(o *clientOptions) { o.stats = h }
}

// WithClientTimeout gives unary calls without a deadline the deadline d; a
// caller's deadline wins. Streams are not bounded.
func WithClientTimeout(d time.Duration) ClientOption {
	return func(o *clientOptions) { o.timeout = d }
}

// WithClientAccessLog writes one "grpc client" line per unary call to l,
// with method, code, duration_ms and the trace ids of the caller's context.
func WithClientAccessLog(l log.Logger) ClientOption {
	return func(o *clientOptions) { o.accessLog = l }
}

// WithClientTransportCredentials sets the transport security; the default
// is insecure (plain text).
func WithClientTransportCredentials(c credentials.TransportCredentials) ClientOption {
	return func(o *clientOptions) { o.creds = c }
}

// WithDialOptions passes options to grpc.NewClient (resolver, balancing
// policy, keepalive, interceptors...); they apply after the ones above.
func WithDialOptions(opts ...grpc.DialOption) ClientOption {
	return func(o *clientOptions) { o.dial = append(o.dial, opts...) }
}

// Dial returns a long-lived, lazy connection to addr: nothing is dialled
// until the first call, so an unreachable target fails calls, not startup.
// Pass it to a generated New<Service>Client.
func Dial(addr string, opts ...ClientOption) (*grpc.ClientConn, error) {
	o := clientOptions{creds: insecure.NewCredentials()}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	dopts := []grpc.DialOption{grpc.WithTransportCredentials(o.creds)}
	if o.stats != nil {
		dopts = append(dopts, grpc.WithStatsHandler(o.stats))
	}
	var chain []grpc.UnaryClientInterceptor
	if o.accessLog != nil {
		chain = append(chain, clientAccessLog(o.accessLog))
	}
	if o.timeout > 0 {
		chain = append(chain, clientTimeout(o.timeout))
	}
	if len(chain) > 0 {
		dopts = append(dopts, grpc.WithChainUnaryInterceptor(chain...))
	}
	return grpc.NewClient(addr, append(dopts, o.dial...)...)
}

func clientTimeout(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if _, ok := ctx.Deadline(); !ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func clientAccessLog(l log.Logger) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		start := time.Now()
		err := invoker(ctx, method, req, reply, cc, opts...)
		code := status.Code(err)
		level := callLevel(code) // the server's table: its faults are ERROR on both ends
		attrs := []slog.Attr{
			slog.String("method", method),
			slog.String("target", cc.Target()),
			slog.String("code", code.String()),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
		}
		attrs = log.ContextSlogAttrs(ctx, attrs)
		log.LogAttrs(l, ctx, level, "grpc client", attrs...)
		return err
	}
}
