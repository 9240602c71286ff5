package events_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/kitdev/kit/runtime/events"
)

// publishTransport keeps what it is given to publish and returns err.
type publishTransport struct {
	sinkTransport
	got []*events.Message
	err error
}

func (t *publishTransport) Publish(_ context.Context, msgs []*events.Message) error {
	t.got = msgs
	return t.err
}

// A batch's messages (built from one slab, a chunk at a time) are distinct, each with its
// own key and payload, across chunk boundaries.
func TestBatchMessagesAreDistinct(t *testing.T) {
	tr := &publishTransport{}
	bus := events.New(tr)
	b := bus.Batch()
	for i := range 40 {
		OrderPlaced.Add(b, &Placed{OrderID: fmt.Sprint("o-", i), Total: i}, events.WithKey(fmt.Sprint("k-", i)))
	}
	if err := b.Publish(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(tr.got) != 40 {
		t.Fatalf("published %d messages, want 40", len(tr.got))
	}
	for i, m := range tr.got {
		want := fmt.Sprintf(`{"orderId":"o-%d","total":%d}`, i, i)
		if m.Key != fmt.Sprint("k-", i) || string(m.Payload) != want || m.Contract != OrderPlaced.Contract() {
			t.Fatalf("message %d: key %q payload %s", i, m.Key, m.Payload)
		}
	}
}

// A transport's error that names no message fails every message of the batch, by index.
func TestBatchPlainTransportErrorFailsEveryMessage(t *testing.T) {
	boom := errors.New("boom")
	bus := events.New(&publishTransport{err: boom})
	b := bus.Batch()
	for i := range 3 {
		OrderPlaced.Add(b, &Placed{OrderID: fmt.Sprint("o-", i), Total: i})
	}
	var be *events.BatchError
	if err := b.Publish(context.Background()); !errors.As(err, &be) || len(be.Failed) != 3 {
		t.Fatalf("Publish = %v, want a *BatchError naming 3 messages", err)
	}
	for i, f := range be.Failed {
		if f.Index != i || !errors.Is(f.Err, boom) {
			t.Errorf("failed %d = %+v", i, f)
		}
	}
}
