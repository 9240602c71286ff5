package kafka_test

import (
	"context"
	"crypto/tls"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/kitdev/kit/runtime/events"
	"github.com/kitdev/kit/runtime/events/kafka"
)

// RecordFrom reaches the consumed record; the ordering key is its key and the message id
// travels in a header.
func TestRecordFromAndKeyMapping(t *testing.T) {
	t.Parallel()
	contract := "raw.recordfrom." + strings.ReplaceAll(time.Now().Format("150405.000000"), ".", "")
	got := make(chan *events.Message, 1)
	b := events.New(events.WithTransport(connect(t)), events.WithGroup("raw-"+events.Group(contract), events.GroupSettings{StartAt: events.StartAll}))
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	sub := events.Subscription{Event: contract, Group: "raw-" + events.Group(contract), Handle: func(_ context.Context, m *events.Message) error {
		got <- m
		return nil
	}}
	if err := b.Register(sub); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	stamp := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := b.Publish(context.Background(), contract, events.Raw(`{}`), events.WithKey("order-7"), events.WithDedupID("id-7"),
		events.WithAdapterOption("kafka", kafka.OptionTimestamp, stamp)); err != nil {
		t.Fatal(err)
	}
	if err := b.Publish(context.Background(), contract, events.Raw(`{}`), events.WithAdapterOption("kafka", "partition", 1)); !errors.Is(err, events.ErrUnknownAdapterOption) {
		t.Errorf("an option the transport does not read: %v", err)
	}
	if err := b.Publish(context.Background(), contract, events.Raw(`{}`), events.WithAdapterOption("kafka", kafka.OptionTimestamp, "today")); err == nil {
		t.Error("a timestamp that is not a time.Time was published")
	}
	select {
	case m := <-got:
		r, ok := kafka.RecordFrom(m)
		if !ok || r.Topic != contract || string(r.Key) != "order-7" || r.Offset < 0 || !r.Timestamp.Equal(stamp) {
			t.Fatalf("RecordFrom = %+v, %v", r, ok)
		}
		if m.DedupID != "id-7" || m.Key != "order-7" {
			t.Errorf("message dedup id %q key %q", m.DedupID, m.Key)
		}
	case <-time.After(40 * time.Second):
		t.Fatal("no delivery")
	}
	if _, ok := kafka.RecordFrom(&events.Message{}); ok {
		t.Error("RecordFrom of a message the transport did not deliver")
	}
	if !errors.Is(kafka.ErrClosed, events.ErrClosed) {
		t.Error("kafka.ErrClosed is not events.ErrClosed")
	}
}

// WithTLS and WithSASL reach the client: against this plaintext listener, without SASL,
// a publish through either fails (the same publish without them succeeds above).
func TestTLSAndSASLOptionsReachTheClient(t *testing.T) {
	t.Parallel()
	quick := kafka.WithClientOptions(kgo.RetryTimeout(2*time.Second), kgo.RequestRetries(1))
	for name, opt := range map[string]kafka.Option{
		"tls":  kafka.WithTLS(&tls.Config{MinVersion: tls.VersionTLS12}),
		"sasl": kafka.WithSASL(plain.Auth{User: "kit", Pass: "secret"}.AsMechanism()),
	} {
		tr := connect(t, opt, quick)
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
		err := tr.Publish(ctx, []*events.Message{{Event: "raw.options", Payload: []byte(`{}`)}})
		cancel()
		_ = tr.Close()
		if err == nil {
			t.Errorf("%s: a publish to a plaintext listener without SASL succeeded", name)
		}
	}
}
