package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/ledger"
	"github.com/freshctx/freshctx/internal/pipetest"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

// The reliability suite: every scenario produces a known stream through a real
// broker connection, runs the pipeline under a fault, and checks PostgreSQL and
// Redis against the ledger folded by key. Lost must be 0; duplicates are counted.

// processed sums every result of the records counter of m.
func processed(m *pipeline.Metrics) int {
	n := 0.0
	for _, r := range []string{"stored", "unchanged", "deleted", "skipped", "dead_lettered"} {
		n += testutil.ToFloat64(m.Records.WithLabelValues(ledger.SourceName, r))
	}
	return int(n)
}

func deadLettered(m *pipeline.Metrics) int {
	return int(testutil.ToFloat64(m.Records.WithLabelValues(ledger.SourceName, "dead_lettered")))
}

// workload makes n changes over keys: creates, text updates, deletes and re-creates.
func workload(l *ledger.Ledger, keys, n int, seed uint64) []ledger.Entry {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []ledger.Entry
	for k := 0; k < keys && len(out) < n; k++ {
		out = append(out, l.Upsert(k, fmt.Sprintf("ticket %d created", k)))
	}
	for i := len(out); i < n; i++ {
		k := rng.IntN(keys)
		if rng.IntN(20) == 0 {
			out = append(out, l.Delete(k))
		} else {
			out = append(out, l.Upsert(k, fmt.Sprintf("ticket %d update %d", k, i)))
		}
	}
	return out
}

// verify waits until the store matches the ledger (or fails with what is lost)
// and records the scenario's row.
func verify(r *pipetest.Rig, t *testing.T, scenario string, l *ledger.Ledger, m []*pipeline.Metrics, checkCache bool) ledger.Result {
	t.Helper()
	var res ledger.Result
	var err error
	cache := r.Cache
	if !checkCache {
		cache = nil
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err = l.Check(context.Background(), r.Store, cache)
		if err == nil && res.Lost == 0 && res.CacheLost == 0 {
			break
		}
		// A cache write that failed (Redis past its timeout on a loaded machine)
		// leaves the cache short of events, and it must say so rather than be
		// compared: readers then use the store (ADR 0004; scenario 10 checks
		// that claim after an outage). The store is still checked in full.
		if cache != nil && err == nil && res.Lost == 0 && cacheErrors(m) > 0 {
			if _, complete, cerr := r.Cache.Recent(context.Background(), ledger.Tenant, "customer:1", time.Now().Add(-30*time.Minute), 10); cerr == nil && !complete {
				t.Logf("%s: %d cache write(s) failed, the cache says it is incomplete: %d cache mismatches not counted", scenario, cacheErrors(m), res.CacheLost)
				res.CacheLost = 0
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d of %d keys lost (first %v), %d cache mismatches, err %v\n%s", scenario, res.Lost, res.Keys,
				res.LostKeys[:min(5, len(res.LostKeys))], res.CacheLost, err, pipetest.Tail(r.Logs.String(), 2000))
		}
		time.Sleep(20 * time.Millisecond)
	}
	total, dead := 0, 0
	for _, x := range m {
		total += processed(x)
		dead += deadLettered(x)
	}
	ledger.Add(ledger.Report{Scenario: scenario, Produced: l.Records(), Stored: res.Stored,
		Duplicates: max(0, total-l.Records()), DeadLettered: dead, Lost: res.Lost + res.CacheLost})
	return res
}

// cacheErrors is how many cache writes failed.
func cacheErrors(m []*pipeline.Metrics) int {
	n := 0.0
	for _, x := range m {
		n += testutil.ToFloat64(x.CacheErrors)
	}
	return int(n)
}

// waitProcessed waits until m has processed at least n records.
func waitProcessed(r *pipetest.Rig, m *pipeline.Metrics, n int) {
	r.Eventually(fmt.Sprintf("%d records processed", n), 60*time.Second, func() bool { return processed(m) >= n })
}

// 1. Happy path: several partitions, thousands of events.
func TestReliabilityHappyPath(t *testing.T) {
	r := pipetest.NewRig(t, 6).WithCache()
	l := ledger.New(pipetest.Topic)
	l.Produce(t, r.Producer, workload(l, 500, 5000, 1), 1)
	stop := r.Run(pipeline.Config{}, r.Store, nil)
	waitProcessed(r, r.Metrics, l.Records())
	verify(r, t, "1 happy path (6 partitions)", l, []*pipeline.Metrics{r.Metrics}, true)
	stop()
}

// 2. Duplicate delivery: every record twice; then the group rewound by 1,000 offsets.
func TestReliabilityDuplicates(t *testing.T) {
	r := pipetest.NewRig(t, 4).WithCache()
	l := ledger.New(pipetest.Topic)
	l.Produce(t, r.Producer, workload(l, 300, 3000, 2), 2)
	first := r.Metrics
	stop := r.Run(pipeline.Config{}, r.Store, nil)
	waitProcessed(r, first, l.Records())
	stop()
	// Rewind the (now empty) group by 1,000 offsets in all.
	committed := r.Committed(4)
	var rewound []kafka.TopicPartition
	tp := pipetest.Topic
	left := 1000
	for p, off := range committed {
		back := min(left, int(off), 250)
		left -= back
		rewound = append(rewound, kafka.TopicPartition{Topic: &tp, Partition: int32(p), Offset: kafka.Offset(off - int64(back))})
	}
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": r.Brokers, "group.id": r.Group, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CommitOffsets(rewound); err != nil {
		t.Fatal(err)
	}
	c.Close()
	r.Metrics = pipeline.NewMetrics(nil)
	stop = r.Run(pipeline.Config{}, r.Store, nil)
	waitProcessed(r, r.Metrics, 1000-left)
	verify(r, t, "2 duplicates (every record twice, rewind 1000)", l, []*pipeline.Metrics{first, r.Metrics}, true)
	stop()
}

// 3. Out-of-order versions: older versions replayed after newer ones, a create
// replayed after a delete, and primary-key changes.
func TestReliabilityOutOfOrderVersions(t *testing.T) {
	r := pipetest.NewRig(t, 3).WithCache()
	l := ledger.New(pipetest.Topic)
	var entries []ledger.Entry
	for k := 0; k < 200; k++ {
		v1 := l.Upsert(k, fmt.Sprintf("ticket %d v1", k))
		v2 := l.Upsert(k, fmt.Sprintf("ticket %d v2", k))
		entries = append(entries, v2, v1) // the older version arrives last
	}
	for k := 200; k < 300; k++ {
		create := l.Upsert(k, fmt.Sprintf("ticket %d", k))
		entries = append(entries, create, l.Delete(k), create) // replayed create after the delete
	}
	for k := 300; k < 350; k++ { // primary-key change: delete old key (+ tombstone), create new key
		entries = append(entries, l.Upsert(k, fmt.Sprintf("ticket %d", k)), l.Delete(k), l.Upsert(k+1000, fmt.Sprintf("ticket %d (was %d)", k+1000, k)))
	}
	l.Produce(t, r.Producer, entries, 1)
	stop := r.Run(pipeline.Config{}, r.Store, nil)
	waitProcessed(r, r.Metrics, l.Records())
	verify(r, t, "3 out-of-order versions, resurrection, PK change", l, []*pipeline.Metrics{r.Metrics}, true)
	stop()
}

// 7. Rebalance: a second pipeline joins while the first has work in flight (and
// is paused by backpressure), then the first leaves.
func TestReliabilityRebalance(t *testing.T) {
	r := pipetest.NewRig(t, 6).WithCache()
	l := ledger.New(pipetest.Topic)
	l.Produce(t, r.Producer, workload(l, 600, 6000, 3), 1)
	slow := newSlowStore(r.Store, 2*time.Millisecond)
	// Small in-flight limits: pauses often. The revocation waits 3 s for the
	// first member's held work, then hands its partitions over anyway.
	cfg := pipeline.Config{Lanes: 4, BatchSize: 20, MaxInflightRecords: 200, DrainTimeout: 3 * time.Second}
	a := r.Metrics
	stopA := r.Run(cfg, slow, nil)
	waitProcessed(r, a, 1000)
	// The first member's writes wait from now on, so it cannot finish before
	// the second joins: its lanes fill and it pauses with work in flight.
	release := slow.hold()
	r.Eventually("the first member paused with work in flight", 30*time.Second, func() bool {
		return testutil.ToFloat64(a.Paused) == 1
	})
	b := pipeline.NewMetrics(nil)
	r.Metrics = b
	stopB := r.Run(cfg, newSlowStore(r.Store, 2*time.Millisecond), nil)
	r.Eventually("the second member to get partitions", 60*time.Second, func() bool { return processed(b) > 0 })
	release()
	stopA() // the first leaves: the second takes every partition
	r.Eventually("all records", 60*time.Second, func() bool {
		res, _ := l.Check(context.Background(), r.Store, nil)
		return res.Lost == 0
	})
	verify(r, t, "7 rebalance (join while paused, then leave)", l, []*pipeline.Metrics{a, b}, true)
	stopB()
	if c := r.Committed(6); sum(c) != int64(l.Records()) {
		t.Errorf("committed %v (sum %d), want %d", c, sum(c), l.Records())
	}
}

func sum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

// slowStore delays every write, and holds writes while held: work stays in
// flight.
type slowStore struct {
	store.Writer
	delay atomic.Int64                  // nanoseconds
	held  atomic.Pointer[chan struct{}] // while set, writes wait for it to close
}

func newSlowStore(st store.Writer, d time.Duration) *slowStore {
	s := &slowStore{Writer: st}
	s.delay.Store(int64(d))
	return s
}

// hold makes writes wait until the returned release is called.
func (s *slowStore) hold() (release func()) {
	ch := make(chan struct{})
	s.held.Store(&ch)
	return func() { s.held.Store(nil); close(ch) }
}

func (s *slowStore) Apply(ctx context.Context, ups []store.Event, dels []store.Delete) (store.WriteResult, error) {
	time.Sleep(time.Duration(s.delay.Load()))
	if h := s.held.Load(); h != nil {
		select {
		case <-*h:
		case <-ctx.Done():
			return store.WriteResult{}, ctx.Err()
		}
	}
	return s.Writer.Apply(ctx, ups, dels)
}

// 8. Broker trouble: OffsetCommit fails several times, then every connection to
// the broker is cut for 20 seconds mid-stream.
func TestReliabilityBrokerTrouble(t *testing.T) {
	faults := testenv.NewFaults()
	r := pipetest.NewRig(t, 4, kfake.ListenFn(faults.Listen)).WithCache()
	l := ledger.New(pipetest.Topic)
	l.Produce(t, r.Producer, workload(l, 400, 4000, 4), 1)
	// Fail the first 5 OffsetCommit requests with COORDINATOR_NOT_AVAILABLE.
	var failures int
	r.Cluster.ControlKey(kmsg.OffsetCommit.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		r.Cluster.KeepControl()
		if failures >= 5 {
			return nil, nil, false
		}
		failures++
		in := req.(*kmsg.OffsetCommitRequest)
		resp := in.ResponseKind().(*kmsg.OffsetCommitResponse)
		for _, tt := range in.Topics {
			rt := kmsg.NewOffsetCommitResponseTopic()
			rt.Topic = tt.Topic
			for _, p := range tt.Partitions {
				rp := kmsg.NewOffsetCommitResponseTopicPartition()
				rp.Partition, rp.ErrorCode = p.Partition, 15
				rt.Partitions = append(rt.Partitions, rp)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp, nil, true
	})
	stop := r.Run(pipeline.Config{}, r.Store, map[string]string{"auto.commit.interval.ms": "200"})
	waitProcessed(r, r.Metrics, 2000)
	faults.Cut()
	time.Sleep(20 * time.Second) // the outage itself, not a synchronisation
	faults.Restore()
	verify(r, t, "8 commit failures + 20 s broker outage", l, []*pipeline.Metrics{r.Metrics}, true)
	r.Eventually("commits to reach the end", 60*time.Second, func() bool { return sum(r.Committed(4)) == int64(l.Records()) })
	stop()
	if failures < 5 {
		t.Errorf("only %d commit failures were injected", failures)
	}
}

// 9. PostgreSQL down for 20 seconds, Redis down: no offset stored for unwritten
// events, retries, catch-up; the context API reports the Redis outage.
func TestReliabilityDatabaseOutages(t *testing.T) {
	r := pipetest.NewRig(t, 4)
	dsn, _ := testenv.PostgresDSN(t)
	u, _ := url.Parse(dsn)
	pgProxy, pgFaults := testenv.Proxy(t, u.Host)
	u.Host = pgProxy
	st, err := pgstore.Connect(context.Background(), pgstore.Config{DSN: u.String()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Store = st
	redisAddr, prefix := testenv.RedisAddr(t)
	redisProxy, redisFaults := testenv.Proxy(t, redisAddr)
	r.Cache = rediscache.MustNew(rediscache.Config{Addr: redisProxy, KeyPrefix: prefix, Window: time.Hour, MaxPerEntity: 100000})
	defer r.Cache.Close()

	l := ledger.New(pipetest.Topic)
	l.Produce(t, r.Producer, workload(l, 300, 2000, 5), 1)
	stop := r.Run(pipeline.Config{}, r.Store, map[string]string{"auto.commit.interval.ms": "100"})
	waitProcessed(r, r.Metrics, 500)
	pgFaults.Cut()
	redisFaults.Cut()
	cut := time.Now()
	l.Produce(t, r.Producer, workload(l, 300, 1000, 6), 1)
	srv := api.New(api.Config{Tenant: ledger.Tenant, Budget: 200 * time.Millisecond}, localEmbedder(t), st, r.Cache, nil, nil)
	// While PostgreSQL is down nothing can be written, so nothing may be
	// acknowledged (once batches in flight at the cut have failed) and no offset may
	// pass what was acknowledged.
	ackedAtCut := -1
	for time.Since(cut) < 20*time.Second {
		acked, committed := processed(r.Metrics), sum(r.Committed(4))
		if committed > int64(acked) {
			t.Fatalf("committed %d records but only %d were acknowledged", committed, acked)
		}
		if time.Since(cut) > 2*time.Second {
			if ackedAtCut < 0 {
				ackedAtCut = acked
			} else if acked != ackedAtCut {
				t.Fatalf("%d records acknowledged while the store was down", acked-ackedAtCut)
			}
		}
		time.Sleep(500 * time.Millisecond) // sampling during the outage, not synchronisation
	}
	// With both down, the API says so rather than answering wrong.
	if code, _ := contextAnswer(t, srv); code != http.StatusServiceUnavailable {
		t.Errorf("cache and store down: status %d, want 503", code)
	}
	retries := testutil.ToFloat64(r.Metrics.Retries.WithLabelValues("store")) + testutil.ToFloat64(r.Metrics.Retries.WithLabelValues("lookup"))
	if retries == 0 {
		t.Error("no store retries while PostgreSQL was down")
	}
	pgFaults.Restore()
	verify(r, t, "9 PostgreSQL down 20 s + Redis down", l, []*pipeline.Metrics{r.Metrics}, false)
	// Redis still down: answers come from PostgreSQL and name the fallback.
	code, resp := contextAnswer(t, srv)
	if code != http.StatusOK || resp.Meta.ServedFrom != "store" || len(resp.Meta.Degraded) == 0 || resp.Meta.Degraded[0].Stage != "cache" {
		t.Errorf("Redis down: %d %+v", code, resp.Meta)
	}
	if testutil.ToFloat64(r.Metrics.CacheErrors) == 0 {
		t.Error("no cache errors counted while Redis was down")
	}
	// The cache missed writes: it must not claim to cover a window from before now.
	redisFaults.Restore()
	r.Eventually("a cache write after Redis is back", 10*time.Second, func() bool {
		l.Produce(t, r.Producer, []ledger.Entry{l.Upsert(9999, "after redis is back")}, 1)
		evs, _, err := r.Cache.Recent(context.Background(), ledger.Tenant, "customer:9", time.Now().Add(-time.Minute), 10)
		return err == nil && len(evs) > 0
	})
	if _, complete, _ := r.Cache.Recent(context.Background(), ledger.Tenant, "customer:1", time.Now().Add(-10*time.Minute), 10); complete {
		t.Error("after an outage the cache claims a window it did not see")
	}
	stop()
}

// 11. Poison and oversized records: invalid JSON, a missing key field, a value near
// the broker's message size limit; DLQ or trimming as documented, neighbours flow.
func TestReliabilityPoisonAndOversized(t *testing.T) {
	r := pipetest.NewRig(t, 2).WithCache()
	l := ledger.New(pipetest.Topic)
	l.Produce(t, r.Producer, workload(l, 100, 500, 8), 1)
	tp := pipetest.Topic
	huge := strings.Repeat("refund ", 140000) // ~980 KB, under the 1 MB message limit
	bad := []*kafka.Message{
		{Key: []byte(`{"id":5001}`), Value: []byte(`{"op":"c","after":{"id":`)},                                                                        // invalid JSON
		{Key: []byte(`{"id":5002}`), Value: []byte(`{"op":"c","after":{"id":5002,"body":"no customer"},"source":{"connector":"postgresql","lsn":1}}`)}, // entity field missing
		{Key: []byte(`{"id":5003}`), Value: []byte(fmt.Sprintf(`{"op":"c","after":{"id":5003,"customer_id":3,"body":%q,"updated_at":%d},"source":{"connector":"postgresql","lsn":1}}`, huge, time.Now().UnixMicro()))},
	}
	done := make(chan kafka.Event, len(bad))
	for _, m := range bad {
		m.TopicPartition = kafka.TopicPartition{Topic: &tp, Partition: kafka.PartitionAny}
		if err := r.Producer.Produce(m, done); err != nil {
			t.Fatal(err)
		}
	}
	for range bad {
		if m := (<-done).(*kafka.Message); m.TopicPartition.Error != nil {
			t.Fatal(m.TopicPartition.Error)
		}
	}
	l.Extra(len(bad))
	l.Produce(t, r.Producer, workload(l, 100, 500, 9)[100:], 1)
	stop := r.Run(pipeline.Config{}, r.Store, nil)
	waitProcessed(r, r.Metrics, l.Records())
	verify(r, t, "11 poison (bad JSON, missing field) + 980 KB value", l, []*pipeline.Metrics{r.Metrics}, true)
	stop()
	if got := deadLettered(r.Metrics); got != 2 {
		t.Errorf("dead-lettered %d, want 2 (bad JSON, missing entity field)", got)
	}
	evs, err := r.Store.Recent(context.Background(), ledger.Tenant, "customer:3", time.Now().Add(-time.Hour), 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Key == "5003" && len(e.Text) <= source.MaxTextBytesDefault+len("…") {
			return // stored, trimmed to the source's max_text_bytes
		}
	}
	t.Errorf("the 980 KB record was not stored trimmed")
}

// 12. Graceful shutdown under load: the restart sees zero duplicates.
func TestReliabilityGracefulShutdown(t *testing.T) {
	r := pipetest.NewRig(t, 4).WithCache()
	l := ledger.New(pipetest.Topic)
	l.Produce(t, r.Producer, workload(l, 2000, 20000, 10), 1)
	first := r.Metrics
	// The drain must finish for the stop to be graceful: on a loaded machine the
	// default 10 s may not drain 20,000 in-flight records through a slow store.
	stop := r.Run(pipeline.Config{DrainTimeout: testenv.Patience(time.Minute)}, newSlowStore(r.Store, time.Millisecond), nil)
	waitProcessed(r, first, 5000)
	stop() // SIGTERM path: stop fetching, drain, commit
	if committed := sum(r.Committed(4)); committed != int64(processed(first)) {
		t.Fatalf("after a graceful stop, committed %d but processed %d", committed, processed(first))
	}
	r.Metrics = pipeline.NewMetrics(nil)
	stop = r.Run(pipeline.Config{}, r.Store, nil)
	waitProcessed(r, r.Metrics, l.Records()-processed(first))
	res := verify(r, t, "12 graceful shutdown under load, restart", l, []*pipeline.Metrics{first, r.Metrics}, true)
	stop()
	if dup := processed(first) + processed(r.Metrics) - l.Records(); dup != 0 {
		t.Errorf("%d duplicates after a graceful shutdown, want 0 (%+v)", dup, res)
	}
}

func localEmbedder(t *testing.T) *embed.Local {
	e, err := embed.NewLocal(64)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func contextAnswer(t *testing.T, srv *api.Server) (int, api.ContextResponse) {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/context?entity=customer:1&q=refund&window=1h", nil))
	var resp api.ContextResponse
	if rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
			t.Fatal(err)
		}
	}
	return rec.Code, resp
}
