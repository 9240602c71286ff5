package nats_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
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

// testStream is a stream of this test alone, over "<prefix>.>", deleted after it: a second
// pass (go test -count=2) against the same server reuses no stream, consumer or message
// id (JetStream de-duplicates ids per stream) of the first.
func testStream(t *testing.T, kind string) (jetstream.StreamConfig, string) {
	t.Helper()
	var b [4]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	prefix := kind + token
	cfg := jetstream.StreamConfig{Name: strings.ToUpper(kind) + "_" + token, Subjects: []string{prefix + ".>"}}
	t.Cleanup(func() {
		tr := connect(t).(*kitnats.Transport)
		defer tr.Close()
		if js, err := jetstream.New(tr.Conn()); err == nil {
			_ = js.DeleteStream(context.Background(), cfg.Name)
		}
	})
	return cfg, prefix
}

func TestJetStreamConformance(t *testing.T) {
	t.Parallel()
	cfg, prefix := testStream(t, "conf")
	stream := kitnats.WithStream(cfg)
	eventstest.Run(t, eventstest.Features{Durable: true, NoDuplicatesOnStop: true, Prefix: prefix}, func(t *testing.T) events.Transport {
		return connect(t, stream)
	})
}

func TestCoreConformance(t *testing.T) {
	t.Parallel()
	eventstest.Run(t, eventstest.Features{Prefix: "core"}, func(t *testing.T) events.Transport {
		return connect(t, kitnats.WithCore())
	})
}
