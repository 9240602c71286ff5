package kafka

import (
	"context"
	"testing"
)

// The commit offset only passes records every one of which before it is settled.
func TestPartitionTrackCommitsOnlyPastSettledRecords(t *testing.T) {
	settleAll(t, []int64{10, 11, 12, 13}, []settleStep{
		{11, -1}, // 10 still in a handler
		{13, -1},
		{10, 12}, // 10 and 11 done: commit up to 12
		{12, 14}, // everything done
	})
}

// Records settled in order (no map on that path) and then out of order mix correctly.
func TestPartitionTrackInOrderThenOutOfOrder(t *testing.T) {
	settleAll(t, []int64{0, 1, 2, 3, 4, 5}, []settleStep{{0, 1}, {1, 2}, {3, 2}, {2, 4}, {4, 5}, {5, 6}})
}

// settleStep settles one offset and names the commit point expected after it.
type settleStep struct{ settle, next int64 }

// settleAll tracks offsets on a fresh partition, settles them step by step checking the
// commit point after each, and checks that nothing is left tracked.
func settleAll(t *testing.T, offsets []int64, steps []settleStep) {
	t.Helper()
	p := &partitionTrack{settled: map[int64]bool{}, next: -1, commit: -1}
	for _, o := range offsets {
		p.add(o)
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

// A revoked partition's records still in a fetch are not handed over; reassigned, the
// partition gets a new track, and a late settlement of the old one changes nothing.
func TestRevokedThenReassignedPartitionGetsANewTrack(t *testing.T) {
	c := &classicConsumer{parts: map[topicPartition]*partitionTrack{}}
	tp := topicPartition{"t", 0}
	c.assigned(context.Background(), nil, map[string][]int32{"t": {0}})
	old := c.lookup(tp)
	if old == nil || !c.track(old, 5) {
		t.Fatal("an assigned partition's record was not tracked")
	}
	c.disown(map[string][]int32{"t": {0}})
	if c.track(old, 6) {
		t.Fatal("a revoked partition's record was tracked")
	}
	c.forget(map[string][]int32{"t": {0}})
	c.assigned(context.Background(), nil, map[string][]int32{"t": {0}})
	fresh := c.lookup(tp)
	if fresh == nil || fresh == old || !fresh.owned {
		t.Fatalf("reassigned track %+v, old %+v", fresh, old)
	}
	c.settle(old, 5)
	if fresh.next != -1 || c.inHandlers(nil) != 0 {
		t.Fatalf("the old track's settlement reached the new one: next %d", fresh.next)
	}
	c.assigned(context.Background(), nil, map[string][]int32{"t": {0}}) // again (cooperative): kept
	if c.lookup(tp) != fresh {
		t.Fatal("an owned partition's track was replaced")
	}
}
