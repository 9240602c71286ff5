package events_test

import (
	"testing"

	"github.com/kitdev/kit/runtime/events"
	"github.com/kitdev/kit/runtime/events/eventstest"
)

func TestInProcessConformance(t *testing.T) {
	broker := events.NewInProcess()
	eventstest.Run(t, eventstest.Features{Durable: true, NoDuplicatesOnStop: true}, func(*testing.T) events.Transport {
		return broker.Connect()
	})
}
