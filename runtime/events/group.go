package events

import (
	"errors"
	"fmt"
	"time"
)

// Group names a consumer group: every instance subscribing one group shares its
// messages (each message is handled by one of them), and every group gets every message
// of the contracts it subscribes. It is an argument of every subscribe call; there is no
// default group.
type Group string

// ErrNoGroup is a subscription without a group.
var ErrNoGroup = errors.New("events: a subscription needs a group")

// StartPosition is where a new group starts reading (the NATS deliver policy, the Kafka
// reset offset). A group that already exists on the broker resumes where it stopped.
type StartPosition int

const (
	// StartNew delivers only messages published after the group is created (default).
	StartNew StartPosition = iota
	// StartAll delivers every message the broker still holds.
	StartAll
)

func (p StartPosition) String() string {
	if p == StartAll {
		return "all"
	}
	return "new"
}

// Backoff returns how long to wait before delivery attempt+1 after attempt failed.
type Backoff func(attempt int) time.Duration

// ExponentialBackoff doubles the delay from initial at every attempt, up to max.
func ExponentialBackoff(initial, max time.Duration) Backoff {
	return func(attempt int) time.Duration {
		d := initial
		for i := 1; i < attempt && d < max; i++ {
			d *= 2
		}
		return min(d, max)
	}
}

// GroupSettings tune one group in one process. Zero fields take the defaults below.
type GroupSettings struct {
	// MaxInFlight is how many messages of the group are handled at once in this process
	// (default 16). Messages of one ordering key are handled one at a time, in order.
	// While a group is idle and its handlers are fast (under 20µs on average), a message
	// is handled on the transport's delivering goroutine rather than handed to a worker
	// (the hand-over would cost more than the handler); so, as with any bounded consumer,
	// a handler must not wait for another message of its own group.
	MaxInFlight int
	// AckWait is how long the broker waits for a settlement before it redelivers a
	// message (default 30s; durable transports only).
	AckWait time.Duration
	// MaxAttempts is the delivery cap: a message whose handler still asks for a retry on
	// this attempt is dead-lettered (default 5).
	MaxAttempts int
	// Backoff is the delay before a retry the handler did not time itself (default
	// exponential from 200ms to 30s).
	Backoff Backoff
	// StartAt is where a new group starts (default StartNew).
	StartAt StartPosition
	// Prefetch is how many messages a member fetches ahead of its handlers: JetStream's
	// pull batch, the records a Kafka consumer takes per poll. It is independent of
	// MaxInFlight, so a group with few handlers is still fed in large batches. Zero takes
	// the transport's default (JetStream 500, nats.go's own; Kafka classic groups 1,000;
	// Kafka share groups MaxInFlight, since each record fetched is locked to this member).
	// Stop hands back what was fetched and not yet handled, so a deep prefetch costs
	// nothing during a rolling deploy.
	Prefetch int
}

const (
	defaultMaxInFlight = 16
	defaultAckWait     = 30 * time.Second
	defaultMaxAttempts = 5
)

var defaultBackoff = ExponentialBackoff(200*time.Millisecond, 30*time.Second)

// withDefaults fills the zero fields.
func (s GroupSettings) withDefaults() GroupSettings {
	if s.MaxInFlight <= 0 {
		s.MaxInFlight = defaultMaxInFlight
	}
	if s.AckWait <= 0 {
		s.AckWait = defaultAckWait
	}
	if s.MaxAttempts <= 0 {
		s.MaxAttempts = defaultMaxAttempts
	}
	if s.Backoff == nil {
		s.Backoff = defaultBackoff
	}
	return s
}

func (s GroupSettings) String() string {
	return fmt.Sprintf("maxInFlight=%d ackWait=%s maxAttempts=%d start=%s", s.MaxInFlight, s.AckWait, s.MaxAttempts, s.StartAt)
}
