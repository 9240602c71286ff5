package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kitdev/kit/runtime/events"
	"github.com/kitdev/kit/runtime/events/kafka"
)

// benchKafka runs the raw franz-go path then the bus path, each on its own topic (4
// partitions) and consumer group.
func benchKafka(ctx context.Context, seeds []string, round, n, batch int) (result, result, error) {
	suffix := fmt.Sprintf("%d-%d", time.Now().UnixNano(), round)
	return inOrder(round,
		func() (result, error) { return kafkaRaw(ctx, seeds, "bench.raw."+suffix, n, batch) },
		func() (result, error) { return kafkaBus(ctx, seeds, "bench.bus."+suffix, n, batch) })
}

// ensure creates topic with 4 partitions, the shape the bus path's WithTopicCreation(4, 1)
// gives its own topic.
func ensure(ctx context.Context, seeds []string, topic string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(seeds...))
	if err != nil {
		return err
	}
	defer cl.Close()
	req := kmsg.NewPtrCreateTopicsRequest()
	t := kmsg.NewCreateTopicsRequestTopic()
	t.Topic, t.NumPartitions, t.ReplicationFactor = topic, 4, 1
	req.Topics = append(req.Topics, t)
	req.TimeoutMillis = 10_000
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return err
	}
	return kerr.ErrorForCode(resp.Topics[0].ErrorCode)
}

func kafkaRaw(ctx context.Context, seeds []string, topic string, n, batch int) (result, error) {
	if err := ensure(ctx, seeds, topic); err != nil {
		return result{}, err
	}
	producer, err := kgo.NewClient(kgo.SeedBrokers(seeds...))
	if err != nil {
		return result{}, err
	}
	defer producer.Close()
	consumer, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.ConsumerGroup("raw-"+topic), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		return result{}, err
	}
	defer consumer.Close()
	rec := newRecorder(n)
	pollCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		for pollCtx.Err() == nil {
			fetches := consumer.PollRecords(pollCtx, 1000)
			fetches.EachRecord(func(r *kgo.Record) {
				var p payload
				if json.Unmarshal(r.Value, &p) == nil {
					rec.handled(&p)
				}
			})
		}
	}()
	return measure(ctx, n, batch, rec, func(ctx context.Context, items []payload) error {
		records := make([]*kgo.Record, len(items))
		for i := range items {
			records[i] = &kgo.Record{Topic: topic, Key: []byte(fmt.Sprint(items[i].Seq)), Value: encode(&items[i])}
		}
		return producer.ProduceSync(ctx, records...).FirstErr()
	})
}

func kafkaBus(ctx context.Context, seeds []string, topic string, n, batch int) (result, error) {
	tr, err := kafka.New(seeds, kafka.WithTopicCreation(4, 1))
	if err != nil {
		return result{}, err
	}
	ev := events.NewEvent[payload](topic, (*payload).Validate)
	group := events.Group("bus-" + topic)
	b := events.New(events.WithTransport(tr), events.WithGroup(group, events.GroupSettings{StartAt: events.StartAll, MaxInFlight: maxInFlight}))
	defer b.Close(context.Background())
	rec := newRecorder(n)
	if err := ev.Subscribe(b, group, func(_ context.Context, p *payload) error { rec.handled(p); return nil }); err != nil {
		return result{}, err
	}
	if err := b.Start(ctx); err != nil {
		return result{}, err
	}
	return measure(ctx, n, batch, rec, func(ctx context.Context, items []payload) error {
		envs := make([]events.Envelope, len(items))
		for i := range items {
			envs[i] = ev.Envelope(&items[i], events.WithKey(fmt.Sprint(items[i].Seq)))
		}
		return b.PublishAll(ctx, envs)
	})
}
