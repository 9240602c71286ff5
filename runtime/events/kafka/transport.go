package kafka

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl"

	"github.com/kitdev/kit/runtime/events"
)

// ErrClosed is returned by Publish and Subscribe after Close (it is events.ErrClosed).
var ErrClosed = events.ErrClosed

// Transport is the Kafka transport; build it with New.
type Transport struct {
	seedList []string
	producer *kgo.Client
	opts     options
	closed   atomic.Bool
	created  sync.Map // topic -> struct{}: topics known to exist
	// autoCreate: the producer asks the broker to create a missing topic
	// (kgo.AllowAutoTopicCreation among the client options).
	autoCreate bool
}

type options struct {
	client      []kgo.Opt
	share       map[events.Group]bool
	shareAll    bool
	partitions  int32
	replication int16
	create      bool
}

// Option configures the transport.
type Option func(*options)

// WithTLS connects over TLS with cfg.
func WithTLS(cfg *tls.Config) Option {
	return func(o *options) { o.client = append(o.client, kgo.DialTLSConfig(cfg)) }
}

// WithSASL authenticates with the first mechanism the broker supports (franz-go's
// sasl/plain, sasl/scram, sasl/oauth, ...).
func WithSASL(mechanisms ...sasl.Mechanism) Option {
	return func(o *options) { o.client = append(o.client, kgo.SASL(mechanisms...)) }
}

// WithClientOptions passes franz-go options to every client the transport builds (the
// producer and each group's consumer): timeouts, compression, a custom dialer, hooks.
func WithClientOptions(opts ...kgo.Opt) Option {
	return func(o *options) { o.client = append(o.client, opts...) }
}

// WithShareGroups consumes the named groups as share groups (KIP-932) instead of classic
// consumer groups.
func WithShareGroups(groups ...events.Group) Option {
	return func(o *options) {
		for _, g := range groups {
			o.share[g] = true
		}
	}
}

// WithAllShareGroups consumes every group as a share group.
func WithAllShareGroups() Option { return func(o *options) { o.shareAll = true } }

// WithTopicCreation creates a contract's topic, with this many partitions and replicas,
// the first time the transport publishes to it or subscribes to it and finds it missing.
func WithTopicCreation(partitions int32, replicationFactor int16) Option {
	return func(o *options) { o.create, o.partitions, o.replication = true, partitions, replicationFactor }
}

// New builds the transport for the cluster reachable at seeds ("host:port").
func New(seeds []string, opts ...Option) (*Transport, error) {
	t := &Transport{seedList: seeds, opts: options{share: map[events.Group]bool{}}}
	for _, o := range opts {
		o(&t.opts)
	}
	producer, err := kgo.NewClient(t.clientOptions(kgo.SeedBrokers(seeds...))...)
	if err != nil {
		return nil, err
	}
	t.producer = producer
	t.autoCreate, _ = producer.OptValue(kgo.AllowAutoTopicCreation).(bool)
	return t, nil
}

// clientOptions are the user's options after the transport's own, so the user's win.
func (t *Transport) clientOptions(own ...kgo.Opt) []kgo.Opt {
	return append(own, t.opts.client...)
}

func (t *Transport) seeds() []string { return t.seedList }

// Name is "kafka".
func (t *Transport) Name() string { return "kafka" }

// Client returns the producing client (for admin requests and metrics).
func (t *Transport) Client() *kgo.Client { return t.producer }

// Close flushes and closes the producing client.
func (t *Transport) Close() error {
	if t.closed.Swap(true) {
		return ErrClosed
	}
	t.producer.Close()
	return nil
}

// Publish produces one record per message and waits for every acknowledgement.
func (t *Transport) Publish(ctx context.Context, msgs []*events.Message) error {
	if t.closed.Load() {
		return events.PartialPublishErrorOf(slices.Repeat([]error{ErrClosed}, len(msgs)))
	}
	topics := make([]string, 0, 1)
	for _, m := range msgs {
		if !slices.Contains(topics, m.Event) {
			topics = append(topics, m.Event)
		}
	}
	if err := t.ensureTopics(ctx, topics); err != nil {
		return events.PartialPublishErrorOf(slices.Repeat([]error{err}, len(msgs)))
	}
	// The batch's records in one allocation, not one per message.
	slab := make([]kgo.Record, len(msgs))
	records := make([]*kgo.Record, len(msgs))
	errs := make([]error, len(msgs))
	bad := false
	for i, m := range msgs {
		errs[i] = fillRecord(&slab[i], m)
		records[i] = &slab[i]
		bad = bad || errs[i] != nil
	}
	if bad {
		return events.PartialPublishErrorOf(errs) // nothing produced: the batch is refused whole
	}
	t.produce(ctx, records, errs)
	if slices.ContainsFunc(errs, isUnknownTopic) {
		t.retryNewTopics(ctx, msgs, slab, records, errs)
	}
	return events.PartialPublishErrorOf(errs)
}

// produce produces records and sets errs[i] to the result of records[i].
func (t *Transport) produce(ctx context.Context, records []*kgo.Record, errs []error) {
	for i, r := range t.producer.ProduceSync(ctx, records...) {
		errs[i] = r.Err
		if errors.Is(r.Err, kgo.ErrClientClosed) {
			errs[i] = ErrClosed
		}
	}
}

func isUnknownTopic(err error) bool { return errors.Is(err, kerr.UnknownTopicOrPartition) }

// newTopicWait bounds the retries of a publish whose context has no deadline.
const newTopicWait = 30 * time.Second

// retryNewTopics produces again, until ctx's deadline (or newTopicWait), the records that
// failed with UNKNOWN_TOPIC_OR_PARTITION on a topic that is on its way: one the transport
// created (or found) or the broker is asked to create. A topic just created is unknown to
// a broker until the controller's metadata reaches it, and franz-go gives up on a topic
// after a few metadata refreshes (kgo.UnknownTopicRetries); under load the first publish
// after Start could fail that way. Such a record never reached a partition, so producing
// it again publishes it once. Other topics keep the error: nobody is creating them.
func (t *Transport) retryNewTopics(ctx context.Context, msgs []*events.Message, slab []kgo.Record, records []*kgo.Record, errs []error) {
	ctx, cancel := context.WithTimeout(ctx, newTopicWait) // the earlier of the two deadlines
	defer cancel()
	delay := 50 * time.Millisecond
	for {
		var idx []int
		for i, err := range errs {
			if isUnknownTopic(err) && t.onItsWay(msgs[i].Event) {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			return // the records keep UNKNOWN_TOPIC_OR_PARTITION
		case <-time.After(delay):
		}
		delay = min(2*delay, time.Second)
		retry := make([]*kgo.Record, len(idx))
		for j, i := range idx {
			slab[i] = kgo.Record{}            // a produced record carries the last attempt's state
			_ = fillRecord(&slab[i], msgs[i]) // it was filled once without an error
			retry[j] = records[i]
		}
		sub := make([]error, len(idx))
		t.produce(ctx, retry, sub)
		for j, i := range idx {
			errs[i] = sub[j]
		}
	}
}

// onItsWay reports whether topic is expected to exist soon: the transport created it (or
// found it), or the broker creates missing topics for this producer.
func (t *Transport) onItsWay(topic string) bool {
	if t.autoCreate {
		return true
	}
	_, ok := t.created.Load(topic)
	return ok
}

// ensureTopics creates the missing topics among names (WithTopicCreation only).
func (t *Transport) ensureTopics(ctx context.Context, names []string) error {
	if !t.opts.create || t.allCreated(names) {
		return nil
	}
	req := kmsg.NewPtrCreateTopicsRequest()
	for _, name := range names {
		if _, ok := t.created.Load(name); ok {
			continue
		}
		topic := kmsg.NewCreateTopicsRequestTopic()
		topic.Topic = name
		topic.NumPartitions = t.opts.partitions
		topic.ReplicationFactor = t.opts.replication
		req.Topics = append(req.Topics, topic)
	}
	if len(req.Topics) == 0 {
		return nil
	}
	req.TimeoutMillis = 10_000
	resp, err := req.RequestWith(ctx, t.producer)
	if err != nil {
		return fmt.Errorf("events/kafka: create topics: %w", err)
	}
	for _, topic := range resp.Topics {
		if err := kerr.ErrorForCode(topic.ErrorCode); err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
			return fmt.Errorf("events/kafka: create topic %q: %w", topic.Topic, err)
		}
		t.created.Store(topic.Topic, struct{}{})
	}
	return nil
}

// allCreated reports whether every topic of names is known to exist (the common case:
// no request to build).
func (t *Transport) allCreated(names []string) bool {
	for _, name := range names {
		if _, ok := t.created.Load(name); !ok {
			return false
		}
	}
	return true
}

// Subscribe joins the group: a share group when named in WithShareGroups, else a classic
// consumer group.
func (t *Transport) Subscribe(ctx context.Context, spec events.ConsumerSpec, sink events.Sink) (events.Consumer, error) {
	if t.closed.Load() {
		return nil, ErrClosed
	}
	if err := t.ensureTopics(ctx, spec.Contracts); err != nil {
		return nil, err
	}
	if t.opts.shareAll || t.opts.share[spec.Group] {
		return t.subscribeShare(ctx, spec, sink)
	}
	return t.subscribeClassic(spec, sink)
}

const headerID = "kit-id"

// OptionTimestamp is the adapter option (a time.Time) that sets a published record's
// timestamp: events.WithAdapterOption("kafka", kafka.OptionTimestamp, t). Without it the
// client stamps the time of the produce.
const OptionTimestamp = "timestamp"

// AdapterOptions lists the adapter options the transport reads: OptionTimestamp.
func (t *Transport) AdapterOptions() []string { return []string{OptionTimestamp} }

// fillRecord sets r (zero) to the record of m; a wrong-typed adapter option is an error.
func fillRecord(r *kgo.Record, m *events.Message) error {
	r.Topic, r.Key, r.Value = m.Event, bytesOf(m.Key), m.Payload
	if v, ok := m.AdapterOption("kafka", OptionTimestamp); ok {
		ts, ok := v.(time.Time)
		if !ok {
			return fmt.Errorf("events/kafka: adapter option %q is a %T, want a time.Time", OptionTimestamp, v)
		}
		r.Timestamp = ts
	}
	if len(m.Metadata) == 0 && m.DedupID == "" {
		return nil
	}
	r.Headers = make([]kgo.RecordHeader, 0, len(m.Metadata)+1)
	for k, v := range m.Metadata {
		r.Headers = append(r.Headers, kgo.RecordHeader{Key: k, Value: bytesOf(v)})
	}
	if m.DedupID != "" {
		r.Headers = append(r.Headers, kgo.RecordHeader{Key: headerID, Value: bytesOf(m.DedupID)})
	}
	return nil
}

func fromRecord(r *kgo.Record, attempt int) *events.Message {
	m := &events.Message{}
	fillFromRecord(m, r, attempt)
	return m
}

// fillFromRecord sets m from a record (into a Message a delivery embeds).
func fillFromRecord(m *events.Message, r *kgo.Record, attempt int) {
	*m = events.Message{Event: r.Topic, Key: stringOf(r.Key), Payload: r.Value, Attempt: attempt, Raw: r}
	for _, h := range r.Headers {
		if h.Key == headerID {
			m.DedupID = string(h.Value)
			continue
		}
		if m.Metadata == nil { // most records carry none: no map for them
			m.Metadata = make(events.Metadata, len(r.Headers))
		}
		m.Metadata[h.Key] = string(h.Value)
	}
}

// stringOf is b as a string without a copy: a consumed record's key is never written to
// (franz-go hands each record its own slice of the fetch, and the payload is shared the
// same way), so the message's Key can be that memory: one allocation less per record.
func stringOf(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// bytesOf is s's bytes without a copy (nil for ""): franz-go only reads a produced
// record's key and header values, and a string is never written to.
func bytesOf(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// RecordFrom returns the record a consumed events.Message came from (offset, partition,
// timestamp, raw headers).
func RecordFrom(m *events.Message) (*kgo.Record, bool) {
	r, ok := m.Raw.(*kgo.Record)
	return r, ok
}
