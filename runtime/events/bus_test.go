package events_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/kitdev/kit/runtime/events"
)

func newBus(t *testing.T, opts ...events.Option) *events.Bus {
	t.Helper()
	b := events.New(append([]events.Option{events.WithTransport(events.NewInProcess())}, opts...)...)
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	return b
}

// deadLetters records dead-letter reasons.
type deadLetters struct {
	mu      sync.Mutex
	reasons []error
}

func (d *deadLetters) fn(_ context.Context, _ events.Group, _ *events.Message, reason error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.reasons = append(d.reasons, reason)
}

func (d *deadLetters) wait(t *testing.T, n int) []error {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		d.mu.Lock()
		got := append([]error(nil), d.reasons...)
		d.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d dead-letters, want %d", len(got), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRegisterRefusals(t *testing.T) {
	b := newBus(t)
	var re *events.RegisterError
	if err := OrderPlaced.Subscribe(b, "", onPlaced); !errors.Is(err, events.ErrNoGroup) || !errors.As(err, &re) {
		t.Errorf("no group: %v", err)
	}
	if err := OrderPlaced.Subscribe(b, "g", onPlaced); err != nil {
		t.Fatal(err)
	}
	if err := OrderPlaced.Subscribe(b, "g", onPlaced); err == nil || !strings.Contains(err.Error(), "already consumes") {
		t.Errorf("second subscription of one contract in one group: %v", err)
	}
	if err := b.Register(events.Subscription{Event: "x", Group: "g"}); err == nil {
		t.Error("a subscription without a handler was registered")
	}
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); !errors.Is(err, events.ErrStarted) {
		t.Errorf("second Start: %v", err)
	}
	if err := OrderPlaced.Subscribe(b, "h", onPlaced); !errors.Is(err, events.ErrStarted) {
		t.Errorf("Register after Start: %v", err)
	}
	if err := b.Configure("h", events.GroupSettings{}); !errors.Is(err, events.ErrStarted) {
		t.Errorf("Configure after Start: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Use after Start did not panic")
		}
	}()
	b.Use(events.Tracing())
}

func TestDispositions(t *testing.T) {
	var dead deadLetters
	b := newBus(t, events.WithDeadLetter(dead.fn), events.WithGroup("g", events.GroupSettings{
		MaxAttempts: 2, Backoff: func(int) time.Duration { return time.Millisecond }}))
	var mu sync.Mutex
	calls := map[string]int{}
	_ = OrderPlaced.Subscribe(b, "g", func(_ context.Context, p *Placed) error {
		mu.Lock()
		calls[p.OrderID]++
		mu.Unlock()
		switch p.OrderID {
		case "panic":
			panic("boom")
		case "dead":
			return events.DeadLetter(errors.New("unbillable"))
		case "drop":
			return events.Drop(errors.New("duplicate"))
		}
		return nil
	})
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"panic", "dead", "drop", "ok"} {
		if err := OrderPlaced.Publish(context.Background(), b, &Placed{OrderID: id}); err != nil {
			t.Fatal(err)
		}
	}
	reasons := dead.wait(t, 2)
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if calls["panic"] != 2 || calls["dead"] != 1 || calls["drop"] != 1 || calls["ok"] != 1 {
		t.Errorf("calls %v: want panic twice (cap 2), the others once", calls)
	}
	var capErr *events.CapError
	var panicErr *events.PanicError
	found := 0
	for _, r := range reasons {
		if errors.As(r, &capErr) && errors.As(r, &panicErr) && panicErr.Value == "boom" && len(panicErr.Stack) > 0 {
			found++
		} else if r.Error() == "unbillable" {
			found++
		}
	}
	if found != 2 || len(reasons) != 2 {
		t.Errorf("dead-letter reasons %v", reasons)
	}
}

func TestCodecMismatchIsDeadLettered(t *testing.T) {
	var dead deadLetters
	broker := events.NewInProcess()
	b := events.New(events.WithTransport(broker.Connect()), events.WithDeadLetter(dead.fn))
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	_ = OrderPlaced.Subscribe(b, "g", func(context.Context, *Placed) error { t.Error("handler ran"); return nil })
	_ = b.Start(context.Background())
	// Straight through the transport: a bus would stamp its own codec.
	m := &events.Message{Event: OrderPlaced.Contract(), Payload: []byte(`<placed/>`),
		Metadata: events.Metadata{events.MetaCodec: "xml"}}
	if err := broker.Publish(context.Background(), []*events.Message{m}); err != nil {
		t.Fatal(err)
	}
	reasons := dead.wait(t, 1)
	var pe *events.PayloadError
	if !errors.Is(reasons[0], events.ErrCodecMismatch) || !errors.As(reasons[0], &pe) {
		t.Errorf("reason %v", reasons[0])
	}
}

func TestAccessLogLine(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(&lockedWriter{w: &buf, mu: &mu}, nil))
	b := newBus(t)
	b.Use(events.AccessLog(logger))
	done := make(chan struct{})
	sub := OrderPlaced.Subscription(b, "billing", func(context.Context, *Placed) error { close(done); return nil })
	sub.Consumer = "billing.OnPlaced"
	_ = b.Register(sub)
	_ = b.Start(context.Background())
	_ = OrderPlaced.Publish(context.Background(), b, &Placed{OrderID: "o"}, events.WithKey("o"), events.WithDedupID("m-1"))
	<-done
	var line map[string]any
	deadline := time.Now().Add(2 * time.Second)
	for {
		mu.Lock()
		text := buf.String()
		mu.Unlock()
		if text != "" {
			if err := json.Unmarshal([]byte(text), &line); err != nil {
				t.Fatal(err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no access log line")
		}
		time.Sleep(5 * time.Millisecond)
	}
	want := map[string]any{"msg": "event", "event": "shop.OrderPlaced", "group": "billing", "consumer": "billing.OnPlaced",
		"dedup_id": "m-1", "key": "o", "attempt": float64(1), "disposition": "ack"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %v, want %v (line %v)", k, line[k], v, line)
		}
	}
}

func TestTracingContinuesThePublishersTrace(t *testing.T) {
	exporter := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
	prevTP, prevProp := otel.GetTracerProvider(), otel.GetTextMapPropagator()
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.TraceContext{})
	t.Cleanup(func() { otel.SetTracerProvider(prevTP); otel.SetTextMapPropagator(prevProp) })

	var buf bytes.Buffer
	var mu sync.Mutex
	b := newBus(t)
	b.Use(events.Tracing(), events.AccessLog(slog.New(slog.NewJSONHandler(&lockedWriter{w: &buf, mu: &mu}, nil))))
	done := make(chan struct{})
	_ = OrderPlaced.Subscribe(b, "billing", func(context.Context, *Placed) error { close(done); return nil })
	_ = b.Start(context.Background())
	ctx, span := tp.Tracer("test").Start(context.Background(), "POST /orders")
	_ = OrderPlaced.Publish(ctx, b, &Placed{OrderID: "o"})
	span.End()
	<-done
	_ = b.Close(context.Background())
	var consumer sdktrace.ReadOnlySpan
	for _, s := range exporter.GetSpans().Snapshots() {
		if s.Name() == "process shop.OrderPlaced" {
			consumer = s
		}
	}
	if consumer == nil {
		t.Fatal("no consumer span")
	}
	if consumer.Parent().SpanID() != span.SpanContext().SpanID() || consumer.SpanContext().TraceID() != span.SpanContext().TraceID() {
		t.Errorf("consumer span is not a child of the publishing span")
	}
	mu.Lock()
	defer mu.Unlock()
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line["trace_id"] != span.SpanContext().TraceID().String() || line["span_id"] != consumer.SpanContext().SpanID().String() {
		t.Errorf("access log line %v does not name the consumer span", line)
	}
}

func TestSliceEventsAndPlanJSON(t *testing.T) {
	batch := events.NewEventSlice[Placed]("shop.Batch", (*Placed).Validate)
	b := newBus(t)
	got := make(chan int, 1)
	_ = batch.Subscribe(b, "g", func(_ context.Context, ps *[]Placed) error { got <- len(*ps); return nil })
	data, _ := json.Marshal(b.Plan())
	if string(data) != `{"transport":"inprocess","groups":[{"group":"g","maxInFlight":16,"ackWait":30000000000,"maxAttempts":5,"startAt":"new","consumers":[{"event":"shop.Batch","consumer":"events_test.TestSliceEventsAndPlanJSON.func1"}]}]}` {
		t.Errorf("plan JSON %s", data)
	}
	_ = b.Start(context.Background())
	_ = batch.Publish(context.Background(), b, &[]Placed{{OrderID: "a"}, {OrderID: "b"}})
	if n := <-got; n != 2 {
		t.Errorf("handler got %d elements", n)
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// upperJSON is a codec of its own name (JSON underneath).
type upperJSON struct{ events.JSONCodec }

func (upperJSON) Name() string { return "kit-test" }

func TestCustomCodecIsStampedAndChecked(t *testing.T) {
	broker := events.NewInProcess()
	var dead deadLetters
	same := events.New(events.WithTransport(broker.Connect()), events.WithCodec(upperJSON{}))
	other := events.New(events.WithTransport(broker.Connect()), events.WithDeadLetter(dead.fn)) // the JSON codec
	t.Cleanup(func() { _ = same.Close(context.Background()); _ = other.Close(context.Background()) })
	got := make(chan *Placed, 1)
	_ = OrderPlaced.Subscribe(same, "same", func(_ context.Context, p *Placed) error { got <- p; return nil })
	_ = OrderPlaced.Subscribe(other, "other", func(context.Context, *Placed) error { t.Error("JSON bus handled it"); return nil })
	_ = same.Start(context.Background())
	_ = other.Start(context.Background())
	if err := OrderPlaced.Publish(context.Background(), same, &Placed{OrderID: "c"}); err != nil {
		t.Fatal(err)
	}
	if p := <-got; p.OrderID != "c" {
		t.Errorf("decoded %+v", p)
	}
	if reasons := dead.wait(t, 1); !errors.Is(reasons[0], events.ErrCodecMismatch) {
		t.Errorf("JSON bus dead-letter reason %v", reasons[0])
	}
}
