package server

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestDeadlineCtxCancelsWaitersAtTheDeadline(t *testing.T) {
	ctx := withDeadline(context.Background(), 30*time.Millisecond)
	defer ctx.stop()
	child, cancel := context.WithCancel(ctx) // asks for Done: the timer starts
	defer cancel()
	start := time.Now()
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a context derived from the handler's was not cancelled at the deadline")
	}
	if waited := time.Since(start); waited < 25*time.Millisecond {
		t.Fatalf("cancelled after %v, before the deadline", waited)
	}
	if !errors.Is(child.Err(), context.DeadlineExceeded) || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("errors %v / %v, want DeadlineExceeded", child.Err(), ctx.Err())
	}
}

func TestDeadlineCtxErrReadsTheClockWithoutATimer(t *testing.T) {
	ctx := withDeadline(context.Background(), 10*time.Millisecond)
	defer ctx.stop()
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > 10*time.Millisecond {
		t.Fatalf("Deadline() = %v, %v", dl, ok)
	}
	if err := ctx.Err(); err != nil {
		t.Fatalf("Err before the deadline: %v", err)
	}
	if ctx.inner.Load() != nil {
		t.Fatal("Err before the deadline started a timer")
	}
	time.Sleep(15 * time.Millisecond)
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err after the deadline: %v", ctx.Err())
	}
	select { // Done agrees with Err from then on
	case <-ctx.Done():
	default:
		t.Fatal("Err reported the deadline but Done is open")
	}
}

func TestDeadlineCtxParentCancelled(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	ctx := withDeadline(parent, time.Hour)
	defer ctx.stop()
	cancel()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("Err after the request context ended: %v", ctx.Err())
	}
	<-ctx.Done()
}

func TestDeadlineCtxParentDeadlineEarlier(t *testing.T) {
	parent, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ctx := withDeadline(parent, time.Hour)
	defer ctx.stop()
	pd, _ := parent.Deadline()
	if dl, _ := ctx.Deadline(); !dl.Equal(pd) {
		t.Fatalf("Deadline %v, want the parent's %v", dl, pd)
	}
}

// After the handler returns, its context ends Canceled, as the cancel of
// context.WithTimeout would end it, whether or not someone asked for Done.
func TestDeadlineCtxStop(t *testing.T) {
	for _, asked := range []bool{false, true} {
		ctx := withDeadline(context.Background(), time.Hour)
		if asked {
			_ = ctx.Done()
		}
		ctx.stop()
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
			t.Fatalf("asked %v: Done open after stop", asked)
		}
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Fatalf("asked %v: Err %v after stop, want Canceled", asked, ctx.Err())
		}
	}
}

func TestDeadlineCtxConcurrentUse(t *testing.T) {
	ctx := withDeadline(context.Background(), 5*time.Millisecond)
	var wg sync.WaitGroup
	done := make([]<-chan struct{}, 8)
	for i := range done {
		wg.Go(func() {
			_ = ctx.Err()
			done[i] = ctx.Done()
			<-done[i]
		})
	}
	wg.Wait()
	for _, d := range done[1:] {
		if d != done[0] {
			t.Fatal("Done returned different channels")
		}
	}
	ctx.stop()
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err %v: stop after the deadline changed it", ctx.Err())
	}
}

// context.Cause sees the deadline as context.WithTimeout's would, even when
// nobody asked for Done or Err before.
func TestDeadlineCtxCause(t *testing.T) {
	ctx := withDeadline(context.Background(), 5*time.Millisecond)
	defer ctx.stop()
	if err := context.Cause(ctx); err != nil {
		t.Fatalf("Cause before the deadline: %v", err)
	}
	time.Sleep(10 * time.Millisecond)
	if err := context.Cause(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Cause after the deadline: %v", err)
	}
	type key struct{}
	parent := context.WithValue(context.Background(), key{}, "v")
	vctx := withDeadline(parent, time.Hour)
	defer vctx.stop()
	if vctx.Value(key{}) != "v" {
		t.Fatal("values of the request context are not read")
	}
}
