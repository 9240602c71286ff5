package nats_test

import (
	"context"
	"strings"
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
	cfg, prefix := testStream(t, "raw")
	stream := kitnats.WithStream(cfg)
	contract := prefix + ".msgfrom"
	got := make(chan *events.Message, 4)
	b := events.New(events.WithTransport(connect(t, stream)), events.WithGroup("raw", events.GroupSettings{StartAt: events.StartAll}))
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	if err := b.Register(events.Subscription{Event: contract, Group: "raw", Handle: func(_ context.Context, m *events.Message) error {
		got <- m
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second is a duplicate inside the stream's window
		if err := b.Publish(context.Background(), contract, events.Raw(`{}`), events.WithKey("k"), events.WithDedupID("same-id")); err != nil {
			t.Fatal(err)
		}
	}
	m := <-got
	msg, ok := kitnats.MsgFrom(m)
	if !ok || msg.Subject() != contract || msg.Headers().Get("Nats-Msg-Id") != "same-id" || m.Key != "k" || m.DedupID != "same-id" {
		t.Fatalf("MsgFrom = %v, %v; message %+v", msg, ok, m)
	}
	select {
	case dup := <-got:
		t.Fatalf("the duplicate was delivered: %+v", dup)
	case <-time.After(300 * time.Millisecond):
	}
}

// One durable consumer per group, named after it, carrying the group's contracts as filter
// subjects, with the group's settings; a second member joins it rather than adding one.
func TestGroupIsOneDurableConsumerWithItsSettings(t *testing.T) {
	t.Parallel()
	cfg, prefix := testStream(t, "raw")
	suffix := time.Now().Format("150405000000")
	group := events.Group("settings-" + suffix)
	a, b := prefix+".a."+suffix, prefix+".b."+suffix
	settings := events.GroupSettings{AckWait: 7 * time.Second, MaxAttempts: 4, StartAt: events.StartAll}
	for range 2 {
		bus := events.New(events.WithTransport(connect(t, kitnats.WithStream(cfg))), events.WithGroup(group, settings))
		t.Cleanup(func() { _ = bus.Close(context.Background()) })
		for _, c := range []string{b, a} {
			if err := bus.Register(events.Subscription{Event: c, Group: group, Handle: func(context.Context, *events.Message) error { return nil }}); err != nil {
				t.Fatal(err)
			}
		}
		if err := bus.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	tr := connect(t).(*kitnats.Transport)
	defer tr.Close()
	js, _ := jetstream.New(tr.Conn())
	ctx := context.Background()
	stream, err := js.Stream(ctx, cfg.Name)
	if err != nil {
		t.Fatal(err)
	}
	info, err := stream.Consumer(ctx, string(group))
	if err != nil {
		t.Fatal(err)
	}
	c := info.CachedInfo().Config
	if c.Durable != string(group) || len(c.FilterSubjects) != 2 || c.FilterSubjects[0] != a || c.FilterSubjects[1] != b {
		t.Errorf("consumer %q filters %v", c.Durable, c.FilterSubjects)
	}
	if c.AckWait != 7*time.Second || c.MaxDeliver != 4 || c.DeliverPolicy != jetstream.DeliverAllPolicy || c.AckPolicy != jetstream.AckExplicitPolicy {
		t.Errorf("consumer config %+v", c)
	}
	n := 0
	for name := range stream.ListConsumers(ctx).Info() {
		if strings.HasPrefix(name.Name, string(group)) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d consumers for the group, want 1", n)
	}
}
