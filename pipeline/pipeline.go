package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store"
)

// Embedder turns texts into vectors, one per text, each of Dims() values.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dims() int
}

// Cache is the recent-events cache; best effort (readers fall back to the store).
type Cache interface {
	Apply(ctx context.Context, upserts []store.Event, removed []store.Removed) error
}

// Config tunes the pipeline. Zero values take the defaults.
type Config struct {
	// Lanes is the number of key-hash lanes, each with one worker. Default LanesDefault.
	Lanes int `yaml:"lanes"`
	// QueueSize is each lane's queue capacity in records. Default QueueSizeDefault.
	QueueSize int `yaml:"queue_size"`
	// BatchSize caps records per worker batch (one embedding call, one transaction).
	// Default BatchSizeDefault.
	BatchSize int `yaml:"batch_size"`
	// Linger is how long a worker waits to fill a batch once its queue is empty.
	// Default 0: flush as soon as the input goes idle (freshness first).
	Linger time.Duration `yaml:"linger"`
	// MaxInflightRecords pauses consumption when this many records are in flight;
	// it resumes at half. Default MaxInflightRecordsDefault.
	MaxInflightRecords int `yaml:"max_inflight_records"`
	// MaxInflightBytes does the same for record bytes. Default MaxInflightBytesDefault.
	MaxInflightBytes int64 `yaml:"max_inflight_bytes"`
	// MaxRecordBytes dead-letters larger records. Default MaxRecordBytesDefault.
	MaxRecordBytes int `yaml:"max_record_bytes"`
	// StoreConcurrency caps the store transactions at once; the lanes still
	// map and embed concurrently, and batches that wait for a turn are written
	// together in the next transaction. PostgreSQL spends more CPU per row the
	// more transactions insert into the same index pages at once (46-58 µs a
	// row with 1-2 writers, ~100 with 8, on two cores). Default
	// StoreConcurrencyDefault (at most Lanes).
	StoreConcurrency int `yaml:"store_concurrency"`
	// DrainTimeout bounds waiting for in-flight work on shutdown and on partition
	// revocation. Default DrainTimeoutDefault.
	DrainTimeout time.Duration `yaml:"drain_timeout"`
	// StoreInterval is how often acknowledged offsets are stored for the next
	// commit. Default StoreIntervalDefault.
	StoreInterval time.Duration `yaml:"store_interval"`
}

const (
	LanesDefault              = 8
	QueueSizeDefault          = 2048
	BatchSizeDefault          = 256
	MaxInflightRecordsDefault = 20000
	MaxInflightBytesDefault   = 16 << 20
	MaxRecordBytesDefault     = 1 << 20
	StoreConcurrencyDefault   = 2
	DrainTimeoutDefault       = 10 * time.Second
	StoreIntervalDefault      = 50 * time.Millisecond
)

// WithDefaults fills unset fields.
func (c Config) WithDefaults() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.Lanes, LanesDefault)
	def(&c.QueueSize, QueueSizeDefault)
	def(&c.BatchSize, BatchSizeDefault)
	def(&c.MaxInflightRecords, MaxInflightRecordsDefault)
	def(&c.MaxRecordBytes, MaxRecordBytesDefault)
	def(&c.StoreConcurrency, min(StoreConcurrencyDefault, c.Lanes))
	if c.MaxInflightBytes == 0 {
		c.MaxInflightBytes = MaxInflightBytesDefault
	}
	if c.DrainTimeout == 0 {
		c.DrainTimeout = DrainTimeoutDefault
	}
	if c.StoreInterval == 0 {
		c.StoreInterval = StoreIntervalDefault
	}
	return c
}

// PrefetchBytes is how much librdkafka may fetch ahead of the pipeline: a
// quarter of MaxInflightBytes (4 MiB by default), at least 1 MiB.
func (c Config) PrefetchBytes() int { return int(max(c.MaxInflightBytes/4, 1<<20)) }

// GoMemoryLimit is the soft limit for the Go runtime that ingest sets when
// GOMEMLIMIT is not. It leaves room for what the pipeline may hold: twice the
// in-flight record bytes (a record takes about twice its bytes once decoded and
// rendered), and twice the vectors of every in-flight record and of the
// embedding cache (vectorBytes each: 4 × dimensions), plus 32 MiB. A limit
// below what is live makes the collector run without end: 64 MiB, which left
// out the vectors, cost ingest 2.6 times the CPU per record with a model
// provider (BENCHMARKS.md, "Ingest memory").
func (c Config) GoMemoryLimit(vectorBytes, cachedVectors int64) int64 {
	return 32<<20 + 2*c.MaxInflightBytes + 2*(int64(c.MaxInflightRecords)+cachedVectors)*vectorBytes
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	switch {
	case c.Lanes < 1 || c.Lanes > 1024:
		return errors.New("lanes: must be in [1, 1024]")
	case c.QueueSize < 1:
		return errors.New("queue_size: must be positive")
	case c.BatchSize < 1 || c.BatchSize > 10000:
		return errors.New("batch_size: must be in [1, 10000]")
	case c.MaxInflightRecords < c.BatchSize:
		return errors.New("max_inflight_records: must be at least batch_size")
	case c.Linger < 0 || c.Linger > time.Second:
		return errors.New("linger: must be in [0, 1s]")
	case c.MaxRecordBytes < 1:
		return errors.New("max_record_bytes: must be positive")
	case c.StoreConcurrency < 1:
		return errors.New("store_concurrency: must be positive")
	}
	return nil
}

// Deps are the pipeline's collaborators.
type Deps struct {
	Embedder Embedder
	Store    store.Writer
	Cache    Cache     // optional
	Avro     *cdc.Avro // required by sources of format debezium-avro
	// Watermarks receives how far each partition is durable (optional; the
	// Redis cache, so every API replica can wait for a write).
	Watermarks store.Watermarks
	Logger     *slog.Logger
	Metrics    *Metrics
}

// Pipeline consumes the sources' topics into the store and cache.
type Pipeline struct {
	*Writer
	kcfg    kafkaio.Config
	sources map[string]*source.Mapper // by topic

	consumer *kafka.Consumer
	producer *kafka.Producer

	tracker *tracker
	lanes   []chan *Record
	stash   []*Record // records waiting for room in a full lane, in order
	// stashBytes is the stash's size in record bytes; with the stash it counts
	// in the in-flight limits.
	stashBytes int64
	assigned   map[partition]bool
	paused     bool
	// fetching: assigned partitions that have delivered a record, i.e. whose
	// fetcher has started. Only these are paused: a pause racing the fetch
	// start that an assign schedules can void it in librdkafka, leaving the
	// partition owned but never fetched (librdkafka #2190).
	fetching map[partition]bool
	// pausedParts: the partitions paused for backpressure. librdkafka keeps a
	// partition's pause across unassign and a later assign, so they are
	// resumed before they are given up (see rebalance).
	pausedParts   map[partition]bool
	inflight      atomic.Int64
	inflightBytes atomic.Int64
	lastStore     time.Time

	marksMu sync.Mutex
	checks  sync.WaitGroup                // watermark checks and fetcher wakes (they use the consumer)
	waking  atomic.Bool                   // a wakeFetchers round is running
	stopped chan struct{}                 // closed before the consumer is
	marks   map[partition]store.Watermark // not yet published
	// deadPending counts dead letters noted while their partition had no
	// watermark yet (an earlier record still in another lane); the partition's
	// next watermark carries them.
	deadPending map[partition]int64
	marksSignal chan struct{}
}

// New validates the sources and creates the Kafka clients; Run starts consuming.
func New(cfg Config, kcfg kafkaio.Config, sources []source.Source, deps Deps) (*Pipeline, error) {
	cfg = cfg.WithDefaults()
	kcfg = kcfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("pipeline.%w", err)
	}
	if kcfg.Brokers == "" {
		return nil, errors.New("kafka.brokers: required")
	}
	if deps.Embedder == nil || deps.Store == nil {
		return nil, errors.New("pipeline: an embedder and a store are required")
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.Metrics == nil {
		deps.Metrics = NewMetrics(nil)
	}
	if len(sources) == 0 {
		return nil, errors.New("sources: at least one source is required")
	}
	p := &Pipeline{Writer: NewWriter(cfg, deps, WriterOptions{}), kcfg: kcfg,
		sources: map[string]*source.Mapper{}, tracker: newTracker(), assigned: map[partition]bool{},
		fetching: map[partition]bool{}, pausedParts: map[partition]bool{},
		marks: map[partition]store.Watermark{}, deadPending: map[partition]int64{}, marksSignal: make(chan struct{}, 1),
		stopped: make(chan struct{})}
	for i, s := range sources {
		m, err := source.NewMapper(s)
		if err != nil {
			return nil, fmt.Errorf("sources[%d] (%s).%w", i, s.Name, err)
		}
		if s.Format == cdc.FormatDebeziumAvro && deps.Avro == nil {
			return nil, fmt.Errorf("sources[%d] (%s): format debezium-avro needs schema_registry", i, s.Name)
		}
		if _, dup := p.sources[s.Topic]; dup {
			return nil, fmt.Errorf("sources[%d].topic: %s is already used by another source", i, s.Topic)
		}
		p.sources[s.Topic] = m
		deps.Metrics.Init([]string{s.Topic}, []string{s.Name})
	}
	cc := kcfg.Consumer(kafka.ConfigMap{
		"group.id":                 kcfg.Group,
		"enable.auto.offset.store": false, // offsets are stored by the tracker only
		"enable.auto.commit":       true,  // commits what was stored, every interval
		"auto.commit.interval.ms":  1000,
		"auto.offset.reset":        "earliest",
		"fetch.wait.max.ms":        25, // librdkafka's 500 ms default costs freshness at low rates
		// librdkafka's prefetch is memory outside the in-flight limits, and a pause
		// throws it away (librdkafka purges a paused partition's fetch queue; the
		// records are fetched again on resume). So it is sized from the in-flight
		// budget, PrefetchBytes, instead of librdkafka's 64 MiB queue and 50 MiB
		// fetches, and a full queue is retried soon rather than after 1 s.
		"queued.max.messages.kbytes": cfg.PrefetchBytes() >> 10,
		"fetch.max.bytes":            cfg.PrefetchBytes(),
		"fetch.queue.backoff.ms":     50,
	})
	pc := kcfg.Producer(kafka.ConfigMap{"linger.ms": 5})
	var err error
	if p.consumer, err = kafka.NewConsumer(cc); err != nil {
		return nil, fmt.Errorf("creating kafka consumer: %w", err)
	}
	if p.producer, err = kafka.NewProducer(pc); err != nil {
		p.consumer.Close()
		return nil, fmt.Errorf("creating kafka producer: %w", err)
	}
	return p, nil
}

// Run consumes until ctx is cancelled, then stops fetching, drains in-flight work
// within the drain timeout, stores and commits the final offsets, and returns.
func (p *Pipeline) Run(ctx context.Context) error {
	defer p.producer.Close()
	topics := make([]string, 0, len(p.sources))
	for t := range p.sources {
		topics = append(topics, t)
	}
	if err := p.consumer.SubscribeTopics(topics, p.rebalance); err != nil {
		p.consumer.Close()
		return fmt.Errorf("subscribing to %v: %w", topics, err)
	}
	// Work outlives the fetch context so in-flight records can finish on shutdown.
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	var wg sync.WaitGroup
	p.lanes = make([]chan *Record, p.cfg.Lanes)
	for i := range p.lanes {
		p.lanes[i] = make(chan *Record, p.cfg.QueueSize)
		wg.Add(1)
		go func(ch chan *Record) {
			defer wg.Done()
			p.worker(workCtx, ch)
		}(p.lanes[i])
	}
	p.log.Info("ingest started", "topics", topics, "group", p.kcfg.Group, "lanes", p.cfg.Lanes)
	wg.Add(1)
	go func() { defer wg.Done(); p.retain(ctx) }()
	wg.Add(1)
	go func() { defer wg.Done(); p.publishWatermarks(ctx) }()
	loopErr := p.pollLoop(ctx)

	// Shutdown: stop fetching, let the lanes drain, keep polling so the group
	// session stays alive, then cancel what is left.
	p.stash, p.stashBytes = nil, 0
	for _, ch := range p.lanes {
		close(ch)
	}
	workersDone := make(chan struct{})
	go func() { wg.Wait(); close(workersDone) }()
	deadline := time.After(p.cfg.DrainTimeout)
drain:
	for {
		select {
		case <-workersDone:
			break drain
		case <-deadline:
			p.log.Warn("drain timeout: cancelling in-flight work; it will be redelivered", "inflight", p.inflight.Load())
			cancelWork()
			<-workersDone
			break drain
		default:
			p.pollOnce(10, false)
			p.storeOffsets(true)
		}
	}
	p.storeOffsets(true)
	parts, err := p.consumer.Commit()
	if err != nil && !kafkaio.IsNoOffset(err) {
		p.log.Warn("final commit", "err", err)
	}
	p.log.Debug("final commit", "offsets", fmtParts(parts))
	close(p.stopped)
	p.checks.Wait()
	if err := p.consumer.Close(); err != nil {
		p.log.Warn("closing consumer", "err", err)
	}
	p.producer.Flush(int(p.cfg.DrainTimeout.Milliseconds()))
	p.log.Info("ingest stopped")
	return loopErr
}

// ExpiryInterval is how often ingest purges events whose TTL has passed, once
// it has seen one with a TTL (they are never served after it in any case:
// every read path filters them).
const ExpiryInterval = 5 * time.Second

// retain purges, until ctx ends, the events whose TTL has passed (from the
// store, then the cache) and each source's events older than its retention.
func (p *Pipeline) retain(ctx context.Context) {
	purger, _ := p.deps.Store.(store.Purger)
	expirer, _ := p.deps.Store.(store.Expirer)
	retainEvery := time.Minute
	var srcs []source.Source
	for _, m := range p.sources {
		if r := m.Source().Retention; r > 0 && purger != nil {
			srcs = append(srcs, m.Source())
			retainEvery = min(retainEvery, max(r/10, time.Second))
		}
	}
	if len(srcs) == 0 && expirer == nil {
		return
	}
	t := time.NewTicker(min(retainEvery, ExpiryInterval))
	defer t.Stop()
	var lastRetain time.Time
	for first := true; ; first = false {
		// Expired events are purged once at start (what earlier runs left) and
		// then only once this process has seen an event with a TTL: on a store
		// without an index on expiry (Milvus) a purge scans every event.
		if expirer != nil && (first || p.ttlSeen.Load()) {
			p.purgeExpired(ctx, expirer)
		}
		if len(srcs) > 0 && time.Since(lastRetain) >= retainEvery {
			lastRetain = time.Now()
			for _, s := range srcs {
				n, err := purger.Purge(ctx, s.Name, time.Now().Add(-s.Retention))
				if err != nil && ctx.Err() == nil {
					p.log.Warn("retention: purging expired events", "source", s.Name, "err", err)
				} else if n > 0 {
					p.log.Info("retention: purged expired events", "source", s.Name, "events", n, "older_than", s.Retention)
					p.m.Records.WithLabelValues(s.Name, ResultExpired.String()).Add(float64(n))
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// purgeExpired removes the events whose TTL has passed from the store, in
// bounded rounds, and then from the cache.
func (p *Pipeline) purgeExpired(ctx context.Context, expirer store.Expirer) {
	const round = 1000
	for ctx.Err() == nil {
		removed, err := expirer.PurgeExpired(ctx, time.Now(), round)
		if err != nil {
			if ctx.Err() == nil {
				p.log.Warn("ttl: purging events whose ai-ttl passed", "err", err)
			}
			return
		}
		if len(removed) == 0 {
			return
		}
		// Counted once the store has them as delete markers, before the cache
		// follows: whoever sees them gone from the cache sees them counted.
		bySource := map[string]int{}
		for _, r := range removed {
			bySource[r.Source]++
		}
		for src, n := range bySource {
			p.m.Records.WithLabelValues(src, ResultExpired.String()).Add(float64(n))
		}
		if p.deps.Cache != nil {
			if err := p.deps.Cache.Apply(ctx, nil, removed); err != nil {
				p.log.Warn("ttl: removing expired events from the cache", "err", err) // reads filter them anyway
			}
		}
		p.log.Debug("ttl: purged events whose ai-ttl passed", "events", len(removed))
		if len(removed) < round {
			return
		}
	}
}

// noteDurable queues k's watermark as the tracker has it (once anything is
// acknowledged), with the log end offset (0: not known) and records
// dead-lettered since the last note. The workers note after every batch, so
// the offset store needs not.
func (p *Pipeline) noteDurable(k partition, high, deadLettered int64) {
	if off, ts, _, ok := p.tracker.watermark(k); ok && off >= 0 {
		p.noteWatermark(store.Watermark{Topic: k.topic, Partition: k.part, Offset: off, Time: time.UnixMilli(ts).UTC(),
			High: high, DeadLettered: deadLettered})
	} else if deadLettered > 0 && p.deps.Watermarks != nil {
		p.marksMu.Lock()
		p.deadPending[k] += deadLettered
		p.marksMu.Unlock()
	}
}

// noteWatermark queues a partition's watermark for publishing; the poll loop
// never waits for Redis.
func (p *Pipeline) noteWatermark(w store.Watermark) {
	if p.deps.Watermarks == nil {
		return
	}
	k := partition{w.Topic, w.Partition}
	p.marksMu.Lock()
	w.DeadLettered += p.deadPending[k]
	delete(p.deadPending, k)
	if cur, ok := p.marks[k]; ok { // not yet published: merge
		w.DeadLettered += cur.DeadLettered
		w.High = max(w.High, cur.High)
		if cur.Offset > w.Offset {
			w.Offset, w.Time = cur.Offset, cur.Time
		}
	}
	p.marks[k] = w
	p.marksMu.Unlock()
	select {
	case p.marksSignal <- struct{}{}:
	default:
	}
}

// publishWatermarks publishes queued watermarks until ctx ends; a failed publish
// is retried with the next ones (watermarks only move forward).
func (p *Pipeline) publishWatermarks(ctx context.Context) {
	if p.deps.Watermarks == nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.marksSignal:
		}
		p.marksMu.Lock()
		marks := make([]store.Watermark, 0, len(p.marks))
		for _, w := range p.marks {
			marks = append(marks, w)
		}
		clear(p.marks)
		p.marksMu.Unlock()
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		if err := p.deps.Watermarks.PublishWatermarks(pctx, marks); err != nil && ctx.Err() == nil {
			p.log.Debug("publishing watermarks", "err", err)
			for _, w := range marks {
				p.noteWatermark(w) // merged with anything newer; tried again
			}
		}
		cancel()
	}
}
