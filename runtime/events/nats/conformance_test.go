package nats_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/kitdev/kit/runtime/events"
	"github.com/kitdev/kit/runtime/events/eventstest"
	kitnats "github.com/kitdev/kit/runtime/events/nats"
)

func connect(t *testing.T, opts ...kitnats.Option) events.Transport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr, err := kitnats.Connect(ctx, natsURL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestJetStreamConformance(t *testing.T) {
	t.Parallel()
	stream := kitnats.WithStream(jetstream.StreamConfig{Name: "CONF", Subjects: []string{"conf.>"}})
	eventstest.Run(t, eventstest.Features{Durable: true, NoDuplicatesOnStop: true}, func(t *testing.T) events.Transport {
		return connect(t, stream)
	})
}

func TestCoreConformance(t *testing.T) {
	t.Parallel()
	eventstest.Run(t, eventstest.Features{Prefix: "core"}, func(t *testing.T) events.Transport {
		return connect(t, kitnats.WithCore())
	})
}
