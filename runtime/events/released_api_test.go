package events_test

// This file is written against the bus API of the released tool, every name of its
// "Bus / group / publish API" and "Event envelope/headers" rows, and nothing kit added: it
// must keep compiling (and passing) so code written for the released tool builds on kit.

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/events"
)

// The released shape of every name, checked by the compiler.
var (
	_ func(...events.Option) *events.Bus                                                                                            = events.New
	_ func(events.Transport) events.Option                                                                                          = events.WithTransport
	_ func(events.Codec) events.Option                                                                                              = events.WithCodec
	_ func(...events.Middleware) events.Option                                                                                      = events.WithMiddleware
	_ func(*events.Bus, ...events.Middleware)                                                                                       = (*events.Bus).Use
	_ func(*events.Bus, events.Subscription) error                                                                                  = (*events.Bus).Register
	_ func(*events.Bus, context.Context) error                                                                                      = (*events.Bus).Start
	_ func(*events.Bus) events.Plan                                                                                                 = (*events.Bus).Plan
	_ func(*events.Bus, context.Context, string, any, ...events.PublishOption) error                                                = (*events.Bus).Publish
	_ func(*events.Bus, context.Context, []events.Envelope) error                                                                   = (*events.Bus).PublishAll
	_ func(events.Event[releasedOrder], context.Context, *events.Bus, *releasedOrder, ...events.PublishOption) error                = events.Event[releasedOrder].Publish
	_ func(events.Event[releasedOrder], *events.Bus, events.Group, func(context.Context, *releasedOrder) error) error               = events.Event[releasedOrder].Subscribe
	_ func(events.Event[releasedOrder], *events.Bus, events.Group, func(context.Context, *releasedOrder) error) events.Subscription = events.Event[releasedOrder].Subscription
	_ func(string, string, any) events.PublishOption                                                                                = events.WithAdapterOption
	_ func(string) events.PublishOption                                                                                             = events.WithKey
	_ func(string) events.PublishOption                                                                                             = events.WithDedupID
	_ func(string, string) events.PublishOption                                                                                     = events.WithHeader
	_ func(...events.PublishOption) events.Option                                                                                   = events.WithPublishDefaults
	_ events.Middleware                                                                                                             = func(sub events.Subscription, next events.Handler) events.Handler { return next }
	_ error                                                                                                                         = &events.PanicError{}
	_ error                                                                                                                         = &events.PayloadError{}
	_ error                                                                                                                         = &events.RegisterError{}
	_ error                                                                                                                         = &events.PartialPublishError{}
	_ error                                                                                                                         = events.ErrCodecMismatch
	_ error                                                                                                                         = events.ErrNoGroup
	_ error                                                                                                                         = events.ErrStarted
	_ string                                                                                                                        = events.MetaCodec
)

type releasedOrder struct {
	ID string `json:"id"`
}

func (o *releasedOrder) Validate() error {
	if o.ID == "" {
		return errors.New("id: required")
	}
	return nil
}

var releasedPlaced = events.NewEvent[releasedOrder]("released.OrderPlaced", (*releasedOrder).Validate)

const releasedBilling events.Group = "billing"

func TestReleasedAPI(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var order []string
	trace := func(name string) events.Middleware {
		return func(sub events.Subscription, next events.Handler) events.Handler {
			return func(ctx context.Context, m *events.Message) error {
				mu.Lock()
				order = append(order, name+":"+sub.Event+"/"+string(sub.Group)+"/"+sub.Consumer)
				mu.Unlock()
				return next(ctx, m)
			}
		}
	}
	bus := events.New(events.WithTransport(events.NewInProcess()), events.WithCodec(events.JSONCodec{}),
		events.WithMiddleware(trace("with")),
		events.WithPublishDefaults(events.WithHeader("tenant", "acme")))
	bus.Use(trace("use"))

	got := make(chan *events.Message, 4)
	keep := func(_ events.Subscription, next events.Handler) events.Handler {
		return func(ctx context.Context, m *events.Message) error {
			got <- m
			return next(ctx, m)
		}
	}
	sub := releasedPlaced.Subscription(bus, releasedBilling, func(context.Context, *releasedOrder) error { return nil })
	sub.Consumer = "billing.OnPlaced"
	sub.Chain = events.Chain{trace("sub"), keep}
	if err := bus.Register(sub); err != nil {
		t.Fatal(err)
	}
	if err := releasedPlaced.Subscribe(bus, "audit", func(context.Context, *releasedOrder) error { return nil }); err != nil {
		t.Fatal(err)
	}
	raw := events.Subscription{Event: "released.Raw", Consumer: "raw", Group: releasedBilling,
		Handle: func(_ context.Context, m *events.Message) error { got <- m; return nil }}
	if err := bus.Register(raw); err != nil {
		t.Fatal(err)
	}
	var re *events.RegisterError
	if err := releasedPlaced.Subscribe(bus, "", func(context.Context, *releasedOrder) error { return nil }); !errors.Is(err, events.ErrNoGroup) || !errors.As(err, &re) {
		t.Errorf("empty group: %v", err)
	}

	plan := bus.Plan()
	first, _ := json.Marshal(plan)
	again, _ := json.Marshal(bus.Plan())
	if string(first) != string(again) || len(plan.Groups) != 2 {
		t.Errorf("plan %s then %s", first, again)
	}
	if err := bus.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := bus.Start(ctx); !errors.Is(err, events.ErrStarted) {
		t.Errorf("second Start: %v", err)
	}
	if err := bus.Register(raw); !errors.Is(err, events.ErrStarted) {
		t.Errorf("Register after Start: %v", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Use after Start did not panic")
			}
		}()
		bus.Use(trace("late"))
	}()

	if err := releasedPlaced.Publish(ctx, bus, &releasedOrder{ID: "o-1"}, events.WithKey("o-1"), events.WithDedupID("d-1"),
		events.WithHeader("kit-forged", "x"), events.WithHeader("Content-Codec", "forged"),
		events.WithAdapterOption("kafka", "timestamp", time.Now())); err != nil {
		t.Fatal(err)
	}
	m := <-got
	if m.Key != "o-1" || m.DedupID != "d-1" || m.Metadata.Get("tenant") != "acme" ||
		m.Metadata.Get("kit-forged") != "" || m.Metadata.Get("Content-Codec") != "" {
		t.Errorf("message %+v", m)
	}
	mu.Lock()
	var billing []string
	for _, o := range order {
		if strings.HasSuffix(o, "/billing/billing.OnPlaced") {
			billing = append(billing, strings.TrimSuffix(o, ":released.OrderPlaced/billing/billing.OnPlaced"))
		}
	}
	if !slices.Equal(billing, []string{"with", "use", "sub"}) {
		t.Errorf("middleware order %v, want the bus chain (WithMiddleware, Use) then Subscription.Chain", billing)
	}
	mu.Unlock()

	var payloadErr *events.PayloadError
	if err := bus.Publish(ctx, releasedPlaced.Contract(), &releasedOrder{}); !errors.As(err, &payloadErr) {
		t.Errorf("Publish of an invalid payload: %v", err)
	}
	if err := bus.Publish(ctx, "released.Raw", map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	if m := <-got; string(m.Payload) != `{"n":1}` || m.Event != "released.Raw" {
		t.Errorf("raw message %+v", m)
	}

	err := bus.PublishAll(ctx, []events.Envelope{
		{Event: releasedPlaced.Contract(), Payload: &releasedOrder{ID: "o-2"}, Key: "o-2", DedupID: "d-2",
			Metadata: map[string]string{"hops": "1"}},
		{Event: releasedPlaced.Contract(), Payload: &releasedOrder{}},
	})
	var partial *events.PartialPublishError
	if !errors.As(err, &partial) || !slices.Equal(partial.Unsent, []int{1}) {
		t.Errorf("PublishAll = %v, want index 1 unsent", err)
	}
	for m := <-got; m.Key != "o-2"; m = <-got {
	}
	if err := bus.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
