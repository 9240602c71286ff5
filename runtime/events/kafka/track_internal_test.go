package kafka

import "testing"

// The commit offset only passes records every one of which before it is settled.
func TestPartitionTrackCommitsOnlyPastSettledRecords(t *testing.T) {
	p := &partitionTrack{settled: map[int64]bool{}, next: -1, commit: -1}
	for _, o := range []int64{10, 11, 12, 13} {
		p.add(o)
	}
	steps := []struct {
		settle int64
		next   int64
	}{
		{11, -1}, // 10 still in a handler
		{13, -1},
		{10, 12}, // 10 and 11 done: commit up to 12
		{12, 14}, // everything done
	}
	for _, s := range steps {
		p.settle(s.settle)
		if p.next != s.next {
			t.Fatalf("after settling %d next = %d, want %d", s.settle, p.next, s.next)
		}
	}
	if len(p.pending) != 0 || len(p.settled) != 0 {
		t.Fatalf("left pending %v settled %v", p.pending, p.settled)
	}
}

// Records settled in order (no map on that path) and then out of order mix correctly.
func TestPartitionTrackInOrderThenOutOfOrder(t *testing.T) {
	p := &partitionTrack{settled: map[int64]bool{}, next: -1, commit: -1}
	for o := int64(0); o < 6; o++ {
		p.add(o)
	}
	for _, s := range []struct{ settle, next int64 }{{0, 1}, {1, 2}, {3, 2}, {2, 4}, {4, 5}, {5, 6}} {
		p.settle(s.settle)
		if p.next != s.next {
			t.Fatalf("after settling %d next = %d, want %d", s.settle, p.next, s.next)
		}
	}
	if len(p.pending) != 0 || len(p.settled) != 0 {
		t.Fatalf("left pending %v settled %v", p.pending, p.settled)
	}
}
