package events_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	t.got = append(t.got, msgs...)
	return t.err
}

// optionTransport reads the adapter options "priority" under its name "probe".
type optionTransport struct{ publishTransport }

func (*optionTransport) Name() string             { return "probe" }
func (*optionTransport) AdapterOptions() []string { return []string{"priority"} }

// PublishAll's messages (built in one slab) are distinct, each with its own key and
// payload.
func TestPublishAllMessagesAreDistinct(t *testing.T) {
	tr := &publishTransport{}
	bus := events.New(events.WithTransport(tr))
	envs := make([]events.Envelope, 40)
	for i := range envs {
		envs[i] = OrderPlaced.Envelope(&Placed{OrderID: fmt.Sprint("o-", i), Total: i}, events.WithKey(fmt.Sprint("k-", i)))
	}
	if err := bus.PublishAll(context.Background(), envs); err != nil {
		t.Fatal(err)
	}
	if len(tr.got) != 40 {
		t.Fatalf("published %d messages, want 40", len(tr.got))
	}
	for i, m := range tr.got {
		want := fmt.Sprintf(`{"orderId":"o-%d","total":%d}`, i, i)
		if m.Key != fmt.Sprint("k-", i) || string(m.Payload) != want || m.Event != OrderPlaced.Contract() {
			t.Fatalf("message %d: key %q payload %s", i, m.Key, m.Payload)
		}
	}
}

// A transport's error that names no message fails every message sent, by index; the
// message that failed to encode keeps its own error.
func TestPublishAllPlainTransportErrorFailsEverySentMessage(t *testing.T) {
	boom := errors.New("boom")
	bus := events.New(events.WithTransport(&publishTransport{err: boom}))
	err := bus.PublishAll(context.Background(), []events.Envelope{
		OrderPlaced.Envelope(&Placed{OrderID: "a"}),
		OrderPlaced.Envelope(&Placed{OrderID: "b", Total: -1}),
		{Event: OrderPlaced.Contract(), Payload: &Placed{OrderID: "c"}},
	})
	var pe *events.PartialPublishError
	if !errors.As(err, &pe) || !slices.Equal(pe.Unsent, []int{0, 1, 2}) {
		t.Fatalf("PublishAll = %v, want every index unsent", err)
	}
	var payloadErr *events.PayloadError
	if !errors.Is(pe.Errs[0], boom) || !errors.As(pe.Errs[1], &payloadErr) || !errors.Is(pe.Errs[2], boom) {
		t.Errorf("errors %v", pe.Errs)
	}
}

// Publish defaults apply to Publish and PublishAll; a publish's own options and an
// envelope's own values win; the caller's envelope metadata is not written to.
func TestPublishDefaults(t *testing.T) {
	tr := &publishTransport{}
	bus := events.New(events.WithTransport(tr), events.WithCodec(upperJSON{}),
		events.WithPublishDefaults(events.WithKey("default"), events.WithHeader("tenant", "acme"),
			events.WithAdapterOption("nats", "a", 1)))
	ctx := context.Background()
	if err := bus.Publish(ctx, "c.one", &Placed{OrderID: "1"}); err != nil {
		t.Fatal(err)
	}
	if err := bus.Publish(ctx, "c.two", &Placed{OrderID: "2"}, events.WithKey("")); err != nil {
		t.Fatal(err)
	}
	meta := events.Metadata{"tenant": "other", "hops": "1", "KIT-id": "forged", "content-codec": "forged"}
	if err := bus.PublishAll(ctx, []events.Envelope{
		{Event: "c.three", Payload: &Placed{OrderID: "3"}, Metadata: meta},
		{Event: "c.four", Payload: &Placed{OrderID: "4"}, Key: "own",
			AdapterOptions: map[string]map[string]any{"nats": {"b": 2}}},
	}); err != nil {
		t.Fatal(err)
	}
	if len(meta) != 4 || meta["content-codec"] != "forged" {
		t.Errorf("the caller's metadata was written to: %v", meta)
	}
	want := []struct {
		key, tenant string
	}{{"default", "acme"}, {"", "acme"}, {"default", "other"}, {"own", "acme"}}
	for i, m := range tr.got {
		if m.Key != want[i].key || m.Metadata.Get("tenant") != want[i].tenant || m.Metadata.Get(events.MetaCodec) != "kit-test" {
			t.Errorf("message %d: key %q metadata %v", i, m.Key, m.Metadata)
		}
		if m.Metadata.Get("KIT-id") != "" {
			t.Errorf("message %d carries a reserved key: %v", i, m.Metadata)
		}
		if v, _ := m.AdapterOption("nats", "a"); v != 1 {
			t.Errorf("message %d lost the default adapter option: %v", i, m.AdapterOptions)
		}
	}
	if v, _ := tr.got[3].AdapterOption("nats", "b"); v != 2 {
		t.Errorf("the envelope's adapter option was lost: %v", tr.got[3].AdapterOptions)
	}
}

// An adapter option under the transport's name that it does not read fails the publish
// before anything is sent; another adapter's option is left alone; a transport that reads
// none is not checked.
func TestAdapterOptions(t *testing.T) {
	ctx := context.Background()
	tr := &optionTransport{}
	bus := events.New(events.WithTransport(tr))
	if err := bus.Publish(ctx, "c", &Placed{}, events.WithAdapterOption("probe", "priority", 9),
		events.WithAdapterOption("kafka", "anything", 1)); err != nil {
		t.Fatal(err)
	}
	if v, ok := tr.got[0].AdapterOption("probe", "priority"); !ok || v != 9 {
		t.Errorf("adapter option = %v, %v", v, ok)
	}
	err := bus.Publish(ctx, "c", &Placed{}, events.WithAdapterOption("probe", "partition", 3))
	if !errors.Is(err, events.ErrUnknownAdapterOption) || len(tr.got) != 1 {
		t.Errorf("unknown option: %v (%d sent)", err, len(tr.got))
	}
	unchecked := &publishTransport{}
	if err := events.New(events.WithTransport(unchecked)).Publish(ctx, "c", &Placed{},
		events.WithAdapterOption("test", "any", 1)); err != nil {
		t.Errorf("a transport that reads no options was checked: %v", err)
	}
	inproc := events.New(events.WithTransport(events.NewInProcess()))
	if err := inproc.Publish(ctx, "c", &Placed{}, events.WithAdapterOption("inprocess", "x", 1)); !errors.Is(err, events.ErrUnknownAdapterOption) {
		t.Errorf("in-process option: %v", err)
	}
}

// Bus.Publish validates a payload with a Validate method, refuses a nil one and takes a
// Raw one as it is; a bus without a transport says so.
func TestPublishPayloads(t *testing.T) {
	ctx := context.Background()
	tr := &publishTransport{}
	bus := events.New(events.WithTransport(tr))
	var pe *events.PayloadError
	if err := bus.Publish(ctx, "c", &Placed{Total: -1}); !errors.As(err, &pe) || pe.Event != "c" {
		t.Errorf("invalid payload: %v", err)
	}
	if err := bus.Publish(ctx, "c", (*Placed)(nil)); !errors.As(err, &pe) {
		t.Errorf("nil payload: %v", err)
	}
	if err := bus.Publish(ctx, "c", nil); !errors.As(err, &pe) {
		t.Errorf("nil payload: %v", err)
	}
	if err := bus.Publish(ctx, "c", events.Raw(`not json`)); err != nil || string(tr.got[0].Payload) != "not json" {
		t.Errorf("raw payload: %v", err)
	}
	noTransport := events.New()
	if err := noTransport.Publish(ctx, "c", &Placed{}); !errors.Is(err, events.ErrNoTransport) {
		t.Errorf("Publish without a transport: %v", err)
	}
	if err := noTransport.Start(ctx); !errors.Is(err, events.ErrNoTransport) {
		t.Errorf("Start without a transport: %v", err)
	}
}

// Recovery is outermost: a panic in the bus's chain or in a subscription's Chain is a
// *PanicError naming the subscription, retried and finally dead-lettered.
func TestRecoveryCoversTheChains(t *testing.T) {
	var dead deadLetters
	b := newBus(t, events.WithDeadLetter(dead.fn), events.WithGroup("g", events.GroupSettings{MaxAttempts: 1}),
		events.WithMiddleware(func(sub events.Subscription, next events.Handler) events.Handler {
			return func(ctx context.Context, m *events.Message) error {
				if m.Metadata.Get("panic") == "bus" {
					panic("in the bus chain")
				}
				return next(ctx, m)
			}
		}))
	sub := OrderPlaced.Subscription(b, "g", func(context.Context, *Placed) error { return nil })
	sub.Consumer = "billing"
	sub.Chain = events.Chain{nil, func(sub events.Subscription, next events.Handler) events.Handler {
		return func(ctx context.Context, m *events.Message) error {
			if m.Metadata.Get("panic") == "sub" {
				panic("in the subscription chain")
			}
			return next(ctx, m)
		}
	}}
	if err := b.Register(sub); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, where := range []string{"bus", "sub"} {
		if err := OrderPlaced.Publish(context.Background(), b, &Placed{}, events.WithHeader("panic", where)); err != nil {
			t.Fatal(err)
		}
	}
	reasons := dead.wait(t, 2)
	for _, r := range reasons {
		var pe *events.PanicError
		if !errors.As(r, &pe) || pe.Event != OrderPlaced.Contract() || pe.Group != "g" || pe.Consumer != "billing" {
			t.Errorf("reason %v", r)
		}
	}
}
