package pipeline_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/twmb/franz-go/pkg/kfake"
	"go.uber.org/goleak"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/ledger"
	"github.com/freshctx/freshctx/internal/pipetest"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store"
)

// Every goroutine the pipeline starts is waited for: none may outlive the tests.
// The reliability scenarios print their table at the end.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(&reportingM{m})
}

type reportingM struct{ m *testing.M }

func (r *reportingM) Run() int {
	code := r.m.Run()
	ledger.PrintReports()
	return code
}

// orderStore checks invariant 3 on every write: no key is written by two batches
// at once, and each key's versions arrive in increasing order.
type orderStore struct {
	store.Writer
	mu        sync.Mutex
	inFlight  map[string]bool
	last      map[string]int64
	violation []string
}

func (o *orderStore) Apply(ctx context.Context, ups []store.Event, dels []store.Delete) (store.WriteResult, error) {
	o.mu.Lock()
	for _, e := range ups {
		if o.inFlight[e.Key] {
			o.violation = append(o.violation, "key "+e.Key+" written by two batches at once")
		}
		if e.Version <= o.last[e.Key] {
			o.violation = append(o.violation, fmt.Sprintf("key %s: version %d after %d", e.Key, e.Version, o.last[e.Key]))
		}
		o.last[e.Key] = e.Version
	}
	for _, e := range ups {
		o.inFlight[e.Key] = true
	}
	o.mu.Unlock()
	time.Sleep(time.Millisecond) // widen the window in which a concurrent write would be seen
	res, err := o.Writer.Apply(ctx, ups, dels)
	o.mu.Lock()
	for _, e := range ups {
		delete(o.inFlight, e.Key)
	}
	o.mu.Unlock()
	return res, err
}

// Invariant 3: two changes of one key are never processed concurrently, and in order.
func TestPerKeyOrder(t *testing.T) {
	r := pipetest.NewRig(t, 3)
	os := &orderStore{Writer: r.Store, inFlight: map[string]bool{}, last: map[string]int64{}}
	stop := r.Run(pipeline.Config{Lanes: 8, BatchSize: 16}, os, nil)
	var changes [][2]int
	for v := 1; v <= 50; v++ {
		for k := 0; k < 20; k++ {
			changes = append(changes, [2]int{k, v*100 + k})
		}
	}
	r.Produce(changes)
	r.Eventually("1000 changes stored", 30*time.Second, func() bool { return r.Stored() == len(changes) })
	stop()
	os.mu.Lock()
	defer os.mu.Unlock()
	if len(os.violation) > 0 {
		t.Fatalf("%d order violations, first: %s", len(os.violation), os.violation[0])
	}
	for k := 0; k < 20; k++ {
		ref := store.Ref{Source: "tickets", Key: fmt.Sprint(k)}
		got, _ := r.Store.Lookup(context.Background(), []store.Ref{ref})
		if got[ref].Version != int64(5000+k) {
			t.Errorf("key %d: final version %d, want %d", k, got[ref].Version, 5000+k)
		}
	}
}

// gateStore blocks writes of batches holding a given key (or all, with key "")
// until released.
type gateStore struct {
	store.Writer
	key     string
	release chan struct{}
}

func (g *gateStore) Apply(ctx context.Context, ups []store.Event, dels []store.Delete) (store.WriteResult, error) {
	for _, e := range ups {
		if g.key == "" || e.Key == g.key {
			select {
			case <-g.release:
			case <-ctx.Done():
				return store.WriteResult{}, ctx.Err()
			}
			break
		}
	}
	return g.Writer.Apply(ctx, ups, dels)
}

// Invariant 1: a slow record holds the committed offset of its partition back
// while later records complete; once it completes, the commit reaches the end.
func TestSlowRecordHoldsOffset(t *testing.T) {
	r := pipetest.NewRig(t, 1)
	gate := &gateStore{Writer: r.Store, key: "3", release: make(chan struct{})}
	stop := r.Run(pipeline.Config{Lanes: 4, BatchSize: 1}, gate, map[string]string{"auto.commit.interval.ms": "100"})
	var changes [][2]int
	for k := 0; k < 20; k++ {
		changes = append(changes, [2]int{k, 10 + k})
	}
	r.Produce(changes)
	// Key 3 is at offset 3 of the only partition. Keys in other lanes complete
	// (those that share its lane wait behind it, in order).
	r.Eventually("records after offset 3 to complete", 20*time.Second, func() bool { return r.Stored() >= 10 })
	// Watch several commit intervals: the committed offset never passes offset 3.
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if c := r.Committed(1)[0]; c > 3 {
			t.Fatalf("committed offset %d passed the in-flight record at offset 3", c)
		}
	}
	close(gate.release)
	r.Eventually("the commit to reach the end", 20*time.Second, func() bool { return r.Committed(1)[0] == 20 })
	stop()
}

// Invariants 4 and 5: with the store stalled, in-flight records stay under the
// limit, partitions pause, and the poll loop keeps the group session alive for
// longer than max.poll.interval.ms; after the stall everything is stored.
func TestBackpressurePausesWithoutLeavingTheGroup(t *testing.T) {
	r := pipetest.NewRig(t, 2, kfake.GroupMinSessionTimeout(100*time.Millisecond))
	gate := &gateStore{Writer: r.Store, release: make(chan struct{})}
	cfg := pipeline.Config{Lanes: 2, BatchSize: 10, MaxInflightRecords: 100}
	stop := r.Run(cfg, gate, map[string]string{"session.timeout.ms": "2000", "heartbeat.interval.ms": "100",
		"max.poll.interval.ms": "2000", "max.partition.fetch.bytes": "16384"})
	var changes [][2]int
	for i := 0; i < 2000; i++ {
		changes = append(changes, [2]int{i, i + 1})
	}
	r.Produce(changes)
	r.Eventually("partitions to pause", 20*time.Second, func() bool { return testutil.ToFloat64(r.Metrics.Paused) == 1 })
	// Stall for longer than max.poll.interval.ms: a blocked poll loop would be
	// thrown out of the group and its partitions revoked.
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if got := testutil.ToFloat64(r.Metrics.Inflight); got > float64(cfg.MaxInflightRecords) {
			t.Fatalf("in-flight records %v exceed the limit %d", got, cfg.MaxInflightRecords)
		}
	}
	if strings.Contains(r.Logs.String(), "partitions revoked") {
		t.Fatalf("the consumer lost its partitions while paused:\n%s", pipetest.Tail(r.Logs.String(), 3000))
	}
	close(gate.release)
	// The store is the truth: counters also count a redelivery after a rebalance.
	r.Eventually("all 2000 records", 60*time.Second, func() bool { live, _ := r.StoredCount("tickets"); return live == 2000 })
	r.Eventually("partitions to resume", 10*time.Second, func() bool { return testutil.ToFloat64(r.Metrics.Paused) == 0 })
	stop()
	c := r.Committed(2)
	if c[0]+c[1] != 2000 {
		t.Fatalf("committed %v, want 2000 in all", c)
	}
}

// A partition given up while paused for backpressure, and later assigned back
// to the same process when it is no longer paused, is fetched again.
// librdkafka keeps an application pause across unassign and assign, so
// without resuming it before giving it up, it would come back owned and
// silently never fetched (the rare stall of the many-processes scenario).
func TestPartitionGivenUpPausedComesBackFetching(t *testing.T) {
	r := pipetest.NewRig(t, 4, kfake.GroupMinSessionTimeout(100*time.Millisecond))
	props := map[string]string{"partition.assignment.strategy": "cooperative-sticky", "session.timeout.ms": "2000",
		"heartbeat.interval.ms": "100", "max.partition.fetch.bytes": "16384"}
	gate := &gateStore{Writer: r.Store, release: make(chan struct{})}
	cfg := pipeline.Config{Lanes: 2, BatchSize: 10, MaxInflightRecords: 100, DrainTimeout: 500 * time.Millisecond}
	changes := func(from, to int) (c [][2]int) {
		for k := from; k < to; k++ {
			c = append(c, [2]int{k, 1})
		}
		return c
	}
	r.Produce(changes(0, 2000))
	aMetrics := r.Metrics
	r.Run(cfg, gate, props)
	r.Eventually("the first process to own all four partitions and pause them", 30*time.Second, func() bool {
		return testutil.ToFloat64(aMetrics.Paused) == 1 && strings.Count(r.Logs.String(), "partitions assigned") == 1
	})
	// A second process joins: the first gives up two partitions while paused.
	r.Metrics = pipeline.NewMetrics(nil)
	stopB := r.Run(pipeline.Config{}, r.Store, props)
	r.Eventually("the first process to give up partitions", 30*time.Second, func() bool {
		return strings.Contains(r.Logs.String(), "partitions revoked")
	})
	close(gate.release)
	r.Eventually("the first 2000 records", 60*time.Second, func() bool { live, _ := r.StoredCount("tickets"); return live == 2000 })
	r.Eventually("the first process to resume", 30*time.Second, func() bool { return testutil.ToFloat64(aMetrics.Paused) == 0 })
	// The second process leaves: its partitions go back to the first, which is
	// not paused now and has no reason to pause or resume again.
	stopB()
	r.Produce(changes(2000, 2040)) // fewer than max_inflight_records: no new pause
	r.Eventually("the records produced after the partitions came back", 60*time.Second, func() bool {
		live, _ := r.StoredCount("tickets")
		return live == 2040
	})
}

// Updates that change only columns outside the text send nothing to the
// embedding provider: the stored text hash matches, the stored vector is reused.
func TestUnchangedTextNeverReachesProvider(t *testing.T) {
	r := pipetest.NewRig(t, 3)
	srv := testenv.NewEmbeddingServer(t, 16, 0)
	client, err := embed.NewClient(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: srv.URL, Model: "fake", Dims: 16,
		CacheEntries: -1}, nil, nil) // no client cache: this proves the pipeline's own skip
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	stop := r.RunWith(pipeline.Config{}, r.Store, client, nil)
	row := func(key, version int) map[string]any {
		return map[string]any{"id": key, "customer_id": key % 7, "body": fmt.Sprintf("ticket %d: refund not received", key),
			"assignee": fmt.Sprintf("agent-%d", version)} // not in the text
	}
	var creates, updates [][2]int
	for k := 0; k < 100; k++ {
		creates = append(creates, [2]int{k, 1})
		for v := 2; v <= 11; v++ {
			updates = append(updates, [2]int{k, v})
		}
	}
	r.ProduceRows(creates, row)
	r.Eventually("100 creates", 20*time.Second, func() bool { return r.Stored() == 100 })
	sent := srv.Texts.Load()
	r.ProduceRows(updates, row)
	r.Eventually("1,000 updates", 30*time.Second, func() bool { return r.Stored() == 1100 })
	stop()
	if got := srv.Texts.Load() - sent; got != 0 {
		t.Fatalf("1,000 updates of non-text columns sent %d texts to the provider, want 0", got)
	}
	if sent != 100 {
		t.Errorf("creates sent %d texts, want 100", sent)
	}
	if got := testutil.ToFloat64(r.Metrics.EmbedReused); got != 1000 {
		t.Errorf("embed_reused_total = %v, want 1000", got)
	}
}

// Source.Retention deletes a source's events older than the retention, for good,
// while newer ones stay.
func TestRetentionPurgesExpiredEvents(t *testing.T) {
	r := pipetest.NewRig(t, 1)
	src := source.Source{Name: "tickets", Topic: pipetest.Topic, Format: cdc.FormatDebezium, Tenant: "acme",
		Entity: "customer:{{.customer_id}}", Time: "updated_at", Text: "{{.body}}"}
	src.Retention = 3 * time.Second
	r.Source = &src
	old := time.Now().Add(-time.Hour).UnixMicro()
	r.ProduceRows([][2]int{{1, 1}, {2, 1}, {3, 1}}, func(key, version int) map[string]any {
		row := map[string]any{"id": key, "customer_id": 1, "body": fmt.Sprint("ticket ", key)}
		if key < 3 {
			row["updated_at"] = old
		}
		return row
	})
	stop := r.Run(pipeline.Config{}, r.Store, nil)
	defer stop()
	r.Eventually("expired events purged", 20*time.Second, func() bool {
		return testutil.ToFloat64(r.Metrics.Records.WithLabelValues("tickets", "expired")) >= 2
	})
	if live, _ := r.StoredCount("tickets"); live != 1 {
		t.Fatalf("%d events left, want 1 (the one inside the retention)", live)
	}
}
