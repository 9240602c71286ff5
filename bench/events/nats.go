package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	natsgo "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/kitdev/kit/runtime/events"
	kitnats "github.com/kitdev/kit/runtime/events/nats"
)

// benchNATS runs the raw jetstream path and the bus path, each on a stream and a durable
// consumer of its own, new every round and deleted after it: no path or round inherits a
// grown stream or an updated consumer from another.
func benchNATS(ctx context.Context, url string, round, n, batch int) (result, result, error) {
	suffix := fmt.Sprintf("%d_%d", time.Now().UnixNano(), round)
	return inOrder(round,
		func() (result, error) { return natsRaw(ctx, url, natsStream("raw", suffix), "raw_"+suffix, n, batch) },
		func() (result, error) {
			return natsBus(ctx, url, natsStream("bus", suffix), events.Group("bus_"+suffix), n, batch)
		})
}

// natsStream is a path's stream of one round (file storage, the JetStream default).
func natsStream(path, suffix string) jetstream.StreamConfig {
	subject := "bench." + path + "." + suffix
	return jetstream.StreamConfig{Name: "BENCH_" + strings.ToUpper(path) + "_" + suffix, Subjects: []string{subject}, Storage: jetstream.FileStorage}
}

// dropStream deletes a round's stream (on its own connection: the path's may be closed).
func dropStream(url, name string) {
	nc, err := natsgo.Connect(url)
	if err != nil {
		return
	}
	defer nc.Close()
	if js, err := jetstream.New(nc); err == nil {
		_ = js.DeleteStream(context.Background(), name)
	}
}

func natsRaw(ctx context.Context, url string, cfg jetstream.StreamConfig, durable string, n, batch int) (result, error) {
	defer dropStream(url, cfg.Name)
	subject := cfg.Subjects[0]
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
	cons, err := st.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: durable, FilterSubjects: []string{subject},
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

func natsBus(ctx context.Context, url string, cfg jetstream.StreamConfig, group events.Group, n, batch int) (result, error) {
	defer dropStream(url, cfg.Name)
	subject := cfg.Subjects[0]
	tr, err := kitnats.Connect(ctx, url, kitnats.WithStream(cfg))
	if err != nil {
		return result{}, err
	}
	ev := events.NewEvent[payload](subject, (*payload).Validate)
	b := events.New(events.WithTransport(tr), events.WithGroup(group, events.GroupSettings{MaxInFlight: maxInFlight}))
	defer b.Close(context.Background())
	rec := newRecorder(n)
	if err := ev.Subscribe(b, group, func(_ context.Context, p *payload) error { rec.handled(p); return nil }); err != nil {
		return result{}, err
	}
	if err := b.Start(ctx); err != nil {
		return result{}, err
	}
	return measure(ctx, n, batch, rec, busPublish(b, ev))
}

// busPublish publishes one batch through the bus.
func busPublish(b *events.Bus, ev events.Event[payload]) func(context.Context, []payload) error {
	var envs []events.Envelope
	return func(ctx context.Context, items []payload) error {
		envs = envs[:0]
		for i := range items {
			envs = append(envs, ev.Envelope(&items[i]))
		}
		return b.PublishAll(ctx, envs)
	}
}
