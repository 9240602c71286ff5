package events

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kitdev/kit/runtime/telemetry"
)

// Bus publishes events and runs the groups that consume them, over one Transport.
//
// Build it with New, add middleware with Use (or WithMiddleware), add subscriptions with
// Register (or Event.Subscribe), print Plan, then Start. Publishing works from New on.
// Close stops the groups gracefully and closes the transport.
//
// Every method is safe for concurrent use.
type Bus struct {
	transport  Transport
	codec      Codec
	logger     *slog.Logger
	deadLetter DeadLetterFunc
	defaults   []PublishOption

	mu       sync.Mutex
	chain    Chain
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

// WithTransport sets the transport the bus publishes and consumes through (required).
// The bus owns it: Close closes it.
func WithTransport(t Transport) Option { return func(b *Bus) { b.transport = t } }

// WithCodec replaces the JSON codec.
func WithCodec(c Codec) Option { return func(b *Bus) { b.codec = c } }

// WithMiddleware appends middleware to the chain every subscription's handler runs in (see
// Bus.Use); repeating the option appends.
func WithMiddleware(mws ...Middleware) Option {
	return func(b *Bus) { b.chain = append(b.chain, mws...) }
}

// WithPublishDefaults sets the publish options every message through this bus starts
// from: a publish's own options apply after them (the last setting a value wins), and an
// Envelope's own non-empty Key, DedupID, Metadata entries and adapter options win over them.
func WithPublishDefaults(opts ...PublishOption) Option {
	return func(b *Bus) { b.defaults = append(b.defaults, opts...) }
}

// WithLogger sets the logger of the bus's own messages (default: discard).
func WithLogger(l *slog.Logger) Option { return func(b *Bus) { b.logger = l } }

// WithDeadLetter sets what happens to dead-lettered messages.
func WithDeadLetter(fn DeadLetterFunc) Option { return func(b *Bus) { b.deadLetter = fn } }

// WithGroup sets the settings of group (see Bus.Configure).
func WithGroup(group Group, s GroupSettings) Option {
	return func(b *Bus) { b.settings[group] = s }
}

// WithoutRecovery drops the Recovery middleware the bus installs outermost by default.
func WithoutRecovery() Option {
	return func(b *Bus) { b.chain = slices.DeleteFunc(b.chain, isRecovery) }
}

// New builds a bus: events.New(events.WithTransport(t), events.WithCodec(c),
// events.WithMiddleware(m...)). Without WithCodec it encodes JSON; without WithTransport
// Start and Publish return ErrNoTransport.
func New(opts ...Option) *Bus {
	b := &Bus{
		codec:    JSONCodec{},
		logger:   slog.New(slog.DiscardHandler),
		settings: map[Group]GroupSettings{},
		chain:    Chain{recovery},
	}
	for _, o := range opts {
		o(b)
	}
	if b.deadLetter == nil {
		b.deadLetter = b.logDeadLetter
	}
	return b
}

func (b *Bus) transportName() string {
	if b.transport == nil {
		return ""
	}
	return b.transport.Name()
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
// A refusal is a *RegisterError; errors.Is reaches its reason (ErrNoGroup, ErrStarted).
func (b *Bus) Register(sub Subscription) error {
	if sub.Consumer == "" {
		sub.Consumer = funcName(sub.Handle)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	fail := func(err error) error {
		return &RegisterError{Event: sub.Event, Consumer: sub.Consumer, Group: sub.Group, Err: err}
	}
	switch {
	case b.closed:
		return fail(ErrClosed)
	case b.started:
		return fail(ErrStarted)
	case sub.Group == "":
		return fail(ErrNoGroup)
	case sub.Event == "":
		return fail(errors.New("no event (contract)"))
	case sub.Handle == nil:
		return fail(errors.New("no handler"))
	}
	for _, s := range b.subs {
		if s.Event == sub.Event && s.Group == sub.Group {
			return fail(errors.New("the group already consumes this contract (consumer " + s.Consumer + ")"))
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
	case b.transport == nil:
		return ErrNoTransport
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
	if b.transport == nil {
		return err
	}
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

// Publish encodes payload with the bus's codec and publishes it as one message of
// contract. A payload with a `Validate() error` method is validated first and not
// published when that fails (*PayloadError); a Raw payload is published as it is. The bus
// carries the W3C trace context of ctx in the message's metadata and, for a codec other
// than JSON, the codec's name under MetaCodec.
func (b *Bus) Publish(ctx context.Context, contract string, payload any, opts ...PublishOption) error {
	data, err := encodeAny(b.codec, contract, payload)
	if err != nil {
		return err
	}
	return b.publishOne(ctx, contract, data, opts)
}

// outgoing is one publish's envelope and message, allocated together (the options see the
// envelope through a pointer, so it lives on the heap like the message).
type outgoing struct {
	env Envelope
	m   Message
}

// publishOne applies the bus's defaults and opts to an envelope of contract and publishes
// data as its message.
func (b *Bus) publishOne(ctx context.Context, contract string, data []byte, opts []PublishOption) error {
	out := &outgoing{env: Envelope{Event: contract}}
	for _, o := range b.defaults {
		o(&out.env)
	}
	for _, o := range opts {
		o(&out.env)
	}
	out.m = message(&out.env, data)
	if err := b.checkOptions(&out.m); err != nil {
		return err
	}
	err := b.send(ctx, []*Message{&out.m})
	var pe *PartialPublishError
	if errors.As(err, &pe) && len(pe.Errs) == 1 {
		return pe.Errs[0]
	}
	return err
}

// PublishAll publishes several messages in one round trip where the transport can. The
// messages that were not sent (their payload failed to validate or encode, an adapter
// option is unknown, or the transport failed them) are named by index in a
// *PartialPublishError; the others are published.
func (b *Bus) PublishAll(ctx context.Context, envs []Envelope) error {
	if err := b.usable(); err != nil {
		return PartialPublishErrorOf(slices.Repeat([]error{err}, len(envs)))
	}
	errs := make([]error, len(envs))
	// The batch's messages in one allocation, not one per envelope.
	slab := make([]Message, len(envs))
	msgs := make([]*Message, 0, len(envs))
	idx := make([]int, 0, len(envs))
	for i := range envs {
		env := b.withDefaults(&envs[i])
		data, err := b.encode(&env)
		if err == nil {
			slab[i] = message(&env, data)
			err = b.checkOptions(&slab[i])
		}
		if err != nil {
			errs[i] = err
			continue
		}
		msgs = append(msgs, &slab[i])
		idx = append(idx, i)
	}
	if len(msgs) > 0 {
		var pe *PartialPublishError
		if err := b.send(ctx, msgs); errors.As(err, &pe) {
			for j, u := range pe.Unsent {
				errs[idx[u]] = pe.Errs[j]
			}
		} else if err != nil {
			for _, i := range idx {
				errs[i] = err
			}
		}
	}
	return PartialPublishErrorOf(errs)
}

// withDefaults is env over the bus's publish defaults, its metadata copied without the
// reserved keys (the bus stamps the copy, never the caller's map).
func (b *Bus) withDefaults(env *Envelope) Envelope {
	out := *env
	out.Metadata = nil
	if len(b.defaults) > 0 {
		var base Envelope
		for _, o := range b.defaults {
			o(&base)
		}
		out.Key = cmp.Or(env.Key, base.Key)
		out.DedupID = cmp.Or(env.DedupID, base.DedupID)
		out.Metadata = base.Metadata
		if len(base.AdapterOptions) > 0 {
			out.AdapterOptions = base.AdapterOptions
			for adapter, kv := range env.AdapterOptions {
				for k, v := range kv {
					WithAdapterOption(adapter, k, v)(&out)
				}
			}
		}
	}
	for k, v := range env.Metadata {
		if reserved(k) {
			continue
		}
		if out.Metadata == nil {
			out.Metadata = make(Metadata, len(env.Metadata))
		}
		out.Metadata[k] = v
	}
	return out
}

// encode is env's payload encoded: through its descriptor (Event.Envelope) or as any value.
func (b *Bus) encode(env *Envelope) ([]byte, error) {
	if env.encode != nil {
		return env.encode(b.codec, env.Payload)
	}
	return encodeAny(b.codec, env.Event, env.Payload)
}

// validator is a payload type with generated validation.
type validator interface{ Validate() error }

// encodeAny validates payload when it can (a Validate method), fills its required empty
// lists and maps (FillEmpty) and encodes it; a Raw payload is taken as it is.
func encodeAny(c Codec, event string, payload any) ([]byte, error) {
	fail := func(err error) error { return &PayloadError{Event: event, Err: err} }
	if raw, ok := payload.(Raw); ok {
		return raw, nil
	}
	if payload == nil {
		return nil, fail(errNilPayload)
	}
	if v := reflect.ValueOf(payload); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fail(errNilPayload)
	}
	if v, ok := payload.(validator); ok {
		if err := v.Validate(); err != nil {
			return nil, fail(err)
		}
	}
	if f, ok := payload.(filler); ok {
		f.FillEmpty()
	}
	data, err := c.Encode(payload)
	if err != nil {
		return nil, fail(err)
	}
	return data, nil
}

// message is the wire message of env with its encoded payload.
func message(env *Envelope, data []byte) Message {
	return Message{Event: env.Event, Key: env.Key, DedupID: env.DedupID, Metadata: env.Metadata,
		Payload: data, AdapterOptions: env.AdapterOptions}
}

// ErrUnknownAdapterOption is a publish option, set with WithAdapterOption under the bus's
// transport's name, that the transport does not read.
var ErrUnknownAdapterOption = errors.New("events: unknown adapter option")

// checkOptions refuses an adapter option under the transport's name that it does not read.
func (b *Bus) checkOptions(m *Message) error {
	if len(m.AdapterOptions) == 0 || b.transport == nil {
		return nil
	}
	name := b.transport.Name()
	own, ok := m.AdapterOptions[name]
	if !ok {
		return nil
	}
	r, ok := b.transport.(AdapterOptionReader)
	if !ok {
		return nil
	}
	known := r.AdapterOptions()
	for k := range own {
		if !slices.Contains(known, k) {
			return fmt.Errorf("%w: %s reads %q, not %q", ErrUnknownAdapterOption, name, known, k)
		}
	}
	return nil
}

// usable is nil when the bus can publish.
func (b *Bus) usable() error {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	switch {
	case closed:
		return ErrClosed
	case b.transport == nil:
		return ErrNoTransport
	}
	return nil
}

// send stamps msgs and hands them to the transport.
func (b *Bus) send(ctx context.Context, msgs []*Message) error {
	if err := b.usable(); err != nil {
		return PartialPublishErrorOf(slices.Repeat([]error{err}, len(msgs)))
	}
	// What to stamp is the same for the whole batch: decided once.
	codec := b.codec.Name()
	traced := trace.SpanContextFromContext(ctx).IsValid()
	if codec != jsonCodec || traced {
		for _, m := range msgs {
			stamp(ctx, m, codec, traced)
		}
	}
	return b.transport.Publish(ctx, msgs)
}

// stamp writes the codec's name and the trace context into m's metadata (m owns it).
func stamp(ctx context.Context, m *Message, codec string, traced bool) {
	if m.Metadata == nil {
		m.Metadata = Metadata{}
	}
	if codec != jsonCodec {
		m.Metadata[MetaCodec] = codec
	}
	if traced {
		telemetry.InjectHeaders(ctx, m.Metadata)
	}
}

func (b *Bus) logDeadLetter(ctx context.Context, group Group, m *Message, reason error) {
	b.logger.ErrorContext(ctx, "events: dead-lettered", "event", m.Event, "group", string(group),
		"dedup_id", m.DedupID, "attempt", m.Attempt, "error", reason.Error())
}

// settleTimeout bounds one Ack, Nak or Term.
const settleTimeout = 10 * time.Second
