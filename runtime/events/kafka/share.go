package kafka

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kitdev/kit/runtime/events"
)

// maxShareHold caps a retry delay of a share-group record: the record stays acquired by
// this member until released, and the broker takes it back after its lock duration (30s
// by default).
const maxShareHold = 20 * time.Second

type shareConsumer struct {
	cl       *kgo.Client
	sink     events.Sink
	maxPoll  int
	stopping atomic.Bool
	pollCtx  context.Context
	stopPoll context.CancelFunc
	sinkCtx  context.Context
	cancel   context.CancelFunc
	done     chan struct{}

	mu      sync.Mutex
	current []*shareDelivery // the batch being handled
}

func (t *Transport) subscribeShare(ctx context.Context, spec events.ConsumerSpec, sink events.Sink) (events.Consumer, error) {
	if spec.Settings.StartAt == events.StartAll {
		if err := t.setShareReset(ctx, spec.Group, "earliest"); err != nil {
			return nil, err
		}
	}
	cl, err := kgo.NewClient(t.clientOptions(
		kgo.SeedBrokers(t.seeds()...),
		kgo.ShareGroup(string(spec.Group)),
		kgo.ConsumeTopics(spec.Contracts...),
		kgo.ShareMaxRecords(int32(sharePoll(spec.Settings))),
	)...)
	if err != nil {
		return nil, err
	}
	c := &shareConsumer{cl: cl, sink: sink, maxPoll: sharePoll(spec.Settings), done: make(chan struct{})}
	c.pollCtx, c.stopPoll = context.WithCancel(context.Background())
	c.sinkCtx, c.cancel = context.WithCancel(context.Background())
	go c.poll()
	return c, nil
}

// setShareReset sets the group config share.auto.offset.reset (a share group starts at the
// latest offset otherwise).
func (t *Transport) setShareReset(ctx context.Context, group events.Group, value string) error {
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType = kmsg.ConfigResourceTypeGroupConfig
	res.ResourceName = string(group)
	cfg := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
	cfg.Name = "share.auto.offset.reset"
	cfg.Value = &value
	res.Configs = append(res.Configs, cfg)
	req.Resources = append(req.Resources, res)
	resp, err := req.RequestWith(ctx, t.producer)
	if err != nil {
		return fmt.Errorf("events/kafka: share group %q config: %w", group, err)
	}
	for _, r := range resp.Resources {
		if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
			return fmt.Errorf("events/kafka: share group %q config: %w", group, err)
		}
	}
	return nil
}

// poll fetches a batch, hands it to the bus and waits for every record of it to be
// settled before fetching again (the client accepts what is left unsettled at the next
// poll).
func (c *shareConsumer) poll() {
	defer close(c.done)
	for c.pollCtx.Err() == nil {
		fetches := c.cl.PollRecords(c.pollCtx, c.maxPoll)
		if fetches.IsClientClosed() {
			return
		}
		records := fetches.Records()
		var batch sync.WaitGroup
		batch.Add(len(records))
		deliveries := make([]*shareDelivery, len(records))
		for i, r := range records {
			deliveries[i] = &shareDelivery{c: c, r: r, m: fromRecord(r, int(max(r.DeliveryCount(), 1))), batch: &batch}
		}
		c.mu.Lock()
		c.current = deliveries
		c.mu.Unlock()
		for _, d := range deliveries {
			if c.stopping.Load() || c.sink(c.sinkCtx, d) != nil {
				d.settle(kgo.AckRelease)
			}
		}
		batch.Wait()
	}
}

// Stop stops fetching, releases what was fetched and not handed over, waits for the
// handlers within ctx, releases what is still unsettled and closes the client.
func (c *shareConsumer) Stop(ctx context.Context) error {
	c.stopping.Store(true)
	c.stopPoll()
	c.mu.Lock()
	for _, d := range c.current { // records held for a retry go back to the group now
		if d.waiting.Load() {
			d.settle(kgo.AckRelease)
		}
	}
	c.mu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		c.cancel()
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, d := range c.current { // what is still unsettled goes back to the group
			d.settle(kgo.AckRelease)
		}
	})
	defer stop()
	<-c.done
	flushCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.cl.FlushAcks(flushCtx)
	c.cl.Close()
	return ctx.Err()
}

type shareDelivery struct {
	c       *shareConsumer
	r       *kgo.Record
	m       *events.Message
	batch   *sync.WaitGroup
	once    sync.Once
	waiting atomic.Bool // held for a retry delay
}

func (d *shareDelivery) settle(status kgo.AckStatus) {
	d.once.Do(func() {
		d.r.Ack(status)
		d.batch.Done()
	})
}

func (d *shareDelivery) Message() *events.Message { return d.m }

func (d *shareDelivery) Ack(context.Context) error {
	d.settle(kgo.AckAccept)
	return nil
}

func (d *shareDelivery) Term(context.Context) error {
	d.settle(kgo.AckReject)
	return nil
}

// Nak holds the record for delay (capped at maxShareHold) and releases it to the group.
func (d *shareDelivery) Nak(_ context.Context, delay time.Duration) error {
	if delay <= 0 || d.c.stopping.Load() {
		d.settle(kgo.AckRelease)
		return nil
	}
	d.waiting.Store(true)
	time.AfterFunc(min(delay, maxShareHold), func() { d.settle(kgo.AckRelease) })
	return nil
}

// sharePoll is how many records a share member acquires at once (GroupSettings.Prefetch,
// default MaxInFlight): each is locked to this member until settled or its lock expires,
// so acquiring far ahead of the handlers would keep records from the other members.
func sharePoll(s events.GroupSettings) int {
	if s.Prefetch > 0 {
		return s.Prefetch
	}
	return max(s.MaxInFlight, 1)
}
