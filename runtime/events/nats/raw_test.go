package nats_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/kitdev/kit/runtime/events"
	kitnats "github.com/kitdev/kit/runtime/events/nats"
)

// MsgFrom reaches the JetStream message; the id is Nats-Msg-Id (so JetStream drops a
// second publish of it) and the key travels in kit-key.
func TestMsgFromAndDeduplication(t *testing.T) {
	t.Parallel()
	stream := kitnats.WithStream(jetstream.StreamConfig{Name: "RAW", Subjects: []string{"raw.>"}})
	contract := "raw.msgfrom." + time.Now().Format("150405000000")
	got := make(chan *events.Message, 4)
	b := events.New(connect(t, stream), events.WithGroup("raw", events.GroupSettings{StartAt: events.StartAll}))
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	if err := b.Register(events.NewSubscription(contract, "raw", func(_ context.Context, m *events.Message) error {
		got <- m
		return nil
	})); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second is a duplicate inside the stream's window
		m := &events.Message{Contract: contract, Key: "k", ID: "same-id", Payload: []byte(`{}`)}
		if err := b.Publish(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	m := <-got
	msg, ok := kitnats.MsgFrom(m)
	if !ok || msg.Subject() != contract || msg.Headers().Get("Nats-Msg-Id") != "same-id" || m.Key != "k" || m.ID != "same-id" {
		t.Fatalf("MsgFrom = %v, %v; message %+v", msg, ok, m)
	}
	select {
	case dup := <-got:
		t.Fatalf("the duplicate was delivered: %+v", dup)
	case <-time.After(300 * time.Millisecond):
	}
}
