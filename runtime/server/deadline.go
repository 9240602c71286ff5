package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// deadlineCtx is the request context of a handler with a deadline (@timeout,
// server.handlerTimeout): what context.WithTimeout gives, without its cost
// for a handler that never waits on the context. Deadline answers at once;
// the timer that closes Done at the deadline starts on the first Done (or
// AfterFunc, or a derived context, which asks for Done); until then Err
// compares the clock with the deadline. A handler blocking on Done is
// cancelled at the deadline as with context.WithTimeout; one that only
// returns ctx.Err() gets DeadlineExceeded once the deadline has passed.
//
// context.WithTimeout costs a timer started and stopped, its context, and
// an entry in the request context's children: four allocations and two
// timer-heap updates per request, on every request of such a route.
type deadlineCtx struct {
	context.Context // the request context
	deadline        time.Time

	inner   atomic.Pointer[innerCtx] // the real deadline context, once asked for
	mu      sync.Mutex               // guards the start of inner and stopped
	stopped bool                     // the handler returned: the context ends Canceled
}

type innerCtx struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// withDeadline returns parent with a deadline d from now. Call stop when the
// handler returns (where context.WithTimeout's cancel would be called).
func withDeadline(parent context.Context, d time.Duration) *deadlineCtx {
	at := time.Now().Add(d)
	if pd, ok := parent.Deadline(); ok && pd.Before(at) {
		at = pd // as context.WithDeadline: the earlier deadline holds
	}
	return &deadlineCtx{Context: parent, deadline: at}
}

// Deadline returns the handler's deadline.
func (c *deadlineCtx) Deadline() (time.Time, bool) { return c.deadline, true }

// Done starts the deadline's timer on its first call.
func (c *deadlineCtx) Done() <-chan struct{} { return c.start().Done() }

// Err is nil while the request context is live and the deadline ahead;
// otherwise the context is made real, so that Err and Done agree from then
// on (its Err never changes afterwards).
func (c *deadlineCtx) Err() error {
	if in := c.inner.Load(); in != nil {
		return in.ctx.Err()
	}
	if c.Context.Err() == nil && time.Now().Before(c.deadline) && !c.isStopped() {
		return nil
	}
	return c.start().Err()
}

// AfterFunc lets a context derived from this one be cancelled with it
// without a goroutine watching Done (context's afterFuncer).
func (c *deadlineCtx) AfterFunc(f func()) func() bool {
	return context.AfterFunc(c.start(), f)
}

// Value reads the request context's values, through the real deadline
// context once there is one: context.Cause (which asks Err first, so a done
// context is real by then) and a derived context looking for its parent's
// cancellation find the deadline's.
func (c *deadlineCtx) Value(key any) any {
	if in := c.inner.Load(); in != nil {
		return in.ctx.Value(key)
	}
	return c.Context.Value(key)
}

// String names the context for debugging.
func (c *deadlineCtx) String() string { return "server.deadlineCtx" }

func (c *deadlineCtx) isStopped() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopped
}

// start returns the real deadline context, made on the first call.
func (c *deadlineCtx) start() context.Context {
	if in := c.inner.Load(); in != nil {
		return in.ctx
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if in := c.inner.Load(); in != nil {
		return in.ctx
	}
	ctx, cancel := context.WithDeadline(c.Context, c.deadline)
	if c.stopped {
		cancel()
	}
	c.inner.Store(&innerCtx{ctx: ctx, cancel: cancel})
	return ctx
}

// stop ends the context as the cancel of context.WithTimeout does: work
// still waiting on it sees Canceled; nothing was started if nobody asked.
func (c *deadlineCtx) stop() {
	c.mu.Lock()
	c.stopped = true
	in := c.inner.Load()
	c.mu.Unlock()
	if in != nil {
		in.cancel()
	}
}
