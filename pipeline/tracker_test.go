package pipeline

import (
	"math/rand/v2"
	"testing"
)

func TestTrackerStoresOnlyContiguousPrefix(t *testing.T) {
	tr := newTracker()
	p := partition{"t", 0}
	ep := tr.assign(p)
	for o := int64(10); o < 15; o++ {
		tr.add(p, ep, o, 0)
	}
	tr.ack(p, ep, 12)
	tr.ack(p, ep, 11)
	if got := tr.storable(); len(got) != 0 {
		t.Fatalf("stored %v while offset 10 is in flight", got)
	}
	tr.ack(p, ep, 10)
	if got := tr.storable(); got[p] != 13 {
		t.Fatalf("storable = %v, want 13 (10..12 done, 13 in flight)", got)
	}
	if got := tr.storable(); len(got) != 0 {
		t.Fatalf("unchanged offset handed out twice: %v", got)
	}
	tr.ack(p, ep, 14)
	if got := tr.storable(); len(got) != 0 {
		t.Fatalf("stored %v past in-flight 13", got)
	}
	tr.ack(p, ep, 13)
	if got := tr.storable(); got[p] != 15 {
		t.Fatalf("storable = %v, want 15", got)
	}
}

func TestTrackerRevokedPartitionNeverStored(t *testing.T) {
	tr := newTracker()
	p := partition{"t", 3}
	ep := tr.assign(p)
	tr.add(p, ep, 0, 0)
	tr.add(p, ep, 1, 0)
	tr.revoke(p)
	tr.ack(p, ep, 0)
	tr.ack(p, ep, 1)
	if got := tr.storable(); len(got) != 0 {
		t.Fatalf("stored %v for a revoked partition", got)
	}
	// Reassigned: acks of the old epoch still do not count.
	ep2 := tr.assign(p)
	tr.add(p, ep2, 5, 0)
	tr.ack(p, ep, 5)
	if got := tr.storable(); len(got) != 0 {
		t.Fatalf("stale-epoch ack stored %v", got)
	}
	tr.ack(p, ep2, 5)
	if got := tr.storable(); got[p] != 6 {
		t.Fatalf("storable = %v, want 6", got)
	}
}

// TestTrackerRandomCompletion acknowledges offsets in random order and checks the
// stored offset against a model after every step: it never passes a record in
// flight and reaches the end once all are done.
func TestTrackerRandomCompletion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 50; round++ {
		tr := newTracker()
		p := partition{"t", 1}
		ep := tr.assign(p)
		n := 1 + rng.IntN(3000)
		done := make([]bool, n)
		for o := 0; o < n; o++ {
			tr.add(p, ep, int64(o), 0)
		}
		last := int64(-1)
		for _, o := range rng.Perm(n) {
			tr.ack(p, ep, int64(o))
			done[o] = true
			if got, ok := tr.storable()[p]; ok {
				if got <= last {
					t.Fatalf("stored offset went back: %d after %d", got, last)
				}
				last = got
			}
			for i := int64(0); i < last; i++ {
				if !done[i] {
					t.Fatalf("stored %d while %d in flight", last, i)
				}
			}
		}
		if last != int64(n) {
			t.Fatalf("final stored offset %d, want %d", last, n)
		}
	}
}
