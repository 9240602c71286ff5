package rpc_test

import (
	"context"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/kitdev/kit/runtime/rpc"
)

// goroutinesCreated is the number of goroutines the process has created so far.
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Concurrent calls run on the server's long-lived stream workers, whose stacks have
// already grown, not each on a fresh goroutine that grows (copies) its stack on the way
// to the handler: on the bench machine that copy was about 15% of a unary call's CPU
// (bench/README.md, gRPC round 4). 16 calls held in flight together, round after round,
// create (almost) no goroutine after the first round.
func TestConcurrentCallsRunOnReusedWorkers(t *testing.T) {
	const inFlight, rounds = 16, 5
	srv := rpc.NewServer()
	srv.RegisterService(&echoDesc, struct{}{})
	var arrived atomic.Int32
	var gate atomic.Pointer[chan struct{}]
	srv.Use(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		g := *gate.Load()
		arrived.Add(1)
		<-g
		return next(ctx, req)
	})
	h := newHarnessOn(t, srv)
	round := func() {
		g := make(chan struct{})
		gate.Store(&g)
		arrived.Store(0)
		var wg sync.WaitGroup
		for range inFlight {
			wg.Go(func() {
				if _, err := h.call(context.Background(), "ok:x"); err != nil {
					t.Error(err)
				}
			})
		}
		deadline := time.Now().Add(10 * time.Second)
		for arrived.Load() < inFlight && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		close(g)
		wg.Wait()
	}
	round() // the workers start and the connection warms up
	before := goroutinesCreated()
	for range rounds {
		round()
	}
	// Each round starts its inFlight callers (this test's goroutines); the server's side
	// should add none (a goroutine per call would add inFlight a round).
	created := goroutinesCreated() - before - rounds*inFlight
	if created > rounds*inFlight/4 {
		t.Errorf("%d goroutines created for %d calls beyond the callers: calls are not running on reused workers", created, rounds*inFlight)
	}
}
