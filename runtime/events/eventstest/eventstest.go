// Package eventstest is the conformance suite every events transport passes: the
// in-process one in its package tests, NATS and Kafka against real brokers started by the
// test harness.
//
//	func TestConformance(t *testing.T) {
//		eventstest.Run(t, eventstest.Features{Durable: true}, func(t *testing.T) events.Transport {
//			return connect(t)
//		})
//	}
//
// Every case uses its own contracts and groups (see Features.Contract), so cases run in
// parallel and against a broker that keeps state between runs.
package eventstest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/events"
)

// Features says what a transport promises; cases it does not promise are skipped.
type Features struct {
	// Durable: messages published while no member of a group runs are delivered to the
	// next member that starts (JetStream, Kafka, in-process; not NATS core).
	Durable bool
	// NoDuplicatesOnStop: a graceful stop and restart of a member hands every message to
	// exactly one handler call.
	NoDuplicatesOnStop bool
	// Prefix starts every contract name the suite makes ("conf" by default); the broker
	// must accept publishes to prefix.* (a JetStream stream over "conf.>").
	Prefix string
	// JoinDelay is how long a started group needs before it receives what is published
	// (a Kafka group's first rebalance). Zero for most transports.
	JoinDelay time.Duration
	// Timeout bounds each wait for deliveries (default 20s).
	Timeout time.Duration
}

// Connect opens a new connection (a new process, as far as the broker can tell) to the
// broker under test. The suite closes what it opens through the bus.
type Connect func(t *testing.T) events.Transport

// Item is the suite's payload type: Validate refuses a negative Seq.
type Item struct {
	Seq  int    `json:"seq"`
	Key  string `json:"key,omitempty"`
	Note string `json:"note,omitempty"`
}

// Validate refuses a negative sequence number.
func (i *Item) Validate() error {
	if i.Seq < 0 {
		return errors.New("seq: below minimum 0")
	}
	return nil
}

// Run runs every case against transports made by connect.
func Run(t *testing.T, f Features, connect Connect) {
	if f.Prefix == "" {
		f.Prefix = "conf"
	}
	if f.Timeout == 0 {
		f.Timeout = 20 * time.Second
	}
	s := &suite{f: f, connect: connect}
	cases := []struct {
		name string
		run  func(*testing.T)
	}{
		{"RoundTrip", s.roundTrip},
		{"PublishAllReportsUnsent", s.publishAll},
		{"GroupsShareAndFanOut", s.shareAndFanOut},
		{"OrderPerKey", s.orderPerKey},
		{"RetryBackoff", s.retryBackoff},
		{"DeliveryCapDeadLetters", s.deliveryCap},
		{"InvalidPayloadNeverReachesHandler", s.invalidPayload},
		{"GracefulStopLosesNothing", s.gracefulStop},
		{"StopDoesNotWaitForRetries", s.stopWithRetryPending},
		{"ErrClosedAfterClose", s.closed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t)
		})
	}
}

type suite struct {
	f       Features
	connect Connect
}

// event returns a descriptor on a contract no other case or run uses.
func (s *suite) event(t *testing.T) events.Event[Item] {
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := strings.NewReplacer("/", ".", "_", "-").Replace(strings.ToLower(t.Name()))
	name = name[strings.LastIndex(name, ".")+1:]
	return events.NewEvent[Item](s.f.Prefix+"."+name+"."+hex.EncodeToString(b[:]), (*Item).Validate)
}

// group returns a group name unique to this run.
func group(name string) events.Group {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return events.Group(name + "-" + hex.EncodeToString(b[:]))
}

// bus opens a connection and builds a bus over it, closed at the end of the test.
func (s *suite) bus(t *testing.T, opts ...events.Option) *events.Bus {
	b := events.New(append([]events.Option{events.WithTransport(s.connect(t))}, opts...)...)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = b.Close(ctx)
	})
	return b
}

func (s *suite) start(t *testing.T, buses ...*events.Bus) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), s.f.Timeout)
	defer cancel()
	for _, b := range buses {
		if err := b.Start(ctx); err != nil {
			t.Fatalf("Start: %v", err)
		}
	}
	time.Sleep(s.f.JoinDelay)
}

func (s *suite) publish(t *testing.T, b *events.Bus, ev events.Event[Item], items []Item, opts func(Item) []events.PublishOption) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), s.f.Timeout)
	defer cancel()
	for i := range items {
		var o []events.PublishOption
		if opts != nil {
			o = opts(items[i])
		}
		if err := ev.Publish(ctx, b, &items[i], o...); err != nil {
			t.Fatalf("Publish %d: %v", i, err)
		}
	}
}

// eventually waits until cond holds or the suite's timeout ends.
func (s *suite) eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(s.f.Timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// recorder keeps what handlers saw, safe for concurrent handlers.
type recorder struct {
	mu    sync.Mutex
	items []Item
	msgs  []*events.Message
	by    map[string]int // per label
}

func (r *recorder) add(label string, it Item, m *events.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, it)
	r.msgs = append(r.msgs, m)
	if r.by == nil {
		r.by = map[string]int{}
	}
	r.by[label]++
}

func (r *recorder) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.items)
}

func (r *recorder) snapshot() []Item {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Item(nil), r.items...)
}

func (r *recorder) count(label string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.by[label]
}

// seqs builds n items numbered from 0.
func seqs(n int) []Item {
	out := make([]Item, n)
	for i := range out {
		out[i] = Item{Seq: i, Key: fmt.Sprintf("k%d", i%7)}
	}
	return out
}

// raw is a raw subscription handler's view of the current message.
func messageOf(ctx context.Context) *events.Message {
	m, _ := ctx.Value(msgKey{}).(*events.Message)
	return m
}

type msgKey struct{}

// keepMessage is middleware that puts the raw message in the context for typed handlers.
func keepMessage(_ events.Subscription, next events.Handler) events.Handler {
	return func(ctx context.Context, m *events.Message) error {
		return next(context.WithValue(ctx, msgKey{}, m), m)
	}
}
