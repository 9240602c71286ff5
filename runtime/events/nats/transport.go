package nats

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	natsgo "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/kitdev/kit/runtime/events"
)

// Transport is the NATS transport; build it with Connect or New.
type Transport struct {
	nc      *natsgo.Conn
	js      jetstream.JetStream
	owned   bool
	closed  atomic.Bool
	opts    options
	streams map[string]jetstream.Stream
}

type options struct {
	core       bool
	stream     *jetstream.StreamConfig
	consumer   func(events.Group, *jetstream.ConsumerConfig)
	connOpts   []natsgo.Option
	jetstreams []jetstream.JetStreamOpt
}

// Option configures the transport.
type Option func(*options)

// WithCore uses core NATS subjects and queue groups instead of JetStream.
func WithCore() Option { return func(o *options) { o.core = true } }

// WithStream creates the stream (or updates it to cfg) when the transport is built.
func WithStream(cfg jetstream.StreamConfig) Option { return func(o *options) { o.stream = &cfg } }

// WithConsumerConfig adjusts each group's consumer configuration before it is created.
func WithConsumerConfig(fn func(group events.Group, cfg *jetstream.ConsumerConfig)) Option {
	return func(o *options) { o.consumer = fn }
}

// WithConnOptions passes options to nats.Connect (Connect only).
func WithConnOptions(opts ...natsgo.Option) Option {
	return func(o *options) { o.connOpts = append(o.connOpts, opts...) }
}

// WithJetStreamOptions passes options to jetstream.New.
func WithJetStreamOptions(opts ...jetstream.JetStreamOpt) Option {
	return func(o *options) { o.jetstreams = append(o.jetstreams, opts...) }
}

// Connect dials url and builds the transport over the connection; Close closes it.
func Connect(ctx context.Context, url string, opts ...Option) (*Transport, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	nc, err := natsgo.Connect(url, o.connOpts...)
	if err != nil {
		return nil, err
	}
	t, err := New(ctx, nc, opts...)
	if err != nil {
		nc.Close()
		return nil, err
	}
	t.owned = true
	return t, nil
}

// New builds the transport over an open connection. Close flushes but does not close nc.
func New(ctx context.Context, nc *natsgo.Conn, opts ...Option) (*Transport, error) {
	t := &Transport{nc: nc, streams: map[string]jetstream.Stream{}}
	for _, opt := range opts {
		opt(&t.opts)
	}
	if t.opts.core {
		return t, nil
	}
	js, err := jetstream.New(nc, t.opts.jetstreams...)
	if err != nil {
		return nil, err
	}
	t.js = js
	if t.opts.stream != nil {
		if _, err := js.CreateOrUpdateStream(ctx, *t.opts.stream); err != nil {
			return nil, fmt.Errorf("events/nats: stream %q: %w", t.opts.stream.Name, err)
		}
	}
	return t, nil
}

// Name is "nats".
func (t *Transport) Name() string { return "nats" }

// Conn returns the underlying connection.
func (t *Transport) Conn() *natsgo.Conn { return t.nc }

// Close flushes what was published and acknowledged, then closes the connection when the
// transport opened it.
func (t *Transport) Close() error {
	if t.closed.Swap(true) {
		return events.ErrClosed
	}
	err := t.nc.Flush()
	if t.owned {
		t.nc.Close()
	}
	if errors.Is(err, natsgo.ErrConnectionClosed) {
		err = nil
	}
	return err
}

// Publish publishes msgs: JetStream publishes are asynchronous and awaited together, so a
// batch costs about one round trip; core publishes are flushed once.
func (t *Transport) Publish(ctx context.Context, msgs []*events.Message) error {
	if t.closed.Load() {
		return events.PartialPublishErrorOf(slices.Repeat([]error{events.ErrClosed}, len(msgs)))
	}
	if t.opts.core {
		return t.publishCore(ctx, msgs)
	}
	if len(msgs) == 1 {
		_, err := t.js.PublishMsg(ctx, toNATS(msgs[0]))
		return events.PartialPublishErrorOf([]error{err})
	}
	errs := make([]error, len(msgs))
	futures := make([]jetstream.PubAckFuture, len(msgs))
	for i, m := range msgs {
		futures[i], errs[i] = t.js.PublishMsgAsync(toNATS(m))
	}
	for i, f := range futures {
		if f == nil {
			continue
		}
		select {
		case <-f.Ok():
		case err := <-f.Err():
			errs[i] = err
		case <-ctx.Done():
			errs[i] = ctx.Err()
		}
	}
	return events.PartialPublishErrorOf(errs)
}

func (t *Transport) publishCore(ctx context.Context, msgs []*events.Message) error {
	errs := make([]error, len(msgs))
	for i, m := range msgs {
		errs[i] = t.nc.PublishMsg(toNATS(m))
	}
	if err := flush(ctx, t.nc); err != nil {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
	}
	return events.PartialPublishErrorOf(errs)
}

// AdapterOptions is empty: the NATS transport reads no adapter option.
func (t *Transport) AdapterOptions() []string { return nil }

// Subscribe creates or joins the group's consumer.
func (t *Transport) Subscribe(ctx context.Context, spec events.ConsumerSpec, sink events.Sink) (events.Consumer, error) {
	if t.closed.Load() {
		return nil, events.ErrClosed
	}
	if t.opts.core {
		return t.subscribeCore(ctx, spec, sink)
	}
	return t.subscribeJetStream(ctx, spec, sink)
}

// Header keys of the wire mapping.
const (
	headerKey   = "kit-key"
	headerMsgID = "Nats-Msg-Id"
)

func toNATS(m *events.Message) *natsgo.Msg {
	msg := natsgo.NewMsg(m.Event)
	msg.Data = m.Payload
	for k, v := range m.Metadata {
		msg.Header.Set(k, v)
	}
	if m.DedupID != "" {
		msg.Header.Set(headerMsgID, m.DedupID)
	}
	if m.Key != "" {
		msg.Header.Set(headerKey, m.Key)
	}
	return msg
}

func fromNATS(subject string, h natsgo.Header, data []byte, attempt int) *events.Message {
	m := &events.Message{}
	fillFromNATS(m, subject, h, data, attempt)
	return m
}

// fillFromNATS sets m from a NATS message's parts (into a Message a delivery embeds).
func fillFromNATS(m *events.Message, subject string, h natsgo.Header, data []byte, attempt int) {
	m.Event, m.Payload, m.Attempt = subject, data, attempt
	for k, vs := range h {
		switch {
		case k == headerMsgID:
			m.DedupID = first(vs)
		case k == headerKey:
			m.Key = first(vs)
		case strings.HasPrefix(k, "Nats-"):
		default:
			if m.Metadata == nil { // most messages carry none: no map for them
				m.Metadata = events.Metadata{}
			}
			m.Metadata[k] = first(vs)
		}
	}
}

func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// durableName turns a group into a consumer name (letters, digits, - and _).
func durableName(g events.Group) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, string(g))
}

// flush waits for the server to have read everything sent so far, within ctx (nats.go
// wants a deadline; without one the connection's default flush timeout applies).
func flush(ctx context.Context, nc *natsgo.Conn) error {
	if _, ok := ctx.Deadline(); ok {
		return nc.FlushWithContext(ctx)
	}
	return nc.Flush()
}

// MsgFrom returns the JetStream message a consumed events.Message came from (false for a
// core NATS message or a message this transport did not deliver).
func MsgFrom(m *events.Message) (jetstream.Msg, bool) {
	msg, ok := m.Raw.(jetstream.Msg)
	return msg, ok
}

// CoreMsgFrom returns the core NATS message a consumed events.Message came from.
func CoreMsgFrom(m *events.Message) (*natsgo.Msg, bool) {
	msg, ok := m.Raw.(*natsgo.Msg)
	return msg, ok
}
