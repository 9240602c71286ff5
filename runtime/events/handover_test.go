package events_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/events"
)

// settledDelivery records whether it was settled.
type settledDelivery struct {
	m       events.Message
	settled atomic.Bool
}

func (d *settledDelivery) Message() *events.Message { return &d.m }
func (d *settledDelivery) Ack(context.Context) error {
	d.settled.Store(true)
	return nil
}
func (d *settledDelivery) Term(context.Context) error { return d.Ack(context.Background()) }
func (d *settledDelivery) Nak(context.Context, time.Duration) error {
	return d.Ack(context.Background())
}

func placedDelivery(key string) *settledDelivery {
	return &settledDelivery{m: events.Message{Event: OrderPlaced.Contract(), Key: key, Attempt: 1,
		Payload: []byte(`{"orderId":"o-1","total":42}`)}}
}

// startOnSink starts bus over a transport whose sink the test calls, as a transport would.
func startOnSink(t *testing.T, opts []events.Option, fn func(context.Context, *Placed) error) events.Sink {
	t.Helper()
	tr := &sinkTransport{}
	bus := events.New(append([]events.Option{events.WithTransport(tr)}, opts...)...)
	t.Cleanup(func() { _ = bus.Close(context.Background()) })
	if err := OrderPlaced.Subscribe(bus, "g", fn); err != nil {
		t.Fatal(err)
	}
	if err := bus.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return tr.sink
}

// Once its handler proved fast, a delivery arriving while the group is idle is handled
// and settled before the sink returns: no hand-over to a worker goroutine. (A raw
// subscription: decoding under the race detector can take longer than inlineBelow.)
func TestFastHandlerRunsOnTheTransportGoroutine(t *testing.T) {
	tr := &sinkTransport{}
	bus := events.New(events.WithTransport(tr))
	t.Cleanup(func() { _ = bus.Close(context.Background()) })
	if err := bus.Register(events.Subscription{Event: OrderPlaced.Contract(), Group: "g", Handle: func(context.Context, *events.Message) error { return nil }}); err != nil {
		t.Fatal(err)
	}
	if err := bus.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	sink := tr.sink
	inline := 0
	for range 200 {
		d := placedDelivery("")
		if err := sink(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		if d.settled.Load() {
			inline++
		}
		for !d.settled.Load() { // idle again before the next: as a transport at low rate
			time.Sleep(50 * time.Microsecond)
		}
	}
	if inline < 20 { // without inlining none is; a busy machine may slow a few handlings past the threshold
		t.Fatalf("%d of 200 deliveries settled within the sink, want many once the handler proved fast", inline)
	}
}

// A handler that turns slow after a fast start still runs MaxInFlight at a time, and
// messages of one key still run one at a time, in order.
func TestSlowHandlerStillRunsConcurrently(t *testing.T) {
	var slow atomic.Bool
	var mu sync.Mutex
	running, most := 0, 0
	perKey := map[string][]int{}
	var inKey sync.Map // key -> running count
	sink := startOnSink(t, []events.Option{events.WithGroup("g", events.GroupSettings{MaxInFlight: 4})},
		func(_ context.Context, p *Placed) error {
			if !slow.Load() {
				return nil
			}
			key := p.OrderID // the test sends each message's key as its order id
			n, _ := inKey.LoadOrStore(key, new(atomic.Int32))
			if n.(*atomic.Int32).Add(1) > 1 {
				t.Errorf("two messages of key %q at once", key)
			}
			mu.Lock()
			running++
			most = max(most, running)
			perKey[key] = append(perKey[key], int(p.Total))
			mu.Unlock()
			time.Sleep(30 * time.Millisecond)
			mu.Lock()
			running--
			mu.Unlock()
			n.(*atomic.Int32).Add(-1)
			return nil
		})
	for range 200 {
		d := placedDelivery("")
		_ = sink(context.Background(), d)
		for !d.settled.Load() {
			time.Sleep(50 * time.Microsecond)
		}
	}
	slow.Store(true)
	var all []*settledDelivery
	for i := range 16 {
		key := []string{"a", "b", "c", "d", "e", "f", "g", "h"}[i%8]
		d := placedDelivery(key)
		d.m.Payload = []byte(`{"orderId":"` + key + `","total":` + string(rune('0'+i/8)) + `}`)
		all = append(all, d)
		if err := sink(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range all {
		for !d.settled.Load() {
			time.Sleep(time.Millisecond)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if most < 3 {
		t.Errorf("at most %d handlers at once, want MaxInFlight (4) once the handler is slow", most)
	}
	for key, totals := range perKey {
		if len(totals) != 2 || totals[0] != 0 || totals[1] != 1 {
			t.Errorf("key %q handled in order %v, want [0 1]", key, totals)
		}
	}
}
