package catalog

import (
	"io"
	"sync"
	"time"
)

// batched is the experiment of bench variant kit-batched: log lines are appended to a
// buffer and written every 50 ms (one write(2) for many lines) instead of one write per
// line. It measures what batching the access log's writes would buy; kit does not batch.
type batched struct {
	mu   sync.Mutex
	buf  []byte
	w    io.Writer
	done chan struct{}
}

func newBatched(w io.Writer) *batched {
	b := &batched{w: w, done: make(chan struct{})}
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.flush()
			case <-b.done:
				b.flush()
				return
			}
		}
	}()
	return b
}

func (b *batched) Write(p []byte) (int, error) {
	b.mu.Lock()
	b.buf = append(b.buf, p...)
	b.mu.Unlock()
	return len(p), nil
}

func (b *batched) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf) > 0 {
		_, _ = b.w.Write(b.buf)
		b.buf = b.buf[:0]
	}
}

func (b *batched) close() { close(b.done) }
