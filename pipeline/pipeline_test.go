package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/twmb/franz-go/pkg/kfake"
	"go.uber.org/goleak"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/ledger"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
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

const topic = "shop.public.tickets"

type rig struct {
	t        testing.TB
	brokers  string
	dsn      string
	store    *pgstore.Store
	cache    *rediscache.Cache // nil: the pipeline runs without a cache
	producer *kafka.Producer
	metrics  *Metrics
	logs     *lockedBuffer
	group    string
	cluster  *kfake.Cluster
	source   *Source // default: tickets (Debezium) on topic
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

func newRig(t testing.TB, partitions int32, opts ...kfake.Opt) *rig {
	brokers, cluster := testenv.Kafka(t, partitions, []string{topic, DLQTopicDefault}, opts...)
	dsn, _ := testenv.PostgresDSN(t)
	ctx := context.Background()
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "linger.ms": 2, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return &rig{t: t, brokers: brokers, dsn: dsn, store: st, producer: p, metrics: NewMetrics(nil), logs: &lockedBuffer{}, group: testenv.Name("g"), cluster: cluster}
}

// produce sends Debezium change events: one per (key, version), in the given order,
// whose text changes with every version.
func (r *rig) produce(changes [][2]int) {
	r.produceRows(changes, func(key, version int) map[string]any {
		return map[string]any{"id": key, "customer_id": key % 7, "body": fmt.Sprintf("key %d version %d", key, version)}
	})
}

// produceRows is produce with the row of each change built by row.
func (r *rig) produceRows(changes [][2]int, row func(key, version int) map[string]any) {
	r.t.Helper()
	done := make(chan kafka.Event, len(changes))
	tp := topic
	for _, c := range changes {
		key, version := c[0], c[1]
		after := row(key, version)
		if _, ok := after["updated_at"]; !ok {
			after["updated_at"] = time.Now().UnixMicro()
		}
		env := map[string]any{"op": "u", "after": after, "source": map[string]any{"connector": "postgresql", "lsn": version}}
		v, _ := json.Marshal(env)
		if err := r.producer.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &tp, Partition: kafka.PartitionAny},
			Key: []byte(fmt.Sprintf(`{"id":%d}`, key)), Value: v}, done); err != nil {
			r.t.Fatal(err)
		}
	}
	for range changes {
		if m := (<-done).(*kafka.Message); m.TopicPartition.Error != nil {
			r.t.Fatal(m.TopicPartition.Error)
		}
	}
}

// run starts a pipeline over st (the real store, maybe wrapped) with the local
// embedder and returns a stop function that cancels it and waits for Run to return.
func (r *rig) run(cfg Config, st Store, props map[string]string) func() {
	emb, _ := embed.NewLocal(64)
	return r.runWith(cfg, st, emb, props)
}

func (r *rig) runWith(cfg Config, st Store, emb Embedder, props map[string]string) func() {
	r.t.Helper()
	src := Source{Name: "tickets", Topic: topic, Format: cdc.FormatDebezium, Tenant: "acme", Entity: "customer:{{.customer_id}}",
		Time: "updated_at", Text: "{{.body}}"}
	if r.source != nil {
		src = *r.source
	}
	p, err := New(cfg, Kafka{Brokers: r.brokers, Group: r.group, ConsumerProperties: props}, []Source{src},
		Deps{Embedder: emb, Store: st, Cache: r.cacheDep(), Logger: slog.New(slog.NewTextHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug})), Metrics: r.metrics})
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					r.t.Errorf("Run: %v", err)
				}
			case <-time.After(30 * time.Second):
				r.t.Fatalf("Run did not return\n%s", r.logs.String())
			}
		})
	}
	r.t.Cleanup(stop)
	return stop
}

func (r *rig) cacheDep() Cache {
	if r.cache == nil {
		return nil
	}
	return r.cache
}

func (r *rig) eventually(what string, timeout time.Duration, cond func() bool) {
	r.t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			r.t.Fatalf("timed out waiting for %s\n%s", what, tail(r.logs.String(), 3000))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func (r *rig) stored() int {
	return int(testutil.ToFloat64(r.metrics.Records.WithLabelValues("tickets", "stored")) +
		testutil.ToFloat64(r.metrics.Records.WithLabelValues("tickets", "unchanged")))
}

// committed returns the group's committed offsets per partition.
func (r *rig) committed(partitions int32) []int64 {
	r.t.Helper()
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": r.brokers, "group.id": r.group, "enable.metrics.push": false})
	if err != nil {
		r.t.Fatal(err)
	}
	defer c.Close()
	tp := topic
	var tps []kafka.TopicPartition
	for p := int32(0); p < partitions; p++ {
		tps = append(tps, kafka.TopicPartition{Topic: &tp, Partition: p})
	}
	got, err := c.Committed(tps, 5000)
	if err != nil {
		r.t.Fatal(err)
	}
	out := make([]int64, partitions)
	for _, x := range got {
		if x.Offset >= 0 { // kafka.OffsetInvalid (-1001): nothing committed yet
			out[x.Partition] = int64(x.Offset)
		}
	}
	return out
}

// orderStore checks invariant 3 on every write: no key is written by two batches
// at once, and each key's versions arrive in increasing order.
type orderStore struct {
	Store
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
	res, err := o.Store.Apply(ctx, ups, dels)
	o.mu.Lock()
	for _, e := range ups {
		delete(o.inFlight, e.Key)
	}
	o.mu.Unlock()
	return res, err
}

// Invariant 3: two changes of one key are never processed concurrently, and in order.
func TestPerKeyOrder(t *testing.T) {
	r := newRig(t, 3)
	os := &orderStore{Store: r.store, inFlight: map[string]bool{}, last: map[string]int64{}}
	stop := r.run(Config{Lanes: 8, BatchSize: 16}, os, nil)
	var changes [][2]int
	for v := 1; v <= 50; v++ {
		for k := 0; k < 20; k++ {
			changes = append(changes, [2]int{k, v*100 + k})
		}
	}
	r.produce(changes)
	r.eventually("1000 changes stored", 30*time.Second, func() bool { return r.stored() == len(changes) })
	stop()
	os.mu.Lock()
	defer os.mu.Unlock()
	if len(os.violation) > 0 {
		t.Fatalf("%d order violations, first: %s", len(os.violation), os.violation[0])
	}
	for k := 0; k < 20; k++ {
		ref := store.Ref{Source: "tickets", Key: fmt.Sprint(k)}
		got, _ := r.store.Lookup(context.Background(), []store.Ref{ref})
		if got[ref].Version != int64(5000+k) {
			t.Errorf("key %d: final version %d, want %d", k, got[ref].Version, 5000+k)
		}
	}
}

// gateStore blocks writes of batches holding a given key (or all, with key "")
// until released.
type gateStore struct {
	Store
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
	return g.Store.Apply(ctx, ups, dels)
}

// Invariant 1: a slow record holds the committed offset of its partition back
// while later records complete; once it completes, the commit reaches the end.
func TestSlowRecordHoldsOffset(t *testing.T) {
	r := newRig(t, 1)
	gate := &gateStore{Store: r.store, key: "3", release: make(chan struct{})}
	stop := r.run(Config{Lanes: 4, BatchSize: 1}, gate, map[string]string{"auto.commit.interval.ms": "100"})
	var changes [][2]int
	for k := 0; k < 20; k++ {
		changes = append(changes, [2]int{k, 10 + k})
	}
	r.produce(changes)
	// Key 3 is at offset 3 of the only partition. Keys in other lanes complete
	// (those that share its lane wait behind it, in order).
	r.eventually("records after offset 3 to complete", 20*time.Second, func() bool { return r.stored() >= 10 })
	// Watch several commit intervals: the committed offset never passes offset 3.
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if c := r.committed(1)[0]; c > 3 {
			t.Fatalf("committed offset %d passed the in-flight record at offset 3", c)
		}
	}
	close(gate.release)
	r.eventually("the commit to reach the end", 20*time.Second, func() bool { return r.committed(1)[0] == 20 })
	stop()
}

// Invariants 4 and 5: with the store stalled, in-flight records stay under the
// limit, partitions pause, and the poll loop keeps the group session alive for
// longer than max.poll.interval.ms; after the stall everything is stored.
func TestBackpressurePausesWithoutLeavingTheGroup(t *testing.T) {
	r := newRig(t, 2, kfake.GroupMinSessionTimeout(100*time.Millisecond))
	gate := &gateStore{Store: r.store, release: make(chan struct{})}
	cfg := Config{Lanes: 2, BatchSize: 10, MaxInflightRecords: 100}
	stop := r.run(cfg, gate, map[string]string{"session.timeout.ms": "1000", "heartbeat.interval.ms": "100",
		"max.poll.interval.ms": "1000", "max.partition.fetch.bytes": "16384"})
	var changes [][2]int
	for i := 0; i < 2000; i++ {
		changes = append(changes, [2]int{i, i + 1})
	}
	r.produce(changes)
	r.eventually("partitions to pause", 20*time.Second, func() bool { return testutil.ToFloat64(r.metrics.Paused) == 1 })
	// Stall for longer than max.poll.interval.ms: a blocked poll loop would be
	// thrown out of the group and its partitions revoked.
	for end := time.Now().Add(2500 * time.Millisecond); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if got := testutil.ToFloat64(r.metrics.Inflight); got > float64(cfg.MaxInflightRecords) {
			t.Fatalf("in-flight records %v exceed the limit %d", got, cfg.MaxInflightRecords)
		}
	}
	if strings.Contains(r.logs.String(), "partitions revoked") {
		t.Fatalf("the consumer lost its partitions while paused:\n%s", tail(r.logs.String(), 3000))
	}
	close(gate.release)
	r.eventually("all 2000 records", 60*time.Second, func() bool { return r.stored() == 2000 })
	r.eventually("partitions to resume", 10*time.Second, func() bool { return testutil.ToFloat64(r.metrics.Paused) == 0 })
	stop()
	c := r.committed(2)
	if c[0]+c[1] != 2000 {
		t.Fatalf("committed %v, want 2000 in all", c)
	}
}

// Updates that change only columns outside the text send nothing to the
// embedding provider: the stored text hash matches, the stored vector is reused.
func TestUnchangedTextNeverReachesProvider(t *testing.T) {
	r := newRig(t, 3)
	srv := testenv.NewEmbeddingServer(t, 16, 0)
	client, err := embed.NewClient(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: srv.URL, Model: "fake", Dims: 16,
		CacheEntries: -1}, nil, nil) // no client cache: this proves the pipeline's own skip
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	stop := r.runWith(Config{}, r.store, client, nil)
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
	r.produceRows(creates, row)
	r.eventually("100 creates", 20*time.Second, func() bool { return r.stored() == 100 })
	sent := srv.Texts.Load()
	r.produceRows(updates, row)
	r.eventually("1,000 updates", 30*time.Second, func() bool { return r.stored() == 1100 })
	stop()
	if got := srv.Texts.Load() - sent; got != 0 {
		t.Fatalf("1,000 updates of non-text columns sent %d texts to the provider, want 0", got)
	}
	if sent != 100 {
		t.Errorf("creates sent %d texts, want 100", sent)
	}
	if got := testutil.ToFloat64(r.metrics.EmbedReused); got != 1000 {
		t.Errorf("embed_reused_total = %v, want 1000", got)
	}
}
