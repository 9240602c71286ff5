package events

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
)

// Handler handles one consumed message. Its error is the message's disposition (see
// DispositionOf). Typed handlers, built by Event.Subscription, decode and validate the
// payload first.
type Handler func(ctx context.Context, m *Message) error

// Middleware wraps the Handler of one subscription: it is handed the Subscription it wraps
// (so one chain can read the contract, consumer and group it runs for), runs code around
// next and may change the returned error (and so the disposition).
type Middleware func(sub Subscription, next Handler) Handler

// Chain is middleware in order, the first outermost. Nil entries are skipped.
type Chain []Middleware

// Subscription is one contract consumed by one group with one handler. Build it with
// Event.Subscription (typed) or as a literal around a raw Handler (bridges, archivers,
// dead-letter readers: no decoding or validation), then Bus.Register it.
type Subscription struct {
	// Event is the contract consumed.
	Event string
	// Consumer names the handler in the plan and logs (Register defaults it to the
	// handler function's name).
	Consumer string
	// Group is the consumer group; there is no default (Register refuses an empty one).
	Group Group
	// Chain wraps this subscription's handler, inside the bus's chain (WithMiddleware,
	// Bus.Use).
	Chain Chain
	// Handle handles each message.
	Handle Handler
}

// Subscription builds the typed subscription of this event for group on bus: each message
// is decoded with the bus's codec and validated before fn runs, and a payload that fails
// is dead-lettered without reaching fn. Set Consumer or Chain on it, then Register it.
func (e Event[T]) Subscription(bus *Bus, group Group, fn func(ctx context.Context, payload *T) error) Subscription {
	codec := bus.codec
	want := codec.Name()
	return Subscription{Event: e.contract, Consumer: funcName(fn), Group: group,
		Handle: func(ctx context.Context, m *Message) error {
			if got := codecOf(m); got != want {
				return e.fail(codecMismatch(got, want))
			}
			payload, err := e.decodeWith(codec, m.Payload)
			if err != nil {
				return err
			}
			return fn(ctx, payload)
		}}
}

// Subscribe registers fn as group's handler of this event on bus (see Subscription).
func (e Event[T]) Subscribe(bus *Bus, group Group, fn func(ctx context.Context, payload *T) error) error {
	return bus.Register(e.Subscription(bus, group, fn))
}

// Publish validates and encodes payload and publishes it on bus. A payload that fails
// validation is not published (*PayloadError).
func (e Event[T]) Publish(ctx context.Context, bus *Bus, payload *T, opts ...PublishOption) error {
	data, err := e.encodeWith(bus.codec, payload)
	if err != nil {
		return err
	}
	return bus.publishOne(ctx, e.contract, data, opts)
}

// Envelope is payload as one message of a Bus.PublishAll: validated (every element of an
// array payload) and encoded as Publish does, at publish time.
func (e Event[T]) Envelope(payload *T, opts ...PublishOption) Envelope {
	env := Envelope{Event: e.contract, Payload: payload, encode: e.encode}
	for _, o := range opts {
		o(&env)
	}
	return env
}

// codecOf is the name of the codec that encoded m; no stamp means JSON.
func codecOf(m *Message) string {
	if c := m.Metadata.Get(MetaCodec); c != "" {
		return c
	}
	return jsonCodec
}

// RegisterError is a subscription the bus refused; errors.Is reaches the reason
// (ErrNoGroup, ErrStarted, ErrClosed).
type RegisterError struct {
	Event    string
	Consumer string
	Group    Group
	Err      error
}

func (e *RegisterError) Error() string {
	consumer := ""
	if e.Consumer != "" {
		consumer = " (" + e.Consumer + ")"
	}
	return fmt.Sprintf("events: register %q%s in group %q: %v", e.Event, consumer, e.Group, e.Err)
}

func (e *RegisterError) Unwrap() error { return e.Err }

// funcName is the short name of a function value ("billing.(*Ledger).OnPlaced-fm" reads
// as "billing.(*Ledger).OnPlaced").
func funcName(fn any) string {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return ""
	}
	f := runtime.FuncForPC(v.Pointer())
	if f == nil {
		return ""
	}
	name := f.Name()
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSuffix(name, "-fm")
}
