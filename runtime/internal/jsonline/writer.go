package jsonline

import (
	"io"
	"runtime"
	"sync"
)

// maxHeld bounds the bytes a LockedWriter holds (a few hundred lines): a
// Hold that would pass it writes the batch itself, so a slow reader slows
// the callers down rather than growing the buffer.
const maxHeld = 64 << 10

// maxKept is the largest batch buffer kept for reuse (a full batch's, grown
// by append, is kept: the two buffers are reused however busy the server).
const maxKept = 4 * maxHeld

// LockedWriter serialises writes to W. The log package hands it to its
// slog.JSONHandler and to the Sink of the same logger, so lines written
// either way never interleave.
//
// With Batch set, lines given to Hold (the servers' access lines) are
// gathered and written by a goroutine of the writer, one Write per batch
// (group commit): the goroutine runs once the goroutines already runnable
// have run, so while calls keep the process busy their lines share one
// system call, and when it is idle a line goes out at once; there is no
// timer. Write (every other line: slog's) first writes the held lines, in
// the same system call, so lines come out in the order they were given.
// Flush writes the held lines at once (the servers' Stop calls it): a crash
// loses at most the lines of one batch, as a buffered logger would.
type LockedWriter struct {
	mu sync.Mutex // serialises writes to W; guards spare
	W  io.Writer
	// Batch makes Hold hold lines for a batch; without it Hold writes at once.
	Batch bool

	hmu   sync.Mutex // guards held and woken
	held  []byte
	woken bool // a batch is due: the writer goroutine is signalled or flushing
	spare []byte

	start sync.Once
	wake  chan struct{}
}

// Write writes the held lines and p under the lock, in one Write.
func (l *LockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.Batch {
		return l.W.Write(p)
	}
	b := l.take()
	if len(b) == 0 {
		l.spare = b
		return l.W.Write(p)
	}
	b = append(b, p...)
	_, err := l.W.Write(b)
	l.keep(b)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Hold holds p, whole lines, for the next batch (with Batch set; else it
// writes p at once).
func (l *LockedWriter) Hold(p []byte) error {
	if !l.Batch {
		_, err := l.Write(p)
		return err
	}
	l.start.Do(func() {
		l.wake = make(chan struct{}, 1)
		go l.run()
	})
	l.hmu.Lock()
	if len(l.held)+len(p) > maxHeld {
		l.hmu.Unlock()
		if err := l.Flush(); err != nil {
			return err
		}
		l.hmu.Lock()
	}
	l.held = append(l.held, p...)
	signal := !l.woken
	l.woken = true
	l.hmu.Unlock()
	if signal {
		select {
		case l.wake <- struct{}{}:
		default: // a signal is pending already
		}
	}
	return nil
}

// Flush writes the held lines.
func (l *LockedWriter) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.take()
	if len(b) == 0 {
		l.spare = b
		return nil
	}
	_, err := l.W.Write(b)
	l.keep(b)
	return err
}

// run is the writer goroutine: it writes a batch per signal.
func (l *LockedWriter) run() {
	for range l.wake {
		// Let the goroutines already runnable (calls finishing) add their lines first.
		runtime.Gosched()
		_ = l.Flush()
	}
}

// take returns the held lines and leaves the spare buffer to hold the next
// ones. l.mu is held.
func (l *LockedWriter) take() []byte {
	l.hmu.Lock()
	b := l.held
	l.held, l.spare = l.spare[:0], nil
	l.woken = false
	l.hmu.Unlock()
	return b
}

// keep keeps a written batch's buffer as the spare. l.mu is held.
func (l *LockedWriter) keep(b []byte) {
	if cap(b) <= maxKept {
		l.spare = b[:0]
	}
}
