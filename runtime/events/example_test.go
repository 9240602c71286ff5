package events_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kitdev/kit/runtime/events"
)

// Placed is a payload type as kit generates them: a struct with a Validate method.
type Placed struct {
	OrderID string `json:"orderId"`
	Total   int    `json:"total"`
}

func (p *Placed) Validate() error {
	if p.Total < 0 {
		return errors.New("total: below minimum 0")
	}
	return nil
}

// OrderPlaced is what the generated events.go declares for `event OrderPlaced`.
var OrderPlaced = events.NewEvent[Placed]("shop.OrderPlaced", (*Placed).Validate)

// A service publishes an event from its logic and consumes it in a group.
func Example() {
	ctx := context.Background()
	bus := events.New(events.WithTransport(events.NewInProcess()))
	defer bus.Close(ctx)

	done := make(chan struct{})
	_ = OrderPlaced.Subscribe(bus, "billing", func(ctx context.Context, p *Placed) error {
		fmt.Printf("billing %s for %d\n", p.OrderID, p.Total)
		close(done)
		return nil
	})
	if err := bus.Start(ctx); err != nil {
		panic(err)
	}
	_ = OrderPlaced.Publish(ctx, bus, &Placed{OrderID: "o-1", Total: 42}, events.WithKey("o-1"))
	<-done
	// Output: billing o-1 for 42
}

func onPlaced(context.Context, *Placed) error { return nil }

// The plan says what will be consumed where, before anything starts.
func ExampleBus_Plan() {
	bus := events.New(events.WithTransport(events.NewInProcess()), events.WithGroup("billing", events.GroupSettings{MaxAttempts: 3}))
	_ = OrderPlaced.Subscribe(bus, "billing", onPlaced)
	analytics := OrderPlaced.Subscription(bus, "analytics", onPlaced)
	analytics.Consumer = "analytics.Count"
	_ = bus.Register(analytics)
	fmt.Print(bus.Plan())
	// Output:
	// events over inprocess
	// group analytics (maxInFlight=16 ackWait=30s maxAttempts=5 start=new)
	//   shop.OrderPlaced -> analytics.Count
	// group billing (maxInFlight=16 ackWait=30s maxAttempts=3 start=new)
	//   shop.OrderPlaced -> events_test.onPlaced
}

// A handler's error is its message's disposition: here the first attempt asks for a retry
// after 10ms, the second acknowledges.
func ExampleRetryAfter() {
	ctx := context.Background()
	bus := events.New(events.WithTransport(events.NewInProcess()))
	defer bus.Close(ctx)
	done := make(chan struct{})
	attempts := 0
	_ = OrderPlaced.Subscribe(bus, "billing", func(ctx context.Context, p *Placed) error {
		attempts++
		if attempts == 1 {
			return events.RetryAfter(10*time.Millisecond, errors.New("ledger busy"))
		}
		fmt.Println("billed on attempt", attempts)
		close(done)
		return nil
	})
	_ = bus.Start(ctx)
	_ = OrderPlaced.Publish(ctx, bus, &Placed{OrderID: "o-2"})
	<-done
	// Output: billed on attempt 2
}

// PublishAll publishes what it can and names the messages it did not send.
func ExampleBus_PublishAll() {
	ctx := context.Background()
	bus := events.New(events.WithTransport(events.NewInProcess()))
	defer bus.Close(ctx)
	err := bus.PublishAll(ctx, []events.Envelope{
		OrderPlaced.Envelope(&Placed{OrderID: "a", Total: 1}),
		OrderPlaced.Envelope(&Placed{OrderID: "b", Total: -1}), // fails validation: never sent
		{Event: OrderPlaced.Contract(), Payload: &Placed{OrderID: "c", Total: 3}, Key: "c"},
	})
	var pe *events.PartialPublishError
	if errors.As(err, &pe) {
		fmt.Println("unsent:", pe.Unsent)
	}
	// Output: unsent: [1]
}

// Decoding ignores members the payload type does not declare (a newer producer), unless
// the descriptor is strict.
func ExampleEvent_Strict() {
	data := []byte(`{"orderId":"o-3","total":5,"coupon":"SPRING"}`)
	p, err := OrderPlaced.Decode(data)
	fmt.Println(p.OrderID, err)
	_, err = OrderPlaced.Strict().Decode(data)
	fmt.Println(err)
	// Output:
	// o-3 <nil>
	// events: shop.OrderPlaced: json: unknown field "coupon"
}

// A payload that fails validation is dead-lettered and never reaches the handler.
func ExampleWithDeadLetter() {
	ctx := context.Background()
	dead := make(chan error, 1)
	bus := events.New(events.WithTransport(events.NewInProcess()), events.WithDeadLetter(func(_ context.Context, g events.Group, m *events.Message, reason error) {
		dead <- reason
	}))
	defer bus.Close(ctx)
	_ = OrderPlaced.Subscribe(bus, "billing", func(context.Context, *Placed) error {
		panic("never called")
	})
	_ = bus.Start(ctx)
	// A raw payload is published as it is: the consumer's validation refuses it.
	_ = bus.Publish(ctx, OrderPlaced.Contract(), events.Raw(`{"orderId":"x","total":-7}`))
	fmt.Println(<-dead)
	// Output: events: shop.OrderPlaced: total: below minimum 0
}
