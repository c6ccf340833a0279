package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
)

// recordingStore applies nothing: it records each transaction's keys, holds
// writes while gate is set, and rejects a transaction holding key "bad".
type recordingStore struct {
	store.Writer
	mu   sync.Mutex
	txs  [][]string
	gate chan struct{}
}

func (s *recordingStore) Apply(ctx context.Context, ups []store.Event, dels []store.Delete) (store.WriteResult, error) {
	s.mu.Lock()
	gate := s.gate
	s.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return store.WriteResult{}, ctx.Err()
		}
	}
	var keys []string
	res := store.WriteResult{Applied: make([]bool, len(ups))}
	for i, e := range ups {
		if e.Key == "bad" {
			return store.WriteResult{}, fmt.Errorf("%w: key bad", store.ErrInvalidData)
		}
		keys = append(keys, e.Key)
		res.Applied[i] = e.Version%2 == 1 // odd versions apply: a visible, per-event answer
	}
	for _, d := range dels {
		keys = append(keys, "-"+d.Key)
		res.Removed = append(res.Removed, store.Removed{Ref: d.Ref, Entity: "e-" + d.Key, Version: d.Version})
	}
	s.mu.Lock()
	s.txs = append(s.txs, keys)
	s.mu.Unlock()
	return res, nil
}

func (s *recordingStore) transactions() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]string(nil), s.txs...)
}

func batch(prefix string, n int) ([]store.Event, []store.Delete) {
	var ups []store.Event
	for i := range n {
		ups = append(ups, store.Event{Source: "s", Key: fmt.Sprint(prefix, i), Version: int64(i)})
	}
	return ups, []store.Delete{{Ref: store.Ref{Source: "s", Key: prefix + "d"}, Version: 9}}
}

// Batches that wait while the only turn is taken are written in one
// transaction, and each caller gets its own part of the result.
func TestCombinerFoldsWaitingBatches(t *testing.T) {
	st := &recordingStore{gate: make(chan struct{})}
	var sizes []int
	var sizesMu sync.Mutex
	c := newCombiner(st, 1, 100, func(n int) { sizesMu.Lock(); sizes = append(sizes, n); sizesMu.Unlock() })
	ctx := context.Background()
	type out struct {
		res store.WriteResult
		err error
	}
	results := make([]chan out, 4)
	for i := range results {
		results[i] = make(chan out, 1)
	}
	call := func(i int) {
		ups, dels := batch(fmt.Sprint("b", i, "-"), i+1)
		res, err := c.Apply(ctx, ups, dels)
		results[i] <- out{res, err}
	}
	go call(0) // takes the turn and is held at the gate
	testenv.Eventually(t, "the first batch holding the turn", 30*time.Second, func() bool { return len(c.slots) == 1 })
	for i := 1; i < 4; i++ {
		go call(i)
	}
	testenv.Eventually(t, "three batches waiting", 30*time.Second, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.waiting) == 3
	})
	st.mu.Lock()
	close(st.gate)
	st.gate = nil
	st.mu.Unlock()
	for i := range results {
		o := <-results[i]
		if o.err != nil {
			t.Fatalf("batch %d: %v", i, o.err)
		}
		if len(o.res.Applied) != i+1 {
			t.Fatalf("batch %d: %d applied flags, want %d", i, len(o.res.Applied), i+1)
		}
		for j, a := range o.res.Applied {
			if a != (j%2 == 1) {
				t.Errorf("batch %d event %d: applied %v, want %v", i, j, a, j%2 == 1)
			}
		}
		if len(o.res.Removed) != 1 || o.res.Removed[0].Key != fmt.Sprint("b", i, "-d") {
			t.Errorf("batch %d: removed %+v, want its own delete", i, o.res.Removed)
		}
	}
	txs := st.transactions()
	if len(txs) != 2 || len(txs[1]) != 2+3+4+3 {
		t.Fatalf("transactions %v: want the first batch alone, then the three waiting ones together", txs)
	}
	if fmt.Sprint(sizes) != "[1 3]" {
		t.Errorf("batches per transaction observed %v, want [1 3]", sizes)
	}
}

// A record the store rejects fails only its own batch: the folded write is
// retried batch by batch.
func TestCombinerIsolatesARejectedBatch(t *testing.T) {
	st := &recordingStore{}
	c := newCombiner(st, 1, 100, func(int) {})
	good, _ := batch("g", 2)
	bad := []store.Event{{Source: "s", Key: "bad", Version: 1}}
	calls := []*applyCall{{ups: good, done: make(chan struct{})}, {ups: bad, done: make(chan struct{})}}
	c.run(context.Background(), calls)
	<-calls[0].done
	<-calls[1].done
	if calls[0].err != nil || len(calls[0].res.Applied) != 2 {
		t.Errorf("good batch: %v, %d applied flags", calls[0].err, len(calls[0].res.Applied))
	}
	if !errors.Is(calls[1].err, store.ErrInvalidData) {
		t.Errorf("bad batch: %v, want ErrInvalidData", calls[1].err)
	}
	if txs := st.transactions(); len(txs) != 1 || len(txs[0]) != 2 {
		t.Errorf("transactions %v: want only the good batch written", txs)
	}
}

// When the turn's caller gives up (its context ends) mid-write, the other
// batches of that turn are not failed with its error: they wait for the next
// turn.
func TestCombinerRequeuesWhenTheTurnsContextEnds(t *testing.T) {
	st := &recordingStore{gate: make(chan struct{})}
	c := newCombiner(st, 1, 100, func(int) {})
	ctx, cancel := context.WithCancel(context.Background())
	mine, _ := batch("m", 1)
	other := &applyCall{ups: []store.Event{{Source: "s", Key: "o", Version: 1}}, done: make(chan struct{})}
	c.waiting = append(c.waiting, other)
	errc := make(chan error, 1)
	go func() { _, err := c.Apply(ctx, mine, nil); errc <- err }()
	testenv.Eventually(t, "the turn taken", 30*time.Second, func() bool { return len(c.slots) == 1 })
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled caller: %v", err)
	}
	select {
	case <-other.done:
		t.Fatalf("the other batch was completed with %v; want it waiting", other.err)
	default:
	}
	st.mu.Lock()
	close(st.gate)
	st.gate = nil
	st.mu.Unlock()
	res, err := c.Apply(context.Background(), []store.Event{{Source: "s", Key: "n", Version: 1}}, nil)
	if err != nil || len(res.Applied) != 1 {
		t.Fatalf("next batch: %v, %+v", err, res)
	}
	<-other.done
	if other.err != nil || len(other.res.Applied) != 1 || !other.res.Applied[0] {
		t.Errorf("the requeued batch: %v, %+v", other.err, other.res)
	}
}

// A folded transaction holds the oldest waiting batch and those after it while
// the events stay within the cap: small batches fold, large ones go alone.
func TestCombinerFoldsUpToTheCap(t *testing.T) {
	c := newCombiner(&recordingStore{}, 1, 100, func(int) {})
	for _, n := range []int{150, 40, 50, 20, 60} {
		ups, _ := batch("x", n)
		c.waiting = append(c.waiting, &applyCall{ups: ups})
	}
	var got []int
	for len(c.waiting) > 0 {
		events := 0
		for _, call := range c.take() {
			events += len(call.ups)
		}
		got = append(got, events)
	}
	if fmt.Sprint(got) != "[150 90 80]" {
		t.Errorf("transactions of %v events, want [150 90 80]", got)
	}
}

// turnStore holds every transaction until the test releases it, in order.
type turnStore struct {
	store.Writer
	turns chan chan struct{}
}

func (s *turnStore) Apply(ctx context.Context, ups []store.Event, dels []store.Delete) (store.WriteResult, error) {
	release := make(chan struct{})
	s.turns <- release
	select {
	case <-release:
	case <-ctx.Done():
		return store.WriteResult{}, ctx.Err()
	}
	return store.WriteResult{Applied: make([]bool, len(ups))}, nil
}

func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// A caller whose batch another turn is writing waits for that turn; it does
// not take free turns with nothing to write (that spun a core while a folded
// transaction was in flight).
func TestCombinerWaitsWithoutSpinning(t *testing.T) {
	st := &turnStore{turns: make(chan chan struct{}, 8)}
	c := newCombiner(st, 2, 100, func(int) {})
	ctx := context.Background()
	errs := make(chan error, 4)
	apply := func(key string) {
		ups, _ := batch(key, 1)
		_, err := c.Apply(ctx, ups, nil)
		errs <- err
	}
	go apply("a")
	a := <-st.turns
	go apply("x")
	x := <-st.turns // both turns busy
	go apply("b")
	go apply("c")
	testenv.Eventually(t, "b and c to wait", 10*time.Second, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.waiting) == 2
	}, func() string { return "" })
	close(x) // its turn ends; the next takes b and c together
	bc := <-st.turns
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	close(a) // a turn is free, and b's or c's caller has nothing left to write
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	before := cpuTime(t)
	time.Sleep(300 * time.Millisecond)
	if used := cpuTime(t) - before; used > 100*time.Millisecond {
		t.Errorf("%v of CPU in 300 ms while the folded write was in flight: a caller spins", used)
	}
	close(bc)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
