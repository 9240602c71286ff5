package nats

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/kitdev/kit/runtime/events"
)

// subscribeJetStream creates (or updates) the group's durable consumer and consumes it.
func (t *Transport) subscribeJetStream(ctx context.Context, spec events.ConsumerSpec, sink events.Sink) (events.Consumer, error) {
	stream, err := t.streamFor(ctx, spec.Contracts)
	if err != nil {
		return nil, err
	}
	cfg := consumerConfig(spec)
	if t.opts.consumer != nil {
		t.opts.consumer(spec.Group, &cfg)
	}
	cons, err := stream.CreateOrUpdateConsumer(ctx, cfg)
	if err != nil {
		// An existing consumer whose deliver policy differs cannot be updated: use it as it is.
		existing, lookupErr := stream.Consumer(ctx, cfg.Durable)
		if lookupErr != nil {
			return nil, fmt.Errorf("events/nats: consumer %q: %w", cfg.Durable, err)
		}
		cons = existing
	}
	runCtx, cancel := context.WithCancel(context.Background())
	c := &jsConsumer{t: t, cancel: cancel}
	cc, err := cons.Consume(func(msg jetstream.Msg) { c.deliver(runCtx, msg, sink) },
		jetstream.PullMaxMessages(pullBatch(spec.Settings.MaxInFlight)))
	if err != nil {
		cancel()
		return nil, err
	}
	c.cc = cc
	return c, nil
}

func consumerConfig(spec events.ConsumerSpec) jetstream.ConsumerConfig {
	policy := jetstream.DeliverNewPolicy
	if spec.Settings.StartAt == events.StartAll {
		policy = jetstream.DeliverAllPolicy
	}
	return jetstream.ConsumerConfig{
		Durable:        durableName(spec.Group),
		FilterSubjects: spec.Contracts,
		AckPolicy:      jetstream.AckExplicitPolicy,
		AckWait:        spec.Settings.AckWait,
		MaxDeliver:     spec.Settings.MaxAttempts,
		DeliverPolicy:  policy,
	}
}

// streamFor finds the stream holding contracts (the configured one, else by subject).
func (t *Transport) streamFor(ctx context.Context, contracts []string) (jetstream.Stream, error) {
	name := ""
	if t.opts.stream != nil {
		name = t.opts.stream.Name
	} else {
		found, err := t.js.StreamNameBySubject(ctx, contracts[0])
		if err != nil {
			return nil, fmt.Errorf("events/nats: no stream holds %q: %w", contracts[0], err)
		}
		name = found
	}
	return t.js.Stream(ctx, name)
}

type jsConsumer struct {
	t        *Transport
	cc       jetstream.ConsumeContext
	cancel   context.CancelFunc
	stopping atomic.Bool
}

// deliver runs on the consume goroutine, one message at a time: it blocks in sink while
// the group's handlers are busy, so at most one pull batch waits in the client.
func (c *jsConsumer) deliver(ctx context.Context, msg jetstream.Msg, sink events.Sink) {
	if c.stopping.Load() {
		_ = msg.Nak()
		return
	}
	attempt := 1
	if md, err := msg.Metadata(); err == nil {
		attempt = int(md.NumDelivered)
	}
	d := &jsDelivery{msg: msg, m: fromNATS(msg.Subject(), msg.Headers(), msg.Data(), attempt)}
	d.m.Raw = msg
	if err := sink(ctx, d); err != nil {
		_ = msg.Nak()
	}
}

// Stop stops pulling and hands back (Nak, no delay) every buffered message.
func (c *jsConsumer) Stop(ctx context.Context) error {
	c.stopping.Store(true)
	c.cancel()
	c.cc.Drain()
	select {
	case <-c.cc.Closed():
	case <-ctx.Done():
		c.cc.Stop()
		return ctx.Err()
	}
	return flush(ctx, c.t.nc)
}

type jsDelivery struct {
	msg jetstream.Msg
	m   *events.Message
}

func (d *jsDelivery) Message() *events.Message   { return d.m }
func (d *jsDelivery) Ack(context.Context) error  { return d.msg.Ack() }
func (d *jsDelivery) Term(context.Context) error { return d.msg.Term() }
func (d *jsDelivery) Nak(_ context.Context, delay time.Duration) error {
	if delay <= 0 {
		return d.msg.Nak()
	}
	return d.msg.NakWithDelay(delay)
}

// pullBatch is how many messages a member asks for at once: enough to keep its handlers
// busy between pulls. Stop hands back what is buffered, so a large batch costs nothing
// during a deploy.
func pullBatch(maxInFlight int) int { return max(maxInFlight*16, 64) }
