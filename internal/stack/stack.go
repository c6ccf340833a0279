// Package stack runs the whole service inside one test process: a
// Kafka-protocol broker (kfake over TCP), the ingest pipeline writing to
// PostgreSQL + pgvector and the Redis cache with watermarks, and the context API
// (REST, MCP and the console) on an HTTP server, wired the way cmd/ingest and
// cmd/contextapi wire them. Tests of what sits around the API (the console in a
// browser, the reference bot) use it as "the running stack".
package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

// Stack is a running service.
type Stack struct {
	t       testing.TB
	Brokers string
	Config  *config.Config
	API     *httptest.Server
	Store   *pgstore.Store
	Cache   *rediscache.Cache
	// Producer writes to the broker (ProduceJSON waits for each delivery).
	Producer *kafka.Producer
	Logs     *testenv.LockedBuffer
	Metrics  *pipeline.Metrics // ingest's
	apiOpts  func(*rediscache.Cache) []api.Option
	emb      api.Embedder
}

// Replica starts another context API over the same stores, with a Redis client
// of its own: a second contextapi process, as far as the API can tell.
func (s *Stack) Replica() *httptest.Server {
	cache := rediscache.MustNew(s.Config.Redis)
	s.t.Cleanup(func() { cache.Close() })
	srv := httptest.NewServer(api.New(s.Config.API, s.emb, s.Store, cache, nil, nil, s.apiOpts(cache)...))
	s.t.Cleanup(srv.Close)
	return srv
}

// Start runs a stack for sections, the YAML of a configuration without its
// kafka, postgres, redis and embedder sections (sources:, api:, sessions:, ...;
// a `kafka:` line is prepended with the test broker and group). topics are
// created with partitions partitions each.
func Start(t testing.TB, partitions int32, topics []string, sections string) *Stack {
	t.Helper()
	brokers, _ := testenv.Kafka(t, partitions, topics)
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)
	text := fmt.Sprintf("kafka: {brokers: %q, group: %q}\npostgres: {dsn: %q}\nredis: {addr: %q, key_prefix: %q, window: 24h}\nembedder: {provider: local, dims: 256}\npipeline: {drain_timeout: 5s}\n%s",
		brokers, testenv.Name("stack"), dsn, redisAddr, prefix, sections)
	path := filepath.Join(t.TempDir(), "freshctx.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatalf("config: %v\n%s", err, text)
	}
	s := &Stack{t: t, Brokers: brokers, Config: cfg, Logs: &testenv.LockedBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	if s.Store, err = pgstore.Connect(ctx, cfg.Postgres); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Store.Close)
	if _, err := s.Store.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Store.EnsureChunkIndex(ctx, cfg.Embedder.Dims); err != nil {
		t.Fatal(err)
	}
	s.Cache = rediscache.MustNew(cfg.Redis)
	t.Cleanup(func() { s.Cache.Close() })
	if err := s.Cache.Start(ctx); err != nil {
		t.Fatal(err)
	}
	emb, err := embed.NewLocalFromConfig(cfg.Embedder)
	if err != nil {
		t.Fatal(err)
	}
	s.emb = emb
	s.Metrics = pipeline.NewMetrics(prometheus.NewRegistry())
	log := slog.New(slog.NewTextHandler(s.Logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	p, err := pipeline.New(cfg.Pipeline, cfg.Kafka, cfg.Sources, pipeline.Deps{Embedder: emb, Store: s.Store, Cache: s.Cache,
		Logger: log, Metrics: s.Metrics, Watermarks: s.Cache})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()

	var sourceTopics []string
	for _, src := range cfg.Sources {
		sourceTopics = append(sourceTopics, src.Topic)
	}
	s.apiOpts = func(cache *rediscache.Cache) []api.Option {
		return []api.Option{api.WithFreshness(sourceTopics, cache, cache.WatchWatermarks(ctx)), api.WithChangeStream(cache)}
	}
	opts := s.apiOpts(s.Cache)
	if cfg.Sessions != nil {
		opts = append(opts, api.WithSessions(*cfg.Sessions, s.Store))
	}
	if len(cfg.API.ReadLatestTopics) > 0 {
		r, err := kafkaio.NewReader(cfg.Kafka, cfg.Sources, nil)
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, api.WithLatestReader(api.LatestReaderOf(r.ReadLatest)))
	}
	s.API = httptest.NewServer(api.New(cfg.API, emb, s.Store, s.Cache, log, nil, opts...))
	if s.Producer, err = kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "linger.ms": 1, "enable.metrics.push": false}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Producer.Close()
		s.API.Close()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ingest pipeline: %v\n%s", err, s.Logs.String())
			}
		case <-time.After(30 * time.Second):
			t.Errorf("the ingest pipeline did not stop within 30s")
		}
	})
	return s
}

// ProduceJSON writes one record with v as its JSON value, waits for the broker's
// acknowledgement and returns the record's coordinates (for after=).
func (s *Stack) ProduceJSON(topic, key string, v any) kafka.TopicPartition {
	s.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		s.t.Fatal(err)
	}
	return s.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
		Key: []byte(key), Value: b})
}

// Produce writes m (headers, timestamp and all), waits for the broker's
// acknowledgement and returns the record's coordinates.
func (s *Stack) Produce(m *kafka.Message) kafka.TopicPartition {
	s.t.Helper()
	done := make(chan kafka.Event, 1)
	if err := s.Producer.Produce(m, done); err != nil {
		s.t.Fatal(err)
	}
	ack := (<-done).(*kafka.Message)
	if ack.TopicPartition.Error != nil {
		s.t.Fatal(ack.TopicPartition.Error)
	}
	return ack.TopicPartition
}

// GetJSON reads path from the API with key (none when empty) into out and
// returns the status code.
func (s *Stack) GetJSON(path, key string, out any) int {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.API.URL+path, nil)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		s.t.Fatalf("GET %s: %s: %v", path, res.Status, err)
	}
	return res.StatusCode
}
