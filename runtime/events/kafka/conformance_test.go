package kafka_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/events"
	"github.com/kitdev/kit/runtime/events/eventstest"
	"github.com/kitdev/kit/runtime/events/kafka"
)

func connect(t *testing.T, opts ...kafka.Option) events.Transport {
	t.Helper()
	tr, err := kafka.New(strings.Split(kafkaBrokers, ","), append([]kafka.Option{kafka.WithTopicCreation(4, 1)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// features: a classic group's first rebalance takes a few seconds before it fetches.
var features = eventstest.Features{Durable: true, NoDuplicatesOnStop: true, JoinDelay: 6 * time.Second, Timeout: 40 * time.Second}

func TestClassicGroupConformance(t *testing.T) {
	t.Parallel()
	eventstest.Run(t, features, func(t *testing.T) events.Transport { return connect(t) })
}

func TestShareGroupConformance(t *testing.T) {
	t.Parallel()
	f := features
	f.Prefix = "share"
	eventstest.Run(t, f, func(t *testing.T) events.Transport { return connect(t, kafka.WithAllShareGroups()) })
}
