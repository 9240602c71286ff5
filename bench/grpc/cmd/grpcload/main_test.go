package main

import (
	"os"
	"testing"
	"time"
)

// The server's CPU clock, read from outside the process by pid, counts this process's
// CPU time to the nanosecond: it moves by about what a busy loop spent.
func TestCPUTimeReadsAProcessClock(t *testing.T) {
	before := cpuTime(os.Getpid())
	for start := time.Now(); time.Since(start) < 30*time.Millisecond; {
	}
	spent := cpuTime(os.Getpid()) - before
	if spent < 5*time.Millisecond || spent > 5*time.Second {
		t.Fatalf("a 30 ms busy loop read as %v of CPU", spent)
	}
	if spent%(10*time.Millisecond) == 0 {
		t.Fatalf("%v: a 10 ms tick count, not the nanosecond clock", spent)
	}
}

func TestRoundStatistics(t *testing.T) {
	v := []float64{1.10, 0.90, 1.00, 1.30, 0.95, 1.05, 1.02, 0.98, 1.01}
	if m := median(v); m != 1.01 {
		t.Errorf("median %v", m)
	}
	if lo, hi := quartiles(v); lo != 0.98 || hi != 1.05 {
		t.Errorf("quartiles %v-%v", lo, hi)
	}
	// n = 9: ranks 4.5 -+ 2.94 -> the 2nd and 8th order statistics (0-based 1 and 8).
	if lo, hi := medianCI(v); lo != 0.95 || hi != 1.30 {
		t.Errorf("median CI %v-%v", lo, hi)
	}
	if lo, hi := medianCI(nil); lo != 0 || hi != 0 {
		t.Errorf("empty: %v-%v", lo, hi)
	}
}
