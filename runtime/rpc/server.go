package rpc

import (
	"context"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	// Registers the gzip compressor for servers and clients of this package:
	// a client asking for gzip is answered whatever else the binary links
	// (before, it worked only because an OpenTelemetry exporter imports it).
	_ "google.golang.org/grpc/encoding/gzip"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/stats"

	"github.com/kitdev/kit/runtime/internal/listener"
	"github.com/kitdev/kit/runtime/internal/logslot"
	"github.com/kitdev/kit/runtime/log"
)

// DefaultAddr is the listen address Start and Listen use when given "".
const DefaultAddr = ":9000"

// Option configures NewServer.
type Option func(*options)

type options struct {
	stats      stats.Handler
	reflection bool
	timeout    time.Duration
	grpcOpts   []grpc.ServerOption
}

// WithStatsHandler installs h (usually telemetry's GRPCServerHandler) in
// the transport, ahead of every interceptor: spans and metrics cover the
// whole call. Health and reflection calls are not passed to it. A nil h
// installs nothing (GRPCServerHandler with telemetry off); a caller's W3C
// traceparent then still gives the call's log lines its trace ids.
func WithStatsHandler(h stats.Handler) Option {
	return func(o *options) { o.stats = h }
}

// WithReflection registers the server reflection service when enabled is
// true (config grpc.reflection).
func WithReflection(enabled bool) Option {
	return func(o *options) { o.reflection = enabled }
}

// WithHandlerTimeout bounds every unary call with deadline d (config
// grpc.handlerTimeout; 0 means none). A shorter client deadline wins;
// streams are not bounded.
func WithHandlerTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// WithServerOptions passes options to grpc.NewServer (message sizes,
// keepalive, transport credentials...).
func WithServerOptions(opts ...grpc.ServerOption) Option {
	return func(o *options) { o.grpcOpts = append(o.grpcOpts, opts...) }
}

// Server is a gRPC server with the kit defaults; it implements
// grpc.ServiceRegistrar, so generated Register<Service>Server functions
// take it.
type Server struct {
	gs      *grpc.Server
	health  *healthService
	timeout time.Duration

	logger logslot.Slot
	unary  atomic.Pointer[unaryChain]
	stream atomic.Pointer[streamChain]

	mu       sync.Mutex
	services []string
	lis      listener.State
}

// minStreamWorkers is the least number of stream workers. grpc-go hands a call to an idle
// worker and starts a goroutine for it when none is idle; a fresh goroutine grows (copies)
// its stack on the way to the handler, about 15% of a unary call's CPU on the bench
// machine (bench/README.md, gRPC round 4), so there should be a worker for each call in
// flight. Not many more: idle workers take calls in turn (first in, first out) and the GC
// halves the stack of a worker that sat idle, so a worker beyond the concurrency grows its
// stack again once per GC (64 workers at 16 callers cost more than 16 did).
const minStreamWorkers = 16

// streamWorkers is the number of stream workers: minStreamWorkers, or one per CPU on a
// larger machine.
func streamWorkers() uint32 { return uint32(max(minStreamWorkers, runtime.GOMAXPROCS(0))) }

// NewServer builds a server. The health service is always registered; the
// reflection service when WithReflection(true) is given.
func NewServer(opts ...Option) *Server {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	s := &Server{health: newHealthService(), timeout: o.timeout}
	s.unary.Store(newUnaryChain(nil))
	s.stream.Store(&streamChain{})
	gopts := []grpc.ServerOption{
		// No grpc.UnaryInterceptor / StreamInterceptor: RegisterService wraps each method's
		// handler instead (see intercepted), which costs no allocation per call.
		// Calls run on long-lived workers whose stacks have already grown: a goroutine per
		// call would grow (copy) its stack through the interceptors on every call.
		grpc.NumStreamWorkers(streamWorkers()),
	}
	if o.stats != nil {
		gopts = append(gopts, grpc.StatsHandler(skipSystem{o.stats}))
	}
	s.gs = grpc.NewServer(append(gopts, o.grpcOpts...)...)
	healthpb.RegisterHealthServer(s.gs, s.health)
	if o.reflection {
		reflection.Register(s.gs)
	}
	return s
}

// RegisterService registers a service implementation (grpc.ServiceRegistrar)
// with kit's interceptors (recovery, access log, timeout, Use'd ones) around
// each of its methods; a service registered on GRPC() directly goes through
// none of them. Like grpc.Server it panics on a second registration of one
// service and after Serve started.
func (s *Server) RegisterService(desc *grpc.ServiceDesc, impl any) {
	s.gs.RegisterService(s.intercepted(desc), impl)
	s.mu.Lock()
	s.services = append(s.services, desc.ServiceName)
	s.mu.Unlock()
}

// GRPC returns the underlying grpc.Server. A service registered on it
// directly passes through none of kit's interceptors.
func (s *Server) GRPC() *grpc.Server { return s.gs }

// Health returns the health service, for custom status changes.
func (s *Server) Health() *health.Server { return s.health.Server }

// Use appends unary interceptors; they run after the built-in recovery,
// access log and timeout, in added order. Nil entries are skipped. Health
// and reflection calls do not pass through them.
func (s *Server) Use(interceptors ...grpc.UnaryServerInterceptor) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.unary.Load().user
	next := make([]grpc.UnaryServerInterceptor, 0, len(old)+len(interceptors))
	next = append(next, old...)
	for _, i := range interceptors {
		if i != nil {
			next = append(next, i)
		}
	}
	s.unary.Store(newUnaryChain(next))
}

// UseStream appends stream interceptors, as Use does for unary ones.
func (s *Server) UseStream(interceptors ...grpc.StreamServerInterceptor) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.stream.Load().user
	next := make([]grpc.StreamServerInterceptor, 0, len(old)+len(interceptors))
	next = append(next, old...)
	for _, i := range interceptors {
		if i != nil {
			next = append(next, i)
		}
	}
	s.stream.Store(&streamChain{user: next})
}

// SetLogger replaces the server's logger (access log, panics) and installs
// it as the process default logger (log.SetDefault), as the HTTP server's
// SetLogger does. Nil is ignored.
func (s *Server) SetLogger(l log.Logger) {
	s.logger.Set(l)
}

// Logger returns the server's logger: the one given to SetLogger, else the
// process default.
func (s *Server) Logger() log.Logger { return s.logger.Get() }

// Start listens on addr (DefaultAddr when empty) and serves until Stop; it
// returns nil after Stop.
func (s *Server) Start(addr string) error { return listener.Start(s, addr) }

// Listen binds addr (DefaultAddr when empty; ":0" picks a free port) and
// records the listener for Addr.
func (s *Server) Listen(addr string) (net.Listener, error) { return s.lis.Listen(addr, DefaultAddr) }

// Serve marks the server and every registered service SERVING, then serves
// l until Stop; it returns nil after Stop.
func (s *Server) Serve(l net.Listener) error {
	ok, err := s.lis.Serve(l, "rpc", func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
		for _, name := range s.services {
			s.health.SetServingStatus(name, healthpb.HealthCheckResponse_SERVING)
		}
	})
	if !ok {
		return err
	}
	return s.gs.Serve(l)
}

// Addr returns the bound address once Listen or Start bound it, else "".
func (s *Server) Addr() string { return s.lis.Addr() }

// Stop sets every health status to NOT_SERVING, ends the health watches
// once they have sent it, stops accepting calls and waits for in-flight
// calls within ctx; when ctx ends first the remaining
// calls are cut off and ctx's error is returned. It then writes out the
// access lines the logger holds for a batch. Stop is a no-op (nil) when
// the server never served; a Serve after Stop returns nil at once.
func (s *Server) Stop(ctx context.Context) error {
	if !s.lis.Stop() {
		return nil
	}
	s.health.shutdown()
	done := make(chan struct{})
	go func() {
		s.gs.GracefulStop()
		close(done)
	}()
	// The access lines of the last calls may be held for a batch: write them out.
	defer func() { _ = log.FlushLogger(s.Logger()) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.gs.Stop()
		<-done
		return ctx.Err()
	}
}
