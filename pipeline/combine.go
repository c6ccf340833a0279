package pipeline

import (
	"context"
	"errors"
	"sync"

	"github.com/freshctx/freshctx/store"
)

// combiner writes the lanes' batches to the store, at most Config.StoreConcurrency
// transactions at once, and folds the batches that wait for a turn into the next
// transaction (group commit), up to Config.BatchSize events. Under load a lane's
// batch is small (it flushes as soon as it is idle), and a transaction per dozen
// records costs the store far more per record than one per hundreds; at a
// trickle nothing waits, so nothing changes. The lanes hash keys, so batches of different lanes never share a key
// and their order against each other does not matter.
type combiner struct {
	store store.Writer
	slots chan struct{}
	// maxEvents bounds the events of a folded transaction (Config.BatchSize).
	maxEvents int

	mu      sync.Mutex
	waiting []*applyCall
	// written observes the batches of each transaction (a metric).
	written func(batches int)
}

type applyCall struct {
	ups  []store.Event
	dels []store.Delete
	res  store.WriteResult
	err  error
	done chan struct{}
	// taken says a turn has it (under combiner.mu); requeued wakes its caller
	// when that turn gave it back.
	taken    bool
	requeued chan struct{}
}

func newCombiner(st store.Writer, concurrency, maxEvents int, written func(batches int)) *combiner {
	return &combiner{store: st, slots: make(chan struct{}, concurrency), maxEvents: maxEvents, written: written}
}

// Apply writes one batch, alone or with others waiting at the same time, and
// returns its own part of the result. A record the store rejects fails only the
// batch that holds it (the folded write is retried batch by batch). If ctx ends
// while the batch waits, Apply returns ctx's error; the batch may still be
// written by another caller's turn (writes are version-guarded: harmless).
func (c *combiner) Apply(ctx context.Context, ups []store.Event, dels []store.Delete) (store.WriteResult, error) {
	call := &applyCall{ups: ups, dels: dels, done: make(chan struct{}), requeued: make(chan struct{}, 1)}
	c.mu.Lock()
	c.waiting = append(c.waiting, call)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		taken := call.taken
		c.mu.Unlock()
		if taken {
			// Another turn writes it: wait for that, not for a turn of our own
			// (taking free turns with nothing to write would spin).
			select {
			case <-call.done:
				return call.res, call.err
			case <-ctx.Done():
				return store.WriteResult{}, ctx.Err()
			case <-call.requeued:
				continue
			}
		}
		select {
		case <-call.done:
			return call.res, call.err
		case <-ctx.Done():
			return store.WriteResult{}, ctx.Err()
		case c.slots <- struct{}{}:
			c.run(ctx, c.take())
			<-c.slots
		}
	}
}

// take removes from the waiting batches those of the next transaction: the
// oldest, and those after it while the events stay within maxEvents. Folding
// is for small batches; large ones each fill a transaction (a larger one only
// grows the driver's buffers, and the garbage).
func (c *combiner) take() []*applyCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, events := 0, 0
	for n < len(c.waiting) && (n == 0 || events+len(c.waiting[n].ups) <= c.maxEvents) {
		events += len(c.waiting[n].ups)
		n++
	}
	calls := append([]*applyCall(nil), c.waiting[:n]...)
	c.waiting = append(c.waiting[:0], c.waiting[n:]...)
	for _, call := range calls {
		call.taken = true
	}
	return calls
}

// run writes calls in one transaction and hands each its part.
func (c *combiner) run(ctx context.Context, calls []*applyCall) {
	if len(calls) == 0 {
		return
	}
	c.written(len(calls))
	if len(calls) == 1 {
		c.finish(ctx, calls[0], calls[0].apply(ctx, c.store))
		return
	}
	var ups []store.Event
	var dels []store.Delete
	owner := map[store.Ref]int{} // a delete's batch, for its Removed
	for i, call := range calls {
		ups = append(ups, call.ups...)
		dels = append(dels, call.dels...)
		for _, d := range call.dels {
			owner[d.Ref] = i
		}
	}
	res, err := c.store.Apply(ctx, ups, dels)
	switch {
	case errors.Is(err, store.ErrInvalidData):
		for _, call := range calls { // find the batch that holds the rejected record
			c.finish(ctx, call, call.apply(ctx, c.store))
		}
		return
	case err != nil:
		for _, call := range calls {
			c.finish(ctx, call, err)
		}
		return
	}
	off := 0
	for _, call := range calls {
		call.res.Applied = res.Applied[off : off+len(call.ups) : off+len(call.ups)]
		off += len(call.ups)
	}
	for _, r := range res.Removed {
		call := calls[owner[r.Ref]]
		call.res.Removed = append(call.res.Removed, r)
	}
	for _, call := range calls {
		close(call.done)
	}
}

func (call *applyCall) apply(ctx context.Context, st store.Writer) error {
	var err error
	call.res, err = st.Apply(ctx, call.ups, call.dels)
	return err
}

// finish completes call with err, unless err is only that the ctx of the turn
// that wrote it ended: then call waits for another turn (its own caller may
// still be waiting).
func (c *combiner) finish(ctx context.Context, call *applyCall, err error) {
	if err != nil && ctx.Err() != nil {
		call.res = store.WriteResult{}
		c.mu.Lock()
		call.taken = false
		c.waiting = append(c.waiting, call)
		c.mu.Unlock()
		select {
		case call.requeued <- struct{}{}:
		default: // already signalled
		}
		return
	}
	call.err = err
	close(call.done)
}
