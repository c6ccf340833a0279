// Package pipetest is the ingest pipeline's test bench, shared by the pipeline's
// and backfill's tests: a real Kafka-protocol broker (kfake), PostgreSQL with
// the schema migrated, and a running pipeline over them.
package pipetest

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

// Topic is the rig's source topic.
const Topic = "shop.public.tickets"

// Rig is a pipeline test bench: a kfake broker with Topic and the DLQ topic, a
// migrated PostgreSQL schema, a producer and the pipeline's metrics.
type Rig struct {
	T        testing.TB
	Brokers  string
	DSN      string
	Store    *pgstore.Store
	Cache    *rediscache.Cache // nil: the pipeline runs without a cache
	Producer *kafka.Producer
	Metrics  *pipeline.Metrics
	Logs     *testenv.LockedBuffer
	Group    string
	Cluster  *kfake.Cluster
	Source   *source.Source // default: tickets (Debezium) on Topic
}

// NewRig starts a rig whose topic has the given partitions.
func NewRig(t testing.TB, partitions int32, opts ...kfake.Opt) *Rig {
	brokers, cluster := testenv.Kafka(t, partitions, []string{Topic, kafkaio.DLQTopicDefault}, opts...)
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
	return &Rig{T: t, Brokers: brokers, DSN: dsn, Store: st, Producer: p, Metrics: pipeline.NewMetrics(nil), Logs: &testenv.LockedBuffer{}, Group: testenv.Name("g"), Cluster: cluster}
}

// Produce sends Debezium change events: one per (key, version), in the given order,
// whose text changes with every version.
func (r *Rig) Produce(changes [][2]int) {
	r.ProduceRows(changes, func(key, version int) map[string]any {
		return map[string]any{"id": key, "customer_id": key % 7, "body": fmt.Sprintf("key %d version %d", key, version)}
	})
}

// ProduceRows is Produce with the row of each change built by row.
func (r *Rig) ProduceRows(changes [][2]int, row func(key, version int) map[string]any) {
	r.T.Helper()
	done := make(chan kafka.Event, len(changes))
	tp := Topic
	for _, c := range changes {
		key, version := c[0], c[1]
		after := row(key, version)
		if _, ok := after["updated_at"]; !ok {
			after["updated_at"] = time.Now().UnixMicro()
		}
		env := map[string]any{"op": "u", "after": after, "source": map[string]any{"connector": "postgresql", "lsn": version}}
		v, _ := json.Marshal(env)
		if err := r.Producer.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &tp, Partition: kafka.PartitionAny},
			Key: []byte(fmt.Sprintf(`{"id":%d}`, key)), Value: v}, done); err != nil {
			r.T.Fatal(err)
		}
	}
	for range changes {
		if m := (<-done).(*kafka.Message); m.TopicPartition.Error != nil {
			r.T.Fatal(m.TopicPartition.Error)
		}
	}
}

// Run starts a pipeline over st (the real store, maybe wrapped) with the local
// embedder and returns a stop function that cancels it and waits for Run to return.
func (r *Rig) Run(cfg pipeline.Config, st store.Writer, props map[string]string) func() {
	emb, _ := embed.NewLocal(64)
	return r.RunWith(cfg, st, emb, props)
}

// RunWith is Run with the given embedder.
func (r *Rig) RunWith(cfg pipeline.Config, st store.Writer, emb pipeline.Embedder, props map[string]string) func() {
	r.T.Helper()
	src := source.Source{Name: "tickets", Topic: Topic, Format: cdc.FormatDebezium, Tenant: "acme", Entity: "customer:{{.customer_id}}",
		Time: "updated_at", Text: "{{.body}}"}
	if r.Source != nil {
		src = *r.Source
	}
	p, err := pipeline.New(cfg, kafkaio.Config{Brokers: r.Brokers, Group: r.Group, ConsumerProperties: props}, []source.Source{src},
		pipeline.Deps{Embedder: emb, Store: st, Cache: r.CacheDep(), Logger: slog.New(slog.NewTextHandler(r.Logs, &slog.HandlerOptions{Level: slog.LevelDebug})), Metrics: r.Metrics})
	if err != nil {
		r.T.Fatal(err)
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
					r.T.Errorf("Run: %v", err)
				}
			case <-time.After(testenv.Patience(2 * time.Minute)):
				r.T.Fatalf("Run did not return\n%s", r.Logs.String())
			}
		})
	}
	r.T.Cleanup(stop)
	return stop
}

// CacheDep is the rig's cache as the pipeline's dependency (nil without one).
func (r *Rig) CacheDep() pipeline.Cache {
	if r.Cache == nil {
		return nil
	}
	return r.Cache
}

// Eventually waits until cond holds, failing the test after timeout with the logs' tail.
func (r *Rig) Eventually(what string, timeout time.Duration, cond func() bool) {
	r.T.Helper()
	testenv.Eventually(r.T, what, timeout, cond, func() string { return Tail(r.Logs.String(), 3000) })
}

// Tail is the last n bytes of s.
func Tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// Stored counts tickets stored or unchanged (a newer version was stored).
func (r *Rig) Stored() int {
	return int(testutil.ToFloat64(r.Metrics.Records.WithLabelValues("tickets", "stored")) +
		testutil.ToFloat64(r.Metrics.Records.WithLabelValues("tickets", "unchanged")))
}

// Committed returns the group's committed offsets per partition.
func (r *Rig) Committed(partitions int32) []int64 {
	r.T.Helper()
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": r.Brokers, "group.id": r.Group, "enable.metrics.push": false})
	if err != nil {
		r.T.Fatal(err)
	}
	defer c.Close()
	tp := Topic
	var tps []kafka.TopicPartition
	for p := int32(0); p < partitions; p++ {
		tps = append(tps, kafka.TopicPartition{Topic: &tp, Partition: p})
	}
	got, err := c.Committed(tps, 5000)
	if err != nil {
		r.T.Fatal(err)
	}
	out := make([]int64, partitions)
	for _, x := range got {
		if x.Offset >= 0 { // kafka.OffsetInvalid (-1001): nothing committed yet
			out[x.Partition] = int64(x.Offset)
		}
	}
	return out
}

// StoredCount counts a source's live (version ≥ 0) and backfilled events not deleted.
func (r *Rig) StoredCount(source string) (live, backfilled int) {
	r.T.Helper()
	if err := r.queryRow(`SELECT count(*) FILTER (WHERE version >= 0), count(*) FILTER (WHERE version < 0)
		FROM events WHERE source = $1 AND NOT deleted`, []any{source}, &live, &backfilled); err != nil {
		r.T.Fatal(err)
	}
	return live, backfilled
}

// EventText is the stored text and version of one event.
func (r *Rig) EventText(source, key string) (text string, version int64) {
	r.T.Helper()
	if err := r.queryRow(`SELECT text, version FROM events WHERE source = $1 AND key = $2`, []any{source, key}, &text, &version); err != nil {
		r.T.Fatalf("event %s/%s: %v", source, key, err)
	}
	return text, version
}

// queryRow runs one query on its own connection to the rig's schema.
func (r *Rig) queryRow(sql string, args []any, dst ...any) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, r.DSN)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	return conn.QueryRow(ctx, sql, args...).Scan(dst...)
}

// WithCache gives the rig a Redis cache, so what the pipeline writes there is
// checked too.
func (r *Rig) WithCache() *Rig {
	addr, prefix := testenv.RedisAddr(r.T)
	r.Cache = rediscache.MustNew(rediscache.Config{Addr: addr, KeyPrefix: prefix, Window: time.Hour, MaxPerEntity: 100000})
	r.T.Cleanup(func() { r.Cache.Close() })
	return r
}
