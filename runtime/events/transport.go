package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Transport moves messages between publishers and consumer groups. The in-process
// transport lives in this package; NATS and Kafka are separate modules
// (github.com/kitdev/kit/runtime/events/nats, .../events/kafka) so a service pulls only
// the client it uses. Every transport passes the conformance suite in eventstest.
//
// Thread-safety: every method may be called from any goroutine, concurrently.
//
// Publishing: Publish returns once the broker has accepted every message (stored it, for a
// durable transport) or failed; a partial failure is a *PartialPublishError naming the
// unsent indices, and the other messages are published.
//
// Consuming: Subscribe creates (or joins) the group's consumer, which carries every contract
// in spec.Contracts, and hands each message to sink. One group is subscribed once per
// transport; several transports (processes) subscribing one group share its messages.
// Every Delivery is settled exactly once by the bus (Ack, Nak or Term). A delivery the
// process never settles (it crashed) is redelivered by durable transports after
// spec.Settings.AckWait.
//
// Closing: Consumer.Stop stops fetching, hands back (Nak) what it fetched but did not pass
// to sink, and returns once sink is no longer called. Close ends the connection; Publish
// and Subscribe return ErrClosed afterwards. Close does not stop consumers: the bus stops
// them first.
type Transport interface {
	// Name is a short label for the plan and logs ("inprocess", "nats", "kafka").
	Name() string
	Publish(ctx context.Context, msgs []*Message) error
	Subscribe(ctx context.Context, spec ConsumerSpec, sink Sink) (Consumer, error)
	Close() error
}

// ConsumerSpec is what a transport needs to consume for one group.
type ConsumerSpec struct {
	Group     Group
	Contracts []string // sorted, distinct
	Settings  GroupSettings
}

// Sink takes a delivery for handling. It blocks while the group's handlers are all busy
// (back-pressure) and returns an error, without taking the delivery, once ctx ends or the
// bus is stopping: the transport then hands the delivery back (Nak with no delay).
type Sink func(ctx context.Context, d Delivery) error

// Consumer is one group's running consumer in one process.
type Consumer interface {
	// Stop stops fetching and returns once the transport no longer calls its sink. It
	// hands back what was fetched and not passed on. Deliveries already passed to the sink
	// are settled by the bus.
	Stop(ctx context.Context) error
}

// Delivery is one message handed to a member of a group, with the means to settle it.
// Each method is called once per delivery, by one goroutine.
type Delivery interface {
	Message() *Message
	// Ack settles the message as handled: it is not delivered to this group again.
	Ack(ctx context.Context) error
	// Nak hands the message back for another delivery (to this or another instance of the
	// group) no sooner than delay.
	Nak(ctx context.Context, delay time.Duration) error
	// Term settles the message as never to be delivered again (after a dead-letter or drop).
	Term(ctx context.Context) error
}

// ErrClosed is returned by Publish, Subscribe and Register after Close.
var ErrClosed = errors.New("events: closed")

// ErrStarted is returned by Register, Configure and Start once the bus has started.
var ErrStarted = errors.New("events: bus already started")

// ErrStopping is returned by a Sink while the bus stops: hand the delivery back.
var ErrStopping = errors.New("events: stopping")

// ErrNoTransport is returned by Start, Publish and PublishAll of a bus built without
// WithTransport.
var ErrNoTransport = errors.New("events: no transport (build the bus WithTransport)")

// AdapterOptionReader is a transport that reads publish options set with
// WithAdapterOption under its Name. The bus refuses a message carrying an option under
// that name that the transport does not list (a typo would otherwise be ignored); options
// under other names are left alone. A transport that does not implement it is not checked.
type AdapterOptionReader interface {
	AdapterOptions() []string
}

// PartialPublishError is a publish of several messages of which some were not sent.
// Unsent holds their indices (in the published slice), ascending, and Errs[i] says why
// Unsent[i] was not sent; the other messages were published, so retrying exactly the
// unsent ones sends nothing twice.
type PartialPublishError struct {
	Unsent []int
	Errs   []error
}

func (e *PartialPublishError) Error() string {
	parts := make([]string, 0, len(e.Unsent))
	for i, idx := range e.Unsent {
		parts = append(parts, fmt.Sprintf("[%d]: %v", idx, e.Errs[i]))
	}
	return fmt.Sprintf("events: %d message(s) not published: %s", len(e.Unsent), strings.Join(parts, "; "))
}

// Unwrap returns every failure, so errors.Is(err, ErrClosed) sees through a batch.
func (e *PartialPublishError) Unwrap() []error { return e.Errs }

// PartialPublishErrorOf collects the non-nil errors of a per-message result slice into a
// *PartialPublishError (nil when every message was published). Transports use it.
func PartialPublishErrorOf(errs []error) error {
	var pe PartialPublishError
	for i, err := range errs {
		if err != nil {
			pe.Unsent = append(pe.Unsent, i)
			pe.Errs = append(pe.Errs, err)
		}
	}
	if len(pe.Unsent) == 0 {
		return nil
	}
	return &pe
}
