package events

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
)

// Handler handles one consumed message. Its error is the message's disposition (see
// DispositionOf). Typed handlers, built by Event.Subscribe, decode and validate the
// payload first.
type Handler func(ctx context.Context, m *Message) error

// Middleware wraps a Handler, the shape of net/http middleware: it runs code around next
// and may change the returned error (and so the disposition).
type Middleware func(next Handler) Handler

// Subscription is one contract consumed by one group with one handler. Build it with
// Event.Subscription (typed) or NewSubscription (raw messages), then Bus.Register it.
type Subscription struct {
	Contract string
	Group    Group
	// Name labels the consumer in the plan and logs (default: the handler function's name).
	Name string
	// Middleware wraps this subscription's handler, inside the bus's chain (Bus.Use).
	Middleware []Middleware

	// bind builds the handler for a bus's codec.
	bind func(codec Codec) Handler
}

// SubscribeOption sets an option of one subscription.
type SubscribeOption func(*Subscription)

// Named sets the consumer's name shown in the plan and logs.
func Named(name string) SubscribeOption { return func(s *Subscription) { s.Name = name } }

// WithMiddleware adds middleware to this subscription only (after the bus's chain).
func WithMiddleware(mws ...Middleware) SubscribeOption {
	return func(s *Subscription) { s.Middleware = append(s.Middleware, mws...) }
}

// NewSubscription consumes the raw messages of contract in group with h: no decoding or
// validation (for bridges, archivers and dead-letter readers).
func NewSubscription(contract string, group Group, h Handler, opts ...SubscribeOption) Subscription {
	sub := Subscription{Contract: contract, Group: group, Name: funcName(h)}
	sub.bind = func(Codec) Handler { return h }
	return sub.with(opts)
}

func (s Subscription) with(opts []SubscribeOption) Subscription {
	for _, o := range opts {
		o(&s)
	}
	return s
}

// Subscription builds the typed subscription of this event for group: each message is
// decoded with the bus's codec and validated before fn runs, and a payload that fails is
// dead-lettered without reaching fn.
func (e Event[T]) Subscription(group Group, fn func(ctx context.Context, payload *T) error, opts ...SubscribeOption) Subscription {
	sub := Subscription{Contract: e.contract, Group: group, Name: funcName(fn)}
	sub.bind = func(codec Codec) Handler {
		want := codec.ContentType()
		return func(ctx context.Context, m *Message) error {
			if got := contentType(m); got != want {
				return e.fail(codecMismatch(got, want))
			}
			payload, err := e.decodeWith(codec, m.Payload)
			if err != nil {
				return err
			}
			return fn(ctx, payload)
		}
	}
	return sub.with(opts)
}

// Subscribe registers fn as group's handler of this event on bus (see Subscription).
func (e Event[T]) Subscribe(bus *Bus, group Group, fn func(ctx context.Context, payload *T) error, opts ...SubscribeOption) error {
	return bus.Register(e.Subscription(group, fn, opts...))
}

// Publish encodes and validates payload and publishes it on bus. A payload that fails
// validation is not published (*PayloadError).
func (e Event[T]) Publish(ctx context.Context, bus *Bus, payload *T, opts ...PublishOption) error {
	data, err := e.encodeWith(bus.codec, payload)
	if err != nil {
		return err
	}
	return bus.Publish(ctx, e.message(&Message{}, data, opts))
}

// Add encodes payload into batch b; an encoding or validation failure is reported by
// b.Publish at this message's index.
func (e Event[T]) Add(b *Batch, payload *T, opts ...PublishOption) {
	data, err := e.encodeWith(b.bus.codec, payload)
	if err != nil {
		b.add(nil, err)
		return
	}
	b.add(e.message(b.next(), data, opts), nil)
}

// message fills m with the encoded payload and the publish options.
func (e Event[T]) message(m *Message, data []byte, opts []PublishOption) *Message {
	*m = Message{Contract: e.contract, Payload: data}
	for _, o := range opts {
		o(m)
	}
	return m
}

// contentType is the message's content type; no header means JSON.
func contentType(m *Message) string {
	if ct := m.Header.Get(HeaderContentType); ct != "" {
		return ct
	}
	return jsonContentType
}

// RegisterError is a subscription the bus refused.
type RegisterError struct {
	Contract string
	Group    Group
	Err      error
}

func (e *RegisterError) Error() string {
	return fmt.Sprintf("events: register %q in group %q: %v", e.Contract, e.Group, e.Err)
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
