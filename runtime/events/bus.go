package events

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/telemetry"
)

// Bus publishes events and runs the groups that consume them, over one Transport.
//
// Build it with New, add middleware with Use, add subscriptions with Register (or
// Event.Subscribe), print Plan, then Start. Publishing works from New on. Close stops the
// groups gracefully and closes the transport.
//
// Every method is safe for concurrent use.
type Bus struct {
	transport  Transport
	codec      Codec
	logger     *slog.Logger
	deadLetter DeadLetterFunc

	mu       sync.Mutex
	chain    []Middleware
	subs     []Subscription
	settings map[Group]GroupSettings
	runners  []*runner
	started  bool
	closed   bool
}

// DeadLetterFunc receives a message that will not be delivered again: its payload failed
// to decode or validate, its handler returned DeadLetter, or it reached the delivery cap.
// It runs before the message is settled; publish the message to a dead-letter contract,
// store it or log it. The default logs it at error level on the bus's logger.
type DeadLetterFunc func(ctx context.Context, group Group, m *Message, reason error)

// Option configures a Bus.
type Option func(*Bus)

// WithCodec replaces the JSON codec.
func WithCodec(c Codec) Option { return func(b *Bus) { b.codec = c } }

// WithLogger sets the logger of the bus's own messages (default: discard).
func WithLogger(l *slog.Logger) Option { return func(b *Bus) { b.logger = l } }

// WithDeadLetter sets what happens to dead-lettered messages.
func WithDeadLetter(fn DeadLetterFunc) Option { return func(b *Bus) { b.deadLetter = fn } }

// WithGroup sets the settings of group (see Bus.Configure).
func WithGroup(group Group, s GroupSettings) Option {
	return func(b *Bus) { b.settings[group] = s }
}

// WithoutRecovery drops the Recovery middleware the bus installs first by default.
func WithoutRecovery() Option {
	return func(b *Bus) { b.chain = slices.DeleteFunc(b.chain, isRecovery) }
}

// New builds a bus over transport. The bus owns the transport: Close closes it.
func New(transport Transport, opts ...Option) *Bus {
	b := &Bus{
		transport: transport,
		codec:     JSONCodec{},
		logger:    slog.New(slog.DiscardHandler),
		settings:  map[Group]GroupSettings{},
		chain:     []Middleware{recovery},
	}
	for _, o := range opts {
		o(b)
	}
	if b.deadLetter == nil {
		b.deadLetter = b.logDeadLetter
	}
	return b
}

// Use appends middleware to the chain every subscription's handler runs in, in the order
// given (the first is outermost). It panics once the bus has started.
func (b *Bus) Use(mws ...Middleware) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.started {
		panic("events: Use after Start")
	}
	b.chain = append(b.chain, mws...)
}

// Configure sets the settings of group in this process (before Start).
func (b *Bus) Configure(group Group, s GroupSettings) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.started {
		return ErrStarted
	}
	b.settings[group] = s
	return nil
}

// Register adds a subscription (before Start). A group consumes a contract once per bus.
func (b *Bus) Register(sub Subscription) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	fail := func(err error) error { return &RegisterError{Contract: sub.Contract, Group: sub.Group, Err: err} }
	switch {
	case b.closed:
		return fail(ErrClosed)
	case b.started:
		return fail(ErrStarted)
	case sub.Group == "":
		return fail(ErrNoGroup)
	case sub.Contract == "":
		return fail(errors.New("no contract"))
	case sub.bind == nil:
		return fail(errors.New("no handler (build it with Event.Subscription or NewSubscription)"))
	}
	for _, s := range b.subs {
		if s.Contract == sub.Contract && s.Group == sub.Group {
			return fail(errors.New("the group already consumes this contract (consumer " + s.Name + ")"))
		}
	}
	b.subs = append(b.subs, sub)
	return nil
}

// Start subscribes every group to its contracts and starts handling messages. It returns
// once every group's consumer exists on the broker (or the first error, after stopping the
// groups it started).
func (b *Bus) Start(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.closed:
		return ErrClosed
	case b.started:
		return ErrStarted
	}
	b.started = true
	for _, g := range b.plan().Groups {
		r := b.newRunner(g)
		if err := r.start(ctx); err != nil {
			b.stopRunners(context.Background())
			return err
		}
		b.runners = append(b.runners, r)
	}
	return nil
}

// Close stops every group within ctx (see Consumer.Stop: what was fetched and not started
// is handed back, handlers in flight finish until ctx ends and are then cancelled and
// handed back), then closes the transport. Publish returns ErrClosed afterwards. A second
// Close returns ErrClosed.
func (b *Bus) Close(ctx context.Context) error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return ErrClosed
	}
	b.closed = true
	b.mu.Unlock()
	err := b.stopRunners(ctx)
	return errors.Join(err, b.transport.Close())
}

func (b *Bus) stopRunners(ctx context.Context) error {
	var errs []error
	for _, r := range b.runners {
		errs = append(errs, r.stop(ctx))
	}
	b.runners = nil
	return errors.Join(errs...)
}

// Publish publishes one message. The bus carries the W3C trace context of ctx in its header
// and, for a codec other than JSON, the codec's content type (no header means JSON: headers
// cost brokers noticeably, so a message carries none it does not need).
func (b *Bus) Publish(ctx context.Context, m *Message) error {
	err := b.PublishBatch(ctx, []*Message{m})
	var be *BatchError
	if errors.As(err, &be) && len(be.Failed) == 1 {
		return be.Failed[0].Err
	}
	return err
}

// PublishBatch publishes several messages in one round trip where the transport can. When
// some fail the error is a *BatchError naming them by index; the others are published.
func (b *Bus) PublishBatch(ctx context.Context, msgs []*Message) error {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return BatchErrorOf(slices.Repeat([]error{ErrClosed}, len(msgs)))
	}
	// What to stamp is the same for the whole batch: decided once.
	ct := b.codec.ContentType()
	traced := trace.SpanContextFromContext(ctx).IsValid()
	if ct != jsonContentType || traced {
		for _, m := range msgs {
			stamp(ctx, m, ct, traced)
		}
	}
	return b.transport.Publish(ctx, msgs)
}

func stamp(ctx context.Context, m *Message, ct string, traced bool) {
	if m.Header == nil {
		m.Header = Header{}
	}
	if ct != jsonContentType {
		m.Header[HeaderContentType] = ct
	}
	if traced {
		telemetry.InjectHeaders(ctx, m.Header)
	}
}

// Batch collects typed messages for one PublishBatch (see Event.Add).
func (b *Bus) Batch() *Batch { return &Batch{bus: b} }

// Batch is a set of messages published together; build it with Bus.Batch and Event.Add.
type Batch struct {
	bus  *Bus
	msgs []*Message
	errs []error
	// slab holds the messages Event.Add builds, allocated a chunk at a time (a chunk
	// twice the last): a few allocations per batch instead of one per message.
	slab []Message
}

// next returns a zeroed message from the slab.
func (b *Batch) next() *Message {
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]Message, 0, max(8, 2*cap(b.slab)))
	}
	b.slab = b.slab[:len(b.slab)+1]
	return &b.slab[len(b.slab)-1]
}

func (b *Batch) add(m *Message, err error) {
	b.msgs = append(b.msgs, m)
	b.errs = append(b.errs, err)
}

// Len is the number of messages added.
func (b *Batch) Len() int { return len(b.msgs) }

// Publish publishes every message that encoded; the *BatchError names, by the order they
// were added, the messages that failed to encode or to publish.
func (b *Batch) Publish(ctx context.Context) error {
	if !slices.ContainsFunc(b.errs, isError) {
		// Every message encoded (the common case): no index to map back.
		err := b.bus.PublishBatch(ctx, b.msgs)
		var be *BatchError
		if err != nil && !errors.As(err, &be) {
			return BatchErrorOf(slices.Repeat([]error{err}, len(b.msgs)))
		}
		return err
	}
	ok := make([]*Message, 0, len(b.msgs))
	idx := make([]int, 0, len(b.msgs))
	errs := slices.Clone(b.errs)
	for i, m := range b.msgs {
		if errs[i] == nil {
			ok = append(ok, m)
			idx = append(idx, i)
		}
	}
	if len(ok) > 0 {
		var be *BatchError
		if err := b.bus.PublishBatch(ctx, ok); errors.As(err, &be) {
			for _, f := range be.Failed {
				errs[idx[f.Index]] = f.Err
			}
		} else if err != nil {
			for _, i := range idx {
				errs[i] = err
			}
		}
	}
	return BatchErrorOf(errs)
}

func isError(err error) bool { return err != nil }

func (b *Bus) logDeadLetter(ctx context.Context, group Group, m *Message, reason error) {
	b.logger.ErrorContext(ctx, "events: dead-lettered", "contract", m.Contract, "group", string(group),
		"id", m.ID, "attempt", m.Attempt, "error", reason.Error())
}

// settleTimeout bounds one Ack, Nak or Term.
const settleTimeout = 10 * time.Second
