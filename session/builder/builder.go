// Package builder is the session summary builder: a consumer group of its own that
// folds chat turns into rolling session summaries (see Builder).
package builder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/session"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store"
)

// KindHeader marks the records the builder produces ("summary"); a record carrying
// it is never summarised nor ingested, wherever it turns up.
const KindHeader = kafkaio.OutputHeader

// SummaryStore keeps summaries.
type SummaryStore interface {
	Summary(ctx context.Context, tenant, session string) (store.Summary, bool, error)
	SaveSummary(ctx context.Context, s store.Summary) (bool, error)
}

// TurnReader reads a session's stored turns (the vector store ingest writes them to).
type TurnReader interface {
	Recent(ctx context.Context, tenant, entity string, since time.Time, limit int) ([]store.Event, error)
}

// Builder reads turns in its own consumer group and folds into each session's
// summary only the turns that precede the newest Turns (what memory shows
// verbatim), so a summary and the recent turns never overlap. It folds once
// Turns + EveryTurns turns are unsummarised, and after Idle without a new turn
// when more than Turns are. It writes the summary to the summary topic
// (compacted, keyed by tenant/session; the builder never reads it) and to the
// store. A partition's offset is committed only up to its oldest turn that still
// needs folding, so a restart re-reads what is unsummarised; a turn a summary
// already covers (its version is at most the summary's Through) is skipped, so
// nothing is summarised twice. A session idle with at most Turns unsummarised
// turns needs no summary yet: its offsets are released, and if it resumes, the
// builder reads those turns back from the store.
type Builder struct {
	cfg      session.Config
	sc       session.SummaryConfig
	kcfg     kafkaio.Config
	topic    string
	mapper   *source.Mapper
	avro     *cdc.Avro
	st       SummaryStore
	turns    TurnReader
	sum      session.Summariser
	log      *slog.Logger
	consumer *kafka.Consumer
	producer *kafka.Producer
	now      func() time.Time

	sessions map[sessionKey]*pendingSession
	pending  map[int32]map[int64]bool // offsets of turns not yet in a summary
	next     map[int32]int64          // next offset to read
	assigned map[int32]bool

	m *Metrics
}

type sessionKey struct{ tenant, id string }

type pendingSession struct {
	prev      *store.Summary
	turns     []session.Turn
	offsets   []int64
	part      int32
	seen      map[string]bool
	last      time.Time // when the newest turn arrived
	failedAt  time.Time
	lastError error
}

// NewBuilder validates the configuration and creates the Kafka clients. src is the
// turn source (cfg.Source).
func NewBuilder(cfg session.Config, kcfg kafkaio.Config, src source.Source, avro *cdc.Avro, st SummaryStore, turns TurnReader,
	sum session.Summariser, log *slog.Logger, metrics *Metrics) (*Builder, error) {
	cfg = cfg.WithDefaults()
	kcfg = kcfg.WithDefaults()
	if cfg.Summary == nil {
		return nil, errors.New("sessions.summary: not configured")
	}
	if kcfg.Brokers == "" {
		return nil, errors.New("kafka.brokers: required")
	}
	if src.Topic == cfg.Summary.Topic {
		return nil, fmt.Errorf("sessions.summary.topic: %s is the turn topic; summaries must go elsewhere", src.Topic)
	}
	mp, err := source.NewMapper(src)
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", src.Name, err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if metrics == nil {
		metrics = NewMetrics(nil)
	}
	b := &Builder{cfg: cfg, sc: *cfg.Summary, kcfg: kcfg, topic: src.Topic, mapper: mp, avro: avro, st: st, turns: turns, sum: sum, log: log, now: time.Now, m: metrics,
		sessions: map[sessionKey]*pendingSession{}, pending: map[int32]map[int64]bool{}, next: map[int32]int64{}, assigned: map[int32]bool{}}
	cc := kcfg.Consumer(kafka.ConfigMap{
		"group.id":                 cfg.Summary.Group,
		"enable.auto.offset.store": false,
		"enable.auto.commit":       true,
		"auto.commit.interval.ms":  1000,
		"auto.offset.reset":        "earliest",
	})
	pc := kcfg.Producer(nil)
	if b.consumer, err = kafka.NewConsumer(cc); err != nil {
		return nil, fmt.Errorf("creating kafka consumer: %w", err)
	}
	if b.producer, err = kafka.NewProducer(pc); err != nil {
		b.consumer.Close()
		return nil, fmt.Errorf("creating kafka producer: %w", err)
	}
	return b, nil
}

// Run builds summaries until ctx is cancelled. Turns not yet summarised then are
// read again by the next run.
func (b *Builder) Run(ctx context.Context) error {
	defer b.producer.Close()
	if err := b.consumer.SubscribeTopics([]string{b.topic}, b.rebalance); err != nil {
		b.consumer.Close()
		return fmt.Errorf("subscribing to %s: %w", b.topic, err)
	}
	b.log.Info("summary builder started", "topic", b.topic, "group", b.sc.Group, "every_turns", b.sc.EveryTurns, "idle", b.sc.Idle,
		"summariser", b.sc.Summariser, "summary_topic", b.sc.Topic)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	var runErr error
	for ctx.Err() == nil {
		switch e := b.consumer.Poll(50).(type) {
		case *kafka.Message:
			b.handle(ctx, e)
		case kafka.Error:
			if e.IsFatal() {
				runErr = fmt.Errorf("kafka consumer: %w", e)
			} else {
				b.log.Warn("kafka", "err", e)
			}
		}
		if runErr != nil {
			break
		}
		select {
		case <-tick.C:
			b.flushIdle(ctx)
			b.storeOffsets()
		default:
		}
	}
	b.storeOffsets()
	if _, err := b.consumer.Commit(); err != nil && !kafkaio.IsNoOffset(err) {
		b.log.Warn("final commit", "err", err)
	}
	b.consumer.Close()
	b.log.Info("summary builder stopped", "unsummarised_turns", b.countPending())
	return runErr
}

func (b *Builder) handle(ctx context.Context, msg *kafka.Message) {
	part, off := msg.TopicPartition.Partition, int64(msg.TopicPartition.Offset)
	if !b.assigned[part] {
		return
	}
	b.next[part] = off + 1
	for _, h := range msg.Headers {
		if h.Key == KindHeader {
			b.m.Records.WithLabelValues("skipped").Inc()
			return // a summary (or anything else we produced): never summarised
		}
	}
	ev, ok, err := b.mapper.EventOf(b.avro, kafkaio.RecordOf(msg))
	if err != nil || !ok || !strings.HasPrefix(ev.Entity, session.EntityPrefix) {
		b.m.Records.WithLabelValues("skipped").Inc()
		return // ingest dead-letters what it cannot read; deletes are not turns
	}
	k := sessionKey{ev.Tenant, strings.TrimPrefix(ev.Entity, session.EntityPrefix)}
	p := b.sessions[k]
	if p == nil {
		prev, err := b.loadSummary(ctx, k)
		if err != nil {
			return // ctx ended
		}
		p = &pendingSession{prev: prev, part: part, seen: map[string]bool{}}
		if err := b.loadStoredTurns(ctx, k, p, ev.Version); err != nil {
			return // ctx ended
		}
		b.sessions[k] = p
	}
	switch {
	case p.prev != nil && ev.Version <= p.prev.Through:
		b.m.Records.WithLabelValues("already_summarised").Inc()
		return
	case p.seen[ev.Key]:
		b.m.Records.WithLabelValues("duplicate").Inc()
		return // the same message again
	}
	b.m.Records.WithLabelValues("pending").Inc()
	p.turns = append(p.turns, b.cfg.TurnOf(ev))
	p.offsets = append(p.offsets, off)
	p.seen[ev.Key] = true
	p.last = b.now()
	if b.pending[part] == nil {
		b.pending[part] = map[int64]bool{}
	}
	b.pending[part][off] = true
	b.m.PendingTurns.Inc()
	if len(p.turns) >= b.cfg.Turns+b.sc.EveryTurns {
		b.flush(ctx, k, p)
	}
}

// storedTurnsLimit bounds the turns read back for a session resuming after idle.
const storedTurnsLimit = 1000

// loadStoredTurns adds to a session that is new to this builder the turns the
// store holds between its summary and before, the version of the turn that
// brought the session back: turns an earlier idle period left unsummarised
// (their offsets were released because memory showed them verbatim). Turns at or
// after before come through the topic, in order.
func (b *Builder) loadStoredTurns(ctx context.Context, k sessionKey, p *pendingSession, before int64) error {
	if b.turns == nil {
		return nil
	}
	// Newer turns the store may already hold come first: read enough to reach
	// past them (at most Turns were released; the rest are newer).
	var evs []store.Event
	err := b.untilRead(ctx, "a session's stored turns", k, func() (err error) {
		evs, err = b.turns.Recent(ctx, k.tenant, session.EntityPrefix+k.id, b.now().Add(-b.cfg.Lookback), storedTurnsLimit)
		return err
	})
	for i := len(evs) - 1; i >= 0; i-- { // oldest first (nothing after an error)
		ev := evs[i]
		if (p.prev != nil && ev.Version <= p.prev.Through) || ev.Version >= before || p.seen[ev.Key] {
			continue
		}
		p.turns = append(p.turns, b.cfg.TurnOf(ev))
		p.offsets = append(p.offsets, -1) // released already
		p.seen[ev.Key] = true
	}
	return err
}

// loadSummary reads a session's summary, retrying until it answers or ctx ends:
// without it the builder cannot tell summarised turns from new ones.
func (b *Builder) loadSummary(ctx context.Context, k sessionKey) (*store.Summary, error) {
	var sum *store.Summary
	err := b.untilRead(ctx, "a session summary", k, func() error {
		s, ok, err := b.st.Summary(ctx, k.tenant, k.id)
		if err == nil && ok {
			sum = &s
		}
		return err
	})
	return sum, err
}

// untilRead runs read until it succeeds or ctx ends, backing off with jitter:
// without what it reads the builder cannot tell summarised turns from new ones.
func (b *Builder) untilRead(ctx context.Context, what string, k sessionKey, read func() error) error {
	backoff := 100 * time.Millisecond
	for {
		err := read()
		if err == nil {
			return nil
		}
		b.log.Warn("reading "+what+"; retrying", "session", k.id, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff/2 + rand.N(backoff/2+1)):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

func (b *Builder) flushIdle(ctx context.Context) {
	now := b.now()
	for k, p := range b.sessions {
		switch {
		case len(p.turns) == 0:
			delete(b.sessions, k)
		case now.Sub(p.last) < b.sc.Idle || now.Sub(p.failedAt) < b.sc.Idle/2:
		case len(p.turns) > b.cfg.Turns:
			b.flush(ctx, k, p)
		default:
			// Memory shows all of these verbatim: nothing to fold. Release them;
			// should the session resume, loadStoredTurns reads them back.
			b.release(p, p.offsets)
			delete(b.sessions, k)
		}
	}
}

// flush folds p's turns into the session summary: produce it to the summary
// topic, then save it; only then are the turns' offsets released. On failure the
// turns stay pending and are tried again later.
func (b *Builder) flush(ctx context.Context, k sessionKey, p *pendingSession) {
	idx := make([]int, len(p.turns))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return p.turns[idx[x]].Version < p.turns[idx[y]].Version })
	// Fold what precedes the newest Turns; those stay verbatim in memory.
	fold, keep := idx[:len(idx)-b.cfg.Turns], idx[len(idx)-b.cfg.Turns:]
	turns := make([]session.Turn, len(fold))
	var through int64
	var throughAt time.Time
	for i, j := range fold {
		turns[i] = p.turns[j]
		through = max(through, p.turns[j].Version)
		if p.turns[j].Time.After(throughAt) {
			throughAt = p.turns[j].Time
		}
	}
	next := store.Summary{Tenant: k.tenant, SessionID: k.id, Turns: len(turns), Through: through, ThroughAt: throughAt, UpdatedAt: b.now().UTC()}
	prevText := ""
	if p.prev != nil {
		prevText, next.Turns = p.prev.Text, p.prev.Turns+len(turns)
		next.Through = max(next.Through, p.prev.Through)
	}
	fail := func(stage string, err error) {
		b.m.Failed.Inc()
		p.failedAt = b.now()
		b.log.Warn("summarising a session failed; will retry", "session", k.id, "stage", stage, "turns", len(turns), "err", err)
	}
	text, err := b.sum.Summarise(ctx, prevText, turns, b.sc.MaxTokens)
	if err != nil {
		fail("summarise", err)
		return
	}
	next.Text = text
	if err := b.produce(ctx, next); err != nil {
		fail("topic", err)
		return
	}
	if _, err := b.st.SaveSummary(ctx, next); err != nil {
		fail("store", err)
		return
	}
	b.m.Written.Inc()
	folded := make([]int64, len(fold))
	for i, j := range fold {
		folded[i] = p.offsets[j]
	}
	b.release(p, folded)
	rest := &pendingSession{prev: &next, part: p.part, seen: p.seen, last: p.last}
	for _, j := range keep {
		rest.turns = append(rest.turns, p.turns[j])
		rest.offsets = append(rest.offsets, p.offsets[j])
	}
	b.sessions[k] = rest
	b.log.Debug("session summarised", "session", k.id, "turns", len(turns), "total_turns", next.Turns, "kept_verbatim", len(keep))
}

// release forgets offsets as pending (-1: a turn read back from the store).
func (b *Builder) release(p *pendingSession, offsets []int64) {
	for _, off := range offsets {
		if off >= 0 {
			delete(b.pending[p.part], off)
			b.m.PendingTurns.Dec()
		}
	}
}

func (b *Builder) produce(ctx context.Context, s store.Summary) error {
	v, _ := json.Marshal(s)
	topic := b.sc.Topic
	return kafkaio.ProduceSync(ctx, b.producer, &kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
		Key: []byte(s.Tenant + "/" + s.SessionID), Value: v, Headers: []kafka.Header{{Key: KindHeader, Value: []byte("summary")}}})
}

// storeOffsets hands librdkafka, per partition, the oldest offset not yet in a
// summary (or the next to read when all are).
func (b *Builder) storeOffsets() {
	var tps []kafka.TopicPartition
	for part := range b.assigned {
		off, ok := b.next[part]
		if !ok {
			continue
		}
		for o := range b.pending[part] {
			off = min(off, o)
		}
		t := b.topic
		tps = append(tps, kafka.TopicPartition{Topic: &t, Partition: part, Offset: kafka.Offset(off)})
	}
	if len(tps) > 0 {
		if _, err := b.consumer.StoreOffsets(tps); err != nil {
			b.log.Warn("storing offsets", "err", err)
		}
	}
}

func (b *Builder) countPending() int {
	n := 0
	for _, p := range b.pending {
		n += len(p)
	}
	return n
}

func (b *Builder) rebalance(c *kafka.Consumer, ev kafka.Event) error {
	switch e := ev.(type) {
	case kafka.AssignedPartitions:
		for _, tp := range e.Partitions {
			b.assigned[tp.Partition] = true
		}
		b.log.Info("summary builder: partitions assigned", "partitions", partsOf(e.Partitions))
		if c.GetRebalanceProtocol() == "COOPERATIVE" {
			return c.IncrementalAssign(e.Partitions)
		}
		return c.Assign(e.Partitions)
	case kafka.RevokedPartitions:
		b.storeOffsets()
		if _, err := c.Commit(); err != nil && !kafkaio.IsNoOffset(err) {
			b.log.Warn("commit on revoke", "err", err)
		}
		for _, tp := range e.Partitions {
			p := tp.Partition
			for k, s := range b.sessions {
				if s.part == p {
					b.release(s, s.offsets)
					delete(b.sessions, k) // the next owner reads them again
				}
			}
			delete(b.assigned, p)
			delete(b.pending, p)
			delete(b.next, p)
		}
		if c.GetRebalanceProtocol() == "COOPERATIVE" {
			return c.IncrementalUnassign(e.Partitions)
		}
		return c.Unassign()
	}
	return nil
}

func partsOf(tps []kafka.TopicPartition) string {
	s := make([]string, len(tps))
	for i, tp := range tps {
		s[i] = strconv.Itoa(int(tp.Partition))
	}
	return strings.Join(s, ",")
}

// Metrics are the summary builder's Prometheus metrics.
type Metrics struct {
	Written      prometheus.Counter
	Failed       prometheus.Counter
	PendingTurns prometheus.Gauge
	Records      *prometheus.CounterVec
}

// NewMetrics creates the metrics and registers them with reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Written: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "freshctx", Subsystem: "sessions", Name: "summaries_total",
			Help: "Session summaries written (to the summary topic and the store)."}),
		Failed: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "freshctx", Subsystem: "sessions", Name: "summary_failures_total",
			Help: "Summary attempts that failed (summariser, topic or store); retried."}),
		PendingTurns: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "freshctx", Subsystem: "sessions", Name: "pending_turns",
			Help: "Turns read and not yet in a summary."}),
		Records: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "freshctx", Subsystem: "sessions", Name: "records_total",
			Help: "Records the summary builder read, by result: pending (a new turn), already_summarised, duplicate, skipped (not a turn, or our own output)."}, []string{"result"}),
	}
	for _, r := range []string{"pending", "already_summarised", "duplicate", "skipped"} {
		m.Records.WithLabelValues(r) // at 0 from the first scrape
	}
	if reg != nil {
		reg.MustRegister(m.Written, m.Failed, m.PendingTurns, m.Records)
	}
	return m
}
