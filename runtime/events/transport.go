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
// durable transport) or failed; a partial failure is a *BatchError naming the failed
// indices, and the other messages are published.
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

// BatchError is a publish of several messages of which some failed. Failed holds the index
// (in the published slice) and error of each failed message, in index order.
type BatchError struct {
	Failed []FailedMessage
}

// FailedMessage is one message of a batch that was not published.
type FailedMessage struct {
	Index int
	Err   error
}

func (e *BatchError) Error() string {
	parts := make([]string, 0, len(e.Failed))
	for _, f := range e.Failed {
		parts = append(parts, fmt.Sprintf("[%d]: %v", f.Index, f.Err))
	}
	return fmt.Sprintf("events: %d message(s) not published: %s", len(e.Failed), strings.Join(parts, "; "))
}

// Unwrap returns every failure, so errors.Is(err, ErrClosed) sees through a batch.
func (e *BatchError) Unwrap() []error {
	errs := make([]error, len(e.Failed))
	for i, f := range e.Failed {
		errs[i] = f.Err
	}
	return errs
}

// Indices returns the indices of the failed messages.
func (e *BatchError) Indices() []int {
	out := make([]int, len(e.Failed))
	for i, f := range e.Failed {
		out[i] = f.Index
	}
	return out
}

// BatchErrorOf collects the non-nil errors of a per-message result slice into a
// *BatchError (nil when every message was published). Transports use it.
func BatchErrorOf(errs []error) error {
	var be BatchError
	for i, err := range errs {
		if err != nil {
			be.Failed = append(be.Failed, FailedMessage{Index: i, Err: err})
		}
	}
	if len(be.Failed) == 0 {
		return nil
	}
	return &be
}
