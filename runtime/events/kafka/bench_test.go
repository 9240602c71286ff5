package kafka_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kitdev/kit/runtime/events"
	"github.com/kitdev/kit/runtime/events/kafka"
)

// The benchmarks below split bench/events' end-to-end figure into its two halves, each
// through the bus and through franz-go alone on the same broker, and report this
// process's CPU time per event (cpu-ns/event): consuming records already on the topic, and
// publishing in batches of 100. Run them with -benchtime=50000x against a broker in
// KIT_KAFKA_BROKERS (see bench/README.md).

type benchPayload struct {
	Seq    int    `json:"seq"`
	SentAt int64  `json:"sentAt"`
	Pad    string `json:"pad"`
}

func benchValue(i int) []byte {
	data, _ := json.Marshal(&benchPayload{Seq: i, SentAt: time.Now().UnixNano(), Pad: strings.Repeat("x", 128)})
	return data
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchTopic(name string) string {
	return fmt.Sprintf("bench.%s.%d", name, time.Now().UnixNano())
}

// fill puts n keyed records on topic (4 partitions, created by the transport).
func fill(b *testing.B, topic string, n int) {
	b.Helper()
	tr, err := kafka.New(strings.Split(kafkaBrokers, ","), kafka.WithTopicCreation(4, 1))
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	for i := 0; i < n; i += 1000 {
		var msgs []*events.Message
		for j := i; j < min(i+1000, n); j++ {
			msgs = append(msgs, &events.Message{Event: topic, Key: strconv.Itoa(j), Payload: benchValue(j)})
		}
		if err := tr.Publish(context.Background(), msgs); err != nil {
			b.Fatal(err)
		}
	}
}

// consumed counts handled events and measures CPU from the first to the last.
type consumed struct {
	n, count  int64
	cpuAtZero time.Duration
	done      chan time.Duration
}

func newConsumed(n int) *consumed { return &consumed{n: int64(n), done: make(chan time.Duration, 1)} }

func (c *consumed) handled() {
	n := atomic.AddInt64(&c.count, 1)
	if n == 1 {
		c.cpuAtZero = cpuNow()
	}
	if n == c.n {
		c.done <- cpuNow() - c.cpuAtZero
	}
}

func (c *consumed) report(b *testing.B) {
	select {
	case cpu := <-c.done:
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(max(c.n-1, 1)), "cpu-ns/event")
	case <-time.After(2 * time.Minute):
		b.Fatalf("consumed %d of %d", atomic.LoadInt64(&c.count), c.n)
	}
}

func BenchmarkClassicConsumeRaw(b *testing.B) {
	topic := benchTopic("consume.raw")
	fill(b, topic, b.N)
	c := newConsumed(b.N)
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(kafkaBrokers, ",")...), kgo.ConsumerGroup("g-"+topic),
		kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	b.ResetTimer()
	go func() {
		for ctx.Err() == nil {
			cl.PollRecords(ctx, 1000).EachRecord(func(r *kgo.Record) {
				var p benchPayload
				if json.Unmarshal(r.Value, &p) == nil {
					c.handled()
				}
			})
		}
	}()
	c.report(b)
}

func BenchmarkClassicConsumeBus(b *testing.B) {
	topic := benchTopic("consume.bus")
	fill(b, topic, b.N)
	c := newConsumed(b.N)
	tr, err := kafka.New(strings.Split(kafkaBrokers, ","))
	if err != nil {
		b.Fatal(err)
	}
	group := events.Group("g-" + topic)
	bus := events.New(events.WithTransport(tr), events.WithGroup(group, events.GroupSettings{StartAt: events.StartAll}))
	defer bus.Close(context.Background())
	ev := events.NewEvent[benchPayload](topic, nil)
	if err := ev.Subscribe(bus, group, func(context.Context, *benchPayload) error { c.handled(); return nil }); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if err := bus.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	c.report(b)
}

// publishBench publishes b.N events in batches of 100 through publish and reports the CPU
// per event.
func publishBench(b *testing.B, publish func(items []benchPayload) error) {
	items := make([]benchPayload, 100)
	for i := range items {
		items[i] = benchPayload{Seq: i, Pad: strings.Repeat("x", 128)}
	}
	if err := publish(items); err != nil { // the topic's metadata, outside the timing
		b.Fatal(err)
	}
	b.ResetTimer()
	start := cpuNow()
	for i := 0; i < b.N; i += len(items) {
		if err := publish(items[:min(len(items), b.N-i)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuNow()-start).Nanoseconds())/float64(b.N), "cpu-ns/event")
}

func BenchmarkPublishRaw(b *testing.B) {
	topic := benchTopic("publish.raw")
	fill(b, topic, 1) // creates the topic, as the bus path's transport does
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(kafkaBrokers, ",")...))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	publishBench(b, func(items []benchPayload) error {
		records := make([]*kgo.Record, len(items))
		for i := range items {
			value, _ := json.Marshal(&items[i])
			records[i] = &kgo.Record{Topic: topic, Key: []byte(strconv.Itoa(items[i].Seq)), Value: value}
		}
		return cl.ProduceSync(context.Background(), records...).FirstErr()
	})
}

func BenchmarkPublishBus(b *testing.B) {
	topic := benchTopic("publish.bus")
	tr, err := kafka.New(strings.Split(kafkaBrokers, ","), kafka.WithTopicCreation(4, 1))
	if err != nil {
		b.Fatal(err)
	}
	bus := events.New(events.WithTransport(tr))
	defer bus.Close(context.Background())
	ev := events.NewEvent[benchPayload](topic, nil)
	envs := make([]events.Envelope, 0, 100)
	publishBench(b, func(items []benchPayload) error {
		envs = envs[:0]
		for i := range items {
			envs = append(envs, ev.Envelope(&items[i], events.WithKey(strconv.Itoa(items[i].Seq))))
		}
		return bus.PublishAll(context.Background(), envs)
	})
}
