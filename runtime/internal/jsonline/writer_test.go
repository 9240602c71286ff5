package jsonline

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// recorder records each Write it receives.
type recorder struct {
	mu     sync.Mutex
	writes []string
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, string(p))
	return len(p), nil
}

func (r *recorder) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.writes, "")
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.writes)
}

// line is caller c's i-th line in the tests below: its numbers and i%97 x's.
func line(c, i int) string { return fmt.Sprintf("%d %d %s\n", c, i, strings.Repeat("x", i%97)) }

// fromCallers runs f(c, i) for i in [0, each) on each of callers goroutines c and waits
// for them.
func fromCallers(callers, each int, f func(c, i int)) {
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for i := range each {
				f(c, i)
			}
		})
	}
	wg.Wait()
}

// checkLines checks that text holds each of callers' each lines once, whole, in each
// caller's order.
func checkLines(t *testing.T, text string, callers, each int) {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	if lines = lines[:len(lines)-1]; len(lines) != callers*each {
		t.Fatalf("%d lines, want %d", len(lines), callers*each)
	}
	next := make([]int, callers)
	for _, l := range lines {
		var c, i int
		if _, err := fmt.Sscanf(l, "%d %d", &c, &i); err != nil || c >= callers || i != next[c] || l != line(c, i) {
			t.Fatalf("line %q broken or out of order", l)
		}
		next[c]++
	}
}

// oneProc runs the test on one P, so the writer goroutine cannot run while the test's
// goroutine keeps running.
func oneProc(t *testing.T) {
	t.Helper()
	prev := runtime.GOMAXPROCS(1)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
}

func TestFlushWritesTheHeldLinesInOneWrite(t *testing.T) {
	oneProc(t)
	r := &recorder{}
	w := &LockedWriter{W: r, Batch: true}
	for _, l := range []string{"a\n", "b\n", "c\n"} {
		if err := w.Hold([]byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if r.count() != 1 || r.text() != "a\nb\nc\n" {
		t.Fatalf("writes %q, want the three lines in one", r.writes)
	}
	if err := w.Flush(); err != nil || r.count() != 1 {
		t.Fatalf("a flush with nothing held wrote: %q (%v)", r.writes, err)
	}
}

// A line written at once (slog's: an error, a panic) comes out after the access lines
// held before it, in the same system call.
func TestWriteComesAfterTheHeldLines(t *testing.T) {
	oneProc(t)
	r := &recorder{}
	w := &LockedWriter{W: r, Batch: true}
	_ = w.Hold([]byte("access 1\n"))
	_ = w.Hold([]byte("access 2\n"))
	if n, err := w.Write([]byte("error\n")); n != len("error\n") || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if r.count() != 1 || r.text() != "access 1\naccess 2\nerror\n" {
		t.Fatalf("writes %q", r.writes)
	}
}

// The writer goroutine writes held lines without a Flush, and the lines of goroutines
// that run while it waits share its write.
func TestHeldLinesAreWrittenInBatchesByTheWriterGoroutine(t *testing.T) {
	oneProc(t)
	const callers, each = 16, 50
	r := &recorder{}
	w := &LockedWriter{W: r, Batch: true}
	fromCallers(callers, each, func(c, i int) {
		_ = w.Hold([]byte(line(c, i)))
		runtime.Gosched()
	})
	for range 1000 {
		if strings.Count(r.text(), "\n") == callers*each {
			break
		}
		runtime.Gosched()
	}
	checkLines(t, r.text(), callers, each) // written without a Flush
	if n := r.count(); n > callers*each/4 {
		t.Errorf("%d writes for %d lines: the lines are not batched", n, callers*each)
	}
}

// Lines held and written from many goroutines at once all come out whole, each
// goroutine's in its order (run it with -race).
func TestConcurrentLinesComeOutWholeAndInOrder(t *testing.T) {
	const callers, each = 8, 400
	r := &recorder{}
	w := &LockedWriter{W: r, Batch: true}
	fromCallers(callers, each, func(c, i int) {
		if i%10 == 9 {
			_, _ = w.Write([]byte(line(c, i)))
		} else {
			_ = w.Hold([]byte(line(c, i)))
		}
	})
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	checkLines(t, r.text(), callers, each)
}

// A Hold that would hold more than maxHeld bytes writes the batch itself.
func TestHoldingIsBounded(t *testing.T) {
	oneProc(t)
	r := &recorder{}
	w := &LockedWriter{W: r, Batch: true}
	line := append(bytes.Repeat([]byte("y"), 1023), '\n')
	for range maxHeld/len(line) + 1 {
		_ = w.Hold(line)
	}
	if r.count() != 1 || len(r.text()) != maxHeld/len(line)*len(line) {
		t.Fatalf("%d writes, %d bytes: the held lines were not written at the bound", r.count(), len(r.text()))
	}
}

// Without Batch (a logger over a buffer, as tests read it) Hold writes at once.
func TestHoldWithoutBatchWritesAtOnce(t *testing.T) {
	oneProc(t)
	r := &recorder{}
	w := &LockedWriter{W: r}
	_ = w.Hold([]byte("a\n"))
	if r.text() != "a\n" {
		t.Fatalf("writes %q", r.writes)
	}
}
