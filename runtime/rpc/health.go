package rpc

import (
	"context"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// msgStopping ends the health watches of a stopping server.
const msgStopping = "server is stopping"

// healthService is grpc-go's health server whose Watch streams end once a
// stopping server has told them NOT_SERVING. A watch never ends on its own
// (grpc-go's client-side health checking and Envoy keep one open per
// connection), and GracefulStop waits for every open stream: without this a
// stop would last its whole budget and end in the budget's error.
type healthService struct {
	*health.Server
	stopping chan struct{}
	stopOnce sync.Once
}

func newHealthService() *healthService {
	return &healthService{Server: health.NewServer(), stopping: make(chan struct{})}
}

// shutdown turns every status NOT_SERVING (pushing it to every watch), then
// lets the watches end once they have sent it.
func (h *healthService) shutdown() {
	h.Server.Shutdown()
	h.stopOnce.Do(func() { close(h.stopping) })
}

// Watch serves grpc-go's Watch until the stop began and the watcher was sent
// NOT_SERVING (at once for a service the server does not know, which never
// turns NOT_SERVING), then ends the stream with Unavailable, which health
// clients take as "try another backend".
func (h *healthService) Watch(req *healthpb.HealthCheckRequest, stream healthpb.Health_WatchServer) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	ws := &watchStream{Health_WatchServer: stream, ctx: ctx, notServing: make(chan struct{})}
	go func() {
		select {
		case <-h.stopping:
		case <-ctx.Done():
			return
		}
		if _, err := h.Server.Check(ctx, req); status.Code(err) == codes.NotFound {
			cancel()
			return
		}
		select {
		case <-ws.notServing:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := h.Server.Watch(req, ws)
	if stream.Context().Err() == nil && ctx.Err() != nil {
		return status.Error(codes.Unavailable, msgStopping)
	}
	return err
}

// watchStream gives grpc-go's Watch a context that ends with the stop, and
// records when NOT_SERVING has gone out. It is a pointer: grpc-go keys its
// watchers by stream.
type watchStream struct {
	healthpb.Health_WatchServer
	ctx        context.Context
	notServing chan struct{}
	once       sync.Once
}

func (w *watchStream) Context() context.Context { return w.ctx }

func (w *watchStream) Send(resp *healthpb.HealthCheckResponse) error {
	err := w.Health_WatchServer.Send(resp)
	if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_NOT_SERVING {
		w.once.Do(func() { close(w.notServing) })
	}
	return err
}
