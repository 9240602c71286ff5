package events

import (
	"context"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// InProcess is the in-process transport: a broker inside this process, for services that
// run as one process, for tests, and as the default before a team runs NATS or Kafka.
//
// Semantics: a group exists from its first Subscribe; from then on it receives every
// message published to its contracts and keeps them (in memory, unbounded) while none of
// its members is running, so stopping and starting a member loses nothing. Members of a
// group share its messages; Nak redelivers after the delay; nothing survives the process.
// StartAll and StartNew behave alike (the broker keeps no history), and AckWait is unused
// (a delivery cannot be lost inside one process).
//
// Connect returns another connection to the same broker, as another process would open
// to a real one (tests use it to run several members of one group).
type InProcess struct {
	broker *memBroker
	closed atomic.Bool
}

// NewInProcess starts an in-process broker and returns a connection to it.
func NewInProcess() *InProcess { return &InProcess{broker: &memBroker{groups: map[Group]*memGroup{}}} }

// Connect opens another connection to the same broker.
func (t *InProcess) Connect() *InProcess { return &InProcess{broker: t.broker} }

// Name is "inprocess".
func (t *InProcess) Name() string { return "inprocess" }

// AdapterOptions is empty: the in-process transport reads no adapter option.
func (t *InProcess) AdapterOptions() []string { return nil }

// Close closes this connection (the broker lives on for its other connections).
func (t *InProcess) Close() error {
	if t.closed.Swap(true) {
		return ErrClosed
	}
	return nil
}

// Publish queues a copy of each message for every group consuming its contract.
func (t *InProcess) Publish(ctx context.Context, msgs []*Message) error {
	if t.closed.Load() {
		return PartialPublishErrorOf(slices.Repeat([]error{ErrClosed}, len(msgs)))
	}
	if err := ctx.Err(); err != nil {
		return PartialPublishErrorOf(slices.Repeat([]error{err}, len(msgs)))
	}
	for _, m := range msgs {
		t.broker.publish(m)
	}
	return nil
}

// Subscribe joins group spec.Group, creating it on first use.
func (t *InProcess) Subscribe(_ context.Context, spec ConsumerSpec, sink Sink) (Consumer, error) {
	if t.closed.Load() {
		return nil, ErrClosed
	}
	g := t.broker.group(spec)
	ctx, cancel := context.WithCancel(context.Background())
	c := &memConsumer{cancel: cancel, done: make(chan struct{})}
	go c.run(ctx, g, sink)
	return c, nil
}

type memBroker struct {
	mu     sync.Mutex
	groups map[Group]*memGroup
}

func (b *memBroker) group(spec ConsumerSpec) *memGroup {
	b.mu.Lock()
	defer b.mu.Unlock()
	g := b.groups[spec.Group]
	if g == nil {
		g = &memGroup{contracts: map[string]bool{}, notify: make(chan struct{})}
		b.groups[spec.Group] = g
	}
	g.mu.Lock()
	for _, c := range spec.Contracts {
		g.contracts[c] = true
	}
	g.mu.Unlock()
	return g
}

func (b *memBroker) publish(m *Message) {
	b.mu.Lock()
	groups := slices.Collect(maps.Values(b.groups))
	b.mu.Unlock()
	for _, g := range groups {
		g.offer(m)
	}
}

// memGroup is one group's queue, shared by its members.
type memGroup struct {
	mu        sync.Mutex
	contracts map[string]bool
	queue     []*memDelivery
	head      int
	waiting   int
	notify    chan struct{} // closed (and replaced) when a message arrives for a waiter
}

func (g *memGroup) offer(m *Message) {
	g.mu.Lock()
	ok := g.contracts[m.Event]
	g.mu.Unlock()
	if !ok {
		return
	}
	cp := *m
	cp.Metadata = maps.Clone(m.Metadata)
	cp.AdapterOptions = nil // publishing-side settings
	g.push(&memDelivery{group: g, msg: cp}, false)
}

func (g *memGroup) push(d *memDelivery, front bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if front && g.head > 0 {
		g.head--
		g.queue[g.head] = d
	} else if front {
		g.queue = append([]*memDelivery{d}, g.queue[g.head:]...)
		g.head = 0
	} else {
		g.queue = append(g.queue, d)
	}
	if g.waiting > 0 {
		close(g.notify)
		g.notify = make(chan struct{})
	}
}

// next pops the oldest message, waiting for one until ctx ends.
func (g *memGroup) next(ctx context.Context) (*memDelivery, bool) {
	g.mu.Lock()
	for g.head == len(g.queue) {
		g.waiting++
		ch := g.notify
		g.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			g.mu.Lock()
			g.waiting--
			g.mu.Unlock()
			return nil, false
		}
		g.mu.Lock()
		g.waiting--
	}
	d := g.queue[g.head]
	g.queue[g.head] = nil
	g.head++
	if g.head == len(g.queue) {
		g.queue, g.head = g.queue[:0], 0
	}
	g.mu.Unlock()
	return d, true
}

type memConsumer struct {
	cancel context.CancelFunc
	done   chan struct{}
}

func (c *memConsumer) run(ctx context.Context, g *memGroup, sink Sink) {
	defer close(c.done)
	for {
		d, ok := g.next(ctx)
		if !ok {
			return
		}
		d.attempt++
		out := d.msg
		out.Attempt = d.attempt
		d.out = &out
		if err := sink(ctx, d); err != nil {
			d.attempt--
			g.push(d, true) // not taken: first in line again
			return
		}
	}
}

// Stop stops taking messages; the one waiting for a free handler goes back to the front.
func (c *memConsumer) Stop(ctx context.Context) error {
	c.cancel()
	select {
	case <-c.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type memDelivery struct {
	group   *memGroup
	msg     Message
	out     *Message
	attempt int
}

func (d *memDelivery) Message() *Message          { return d.out }
func (d *memDelivery) Ack(context.Context) error  { return nil }
func (d *memDelivery) Term(context.Context) error { return nil }
func (d *memDelivery) Nak(_ context.Context, delay time.Duration) error {
	if delay <= 0 {
		d.group.push(d, true)
		return nil
	}
	time.AfterFunc(delay, func() { d.group.push(d, false) })
	return nil
}
