package nats

import (
	"context"
	"fmt"
	"strconv"
	"strings"
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
		jetstream.PullMaxMessages(pullBatch(spec.Settings)))
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
	d := &jsDelivery{msg: msg}
	fillFromNATS(&d.m, msg.Subject(), msg.Headers(), msg.Data(), attempt(msg))
	d.m.Raw = msg
	if err := sink(ctx, d); err != nil {
		_ = msg.Nak()
	}
}

// attempt is the message's delivery count. It reads it from the ack subject without
// allocating (Metadata splits the subject into a slice and builds a struct for each
// message); an ack subject of a shape it does not know falls back to Metadata.
func attempt(msg jetstream.Msg) int {
	if n, ok := numDelivered(msg.Reply()); ok {
		return n
	}
	if md, err := msg.Metadata(); err == nil {
		return int(md.NumDelivered)
	}
	return 1
}

// numDelivered reads the delivery count of a JetStream ack subject (ADR-15):
// $JS.ACK.<stream>.<consumer>.<delivered>.<sseq>.<cseq>.<tm>.<pending> (9 tokens), or with
// <domain>.<account hash> before the stream and more tokens after the pending count (11 or
// more) - nats.go's parser accepts the same two shapes.
func numDelivered(reply string) (int, bool) {
	const prefix = "$JS.ACK."
	if !strings.HasPrefix(reply, prefix) {
		return 0, false
	}
	tokens := strings.Count(reply, ".") + 1
	var at int // index of the delivered token
	switch {
	case tokens == 9:
		at = 4
	case tokens >= 11:
		at = 6
	default:
		return 0, false
	}
	rest := reply
	for range at {
		rest = rest[strings.IndexByte(rest, '.')+1:]
	}
	if i := strings.IndexByte(rest, '.'); i >= 0 {
		rest = rest[:i]
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0
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

// jsDelivery carries its message: one allocation per delivery, not two.
type jsDelivery struct {
	msg jetstream.Msg
	m   events.Message
}

func (d *jsDelivery) Message() *events.Message   { return &d.m }
func (d *jsDelivery) Ack(context.Context) error  { return d.msg.Ack() }
func (d *jsDelivery) Term(context.Context) error { return d.msg.Term() }
func (d *jsDelivery) Nak(_ context.Context, delay time.Duration) error {
	if delay <= 0 {
		return d.msg.Nak()
	}
	return d.msg.NakWithDelay(delay)
}

// defaultPullBatch is nats.go's own default pull batch: the depth a Go team gets from
// jetstream's Consume, whatever the handlers' concurrency.
const defaultPullBatch = 500

// pullBatch is how many messages a member asks for at once (GroupSettings.Prefetch). Stop
// hands back what is buffered, so a large batch costs nothing during a deploy.
func pullBatch(s events.GroupSettings) int {
	if s.Prefetch > 0 {
		return s.Prefetch
	}
	return defaultPullBatch
}
