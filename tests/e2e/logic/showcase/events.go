package main

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"example.com/showcase/config"
	"example.com/showcase/internal/consumers"
	"example.com/showcase/svccontext"
	"github.com/kitdev/kit/runtime/events"
	"github.com/kitdev/kit/runtime/events/kafka"
	kitnats "github.com/kitdev/kit/runtime/events/nats"
	"github.com/kitdev/kit/runtime/log"
)

// startEvents builds the bus on the configured transport, registers the consumers and
// starts them; the returned function stops them gracefully (main.go calls it on
// shutdown, after the HTTP listener has drained).
func startEvents(ctx context.Context, cfg *config.Config, svcCtx *svccontext.ServiceContext) (func(), error) {
	transport, err := newTransport(ctx, cfg.Events)
	if err != nil {
		return nil, err
	}
	logger := log.Slog()
	bus := events.New(events.WithTransport(transport), events.WithLogger(logger),
		events.WithMiddleware(events.Tracing(), events.AccessLog(logger)),
		events.WithGroup(consumers.Billing, events.GroupSettings{StartAt: events.StartAll}))
	svcCtx.Bus, svcCtx.Billed = bus, &svccontext.Ledger{}
	if err := consumers.Register(bus, svcCtx); err != nil {
		return nil, err
	}
	fmt.Print(bus.Plan())
	if err := bus.Start(ctx); err != nil {
		return nil, err
	}
	return func() {
		stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = bus.Close(stop)
	}, nil
}

func newTransport(ctx context.Context, c config.EventsConfig) (events.Transport, error) {
	switch c.Transport {
	case "", "inprocess":
		return events.NewInProcess(), nil
	case "nats":
		stream := jetstream.StreamConfig{Name: "SHOP", Subjects: []string{"shop.>"}}
		return kitnats.Connect(ctx, c.NATS.URL, kitnats.WithStream(stream))
	case "kafka":
		return kafka.New(c.Kafka.Brokers, kafka.WithTopicCreation(4, 1))
	default:
		return nil, fmt.Errorf("events.transport %q: want inprocess, nats or kafka", c.Transport)
	}
}
