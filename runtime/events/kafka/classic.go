package kafka

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kitdev/kit/runtime/events"
)

// revokeBudget bounds how long a member finishes the records of partitions it loses.
const revokeBudget = 10 * time.Second

type topicPartition struct {
	topic     string
	partition int32
}

// partitionTrack follows one owned partition: the offsets handed to the bus and not yet
// settled, in order, and the next offset to commit (everything before it is settled).
type partitionTrack struct {
	c  *classicConsumer
	tp topicPartition
	// owned is false once the partition is revoked or lost: its records still in a fetch
	// are skipped. A revoked then reassigned partition gets a new track.
	owned   bool
	pending []int64
	settled map[int64]bool
	next    int64 // -1: nothing to commit yet
	commit  int64 // last committed
	// handed counts records handed to the bus and not yet settled or handed back (a
	// record waiting for its retry delay is not counted).
	handed int
}

func (p *partitionTrack) add(offset int64) {
	p.pending = append(p.pending, offset)
}

func (p *partitionTrack) settle(offset int64) {
	if len(p.pending) > 0 && p.pending[0] == offset && len(p.settled) == 0 {
		// The common case, records settled in the order they came: no map.
		p.next = offset + 1
		p.pending = p.pending[1:]
		return
	}
	p.settled[offset] = true
	for len(p.pending) > 0 && p.settled[p.pending[0]] {
		delete(p.settled, p.pending[0])
		p.next = p.pending[0] + 1
		p.pending = p.pending[1:]
	}
}

type classicConsumer struct {
	t        *Transport
	cl       *kgo.Client
	sink     events.Sink
	maxPoll  int
	stopping atomic.Bool

	// mu guards parts and every partitionTrack. A delivery keeps its partition's track, so
	// settling looks nothing up; a track forgotten meanwhile is no longer committed from.
	mu    sync.Mutex
	parts map[topicPartition]*partitionTrack

	pollCtx    context.Context
	stopPoll   context.CancelFunc
	sinkCtx    context.Context
	cancelSink context.CancelFunc
	done       chan struct{}
	commitDone chan struct{}
}

func (t *Transport) subscribeClassic(spec events.ConsumerSpec, sink events.Sink) (events.Consumer, error) {
	c := &classicConsumer{t: t, sink: sink, maxPoll: classicPoll(spec.Settings),
		parts: map[topicPartition]*partitionTrack{}, done: make(chan struct{}), commitDone: make(chan struct{})}
	start := kgo.NewOffset().AtEnd()
	if spec.Settings.StartAt == events.StartAll {
		start = kgo.NewOffset().AtStart()
	}
	cl, err := kgo.NewClient(t.clientOptions(
		kgo.SeedBrokers(t.seeds()...),
		kgo.ConsumerGroup(string(spec.Group)),
		kgo.ConsumeTopics(spec.Contracts...),
		kgo.ConsumeResetOffset(start),
		kgo.DisableAutoCommit(),
		kgo.OnPartitionsAssigned(c.assigned),
		kgo.OnPartitionsRevoked(c.revoked),
		kgo.OnPartitionsLost(c.lost),
	)...)
	if err != nil {
		return nil, err
	}
	c.cl = cl
	c.pollCtx, c.stopPoll = context.WithCancel(context.Background())
	c.sinkCtx, c.cancelSink = context.WithCancel(context.Background())
	go c.poll()
	go c.commitLoop()
	return c, nil
}

// defaultClassicPoll is how many records a classic member takes per poll by default
// (GroupSettings.Prefetch): franz-go buffers fetches anyway, so a poll only bounds what one
// loop hands over.
const defaultClassicPoll = 1000

func classicPoll(s events.GroupSettings) int {
	if s.Prefetch > 0 {
		return s.Prefetch
	}
	return defaultClassicPoll
}

// poll fetches and hands records to the bus until Stop. Records of the last poll not yet
// handed over when Stop begins are left: they were never tracked, so no commit passes them
// and the partition's next owner reads them.
func (c *classicConsumer) poll() {
	defer close(c.done)
	for c.pollCtx.Err() == nil {
		fetches := c.cl.PollRecords(c.pollCtx, c.maxPoll)
		if fetches.IsClientClosed() {
			return
		}
		records := fetches.Records()
		// The poll's deliveries in one allocation, not one per record: franz-go already
		// keeps a fetch's records in one slice, which a retained Message pins (Raw) anyway.
		deliveries := make([]classicDelivery, len(records))
		var last *partitionTrack // records come in runs of one partition: one lookup per run
		for i, r := range records {
			if c.stopping.Load() {
				return
			}
			p := last
			if p == nil || p.tp != (topicPartition{r.Topic, r.Partition}) {
				p = c.lookup(topicPartition{r.Topic, r.Partition})
				last = p
			}
			if p == nil || !c.track(p, r.Offset) {
				continue // revoked while we were fetching: the next owner reads it
			}
			d := &deliveries[i]
			d.p, d.r = p, r
			fillFromRecord(&d.m, r, 1)
			if err := c.sink(c.sinkCtx, d); err != nil {
				c.handBack(p)
				return // stop budget over: unsettled records are read again by the next owner
			}
		}
	}
}

// lookup returns the track of an owned partition (nil when not owned).
func (c *classicConsumer) lookup(tp topicPartition) *partitionTrack {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.parts[tp]
}

// track notes a record handed to the bus, unless its partition was revoked meanwhile.
func (c *classicConsumer) track(p *partitionTrack, offset int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !p.owned {
		return false
	}
	p.add(offset)
	p.handed++
	return true
}

// handBack marks a record handed to the bus as back with this member (waiting for a retry
// or not taken by the sink).
func (c *classicConsumer) handBack(p *partitionTrack) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p.handed--
}

// rehand marks a record handed to the bus again (its retry), if this member still owns
// its partition and is not stopping.
func (c *classicConsumer) rehand(p *partitionTrack) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !p.owned || c.stopping.Load() {
		return false
	}
	p.handed++
	return true
}

func (c *classicConsumer) settle(p *partitionTrack, offset int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p.settle(offset)
	p.handed--
}

// commitLoop commits settled offsets every 200ms until Stop.
func (c *classicConsumer) commitLoop() {
	defer close(c.commitDone)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			c.commit(c.pollCtx, nil)
		case <-c.pollCtx.Done():
			return
		}
	}
}

// commit commits the next offset of the partitions in only (all when nil).
func (c *classicConsumer) commit(ctx context.Context, only map[string][]int32) {
	offsets := map[string]map[int32]kgo.EpochOffset{}
	c.mu.Lock()
	for tp, p := range c.parts {
		if p.next < 0 || p.next == p.commit || (only != nil && !contains(only, tp)) {
			continue
		}
		if offsets[tp.topic] == nil {
			offsets[tp.topic] = map[int32]kgo.EpochOffset{}
		}
		offsets[tp.topic][tp.partition] = kgo.EpochOffset{Epoch: -1, Offset: p.next}
	}
	c.mu.Unlock()
	if len(offsets) == 0 {
		return
	}
	c.cl.CommitOffsetsSync(ctx, offsets, func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, _ *kmsg.OffsetCommitResponse, err error) {
		if err != nil {
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		for topic, parts := range offsets {
			for partition, eo := range parts {
				if p := c.parts[topicPartition{topic, partition}]; p != nil {
					p.commit = eo.Offset
				}
			}
		}
	})
}

func contains(set map[string][]int32, tp topicPartition) bool {
	for _, p := range set[tp.topic] {
		if p == tp.partition {
			return true
		}
	}
	return false
}

// inHandlers counts records with the bus (not settled, not waiting for a retry), in only
// (all when nil).
func (c *classicConsumer) inHandlers(only map[string][]int32) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for tp, p := range c.parts {
		if only == nil || contains(only, tp) {
			n += p.handed
		}
	}
	return n
}

// waitSettled waits until the bus holds no record of only, ctx ends or budget passes.
func (c *classicConsumer) waitSettled(ctx context.Context, only map[string][]int32, budget time.Duration) {
	deadline := time.Now().Add(budget)
	for c.inHandlers(only) > 0 && ctx.Err() == nil && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

func (c *classicConsumer) assigned(_ context.Context, _ *kgo.Client, assigned map[string][]int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for topic, ps := range assigned {
		for _, p := range ps {
			tp := topicPartition{topic, p}
			if t := c.parts[tp]; t != nil && t.owned {
				continue
			}
			c.parts[tp] = &partitionTrack{c: c, tp: tp, owned: true, settled: map[int64]bool{}, next: -1, commit: -1}
		}
	}
}

// revoked finishes and commits the partitions the group moves to another member.
func (c *classicConsumer) revoked(ctx context.Context, _ *kgo.Client, revoked map[string][]int32) {
	c.disown(revoked)
	c.waitSettled(ctx, revoked, revokeBudget)
	c.commit(ctx, revoked)
	c.forget(revoked)
}

// lost forgets partitions taken away without a revoke (session lost): nothing to commit.
func (c *classicConsumer) lost(_ context.Context, _ *kgo.Client, lost map[string][]int32) {
	c.disown(lost)
	c.forget(lost)
}

// disown stops taking records of parts (records of them still in a fetch are skipped).
func (c *classicConsumer) disown(parts map[string][]int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for topic, ps := range parts {
		for _, p := range ps {
			if t := c.parts[topicPartition{topic, p}]; t != nil {
				t.owned = false
			}
		}
	}
}

// forget drops the tracking of parts: late settlements of their records change nothing.
func (c *classicConsumer) forget(parts map[string][]int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	deleteParts(c.parts, parts)
}

func deleteParts[V any](m map[topicPartition]V, parts map[string][]int32) {
	for topic, ps := range parts {
		for _, p := range ps {
			delete(m, topicPartition{topic, p})
		}
	}
}

// Stop stops fetching, hands what was fetched to the handlers, waits for them within
// ctx, commits and leaves the group.
func (c *classicConsumer) Stop(ctx context.Context) error {
	c.stopping.Store(true)
	c.stopPoll()
	stopSink := context.AfterFunc(ctx, c.cancelSink)
	defer stopSink()
	<-c.done
	<-c.commitDone
	c.waitSettled(ctx, nil, time.Until(deadlineOf(ctx)))
	commitCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c.commit(commitCtx, nil)
	c.cl.Close()
	return ctx.Err()
}

func deadlineOf(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(time.Hour)
}

// classicDelivery carries its message (poll allocates them a poll at a time).
type classicDelivery struct {
	p *partitionTrack
	r *kgo.Record
	m events.Message
}

func (d *classicDelivery) Message() *events.Message { return &d.m }

func (d *classicDelivery) Ack(context.Context) error {
	d.p.c.settle(d.p, d.r.Offset)
	return nil
}

func (d *classicDelivery) Term(context.Context) error {
	d.p.c.settle(d.p, d.r.Offset)
	return nil
}

// Nak redelivers the record from this member after delay: a classic group cannot hand one
// record back to the broker, so the partition's commit waits for it.
func (d *classicDelivery) Nak(_ context.Context, delay time.Duration) error {
	c := d.p.c
	c.handBack(d.p)
	again := &classicDelivery{p: d.p, r: d.r, m: d.m}
	again.m.Attempt++
	time.AfterFunc(delay, func() {
		if !c.rehand(d.p) {
			return // stopping or moved: read again by the next owner (the commit never passed it)
		}
		if err := c.sink(c.sinkCtx, again); err != nil {
			c.handBack(d.p)
		}
	})
	return nil
}
