package eventstest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kitdev/kit/runtime/events"
)

var all = events.GroupSettings{StartAt: events.StartAll}

func (s *suite) roundTrip(t *testing.T) {
	ev, g := s.event(t), group("rt")
	var rec recorder
	b := s.bus(t, events.WithGroup(g, all))
	b.Use(keepMessage)
	if err := ev.Subscribe(b, g, func(ctx context.Context, it *Item) error {
		rec.add("", *it, messageOf(ctx))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.start(t, b)
	pub := s.bus(t, events.WithPublishDefaults(events.WithHeader("x-tenant", "acme"), events.WithKey("default")))
	items := []Item{{Seq: 1, Key: "a", Note: "first"}, {Seq: 2, Key: "a"}, {Seq: 3}}
	s.publish(t, pub, ev, items, func(it Item) []events.PublishOption {
		return []events.PublishOption{events.WithKey(it.Key), events.WithDedupID(fmt.Sprintf("id-%d", it.Seq)),
			events.WithHeader("kit-forged", "x"), events.WithHeader("KIT-Forged", "x"),
			events.WithHeader(events.MetaCodec, "forged")}
	})
	s.eventually(t, "3 deliveries", func() bool { return rec.len() >= 3 })
	time.Sleep(100 * time.Millisecond)
	if rec.len() != 3 {
		t.Fatalf("%d deliveries, want 3", rec.len())
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i, m := range rec.msgs {
		it := rec.items[i]
		if m.Event != ev.Contract() || m.DedupID != fmt.Sprintf("id-%d", it.Seq) || m.Key != it.Key || m.Attempt != 1 {
			t.Errorf("message %d: event %q dedup id %q key %q attempt %d", i, m.Event, m.DedupID, m.Key, m.Attempt)
		}
		if m.Metadata.Get("x-tenant") != "acme" || m.Metadata.Get("kit-forged") != "" || m.Metadata.Get("KIT-Forged") != "" {
			t.Errorf("message %d metadata %v", i, m.Metadata)
		}
		if c := m.Metadata.Get(events.MetaCodec); c != "" {
			t.Errorf("message %d carries codec %q: JSON needs no stamp", i, c)
		}
		if it.Seq == 1 && it.Note != "first" {
			t.Errorf("payload %+v", it)
		}
	}
}

func (s *suite) publishAll(t *testing.T) {
	ev, g := s.event(t), group("batch")
	var rec recorder
	b := s.bus(t, events.WithGroup(g, all))
	if err := ev.Subscribe(b, g, func(_ context.Context, it *Item) error { rec.add("", *it, nil); return nil }); err != nil {
		t.Fatal(err)
	}
	s.start(t, b)
	envs := []events.Envelope{
		ev.Envelope(&Item{Seq: 1}, events.WithKey("a")),
		ev.Envelope(&Item{Seq: -1}), // fails validation: never sent
		{Event: ev.Contract(), Payload: &Item{Seq: 2}},
		{Event: ev.Contract(), Payload: &Item{Seq: -2}}, // validated through its Validate method
		{Event: ev.Contract(), Payload: &Item{Seq: 3}, AdapterOptions: map[string]map[string]any{"other": {"x": 1}}},
	}
	err := b.PublishAll(context.Background(), envs)
	var pe *events.PartialPublishError
	if !errors.As(err, &pe) || len(pe.Unsent) != 2 || pe.Unsent[0] != 1 || pe.Unsent[1] != 3 {
		t.Fatalf("PublishAll = %v, want indices 1 and 3 unsent", err)
	}
	for _, err := range pe.Errs {
		var payloadErr *events.PayloadError
		if !errors.As(err, &payloadErr) {
			t.Fatalf("failure %v is not a payload error", err)
		}
	}
	s.eventually(t, "3 deliveries", func() bool { return rec.len() >= 3 })
	time.Sleep(100 * time.Millisecond)
	got := map[int]bool{}
	for _, it := range rec.snapshot() {
		got[it.Seq] = true
	}
	if len(got) != 3 || !got[1] || !got[2] || !got[3] {
		t.Errorf("delivered %v, want seqs 1, 2 and 3", got)
	}
}

func (s *suite) shareAndFanOut(t *testing.T) {
	ev, shared, other := s.event(t), group("shared"), group("other")
	var mu sync.Mutex
	byMember := map[string]int{}
	byGroup := map[events.Group]map[int]int{shared: {}, other: {}}
	handler := func(member string, g events.Group) func(context.Context, *Item) error {
		return func(_ context.Context, it *Item) error {
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			byMember[member]++
			byGroup[g][it.Seq]++
			return nil
		}
	}
	settings := events.GroupSettings{StartAt: events.StartAll, MaxInFlight: 2}
	var buses []*events.Bus
	for _, m := range []struct {
		member string
		g      events.Group
	}{{"a1", shared}, {"a2", shared}, {"b", other}} {
		b := s.bus(t, events.WithGroup(m.g, settings))
		if err := ev.Subscribe(b, m.g, handler(m.member, m.g)); err != nil {
			t.Fatal(err)
		}
		buses = append(buses, b)
	}
	s.start(t, buses...)
	const n = 60
	items := make([]Item, n)
	for i := range items {
		items[i] = Item{Seq: i, Key: fmt.Sprintf("key-%d", i)} // spread over partitions
	}
	s.publish(t, s.bus(t), ev, items, func(it Item) []events.PublishOption { return []events.PublishOption{events.WithKey(it.Key)} })
	s.eventually(t, "every message in both groups", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(byGroup[shared]) >= n && len(byGroup[other]) >= n
	})
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if byMember["a1"] == 0 || byMember["a2"] == 0 {
		t.Errorf("one member did all the work: a1 %d, a2 %d", byMember["a1"], byMember["a2"])
	}
	for g, seen := range byGroup {
		for seq, c := range seen {
			if c != 1 {
				t.Errorf("group %s handled message %d %d times", g, seq, c)
			}
		}
	}
}

func (s *suite) orderPerKey(t *testing.T) {
	ev, g := s.event(t), group("order")
	var mu sync.Mutex
	got := map[string][]int{}
	b := s.bus(t, events.WithGroup(g, events.GroupSettings{StartAt: events.StartAll, MaxInFlight: 8}))
	if err := ev.Subscribe(b, g, func(_ context.Context, it *Item) error {
		time.Sleep(time.Duration(it.Seq%3) * time.Millisecond)
		mu.Lock()
		got[it.Key] = append(got[it.Key], it.Seq)
		mu.Unlock()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.start(t, b)
	const keys, per = 5, 20
	items := make([]Item, 0, keys*per)
	for i := range per {
		for k := range keys {
			items = append(items, Item{Seq: i, Key: fmt.Sprintf("key-%d", k)})
		}
	}
	s.publish(t, s.bus(t), ev, items, func(it Item) []events.PublishOption { return []events.PublishOption{events.WithKey(it.Key)} })
	s.eventually(t, "every message", func() bool {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, v := range got {
			n += len(v)
		}
		return n >= keys*per
	})
	mu.Lock()
	defer mu.Unlock()
	for key, seqs := range got {
		for i, seq := range seqs {
			if seq != i {
				t.Fatalf("key %s handled out of order: %v", key, seqs)
			}
		}
	}
}

func (s *suite) retryBackoff(t *testing.T) {
	ev, g := s.event(t), group("retry")
	const step = 150 * time.Millisecond
	settings := events.GroupSettings{StartAt: events.StartAll, MaxAttempts: 5,
		Backoff: func(attempt int) time.Duration { return time.Duration(attempt) * step }}
	var mu sync.Mutex
	var times []time.Time
	var attempts []int
	b := s.bus(t, events.WithGroup(g, settings))
	b.Use(keepMessage)
	if err := ev.Subscribe(b, g, func(ctx context.Context, _ *Item) error {
		mu.Lock()
		defer mu.Unlock()
		times = append(times, time.Now())
		attempts = append(attempts, messageOf(ctx).Attempt)
		if len(times) < 3 {
			return errors.New("not yet")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.start(t, b)
	s.publish(t, s.bus(t), ev, []Item{{Seq: 1}}, nil)
	s.eventually(t, "3 attempts", func() bool { mu.Lock(); defer mu.Unlock(); return len(times) >= 3 })
	time.Sleep(2 * step)
	mu.Lock()
	defer mu.Unlock()
	if len(times) != 3 || attempts[0] != 1 || attempts[1] != 2 || attempts[2] != 3 {
		t.Fatalf("attempts %v (%d calls), want [1 2 3]", attempts, len(times))
	}
	for i := 1; i < 3; i++ {
		want := time.Duration(i) * step
		if gap := times[i].Sub(times[i-1]); gap < want*9/10 {
			t.Errorf("attempt %d came %s after the previous one, want at least %s", i+1, gap, want)
		}
	}
}

func (s *suite) deliveryCap(t *testing.T) {
	ev, g := s.event(t), group("cap")
	settings := events.GroupSettings{StartAt: events.StartAll, MaxAttempts: 3,
		Backoff: func(int) time.Duration { return 20 * time.Millisecond }}
	var mu sync.Mutex
	calls := 0
	var dead []error
	b := s.bus(t, events.WithGroup(g, settings), events.WithDeadLetter(func(_ context.Context, _ events.Group, _ *events.Message, reason error) {
		mu.Lock()
		defer mu.Unlock()
		dead = append(dead, reason)
	}))
	if err := ev.Subscribe(b, g, func(context.Context, *Item) error {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return errors.New("always fails")
	}); err != nil {
		t.Fatal(err)
	}
	s.start(t, b)
	s.publish(t, s.bus(t), ev, []Item{{Seq: 7}}, nil)
	s.eventually(t, "a dead-letter", func() bool { mu.Lock(); defer mu.Unlock(); return len(dead) > 0 })
	time.Sleep(300 * time.Millisecond) // nothing after the cap
	mu.Lock()
	defer mu.Unlock()
	var capErr *events.CapError
	if calls != 3 || len(dead) != 1 || !errors.As(dead[0], &capErr) || capErr.Attempts != 3 {
		t.Fatalf("calls %d, dead-letters %v; want 3 calls and one cap error after 3 attempts", calls, dead)
	}
}

func (s *suite) invalidPayload(t *testing.T) {
	ev, g := s.event(t), group("invalid")
	var rec recorder
	var mu sync.Mutex
	var dead []error
	b := s.bus(t, events.WithGroup(g, all), events.WithDeadLetter(func(_ context.Context, _ events.Group, _ *events.Message, reason error) {
		mu.Lock()
		defer mu.Unlock()
		dead = append(dead, reason)
	}))
	if err := ev.Subscribe(b, g, func(_ context.Context, it *Item) error { rec.add("", *it, nil); return nil }); err != nil {
		t.Fatal(err)
	}
	s.start(t, b)
	pub := s.bus(t)
	ctx := context.Background()
	for _, payload := range []string{`{"seq":-5}`, `{"seq":`, `{"seq":"x"}`} {
		if err := pub.Publish(ctx, ev.Contract(), events.Raw(payload)); err != nil {
			t.Fatal(err)
		}
	}
	// A producer a version ahead adds a member: tolerant decoding reads it.
	if err := pub.Publish(ctx, ev.Contract(), events.Raw(`{"seq":9,"addedLater":true}`)); err != nil {
		t.Fatal(err)
	}
	s.eventually(t, "3 dead-letters and 1 delivery", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(dead) >= 3 && rec.len() >= 1
	})
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	items := rec.snapshot()
	if len(items) != 1 || items[0].Seq != 9 {
		t.Fatalf("handler saw %+v, want only seq 9", items)
	}
	for _, err := range dead {
		var pe *events.PayloadError
		if !errors.As(err, &pe) || pe.Event != ev.Contract() {
			t.Errorf("dead-letter reason %v is not a payload error of the contract", err)
		}
	}
}

func (s *suite) gracefulStop(t *testing.T) {
	if !s.f.Durable {
		t.Skip("the transport keeps nothing while no member runs")
	}
	ev, g := s.event(t), group("stop")
	var mu sync.Mutex
	handled := map[int]int{}
	settings := events.GroupSettings{StartAt: events.StartAll, MaxInFlight: 4}
	member := func() *events.Bus {
		b := events.New(events.WithTransport(s.connect(t)), events.WithGroup(g, settings))
		if err := ev.Subscribe(b, g, func(_ context.Context, it *Item) error {
			time.Sleep(3 * time.Millisecond)
			mu.Lock()
			handled[it.Seq]++
			mu.Unlock()
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		s.start(t, b)
		return b
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(handled) }
	first := member()
	pub := s.bus(t)
	const n = 150
	published := make(chan error, 1)
	go func() {
		ctx := context.Background()
		for i := range n {
			if err := ev.Publish(ctx, pub, &Item{Seq: i}); err != nil {
				published <- err
				return
			}
			time.Sleep(time.Millisecond)
		}
		published <- nil
	}()
	s.eventually(t, "the first member to handle some", func() bool { return count() >= 20 })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	if err := first.Close(ctx); err != nil {
		t.Errorf("Close: %v", err)
	}
	cancel()
	stoppedAt := count()
	second := member()
	t.Cleanup(func() { _ = second.Close(context.Background()) })
	if err := <-published; err != nil {
		t.Fatal(err)
	}
	s.eventually(t, fmt.Sprintf("all %d handled (stopped at %d)", n, stoppedAt), func() bool { return count() >= n })
	time.Sleep(200 * time.Millisecond)
	if !s.f.NoDuplicatesOnStop {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	for seq, c := range handled {
		if c != 1 {
			t.Errorf("message %d handled %d times", seq, c)
		}
	}
}

func (s *suite) stopWithRetryPending(t *testing.T) {
	ev, g := s.event(t), group("pending")
	called := make(chan struct{}, 1)
	b := events.New(events.WithTransport(s.connect(t)), events.WithGroup(g, all))
	if err := ev.Subscribe(b, g, func(context.Context, *Item) error {
		select {
		case called <- struct{}{}:
		default:
		}
		return events.RetryAfter(time.Minute, errors.New("later"))
	}); err != nil {
		t.Fatal(err)
	}
	s.start(t, b)
	s.publish(t, s.bus(t), ev, []Item{{Seq: 1}}, nil)
	select {
	case <-called:
	case <-time.After(s.f.Timeout):
		t.Fatal("the handler never ran")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	_ = b.Close(ctx)
	if took := time.Since(start); took > 10*time.Second { // a busy machine's leave is not this slow
		t.Errorf("Close waited %s for a message waiting for its retry", took)
	}
}

func (s *suite) closed(t *testing.T) {
	ev := s.event(t)
	tr := s.connect(t)
	if err := tr.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	err := tr.Publish(context.Background(), []*events.Message{{Event: ev.Contract(), Payload: []byte(`{"seq":1}`)}})
	if !errors.Is(err, events.ErrClosed) {
		t.Errorf("transport Publish after Close = %v, want ErrClosed", err)
	}
	_, err = tr.Subscribe(context.Background(), events.ConsumerSpec{Group: group("closed"), Contracts: []string{ev.Contract()},
		Settings: events.GroupSettings{MaxInFlight: 1}}, func(context.Context, events.Delivery) error { return nil })
	if !errors.Is(err, events.ErrClosed) {
		t.Errorf("transport Subscribe after Close = %v, want ErrClosed", err)
	}
	b := events.New(events.WithTransport(s.connect(t)))
	if err := b.Close(context.Background()); err != nil {
		t.Fatalf("bus Close: %v", err)
	}
	if err := ev.Publish(context.Background(), b, &Item{Seq: 1}); !errors.Is(err, events.ErrClosed) {
		t.Errorf("bus Publish after Close = %v, want ErrClosed", err)
	}
	if err := b.Close(context.Background()); !errors.Is(err, events.ErrClosed) {
		t.Errorf("second Close = %v, want ErrClosed", err)
	}
	if err := ev.Subscribe(b, "g", func(context.Context, *Item) error { return nil }); !errors.Is(err, events.ErrClosed) {
		t.Errorf("Register after Close = %v, want ErrClosed", err)
	}
}
