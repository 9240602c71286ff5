package events_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/events"
)

// sinkTransport hands the bus's sink to the benchmark, which plays the broker.
type sinkTransport struct {
	mu   sync.Mutex
	sink events.Sink
}

func (t *sinkTransport) Name() string                                     { return "sink" }
func (t *sinkTransport) Close() error                                     { return nil }
func (t *sinkTransport) Publish(context.Context, []*events.Message) error { return nil }
func (t *sinkTransport) Subscribe(_ context.Context, _ events.ConsumerSpec, s events.Sink) (events.Consumer, error) {
	t.mu.Lock()
	t.sink = s
	t.mu.Unlock()
	return stopNothing{}, nil
}

type stopNothing struct{}

func (stopNothing) Stop(context.Context) error { return nil }

type benchDelivery struct {
	m    events.Message
	done *sync.WaitGroup
}

func (d *benchDelivery) Message() *events.Message                 { return &d.m }
func (d *benchDelivery) Ack(context.Context) error                { d.done.Done(); return nil }
func (d *benchDelivery) Term(context.Context) error               { d.done.Done(); return nil }
func (d *benchDelivery) Nak(context.Context, time.Duration) error { d.done.Done(); return nil }

// BenchmarkConsume is the bus's cost per consumed message on top of its transport: hand
// over, decode, validate, handler, settle.
func BenchmarkConsume(b *testing.B) {
	for _, keyed := range []bool{false, true} {
		name := "unkeyed"
		if keyed {
			name = "keyed"
		}
		b.Run(name, func(b *testing.B) {
			tr := &sinkTransport{}
			bus := events.New(events.WithTransport(tr))
			_ = OrderPlaced.Subscribe(bus, "g", func(context.Context, *Placed) error { return nil })
			if err := bus.Start(context.Background()); err != nil {
				b.Fatal(err)
			}
			defer bus.Close(context.Background())
			var wg sync.WaitGroup
			payload := []byte(`{"orderId":"o-1","total":42}`)
			ds := make([]benchDelivery, b.N)
			for i := range ds {
				ds[i] = benchDelivery{m: events.Message{Event: OrderPlaced.Contract(), Payload: payload, Attempt: 1}, done: &wg}
				if keyed {
					ds[i].m.Key = string(rune('a' + i%26))
				}
			}
			wg.Add(b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range ds {
				_ = tr.sink(context.Background(), &ds[i])
			}
			wg.Wait()
		})
	}
}

// BenchmarkPublish is the bus's cost per published message on top of its transport:
// validate, encode, stamp.
func BenchmarkPublish(b *testing.B) {
	bus := events.New(events.WithTransport(&sinkTransport{}))
	ctx := context.Background()
	p := &Placed{OrderID: "o-1", Total: 42}
	b.ReportAllocs()
	for b.Loop() {
		_ = OrderPlaced.Publish(ctx, bus, p, events.WithKey("o-1"))
	}
}
