package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	natsgo "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/kitdev/kit/runtime/events"
	kitnats "github.com/kitdev/kit/runtime/events/nats"
)

// benchNATS runs the raw jetstream path then the bus path, each on its own subject and
// durable consumer of one stream.
func benchNATS(ctx context.Context, url string, round, n, batch int) (result, result, error) {
	stream := jetstream.StreamConfig{Name: "BENCH", Subjects: []string{"bench.>"}, Storage: jetstream.FileStorage}
	suffix := fmt.Sprintf("%d.%d", time.Now().UnixNano(), round)
	return inOrder(round,
		func() (result, error) { return natsRaw(ctx, url, stream, "bench.raw."+suffix, n, batch) },
		func() (result, error) { return natsBus(ctx, url, stream, "bench.bus."+suffix, n, batch) })
}

func natsRaw(ctx context.Context, url string, cfg jetstream.StreamConfig, subject string, n, batch int) (result, error) {
	nc, err := natsgo.Connect(url)
	if err != nil {
		return result{}, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return result{}, err
	}
	st, err := js.CreateOrUpdateStream(ctx, cfg)
	if err != nil {
		return result{}, err
	}
	cons, err := st.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: "raw", FilterSubjects: []string{subject},
		AckPolicy: jetstream.AckExplicitPolicy, DeliverPolicy: jetstream.DeliverNewPolicy})
	if err != nil {
		return result{}, err
	}
	rec := newRecorder(n)
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		var p payload
		if json.Unmarshal(msg.Data(), &p) == nil {
			rec.handled(&p)
		}
		_ = msg.Ack()
	})
	if err != nil {
		return result{}, err
	}
	defer cc.Stop()
	return measure(ctx, n, batch, rec, func(ctx context.Context, items []payload) error {
		futures := make([]jetstream.PubAckFuture, len(items))
		for i := range items {
			msg := natsgo.NewMsg(subject)
			msg.Data = encode(&items[i])
			if futures[i], err = js.PublishMsgAsync(msg); err != nil {
				return err
			}
		}
		for _, f := range futures {
			select {
			case <-f.Ok():
			case err := <-f.Err():
				return err
			}
		}
		return nil
	})
}

func natsBus(ctx context.Context, url string, cfg jetstream.StreamConfig, subject string, n, batch int) (result, error) {
	tr, err := kitnats.Connect(ctx, url, kitnats.WithStream(cfg))
	if err != nil {
		return result{}, err
	}
	ev := events.NewEvent[payload](subject, (*payload).Validate)
	b := events.New(tr, events.WithGroup("bus", events.GroupSettings{MaxInFlight: maxInFlight}))
	defer b.Close(context.Background())
	rec := newRecorder(n)
	if err := ev.Subscribe(b, "bus", func(_ context.Context, p *payload) error { rec.handled(p); return nil }); err != nil {
		return result{}, err
	}
	if err := b.Start(ctx); err != nil {
		return result{}, err
	}
	return measure(ctx, n, batch, rec, busPublish(b, ev))
}

// busPublish publishes one batch through the bus.
func busPublish(b *events.Bus, ev events.Event[payload]) func(context.Context, []payload) error {
	return func(ctx context.Context, items []payload) error {
		bt := b.Batch()
		for i := range items {
			ev.Add(bt, &items[i])
		}
		return bt.Publish(ctx)
	}
}
