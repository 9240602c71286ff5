package nats

import (
	"context"
	"sync"
	"time"

	natsgo "github.com/nats-io/nats.go"

	"github.com/kitdev/kit/runtime/events"
)

// subscribeCore joins the queue group of each contract. Each subscription's callback hands
// its message to the sink and blocks while the group's handlers are busy; meanwhile the
// client buffers up to its pending limits (and drops past them, as core NATS does). It
// returns once the server has the subscriptions: core NATS keeps nothing, so a message
// published (from any connection) before the server read them would be lost.
func (t *Transport) subscribeCore(ctx context.Context, spec events.ConsumerSpec, sink events.Sink) (events.Consumer, error) {
	c, err := t.joinCore(spec, sink)
	if err != nil {
		return nil, err
	}
	if err := flush(ctx, t.nc); err != nil {
		c.unsubscribe()
		c.cancel()
		return nil, err
	}
	return c, nil
}

func (t *Transport) joinCore(spec events.ConsumerSpec, sink events.Sink) (*coreConsumer, error) {
	ctx, cancel := context.WithCancel(context.Background())
	c := &coreConsumer{ctx: ctx, cancel: cancel, sink: sink}
	for _, contract := range spec.Contracts {
		sub, err := t.nc.QueueSubscribe(contract, string(spec.Group), func(msg *natsgo.Msg) {
			m := fromNATS(msg.Subject, msg.Header, msg.Data, 1)
			m.Raw = msg
			c.deliver(&coreDelivery{c: c, m: m})
		})
		if err != nil {
			c.unsubscribe()
			cancel()
			return nil, err
		}
		c.subs = append(c.subs, sub)
	}
	return c, nil
}

type coreConsumer struct {
	ctx    context.Context
	cancel context.CancelFunc
	sink   events.Sink
	subs   []*natsgo.Subscription

	mu      sync.Mutex // orders wg.Add against Stop's wg.Wait
	stopped bool
	wg      sync.WaitGroup
}

func (c *coreConsumer) deliver(d *coreDelivery) {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return
	}
	c.wg.Add(1)
	c.mu.Unlock()
	defer c.wg.Done()
	_ = c.sink(c.ctx, d) // not taken (stopping): core NATS keeps nothing, the message is lost
}

func (c *coreConsumer) unsubscribe() {
	for _, s := range c.subs {
		_ = s.Unsubscribe()
	}
}

// Stop leaves the queue groups; messages received and not handed to a handler are lost
// (core NATS is at most once).
func (c *coreConsumer) Stop(ctx context.Context) error {
	c.unsubscribe()
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	c.cancel()
	done := make(chan struct{})
	go func() { c.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// coreDelivery is settled locally: core NATS has no acknowledgements, so a retry is
// redelivered by this process (and lost if it stops first).
type coreDelivery struct {
	c *coreConsumer
	m *events.Message
}

func (d *coreDelivery) Message() *events.Message   { return d.m }
func (d *coreDelivery) Ack(context.Context) error  { return nil }
func (d *coreDelivery) Term(context.Context) error { return nil }
func (d *coreDelivery) Nak(_ context.Context, delay time.Duration) error {
	next := *d.m
	next.Attempt++
	again := &coreDelivery{c: d.c, m: &next}
	time.AfterFunc(delay, func() { d.c.deliver(again) })
	return nil
}
