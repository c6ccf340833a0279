package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/source"
)

// baseline is the naive consumer freshctx is measured against: poll one record,
// embed its text alone, insert it alone, commit it, repeat. It maps records with
// the same source rules and embedder as ingest (from the config), and writes to
// its own table, freshctx_baseline, in the configured database.
func baseline(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest baseline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "examples/demo.yaml", "freshctx config: kafka, postgres, embedder and the source of -topic")
	topic := fs.String("topic", "support.chat", "topic to consume (a configured source's)")
	records := fs.Int("records", 2000, "stop after this many records")
	idle := fs.Duration("idle", 5*time.Second, "stop when no record arrives for this long")
	out := fs.String("out", "", "directory for the report: baseline.json, baseline.md, baseline.svg")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.Load(*cfgPath, func(string) string { return "" })
	if err != nil {
		return err
	}
	if cfg.Kafka.Brokers == "" {
		cfg.Kafka.Brokers = cfg.Kafka.DevBroker
	}
	var src *source.Source
	for i := range cfg.Sources {
		if cfg.Sources[i].Topic == *topic {
			src = &cfg.Sources[i]
		}
	}
	if src == nil {
		return fmt.Errorf("-topic: %s is not the topic of a source in %s", *topic, *cfgPath)
	}
	mapper, err := source.NewMapper(*src)
	if err != nil {
		return err
	}
	var emb interface {
		Embed(context.Context, []string) ([][]float32, error)
	}
	if cfg.Embedder.Provider == embed.ProviderLocal {
		if emb, err = embed.NewLocalFromConfig(cfg.Embedder); err != nil {
			return err
		}
	} else {
		c, err := embed.NewClient(cfg.Embedder, embed.NewMetrics(nil), slog.New(slog.DiscardHandler))
		if err != nil {
			return err
		}
		defer c.Close()
		emb = c
	}
	db, err := pgx.Connect(ctx, cfg.Postgres.DSN)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))
	if _, err := db.Exec(ctx, `CREATE TABLE IF NOT EXISTS freshctx_baseline (key text PRIMARY KEY, text text NOT NULL, embedding vector, written_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return err
	}
	if _, err := db.Exec(ctx, `TRUNCATE freshctx_baseline`); err != nil {
		return err
	}
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": cfg.Kafka.Brokers, "group.id": fmt.Sprintf("freshctx-baseline-%d", time.Now().UnixNano()),
		"auto.offset.reset": "earliest", "enable.auto.commit": false, "enable.metrics.push": false})
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SubscribeTopics([]string{*topic}, nil); err != nil {
		return err
	}
	h := newHist()
	var start time.Time
	last := time.Now()
	n, skipped := 0, 0
	for n < *records && ctx.Err() == nil && time.Since(last) < *idle {
		msg, err := c.ReadMessage(100 * time.Millisecond)
		var ke kafka.Error
		if errors.As(err, &ke) && ke.IsTimeout() {
			continue
		} else if err != nil {
			return err
		}
		t0 := time.Now()
		if start.IsZero() {
			start = t0
		}
		last = t0
		ev, ok, err := mapper.EventOf(nil, kafkaio.RecordOf(msg))
		if err == nil && ok {
			vecs, err := emb.Embed(ctx, []string{ev.Text}) // one text per request
			if err != nil {
				return fmt.Errorf("embedding: %w", err)
			}
			if _, err := db.Exec(ctx, `INSERT INTO freshctx_baseline (key, text, embedding) VALUES ($1, $2, $3)
				ON CONFLICT (key) DO UPDATE SET text = EXCLUDED.text, embedding = EXCLUDED.embedding, written_at = now()`,
				ev.Key, ev.Text, pgvector.NewVector(vecs[0])); err != nil {
				return err
			}
		} else {
			skipped++
		}
		if _, err := c.CommitMessage(msg); err != nil { // one synchronous commit per record
			return err
		}
		h.record(time.Since(t0))
		n++
	}
	el := time.Since(start)
	if start.IsZero() {
		return fmt.Errorf("no record arrived on %s within %s", *topic, *idle)
	}
	l := h.summary()
	res := map[string]any{"records": n, "skipped": skipped, "seconds": el.Seconds(), "events_per_s": float64(n) / el.Seconds(),
		"texts_per_request": 1, "embedder": cfg.Embedder.Provider}
	r := newReport("baseline", args)
	r.Results, r.LatencyOf, r.Latency = res, "poll → embed one → insert one → commit, per record", l
	if err := r.write(*out); err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "baseline: %d records in %.1fs: %.1f events/s (1 text per embedding request, 1 insert and 1 commit per record); per record p50 %.2f ms, p99 %.2f ms\n",
		n, el.Seconds(), float64(n)/el.Seconds(), l.P50, l.P99)
	return nil
}
