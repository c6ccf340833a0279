package pipeline

import (
	"sort"
	"sync"
)

// partition names a topic partition.
type partition struct {
	topic string
	part  int32
}

// tracker tracks in-flight offsets per partition and computes, for each, the
// offset that may be stored: one past the highest offset below which every
// dispatched record has been acknowledged. It is safe for concurrent use: the poll
// loop adds and revokes, workers acknowledge.
type tracker struct {
	mu    sync.Mutex
	parts map[partition]*partState
	epoch uint64
	cond  *sync.Cond // signalled on every ack, for draining revoked partitions
}

type partState struct {
	epoch   uint64
	pending []pendingOffset // dispatched, in offset order; acked entries are popped from the front
	head    int
	// storable is the next offset to store (last contiguous acked + 1), or -1.
	storable int64
	// stored is the last value handed out by storable(); -1 if none.
	stored int64
	// storableTS is the newest Kafka timestamp (ms) among the records below
	// storable: the partition is durable up to it.
	storableTS int64
}

type pendingOffset struct {
	offset int64
	ts     int64 // Kafka timestamp, ms
	done   bool
}

func newTracker() *tracker {
	t := &tracker{parts: map[partition]*partState{}}
	t.cond = sync.NewCond(&t.mu)
	return t
}

// assign starts tracking a partition and returns its epoch: acks carrying another
// epoch (from before a revoke) are ignored.
func (t *tracker) assign(p partition) uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.epoch++
	t.parts[p] = &partState{epoch: t.epoch, storable: -1, stored: -1}
	return t.epoch
}

// epochOf returns the current epoch of p, and false if p is not assigned.
func (t *tracker) epochOf(p partition) (uint64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ps, ok := t.parts[p]
	if !ok {
		return 0, false
	}
	return ps.epoch, true
}

// add records that offset was dispatched. Offsets of one partition must be added
// in increasing order (the order Kafka delivers them).
func (t *tracker) add(p partition, epoch uint64, offset, ts int64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	ps, ok := t.parts[p]
	if !ok || ps.epoch != epoch {
		return false
	}
	if n := len(ps.pending); n > ps.head && ps.pending[n-1].offset >= offset {
		return false // a redelivery of something still in flight (after a seek); skip it
	}
	ps.pending = append(ps.pending, pendingOffset{offset: offset, ts: ts})
	return true
}

// ack marks offset done.
func (t *tracker) ack(p partition, epoch uint64, offset int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.cond.Broadcast()
	ps, ok := t.parts[p]
	if !ok || ps.epoch != epoch {
		return // revoked since dispatch: never store for it
	}
	q := ps.pending[ps.head:]
	i := sort.Search(len(q), func(i int) bool { return q[i].offset >= offset })
	if i == len(q) || q[i].offset != offset {
		return
	}
	q[i].done = true
	for ps.head < len(ps.pending) && ps.pending[ps.head].done {
		ps.storable = ps.pending[ps.head].offset + 1
		ps.storableTS = max(ps.storableTS, ps.pending[ps.head].ts)
		ps.head++
	}
	if ps.head > 1024 && ps.head*2 > len(ps.pending) { // compact
		ps.pending = append(ps.pending[:0], ps.pending[ps.head:]...)
		ps.head = 0
	}
}

// storable returns, for each partition whose storable offset advanced since the
// last call, the offset to store.
func (t *tracker) storable() map[partition]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out map[partition]int64
	for p, ps := range t.parts {
		if ps.storable > ps.stored {
			if out == nil {
				out = map[partition]int64{}
			}
			out[p] = ps.storable
			ps.stored = ps.storable
		}
	}
	return out
}

// waitDrained blocks until none of ps has records in flight or stop is closed.
func (t *tracker) waitDrained(ps []partition, stop <-chan struct{}) bool {
	done := make(chan struct{})
	defer close(done)
	go func() { // wake the waiter when stop fires
		select {
		case <-stop:
			t.mu.Lock()
			t.cond.Broadcast()
			t.mu.Unlock()
		case <-done:
		}
	}()
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		busy := false
		for _, p := range ps {
			if st, ok := t.parts[p]; ok && st.head < len(st.pending) {
				busy = true
				break
			}
		}
		if !busy {
			return true
		}
		select {
		case <-stop:
			return false
		default:
		}
		t.cond.Wait()
	}
}

// revoke forgets p: later acks of its records are ignored and its offset is never
// stored again by this process.
func (t *tracker) revoke(p partition) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.parts, p)
	t.cond.Broadcast()
}

// watermark returns p's durable prefix: the next offset to store (every record
// below it is acknowledged), the newest Kafka timestamp among those records, and
// whether nothing dispatched is still in flight.
func (t *tracker) watermark(p partition) (offset, ts int64, idle, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ps, ok := t.parts[p]
	if !ok {
		return 0, 0, false, false
	}
	return ps.storable, ps.storableTS, ps.head == len(ps.pending), true
}
