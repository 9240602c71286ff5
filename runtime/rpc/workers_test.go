package rpc_test

import (
	"context"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/kitdev/kit/runtime/internal/logfile"
	"github.com/kitdev/kit/runtime/rpc"
)

// goroutinesCreated is the number of goroutines the process has created so far (a metric
// since Go 1.26: the test is skipped before).
func goroutinesCreated(t *testing.T) uint64 {
	t.Helper()
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Skip("no goroutines-created metric in this Go")
	}
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
	before := goroutinesCreated(t)
	for range rounds {
		round()
	}
	// Each round starts its inFlight callers (this test's goroutines); the server's side
	// should add none (a goroutine per call would add inFlight a round).
	created := goroutinesCreated(t) - before - rounds*inFlight
	if created > rounds*inFlight/4 {
		t.Errorf("%d goroutines created for %d calls beyond the callers: calls are not running on reused workers", created, rounds*inFlight)
	}
}

// With the access log on a file (as the generated service logs to stderr) the lines of
// calls ending together are written in batches: after Stop every call's line is in the
// file, whole, and a line written at once (a recovered panic's) comes after the access
// line held before it.
func TestAccessLinesToAFileAreCompleteAfterStop(t *testing.T) {
	const callers, each = 8, 25
	lf := logfile.New(t)
	srv := rpc.NewServer()
	srv.RegisterService(&echoDesc, struct{}{})
	srv.SetLogger(lf.Logger())
	h := newHarnessOn(t, srv)
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for i := range each {
				text := "ok:" + strconv.Itoa(c*each+i)
				if c == 0 && i == each/2 {
					text = "panic"
				}
				_, _ = h.call(context.Background(), text)
			}
		})
	}
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	var access, internal, panics int
	for _, m := range lf.Lines() {
		switch m["msg"] {
		case "panic recovered":
			// The access log runs inside the recovery: its line (held) is given first.
			if internal == 0 {
				t.Fatalf("the panic line came before the access line of its call")
			}
			panics++
		case "grpc request":
			if m["code"] == "Internal" {
				internal++
			}
			access++
		}
	}
	if access != callers*each || panics != 1 {
		t.Fatalf("%d access lines and %d panic lines after Stop, want %d and 1", access, panics, callers*each)
	}
}
