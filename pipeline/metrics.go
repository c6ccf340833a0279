package pipeline

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the ingest pipeline's Prometheus metrics.
type Metrics struct {
	Consumed     *prometheus.CounterVec // records received from Kafka, by topic
	Records      *prometheus.CounterVec // by source and result: stored, unchanged (older version), deleted, skipped, dead_lettered, expired
	EmbedTexts   prometheus.Counter     // texts sent to the embedder
	EmbedReused  prometheus.Counter     // texts whose stored vector was reused (text unchanged)
	EmbedBatches prometheus.Counter
	BatchSize    prometheus.Histogram
	EmbedSeconds prometheus.Histogram
	StoreSeconds prometheus.Histogram
	StorePerTx   prometheus.Histogram // lane batches per store transaction
	Freshness    prometheus.Histogram // record timestamp → durable write
	Retries      *prometheus.CounterVec
	CacheErrors  prometheus.Counter
	Inflight     prometheus.Gauge
	InflightB    prometheus.Gauge
	Paused       prometheus.Gauge
	Lag          *prometheus.GaugeVec
}

// RetryStages label freshctx_ingest_retries_total.
var RetryStages = []string{"decode", "lookup", "embed", "store", "dlq"}

// Init creates the series of the given topics and sources at 0.
func (m *Metrics) Init(topics, sources []string) {
	for _, t := range topics {
		m.Consumed.WithLabelValues(t)
	}
	for _, s := range sources {
		for _, r := range Results {
			m.Records.WithLabelValues(s, r.String())
		}
	}
}

// NewMetrics creates the metrics and registers them with reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	const ns, sub = "freshctx", "ingest"
	lat := []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}
	m := &Metrics{
		Consumed: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "consumed_total",
			Help: "Records received from Kafka and dispatched to a lane, by topic."}, []string{"topic"}),
		Records: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "records_total",
			Help: "Records processed, by source and result (stored, unchanged, deleted, skipped, dead_lettered, expired: an ai-ttl passed or a source retention)."}, []string{"source", "result"}),
		EmbedTexts:   prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "embed_texts_total", Help: "Texts sent to the embedder."}),
		EmbedReused:  prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "embed_reused_total", Help: "Texts not sent to the embedder because the same text already has a vector (an update that left the text unchanged, or a duplicate within a batch)."}),
		EmbedBatches: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "embed_batches_total", Help: "Embedding calls made."}),
		BatchSize: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "batch_records",
			Help: "Records per worker batch.", Buckets: prometheus.ExponentialBuckets(1, 2, 12)}),
		EmbedSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "embed_seconds", Help: "Embedding call latency.", Buckets: lat}),
		StoreSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "store_seconds", Help: "Store batch write latency, waiting for a turn included.", Buckets: lat}),
		StorePerTx: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "store_batches_per_transaction",
			Help: "Lane batches written per store transaction: batches that waited for a turn (pipeline.store_concurrency) are written together.", Buckets: []float64{1, 2, 4, 8, 16, 32}}),
		Freshness: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "freshness_seconds",
			Help: "Kafka record timestamp to durable write.", Buckets: lat}),
		Retries: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "retries_total",
			Help: "Retried operations by stage (decode: the Schema Registry; lookup, embed, store, dlq)."}, []string{"stage"}),
		CacheErrors: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "cache_errors_total", Help: "Failed recent-cache writes (readers fall back to the store)."}),
		Inflight:    prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "inflight_records", Help: "Records dispatched and not yet acknowledged."}),
		InflightB:   prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "inflight_bytes", Help: "Bytes of records dispatched and not yet acknowledged."}),
		Paused:      prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "paused", Help: "1 while partitions are paused for backpressure."}),
		Lag: prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "partition_lag",
			Help: "High watermark minus next offset to consume, per assigned partition."}, []string{"topic", "partition"}),
	}
	// Series with known labels exist from the first scrape, at 0, so rate() and
	// alerts see them before anything happens; per-source series start in Init.
	for _, stage := range RetryStages {
		m.Retries.WithLabelValues(stage)
	}
	if reg != nil {
		reg.MustRegister(m.Consumed, m.Records, m.EmbedTexts, m.EmbedReused, m.EmbedBatches, m.BatchSize, m.EmbedSeconds,
			m.StoreSeconds, m.StorePerTx, m.Freshness, m.Retries, m.CacheErrors, m.Inflight, m.InflightB, m.Paused, m.Lag)
	}
	return m
}

func (m *Metrics) observeTransaction(batches int) { m.StorePerTx.Observe(float64(batches)) }
