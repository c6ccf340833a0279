package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/pipetest"
	"github.com/freshctx/freshctx/internal/procstat"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store"
)

// Ingest benchmarks: records produced to an in-process broker, consumed into
// PostgreSQL through the embedder. Run one pass each:
//
//	go test -run XXX -bench 'Ingest|Naive' -benchtime 1x ./pipeline
//
// They report events/s (from the first record consumed to the last stored) and,
// with the HTTP provider, texts per embedding request.

func distinctChanges(n int) [][2]int {
	out := make([][2]int, n)
	for i := range out {
		out[i] = [2]int{i, 1}
	}
	return out
}

func benchIngest(b *testing.B, n int, emb pipeline.Embedder) {
	r := pipetest.NewRig(b, 4)
	r.Produce(distinctChanges(n))
	stop := r.RunWith(pipeline.Config{}, r.Store, emb, nil)
	// The clock starts at the first record consumed (within the 10 ms of a
	// poll): joining the group is not ingest throughput.
	r.Eventually("the first record consumed", time.Minute, func() bool {
		return testutil.ToFloat64(r.Metrics.Consumed.WithLabelValues(pipetest.Topic)) > 0
	})
	start := time.Now()
	self0, pg0 := processCPU()
	r.Eventually("all records stored", 5*time.Minute, func() bool { return r.Stored() == n })
	elapsed := time.Since(start)
	self1, pg1 := processCPU()
	// Where the time goes: per batch, and the cores this process (pipeline,
	// broker, provider) and PostgreSQL (when local) kept busy.
	mean := func(h prometheus.Histogram) float64 {
		var m dto.Metric
		if h.Write(&m) != nil || m.Histogram.GetSampleCount() == 0 {
			return 0
		}
		return m.Histogram.GetSampleSum() / float64(m.Histogram.GetSampleCount())
	}
	b.ReportMetric(mean(r.Metrics.BatchSize), "records/batch")
	b.ReportMetric(mean(r.Metrics.EmbedSeconds)*1000, "embed-ms/batch")
	b.ReportMetric(mean(r.Metrics.StoreSeconds)*1000, "store-ms/batch")
	b.ReportMetric((self1-self0)/elapsed.Seconds(), "process-cores")
	if pg1 > 0 {
		b.ReportMetric((pg1-pg0)/elapsed.Seconds(), "postgres-cores")
	}
	stop()
	b.ReportMetric(float64(n)/elapsed.Seconds(), "events/s")
}

// BenchmarkIngestProvider20ms: an OpenAI-compatible provider that takes 20 ms per
// request, whatever its size.
func BenchmarkIngestProvider20ms(b *testing.B) {
	for b.Loop() {
		srv := testenv.NewEmbeddingServer(b, 384, 20*time.Millisecond)
		c, err := embed.NewClient(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: srv.URL, Model: "fake", Dims: 384, CacheEntries: -1}, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		benchIngest(b, 20000, c)
		c.Close()
		b.ReportMetric(float64(srv.Texts.Load())/float64(srv.Requests.Load()), "texts/request")
	}
}

// BenchmarkIngestLocal: the offline local embedder.
func BenchmarkIngestLocal(b *testing.B) {
	for b.Loop() {
		emb, _ := embed.NewLocal(384)
		benchIngest(b, 50000, emb)
	}
}

// BenchmarkNaiveProvider20ms is the baseline the pipeline is measured against: a
// consumer that polls one record, embeds it alone, inserts it alone and commits,
// against the same 20 ms provider, broker and database.
func BenchmarkNaiveProvider20ms(b *testing.B) {
	for b.Loop() {
		const n = 300
		r := pipetest.NewRig(b, 4)
		r.Produce(distinctChanges(n))
		srv := testenv.NewEmbeddingServer(b, 384, 20*time.Millisecond)
		c, err := embed.NewClient(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: srv.URL, Model: "fake", Dims: 384,
			CacheEntries: -1, MaxInputs: 1, Concurrency: 1}, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		m, _ := source.NewMapper(source.Source{Name: "tickets", Topic: pipetest.Topic, Format: cdc.FormatDebezium, Tenant: "acme",
			Entity: "customer:{{.customer_id}}", Time: "updated_at", Text: "{{.body}}"})
		consumer, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": r.Brokers, "group.id": r.Group,
			"auto.offset.reset": "earliest", "enable.auto.commit": false, "enable.metrics.push": false})
		if err != nil {
			b.Fatal(err)
		}
		if err := consumer.SubscribeTopics([]string{pipetest.Topic}, nil); err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		var start time.Time
		for done := 0; done < n; {
			msg, ok := consumer.Poll(100).(*kafka.Message)
			if !ok {
				continue
			}
			if start.IsZero() {
				start = time.Now()
			}
			rec := kafkaio.RecordOf(msg)
			ch, err := cdc.DecodeDebezium(rec)
			if err != nil {
				b.Fatal(err)
			}
			ev, err := m.Event(&ch, ch.Key, &rec, nil)
			if err != nil {
				b.Fatal(err)
			}
			vecs, err := c.Embed(ctx, []string{ev.Text})
			if err != nil {
				b.Fatal(err)
			}
			ev.Embedding = vecs[0]
			if _, err := r.Store.Apply(ctx, []store.Event{ev}, nil); err != nil {
				b.Fatal(err)
			}
			if _, err := consumer.CommitMessage(msg); err != nil {
				b.Fatal(fmt.Errorf("commit: %w", err))
			}
			done++
		}
		elapsed := time.Since(start)
		consumer.Close()
		c.Close()
		b.ReportMetric(float64(n)/elapsed.Seconds(), "events/s")
		b.ReportMetric(float64(srv.Texts.Load())/float64(srv.Requests.Load()), "texts/request")
	}
}

// freshStore records, for every event written, the time from its production to
// the moment its write transaction returned (durable, and visible to readers).
type freshStore struct {
	store.Writer
	mu       sync.Mutex
	produced map[string]time.Time
	lat      []time.Duration
}

func (f *freshStore) Apply(ctx context.Context, ups []store.Event, dels []store.Delete) (store.WriteResult, error) {
	res, err := f.Writer.Apply(ctx, ups, dels)
	if err == nil {
		now := time.Now()
		f.mu.Lock()
		for _, e := range ups {
			if t, ok := f.produced[e.Key]; ok {
				f.lat = append(f.lat, now.Sub(t))
				delete(f.produced, e.Key)
			}
		}
		f.mu.Unlock()
	}
	return res, err
}

// benchFreshness produces rate events/s for d through the pipeline with an
// embedding provider that takes 20 ms per request, and reports the p50 and p99 of
// produce → durable write.
func benchFreshness(b *testing.B, rate int, d time.Duration) {
	r := pipetest.NewRig(b, 4)
	srv := testenv.NewEmbeddingServer(b, 384, 20*time.Millisecond)
	c, err := embed.NewClient(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: srv.URL, Model: "fake", Dims: 384, CacheEntries: -1}, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	fs := &freshStore{Writer: r.Store, produced: map[string]time.Time{}}
	stop := r.RunWith(pipeline.Config{}, fs, c, nil)
	defer stop()
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": r.Brokers, "linger.ms": 0, "enable.metrics.push": false})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	go func() { // drain delivery reports
		for range p.Events() {
		}
	}()
	send := func(key int) {
		tp := pipetest.Topic
		env := map[string]any{"op": "c", "after": map[string]any{"id": key, "customer_id": key % 7, "body": fmt.Sprintf("ticket %d: refund not received", key),
			"updated_at": time.Now().UnixMicro()}, "source": map[string]any{"connector": "postgresql", "lsn": key + 1}}
		v, _ := json.Marshal(env)
		fs.mu.Lock()
		fs.produced[fmt.Sprint(key)] = time.Now()
		fs.mu.Unlock()
		if err := p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &tp, Partition: kafka.PartitionAny},
			Key: []byte(fmt.Sprintf(`{"id":%d}`, key)), Value: v}, nil); err != nil {
			b.Fatal(err)
		}
	}
	// Warm up: the group is joined and a first record is through.
	send(-1)
	r.Eventually("the first record", 30*time.Second, func() bool { return r.Stored() >= 1 })
	fs.mu.Lock()
	fs.lat = nil
	fs.mu.Unlock()
	n := int(float64(rate) * d.Seconds())
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	for i := 0; i < n; i++ {
		if wait := time.Until(start.Add(time.Duration(i) * interval)); wait > 0 {
			time.Sleep(wait) // pacing the producer, not synchronising
		}
		send(i)
	}
	r.Eventually("every record stored", 60*time.Second, func() bool { return r.Stored() >= n+1 })
	fs.mu.Lock()
	lat := append([]time.Duration(nil), fs.lat...)
	fs.mu.Unlock()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(len(lat))/time.Since(start).Seconds(), "events/s")
}

// BenchmarkFreshnessTrickle: 50 events/s (DESIGN §8: p50 ≤ 30 ms, p99 ≤ 60 ms).
func BenchmarkFreshnessTrickle(b *testing.B) {
	for b.Loop() {
		benchFreshness(b, 50, 10*time.Second)
	}
}

// BenchmarkFreshnessHalfLoad: 7,000 events/s, half of the measured maximum with
// the 20 ms provider (DESIGN §8: p99 ≤ 250 ms).
func BenchmarkFreshnessHalfLoad(b *testing.B) {
	for b.Loop() {
		benchFreshness(b, 7000, 10*time.Second)
	}
}

// processCPU reads from /proc the CPU seconds used so far by this process and
// by PostgreSQL's processes on this machine, with the backends they have
// reaped (0 when there are none).
func processCPU() (self, postgres float64) {
	self, _ = procstat.CPU(os.Getpid(), true)
	pids, _ := procstat.PIDs()
	for _, pid := range pids {
		if comm, _ := procstat.Comm(pid); strings.HasPrefix(comm, "postgres") {
			s, _ := procstat.CPU(pid, true)
			postgres += s
		}
	}
	return self, postgres
}
