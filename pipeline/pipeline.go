package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/store"
)

// Embedder turns texts into vectors, one per text, each of Dims() values.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dims() int
}

// Store is the durable event store.
type Store interface {
	Lookup(ctx context.Context, refs []store.Ref) (map[store.Ref]store.Prior, error)
	Apply(ctx context.Context, upserts []store.Event, deletes []store.Delete) (store.WriteResult, error)
	Truncate(ctx context.Context, source string, version int64) ([]store.Removed, error)
}

// Cache is the recent-events cache; best effort (readers fall back to the store).
type Cache interface {
	Apply(ctx context.Context, upserts []store.Event, removed []store.Removed) error
}

// Kafka configures the consumer and the dead-letter producer.
type Kafka struct {
	// Brokers is the bootstrap list, host:port[,host:port]. Empty: ingest starts an
	// in-process development broker (see DevBroker).
	Brokers string `yaml:"brokers"`
	// DevBroker is where the development broker listens when Brokers is empty.
	// Default DevBrokerDefault.
	DevBroker string `yaml:"dev_broker"`
	// Group is the consumer group. Default GroupDefault.
	Group string `yaml:"group"`
	// DLQTopic receives poison records with error headers. Default DLQTopicDefault.
	DLQTopic string `yaml:"dlq_topic"`
	// Properties are passed to librdkafka as they are, for the consumer and the DLQ
	// producer alike (security.protocol, sasl.*, ssl.*); they override freshctx's
	// defaults.
	Properties map[string]string `yaml:"properties"`
	// ConsumerProperties apply to the consumer only (fetch.*, session.timeout.ms, ...).
	ConsumerProperties map[string]string `yaml:"consumer_properties"`
	// ProducerProperties apply to the DLQ producer only.
	ProducerProperties map[string]string `yaml:"producer_properties"`
}

const (
	DevBrokerDefault = "127.0.0.1:19092"
	GroupDefault     = "freshctx-ingest"
	DLQTopicDefault  = "freshctx.dlq"
)

// WithDefaults fills unset fields.
func (k Kafka) WithDefaults() Kafka {
	if k.DevBroker == "" {
		k.DevBroker = DevBrokerDefault
	}
	if k.Group == "" {
		k.Group = GroupDefault
	}
	if k.DLQTopic == "" {
		k.DLQTopic = DLQTopicDefault
	}
	return k
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
	MaxInflightBytesDefault   = 64 << 20
	MaxRecordBytesDefault     = 1 << 20
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
	}
	return nil
}

// Deps are the pipeline's collaborators.
type Deps struct {
	Embedder Embedder
	Store    Store
	Cache    Cache // optional
	Logger   *slog.Logger
	Metrics  *Metrics
}

// Pipeline consumes the sources' topics into the store and cache.
type Pipeline struct {
	cfg     Config
	kcfg    Kafka
	deps    Deps
	log     *slog.Logger
	m       *Metrics
	sources map[string]*mapper // by topic

	consumer *kafka.Consumer
	producer *kafka.Producer

	tracker       *tracker
	lanes         []chan *record
	stash         []*record // records waiting for room in a full lane, in order
	assigned      map[partition]bool
	paused        bool
	inflight      atomic.Int64
	inflightBytes atomic.Int64
	lastStore     time.Time
}

type record struct {
	msg   *kafka.Message
	part  partition
	epoch uint64
	src   *mapper
	size  int64
}

// New validates the sources and creates the Kafka clients; Run starts consuming.
func New(cfg Config, kcfg Kafka, sources []Source, deps Deps) (*Pipeline, error) {
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
	p := &Pipeline{cfg: cfg, kcfg: kcfg, deps: deps, log: deps.Logger, m: deps.Metrics,
		sources: map[string]*mapper{}, tracker: newTracker(), assigned: map[partition]bool{}}
	for i, s := range sources {
		m, err := newMapper(s)
		if err != nil {
			return nil, fmt.Errorf("sources[%d] (%s).%w", i, s.Name, err)
		}
		if _, dup := p.sources[s.Topic]; dup {
			return nil, fmt.Errorf("sources[%d].topic: %s is already used by another source", i, s.Topic)
		}
		p.sources[s.Topic] = m
	}
	cc := kafka.ConfigMap{
		"bootstrap.servers":        kcfg.Brokers,
		"group.id":                 kcfg.Group,
		"enable.auto.offset.store": false, // offsets are stored by the tracker only
		"enable.auto.commit":       true,  // commits what was stored, every interval
		"auto.commit.interval.ms":  1000,
		"auto.offset.reset":        "earliest",
		"fetch.wait.max.ms":        25, // librdkafka's 500 ms default costs freshness at low rates
		"enable.metrics.push":      false,
		"enable.partition.eof":     false,
		// librdkafka's prefetch queue is memory outside the in-flight limits; its
		// 64 MiB default per consumer is more than a pipeline needs.
		"queued.max.messages.kbytes": 16384,
	}
	pc := kafka.ConfigMap{
		"bootstrap.servers":   kcfg.Brokers,
		"enable.idempotence":  true,
		"acks":                "all",
		"linger.ms":           5,
		"enable.metrics.push": false,
	}
	for k, v := range kcfg.Properties {
		cc[k] = v
		pc[k] = v
	}
	for k, v := range kcfg.ConsumerProperties {
		cc[k] = v
	}
	for k, v := range kcfg.ProducerProperties {
		pc[k] = v
	}
	var err error
	if p.consumer, err = kafka.NewConsumer(&cc); err != nil {
		return nil, fmt.Errorf("creating kafka consumer: %w", err)
	}
	if p.producer, err = kafka.NewProducer(&pc); err != nil {
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
	p.lanes = make([]chan *record, p.cfg.Lanes)
	for i := range p.lanes {
		p.lanes[i] = make(chan *record, p.cfg.QueueSize)
		wg.Add(1)
		go func(ch chan *record) {
			defer wg.Done()
			p.worker(workCtx, ch)
		}(p.lanes[i])
	}
	p.log.Info("ingest started", "topics", topics, "group", p.kcfg.Group, "lanes", p.cfg.Lanes)
	loopErr := p.pollLoop(ctx)

	// Shutdown: stop fetching, let the lanes drain, keep polling so the group
	// session stays alive, then cancel what is left.
	p.stash = nil
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
	if _, err := p.consumer.Commit(); err != nil && !isNoOffset(err) {
		p.log.Warn("final commit", "err", err)
	}
	if err := p.consumer.Close(); err != nil {
		p.log.Warn("closing consumer", "err", err)
	}
	p.producer.Flush(int(p.cfg.DrainTimeout.Milliseconds()))
	p.log.Info("ingest stopped")
	return loopErr
}

func isNoOffset(err error) bool {
	var ke kafka.Error
	return errors.As(err, &ke) && ke.Code() == kafka.ErrNoOffset
}

func (p *Pipeline) pollLoop(ctx context.Context) error {
	lagTick := time.NewTicker(5 * time.Second)
	defer lagTick.Stop()
	for ctx.Err() == nil {
		if err := p.pollOnce(20, true); err != nil {
			return err
		}
		p.flushStash()
		p.backpressure()
		p.storeOffsets(false)
		select {
		case <-lagTick.C:
			p.updateLag()
		default:
		}
	}
	return nil
}

// pollOnce polls one event. With dispatch false (draining), messages are dropped
// untracked: they will be delivered again after a restart.
func (p *Pipeline) pollOnce(timeoutMS int, dispatch bool) error {
	switch e := p.consumer.Poll(timeoutMS).(type) {
	case *kafka.Message:
		if dispatch {
			p.dispatch(e)
		}
	case kafka.Error:
		if e.IsFatal() {
			return fmt.Errorf("kafka consumer: %w", e)
		}
		p.log.Warn("kafka", "err", e, "code", e.Code())
	case kafka.OffsetsCommitted:
		if e.Error != nil && !isNoOffset(e.Error) {
			p.log.Warn("offset commit", "err", e.Error)
		}
	}
	return nil
}

func (p *Pipeline) dispatch(msg *kafka.Message) {
	part := partition{*msg.TopicPartition.Topic, msg.TopicPartition.Partition}
	ep, ok := p.tracker.epochOf(part)
	if !ok {
		return // not (or no longer) ours
	}
	r := &record{msg: msg, part: part, epoch: ep, src: p.sources[part.topic],
		size: int64(len(msg.Key) + len(msg.Value) + 64)}
	if len(p.stash) > 0 || p.full() || !p.trySend(r) {
		p.stash = append(p.stash, r)
		p.pause()
	}
}

// full reports the in-flight high-water mark is reached: what the poll loop still
// receives (librdkafka's prefetch, bounded by queued.max.messages.kbytes) waits in
// the stash, in order, while the partitions are paused.
func (p *Pipeline) full() bool {
	return p.inflight.Load() >= int64(p.cfg.MaxInflightRecords) || p.inflightBytes.Load() >= p.cfg.MaxInflightBytes
}

// trySend hands r to its lane if the lane has room.
func (p *Pipeline) trySend(r *record) bool {
	h := fnv.New64a()
	h.Write([]byte(r.part.topic))
	if len(r.msg.Key) > 0 {
		h.Write(r.msg.Key)
	} else {
		// Keyless: keep the partition's order.
		h.Write([]byte(strconv.Itoa(int(r.part.part))))
	}
	ch := p.lanes[h.Sum64()%uint64(len(p.lanes))]
	if len(ch) == cap(ch) {
		return false
	}
	if !p.tracker.add(r.part, r.epoch, int64(r.msg.TopicPartition.Offset)) {
		return true // already in flight (redelivered after a seek): drop the copy
	}
	p.inflight.Add(1)
	p.inflightBytes.Add(r.size)
	p.m.Inflight.Inc()
	p.m.InflightB.Add(float64(r.size))
	ch <- r // never blocks: the poll goroutine is the only sender
	return true
}

func (p *Pipeline) flushStash() {
	n := 0
	for _, r := range p.stash {
		if p.full() || !p.trySend(r) {
			break
		}
		n++
	}
	if n > 0 {
		p.stash = append(p.stash[:0], p.stash[n:]...)
	}
}

// backpressure pauses every assigned partition at the high-water mark and resumes
// them at half of it (hysteresis).
func (p *Pipeline) backpressure() {
	recs, bytes := p.inflight.Load()+int64(len(p.stash)), p.inflightBytes.Load()
	if !p.paused && (recs >= int64(p.cfg.MaxInflightRecords) || bytes >= p.cfg.MaxInflightBytes) {
		p.pause()
	} else if p.paused && len(p.stash) == 0 && recs <= int64(p.cfg.MaxInflightRecords/2) && bytes <= p.cfg.MaxInflightBytes/2 {
		p.paused = false
		p.m.Paused.Set(0)
		if err := p.consumer.Resume(p.assignedList()); err != nil {
			p.log.Warn("resuming partitions", "err", err)
		}
		p.log.Debug("resumed", "inflight", recs)
	}
}

func (p *Pipeline) pause() {
	if p.paused {
		return
	}
	p.paused = true
	p.m.Paused.Set(1)
	if err := p.consumer.Pause(p.assignedList()); err != nil {
		p.log.Warn("pausing partitions", "err", err)
	}
	p.log.Debug("paused", "inflight", p.inflight.Load(), "stash", len(p.stash))
}

func (p *Pipeline) assignedList() []kafka.TopicPartition {
	out := make([]kafka.TopicPartition, 0, len(p.assigned))
	for tp := range p.assigned {
		t := tp.topic
		out = append(out, kafka.TopicPartition{Topic: &t, Partition: tp.part})
	}
	return out
}

// storeOffsets hands the tracker's advanced offsets to librdkafka, which commits
// them on its auto-commit interval (and in the final and revoke commits).
func (p *Pipeline) storeOffsets(force bool) {
	if !force && time.Since(p.lastStore) < p.cfg.StoreInterval {
		return
	}
	p.lastStore = time.Now()
	offs := p.tracker.storable()
	if len(offs) == 0 {
		return
	}
	tps := make([]kafka.TopicPartition, 0, len(offs))
	for tp, off := range offs {
		if !p.assigned[tp] {
			continue
		}
		t := tp.topic
		tps = append(tps, kafka.TopicPartition{Topic: &t, Partition: tp.part, Offset: kafka.Offset(off)})
	}
	if len(tps) == 0 {
		return
	}
	if _, err := p.consumer.StoreOffsets(tps); err != nil {
		p.log.Warn("storing offsets", "err", err)
	}
}

// rebalance runs on the poll goroutine, inside Poll.
func (p *Pipeline) rebalance(c *kafka.Consumer, ev kafka.Event) error {
	cooperative := c.GetRebalanceProtocol() == "COOPERATIVE"
	switch e := ev.(type) {
	case kafka.AssignedPartitions:
		for _, tp := range e.Partitions {
			part := partition{*tp.Topic, tp.Partition}
			p.tracker.assign(part)
			p.assigned[part] = true
		}
		var err error
		if cooperative {
			err = c.IncrementalAssign(e.Partitions)
		} else {
			err = c.Assign(e.Partitions)
		}
		if err != nil {
			return err
		}
		if p.paused { // pause state does not survive an assignment: re-apply it
			if err := c.Pause(p.assignedList()); err != nil {
				p.log.Warn("re-pausing after assignment", "err", err)
			}
		}
		p.log.Info("partitions assigned", "partitions", fmtParts(e.Partitions))
	case kafka.RevokedPartitions:
		revoked := make([]partition, 0, len(e.Partitions))
		for _, tp := range e.Partitions {
			revoked = append(revoked, partition{*tp.Topic, tp.Partition})
		}
		// Records of revoked partitions not yet in a lane are simply dropped.
		kept := p.stash[:0]
		for _, r := range p.stash {
			if !containsPart(revoked, r.part) {
				kept = append(kept, r)
			}
		}
		p.stash = kept
		lost := c.AssignmentLost()
		if !lost {
			// Finish what is in flight for these partitions and commit it, so the
			// next owner starts where we stopped.
			stop := make(chan struct{})
			timer := time.AfterFunc(p.cfg.DrainTimeout, func() { close(stop) })
			drained := p.tracker.waitDrained(revoked, stop)
			timer.Stop()
			if !drained {
				p.log.Warn("revoke: in-flight records did not finish in time; they will be redelivered to the next owner")
			}
			p.storeOffsets(true)
			if _, err := c.Commit(); err != nil && !isNoOffset(err) {
				p.log.Warn("commit on revoke", "err", err)
			}
		}
		for _, part := range revoked {
			p.tracker.revoke(part)
			delete(p.assigned, part)
			p.m.Lag.DeleteLabelValues(part.topic, strconv.Itoa(int(part.part)))
		}
		var err error
		if cooperative {
			err = c.IncrementalUnassign(e.Partitions)
		} else {
			err = c.Unassign()
		}
		p.log.Info("partitions revoked", "partitions", fmtParts(e.Partitions), "lost", lost)
		return err
	}
	return nil
}

func containsPart(ps []partition, p partition) bool {
	for _, x := range ps {
		if x == p {
			return true
		}
	}
	return false
}

func fmtParts(tps []kafka.TopicPartition) string {
	var b bytes.Buffer
	for i, tp := range tps {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s[%d]", *tp.Topic, tp.Partition)
	}
	return b.String()
}

func (p *Pipeline) updateLag() {
	tps, err := p.consumer.Position(p.assignedList())
	if err != nil {
		return
	}
	for _, tp := range tps {
		_, high, err := p.consumer.GetWatermarkOffsets(*tp.Topic, tp.Partition)
		if err != nil || tp.Offset < 0 {
			continue
		}
		p.m.Lag.WithLabelValues(*tp.Topic, strconv.Itoa(int(tp.Partition))).Set(float64(high - int64(tp.Offset)))
	}
}

// worker processes one lane's records in batches until the lane is closed.
func (p *Pipeline) worker(ctx context.Context, ch <-chan *record) {
	batch := make([]*record, 0, p.cfg.BatchSize)
	for {
		r, ok := <-ch
		if !ok {
			return
		}
		batch = append(batch[:0], r)
		open := true
	fill:
		for len(batch) < p.cfg.BatchSize {
			select {
			case r, ok := <-ch:
				if !ok {
					open = false
					break fill
				}
				batch = append(batch, r)
			default:
				if p.cfg.Linger == 0 {
					break fill
				}
				select {
				case r, ok := <-ch:
					if !ok {
						open = false
						break fill
					}
					batch = append(batch, r)
				case <-time.After(p.cfg.Linger):
					break fill
				}
			}
		}
		p.process(ctx, batch)
		if !open {
			return
		}
	}
}

// retry runs fn until it succeeds, fails permanently (store.ErrInvalidData,
// ErrPermanent) or ctx ends, backing off exponentially with jitter.
func (p *Pipeline) retry(ctx context.Context, stage string, fn func() error) error {
	backoff := 50 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := fn()
		if err == nil || errors.Is(err, store.ErrInvalidData) || errors.Is(err, ErrPermanent) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		p.m.Retries.WithLabelValues(stage).Inc()
		if attempt == 1 || attempt%10 == 0 {
			p.log.Warn("retrying", "stage", stage, "attempt", attempt, "err", err)
		}
		sleep := backoff/2 + rand.N(backoff/2+1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(sleep):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// ErrPermanent marks an error that retrying cannot fix.
var ErrPermanent = errors.New("permanent error")

// item is one record's progress through a batch.
type item struct {
	rec    *record
	crec   cdc.Record
	change cdc.Change
	moved  *store.Removed // the event's previous entity, when an update moved it
	ref    store.Ref
	event  *store.Event
	err    error  // poison: goes to the DLQ
	stage  string // where err happened
	result string // for metrics
}

func (it *item) poison(stage string, err error) {
	it.err, it.stage, it.result = err, stage, "dead_lettered"
}

// process runs one batch: decode, map, embed what changed, write, cache, ack.
func (p *Pipeline) process(ctx context.Context, batch []*record) {
	p.m.BatchSize.Observe(float64(len(batch)))
	items := make([]item, len(batch))
	var refs []store.Ref
	for i, r := range batch {
		it := &items[i]
		it.rec = r
		if len(r.msg.Value)+len(r.msg.Key) > p.cfg.MaxRecordBytes {
			it.poison("decode", fmt.Errorf("record of %d bytes exceeds pipeline.max_record_bytes (%d)", len(r.msg.Value)+len(r.msg.Key), p.cfg.MaxRecordBytes))
			continue
		}
		it.crec = toCDC(r.msg)
		c, err := cdc.Decode(r.src.src.Format, it.crec)
		if err != nil {
			it.poison("decode", err)
			continue
		}
		it.change = c
		switch c.Op {
		case cdc.OpSkip:
			it.result = "skipped"
			continue
		case cdc.OpTruncate:
			continue
		}
		key, err := r.src.keyOf(&it.change)
		if err != nil {
			it.poison("map", err)
			continue
		}
		it.ref = store.Ref{Source: r.src.src.Name, Key: key}
		refs = append(refs, it.ref)
	}

	var priors map[store.Ref]store.Prior
	if len(refs) > 0 {
		err := p.retry(ctx, "lookup", func() (err error) {
			priors, err = p.deps.Store.Lookup(ctx, refs)
			return err
		})
		if err != nil {
			return // ctx ended: nothing acked, the records will be redelivered
		}
	}

	// Map in batch order; later changes of a key see earlier ones as their prior.
	var toEmbed []int
	queued := map[string]int{} // text hash → index of the item that embeds it
	sameText := map[int]int{}  // item index → index of the item whose vector it takes
	for i := range items {
		it := &items[i]
		if it.err != nil || it.result == "skipped" || it.ref.Key == "" {
			continue
		}
		prior, hasPrior := priors[it.ref]
		switch it.change.Op {
		case cdc.OpUpsert:
			var pp *store.Prior
			if hasPrior {
				pp = &prior
			}
			ev, err := it.rec.src.event(&it.change, it.ref.Key, &it.crec, pp)
			if err != nil {
				it.poison("map", err)
				continue
			}
			if hasPrior && !prior.Deleted && prior.Embedding != nil && bytes.Equal(prior.TextHash, ev.TextHash) {
				ev.Embedding = prior.Embedding // unchanged text: never embed it again
				p.m.EmbedReused.Inc()
			} else if j, ok := queued[string(ev.TextHash)]; ok {
				sameText[i] = j // the same text is already being embedded in this batch
				p.m.EmbedReused.Inc()
			} else {
				queued[string(ev.TextHash)] = i
				toEmbed = append(toEmbed, i)
			}
			it.event = &ev
			if hasPrior && !prior.Deleted && prior.Entity != "" && (prior.Tenant != ev.Tenant || prior.Entity != ev.Entity) {
				it.moved = &store.Removed{Ref: it.ref, Tenant: prior.Tenant, Entity: prior.Entity, Version: ev.Version}
			}
			priors = setPrior(priors, it.ref, store.Prior{Tenant: ev.Tenant, Entity: ev.Entity, TextHash: ev.TextHash,
				Embedding: ev.Embedding, Fields: ev.Fields, Version: ev.Version})
		case cdc.OpDelete:
			if it.rec.src.src.Format == cdc.FormatJSON && it.change.Tombstone {
				it.change.Version = it.rec.msg.Timestamp.UnixMicro() // same unit as JSON event versions
			}
			priors = setPrior(priors, it.ref, store.Prior{Deleted: true, Version: it.change.Version})
		}
	}

	if len(toEmbed) > 0 {
		texts := make([]string, len(toEmbed))
		for j, i := range toEmbed {
			texts[j] = items[i].event.Text
		}
		var vecs [][]float32
		start := time.Now()
		err := p.retry(ctx, "embed", func() (err error) {
			vecs, err = p.deps.Embedder.Embed(ctx, texts)
			if err == nil && len(vecs) != len(texts) {
				err = fmt.Errorf("embedder returned %d vectors for %d texts", len(vecs), len(texts))
			}
			return err
		})
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			for _, i := range toEmbed {
				items[i].poison("embed", err)
			}
		} else {
			p.m.EmbedSeconds.Observe(time.Since(start).Seconds())
			p.m.EmbedBatches.Inc()
			p.m.EmbedTexts.Add(float64(len(texts)))
			dims := p.deps.Embedder.Dims()
			for j, i := range toEmbed {
				if len(vecs[j]) != dims {
					items[i].poison("embed", fmt.Errorf("%w: embedding has %d dimensions, want %d", ErrPermanent, len(vecs[j]), dims))
					continue
				}
				items[i].event.Embedding = vecs[j]
			}
		}
		for i, j := range sameText {
			if items[j].err != nil {
				items[i].poison(items[j].stage, items[j].err)
			} else if items[i].err == nil {
				items[i].event.Embedding = items[j].event.Embedding
			}
		}
	}

	if !p.write(ctx, items) {
		return
	}
	p.deadLetter(ctx, items)
	if ctx.Err() != nil {
		return
	}
	now := time.Now()
	for i := range items {
		it := &items[i]
		r := it.rec
		p.tracker.ack(r.part, r.epoch, int64(r.msg.TopicPartition.Offset))
		p.inflight.Add(-1)
		p.inflightBytes.Add(-r.size)
		p.m.Inflight.Dec()
		p.m.InflightB.Sub(float64(r.size))
		p.m.Records.WithLabelValues(r.src.src.Name, it.result).Inc()
		if !r.msg.Timestamp.IsZero() {
			p.m.Freshness.Observe(now.Sub(r.msg.Timestamp).Seconds())
		}
	}
}

func setPrior(m map[store.Ref]store.Prior, ref store.Ref, p store.Prior) map[store.Ref]store.Prior {
	if m == nil {
		m = map[store.Ref]store.Prior{}
	}
	m[ref] = p
	return m
}

// write stores the batch's upserts and deletes in one transaction (retrying
// transient errors), isolates records the store rejects, applies truncates, and
// updates the cache. It returns false if ctx ended first.
func (p *Pipeline) write(ctx context.Context, items []item) bool {
	var upserts []store.Event
	var upIdx []int
	var deletes []store.Delete
	var delIdx []int
	for i := range items {
		it := &items[i]
		if it.err != nil || it.result != "" {
			continue
		}
		switch {
		case it.event != nil:
			upserts = append(upserts, *it.event)
			upIdx = append(upIdx, i)
		case it.change.Op == cdc.OpDelete:
			deletes = append(deletes, store.Delete{Ref: it.ref, Version: it.change.Version})
			delIdx = append(delIdx, i)
		}
	}
	var res store.WriteResult
	start := time.Now()
	err := p.retry(ctx, "store", func() (err error) {
		res, err = p.deps.Store.Apply(ctx, upserts, deletes)
		return err
	})
	switch {
	case err == nil:
		p.m.StoreSeconds.Observe(time.Since(start).Seconds())
	case errors.Is(err, store.ErrInvalidData):
		// Some record is unacceptable to the store: write one by one to find it.
		res = store.WriteResult{Applied: make([]bool, len(upserts))}
		for j := range upserts {
			var r store.WriteResult
			err := p.retry(ctx, "store", func() (err error) {
				r, err = p.deps.Store.Apply(ctx, upserts[j:j+1], nil)
				return err
			})
			if errors.Is(err, store.ErrInvalidData) {
				items[upIdx[j]].poison("store", err)
				continue
			} else if err != nil {
				return false
			}
			res.Applied[j] = r.Applied[0]
		}
		for j := range deletes {
			var r store.WriteResult
			err := p.retry(ctx, "store", func() (err error) {
				r, err = p.deps.Store.Apply(ctx, nil, deletes[j:j+1])
				return err
			})
			if errors.Is(err, store.ErrInvalidData) {
				items[delIdx[j]].poison("store", err)
				continue
			} else if err != nil {
				return false
			}
			res.Removed = append(res.Removed, r.Removed...)
		}
	default:
		return false
	}
	var cached []store.Event
	for j, i := range upIdx {
		if items[i].err != nil {
			continue
		}
		if res.Applied[j] {
			items[i].result = "stored"
			cached = append(cached, upserts[j])
		} else {
			items[i].result = "unchanged" // a newer version is already stored
		}
	}
	for _, i := range delIdx {
		if items[i].err == nil {
			items[i].result = "deleted"
		}
	}
	removed := res.Removed
	// An upsert that moved an event to another entity leaves it in the old
	// entity's cached timeline; remove it there.
	for j, i := range upIdx {
		if items[i].err == nil && res.Applied[j] && items[i].moved != nil {
			removed = append(removed, *items[i].moved)
		}
	}
	for i := range items {
		it := &items[i]
		if it.err != nil || it.change.Op != cdc.OpTruncate {
			continue
		}
		var rem []store.Removed
		err := p.retry(ctx, "store", func() (err error) {
			rem, err = p.deps.Store.Truncate(ctx, it.rec.src.src.Name, it.change.Version)
			return err
		})
		if errors.Is(err, store.ErrInvalidData) {
			it.poison("store", err)
			continue
		} else if err != nil {
			return false
		}
		it.result = "deleted"
		removed = append(removed, rem...)
	}
	if p.deps.Cache != nil && len(cached)+len(removed) > 0 {
		if err := p.deps.Cache.Apply(ctx, cached, removed); err != nil {
			p.m.CacheErrors.Inc()
			p.log.Warn("cache write failed; readers use the store until it recovers", "err", err)
		}
	}
	return true
}

// deadLetter sends poison records to the DLQ topic and waits until Kafka has them.
func (p *Pipeline) deadLetter(ctx context.Context, items []item) {
	for i := range items {
		it := &items[i]
		if it.err == nil {
			continue
		}
		r := it.rec.msg
		p.log.Warn("dead-lettering record", "topic", *r.TopicPartition.Topic, "partition", r.TopicPartition.Partition,
			"offset", int64(r.TopicPartition.Offset), "stage", it.stage, "err", it.err)
		topic := p.kcfg.DLQTopic
		headers := append([]kafka.Header(nil), r.Headers...)
		headers = append(headers,
			kafka.Header{Key: "freshctx.error", Value: []byte(it.err.Error())},
			kafka.Header{Key: "freshctx.stage", Value: []byte(it.stage)},
			kafka.Header{Key: "freshctx.source", Value: []byte(it.rec.src.src.Name)},
			kafka.Header{Key: "freshctx.topic", Value: []byte(*r.TopicPartition.Topic)},
			kafka.Header{Key: "freshctx.partition", Value: []byte(strconv.Itoa(int(r.TopicPartition.Partition)))},
			kafka.Header{Key: "freshctx.offset", Value: []byte(strconv.FormatInt(int64(r.TopicPartition.Offset), 10))},
		)
		msg := &kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
			Key: r.Key, Value: r.Value, Headers: headers, Timestamp: r.Timestamp}
		_ = p.retry(ctx, "dlq", func() error {
			done := make(chan kafka.Event, 1)
			if err := p.producer.Produce(msg, done); err != nil {
				return err
			}
			select {
			case e := <-done:
				if m, ok := e.(*kafka.Message); ok && m.TopicPartition.Error != nil {
					return m.TopicPartition.Error
				}
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}
}

func toCDC(m *kafka.Message) cdc.Record {
	r := cdc.Record{Topic: *m.TopicPartition.Topic, Partition: m.TopicPartition.Partition,
		Offset: int64(m.TopicPartition.Offset), Key: m.Key, Value: m.Value, Timestamp: m.Timestamp}
	if len(m.Headers) > 0 {
		r.Headers = make([]cdc.Header, len(m.Headers))
		for i, h := range m.Headers {
			r.Headers[i] = cdc.Header{Key: h.Key, Value: h.Value}
		}
	}
	return r
}
