package pipeline

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
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

func benchIngest(b *testing.B, n int, emb Embedder) {
	r := newRig(b, 4)
	r.produce(distinctChanges(n))
	start := time.Now()
	stop := r.runWith(Config{}, r.store, emb, nil)
	r.eventually("all records stored", 5*time.Minute, func() bool { return r.stored() == n })
	elapsed := time.Since(start)
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
		r := newRig(b, 4)
		r.produce(distinctChanges(n))
		srv := testenv.NewEmbeddingServer(b, 384, 20*time.Millisecond)
		c, err := embed.NewClient(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: srv.URL, Model: "fake", Dims: 384,
			CacheEntries: -1, MaxInputs: 1, Concurrency: 1}, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		m, _ := newMapper(Source{Name: "tickets", Topic: topic, Format: cdc.FormatDebezium, Tenant: "acme",
			Entity: "customer:{{.customer_id}}", Time: "updated_at", Text: "{{.body}}"})
		consumer, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": r.brokers, "group.id": r.group,
			"auto.offset.reset": "earliest", "enable.auto.commit": false, "enable.metrics.push": false})
		if err != nil {
			b.Fatal(err)
		}
		if err := consumer.SubscribeTopics([]string{topic}, nil); err != nil {
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
			rec := toCDC(msg)
			ch, err := cdc.DecodeDebezium(rec)
			if err != nil {
				b.Fatal(err)
			}
			ev, err := m.event(&ch, ch.Key, &rec, nil)
			if err != nil {
				b.Fatal(err)
			}
			vecs, err := c.Embed(ctx, []string{ev.Text})
			if err != nil {
				b.Fatal(err)
			}
			ev.Embedding = vecs[0]
			if _, err := r.store.Apply(ctx, []store.Event{ev}, nil); err != nil {
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
