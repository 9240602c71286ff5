package events

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// laneBuffer is each lane's buffer; the shared channel holds MaxInFlight.
const laneBuffer = 4

// inlineBelow is the average handling time under which a delivery that arrives while
// nothing else of the group is in flight is handled on the transport's goroutine instead
// of a worker: waking a parked worker costs more than such a handler (1-1.5 µs per event
// on JetStream, the whole difference to the raw client). Slower handlers always go to the
// workers, so they still run MaxInFlight at a time.
const inlineBelow = 20 * time.Microsecond

// sampleCap bounds one sample of the moving average (see handle).
const sampleCap = 4 * inlineBelow

// startAverage is the handling time assumed before any was measured: inlining is earned
// by a few dozen fast handlings.
const startAverage = time.Millisecond

// runner runs one group in this process: it takes deliveries from the transport through
// its sink and hands them to MaxInFlight workers. Messages of one ordering key always go
// to the same worker (its lane), so they are handled one at a time in arrival order;
// messages without a key go to whichever worker is free. The channels are buffered (a
// hand-over then rarely waits for a goroutine switch); what they hold at Stop is still
// handled, within the stop budget. A fast handler may run on the transport's goroutine
// instead (see inline): only while nothing else of the group is queued or running, and
// nothing is handed over meanwhile, so MaxInFlight and per-key order hold either way.
type runner struct {
	bus      *Bus
	group    Group
	settings GroupSettings
	spec     ConsumerSpec
	handlers map[string]bound // by contract

	lanes  []chan Delivery
	shared chan Delivery
	done   chan struct{}
	wg     sync.WaitGroup

	// handlerCtx is cancelled when a stop budget runs out: handlers still running see it.
	handlerCtx context.Context
	cancel     context.CancelFunc
	consumer   Consumer
	seed       maphash.Seed

	// handover is held shared by a sink handing a delivery to the workers and exclusively
	// by an inline handling: no delivery is handed over while one is handled inline.
	handover sync.RWMutex
	// stopped (under handover) ends inline handling: stop sets it once the workers are done.
	stopped bool
	// pending counts deliveries handed to the workers and not yet settled.
	pending atomic.Int64
	// average is the moving average handling time in ns (racing updates may lose one
	// sample: it only steers inlining).
	average atomic.Int64
}

func (b *Bus) newRunner(g PlanGroup) *runner {
	r := &runner{
		bus:      b,
		group:    g.Group,
		settings: g.settings,
		spec:     ConsumerSpec{Group: g.Group, Contracts: g.Contracts(), Settings: g.settings},
		handlers: map[string]bound{},
		shared:   make(chan Delivery, g.settings.MaxInFlight),
		done:     make(chan struct{}),
		seed:     maphash.MakeSeed(),
	}
	r.handlerCtx, r.cancel = context.WithCancel(context.Background())
	r.average.Store(int64(startAverage))
	// Every handler's context names the transport (see Tracing): built once, not per message.
	ctx := context.WithValue(r.handlerCtx, transportKey{}, b.transport.Name())
	for _, sub := range g.subs {
		r.handlers[sub.Event] = bound{h: wrap(sub, b.chain), ctx: ctx}
	}
	return r
}

// wrap is sub's handler inside the bus's chain (Recovery first unless dropped), then the
// subscription's own Chain: recover, bus chain, Subscription.Chain, handler.
func wrap(sub Subscription, busChain Chain) Handler {
	chain := slices.Concat(busChain, sub.Chain)
	h := sub.Handle
	for i := len(chain) - 1; i >= 0; i-- {
		if chain[i] != nil {
			h = chain[i](sub, h)
		}
	}
	return h
}

// bound is a subscription's handler, chain included, with the context it runs in (the
// runner's, naming the transport).
type bound struct {
	h   Handler
	ctx context.Context
}

func (r *runner) start(ctx context.Context) error {
	r.lanes = make([]chan Delivery, r.settings.MaxInFlight)
	for i := range r.lanes {
		r.lanes[i] = make(chan Delivery, laneBuffer)
		r.wg.Add(1)
		go r.work(r.lanes[i])
	}
	c, err := r.bus.transport.Subscribe(ctx, r.spec, r.sink)
	if err != nil {
		close(r.done)
		r.wg.Wait()
		r.cancel()
		return fmt.Errorf("events: subscribe group %q: %w", r.group, err)
	}
	r.consumer = c
	return nil
}

// sink is the transport's way in: it handles d inline when that is cheaper (see inline),
// else blocks until a worker takes it.
func (r *runner) sink(ctx context.Context, d Delivery) error {
	if time.Duration(r.average.Load()) < inlineBelow && r.handover.TryLock() {
		handled, err := r.inline(d)
		r.handover.Unlock()
		if handled {
			return err
		}
	}
	r.handover.RLock()
	defer r.handover.RUnlock()
	ch := r.shared
	if key := d.Message().Key; key != "" {
		ch = r.lanes[maphash.String(r.seed, key)%uint64(len(r.lanes))]
	}
	r.pending.Add(1)
	select {
	case ch <- d:
		return nil
	case <-ctx.Done():
		r.pending.Add(-1)
		return ctx.Err()
	case <-r.done:
		r.pending.Add(-1)
		return ErrStopping
	}
}

// inline handles d on the caller's goroutine if nothing else of the group is queued or
// running (the caller holds handover exclusively, so nothing is handed over meanwhile,
// and stop waits for it).
func (r *runner) inline(d Delivery) (handled bool, err error) {
	if r.stopped {
		return true, ErrStopping
	}
	if r.pending.Load() != 0 {
		return false, nil
	}
	r.handle(d)
	return true, nil
}

func (r *runner) work(own chan Delivery) {
	defer r.wg.Done()
	for {
		select {
		case d := <-own:
			r.handleQueued(d)
		case d := <-r.shared:
			r.handleQueued(d)
		case <-r.done:
			r.drain(own)
			return
		}
	}
}

// drain handles what the channels still hold once the transport stopped calling the sink.
func (r *runner) drain(own chan Delivery) {
	for {
		select {
		case d := <-own:
			r.handleQueued(d)
		case d := <-r.shared:
			r.handleQueued(d)
		default:
			return
		}
	}
}

// handleQueued handles a delivery a worker took from a channel.
func (r *runner) handleQueued(d Delivery) {
	r.handle(d)
	r.pending.Add(-1)
}

// handle runs d's handler and settles it, and feeds the moving average of how long that
// takes (one eighth of each new sample). A sample counts at most sampleCap, so one
// handling that was preempted or waited for a lock does not stop inlining for the next
// few dozen; a handler that turned slow passes inlineBelow by its second sample.
func (r *runner) handle(d Delivery) {
	start := monotonic()
	r.run(d)
	sample := min(monotonic()-start, int64(sampleCap))
	avg := r.average.Load()
	r.average.Store(avg + (sample-avg)/8)
}

// epoch anchors monotonic.
var epoch = time.Now()

// monotonic is the monotonic clock in ns: time.Since of a time carrying a monotonic
// reading reads only that clock, where time.Now also reads the wall clock (a third of
// the cost of timing a handling).
func monotonic() int64 { return int64(time.Since(epoch)) }

func (r *runner) run(d Delivery) {
	if r.handlerCtx.Err() != nil { // the stop budget is over: hand it back unhandled
		ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
		defer cancel()
		r.report(d.Nak(ctx, 0))
		return
	}
	m := d.Message()
	b, ok := r.handlers[m.Event]
	var err error
	if ok {
		err = b.h(b.ctx, m)
	} else {
		err = DeadLetter(fmt.Errorf("group %q does not consume %q", r.group, m.Event))
	}
	r.settle(d, m, err)
}

// settle applies the handler's disposition.
func (r *runner) settle(d Delivery, m *Message, err error) {
	disposition, delay := DispositionOf(err)
	if disposition == Ack {
		// The hot path: transports acknowledge without waiting (no deadline to set up).
		r.report(d.Ack(context.Background()))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), settleTimeout)
	defer cancel()
	if disposition == Retry && r.handlerCtx.Err() != nil && errors.Is(err, context.Canceled) {
		// Cut off by Stop: hand it back at once for another instance.
		r.report(d.Nak(ctx, 0))
		return
	}
	if disposition == Retry && m.Attempt >= r.settings.MaxAttempts {
		disposition = DeadLettered
		err = &CapError{Attempts: m.Attempt, Err: err}
	}
	switch disposition {
	case Retry:
		if delay <= 0 {
			delay = r.settings.Backoff(max(m.Attempt, 1))
		}
		r.report(d.Nak(ctx, delay))
	case DeadLettered:
		r.bus.deadLetter(ctx, r.group, m, err)
		r.report(d.Term(ctx))
	default:
		r.report(d.Term(ctx))
	}
}

func (r *runner) report(err error) {
	if err != nil {
		r.bus.logger.Warn("events: settle failed", "group", string(r.group), "error", err.Error())
	}
}

// stop stops the transport's consumer (which hands back what it holds), waits for the
// workers within ctx, then cancels the handlers still running and waits for them to
// settle.
func (r *runner) stop(ctx context.Context) error {
	err := r.consumer.Stop(ctx)
	close(r.done)
	finished := make(chan struct{})
	go func() {
		r.wg.Wait()
		r.handover.Lock() // waits for an inline handling still running
		r.stopped = true
		r.handover.Unlock()
		close(finished)
	}()
	select {
	case <-finished:
	case <-ctx.Done():
		r.cancel()
		<-finished
	}
	r.cancel()
	return err
}

// CapError is the dead-letter reason of a message that reached the delivery cap.
type CapError struct {
	Attempts int
	Err      error
}

func (e *CapError) Error() string {
	return fmt.Sprintf("delivery cap reached after %d attempts: %v", e.Attempts, e.Err)
}

func (e *CapError) Unwrap() error { return e.Err }
