package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store"
)

// Writer runs batches of records through decode → map → embed → write → cache:
// the one path shared by the live pipeline and backfill.
type Writer struct {
	cfg  Config
	deps Deps
	log  *slog.Logger
	m    *Metrics
	// backfill moves every version below all live versions (see BackfillVersion).
	backfill bool
	// dryRun stops after mapping: results say what would be written.
	dryRun bool
	// ttlSeen: an event with an ai-ttl was mapped; from then on ingest purges
	// expired events (see retain).
	ttlSeen atomic.Bool
	// combined writes events to deps.Store, Config.StoreConcurrency
	// transactions at once, folding batches that wait (group commit).
	combined *combiner
}

// Record is one input to the writer.
type Record struct {
	In   cdc.Record
	Pre  *cdc.Change // already decoded (backfill inputs); nil: decode In
	Bad  error       // the input could not make a record of it: rejected as it is
	Src  *source.Mapper
	Size int64
	// The live pipeline's partition and assignment epoch.
	part  partition
	epoch uint64
}

// BackfillVersion maps a version v ≥ 0 into [MinInt64, 0), keeping order, so a
// backfilled change never replaces anything the live pipeline wrote and any live
// change replaces it (ADR 0007).
func BackfillVersion(v int64) int64 {
	if v < 0 {
		return math.MinInt64
	}
	return v + math.MinInt64
}

// version is v as this writer stores it.
func (p *Writer) version(v int64) int64 {
	if p.backfill {
		return BackfillVersion(v)
	}
	return v
}

// stale reports that a stored prior makes a change of version v a no-op: the store
// would refuse it, so it is not embedded.
func stale(priorVersion int64, priorDeleted bool, v int64) bool {
	return priorVersion > v || (priorDeleted && priorVersion == v)
}

// retry runs fn until it succeeds, fails permanently (store.ErrInvalidData,
// ErrPermanent) or ctx ends, backing off exponentially with jitter.
func (p *Writer) retry(ctx context.Context, stage string, fn func() error) error {
	backoff := 50 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := fn()
		if err == nil || isPermanent(err) {
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

// cacheWriteTimeout bounds a cache write that outlives its batch's context.
const cacheWriteTimeout = 5 * time.Second

// isPermanent decides by behaviour: the error, or one it wraps, says no retry can
// help (store.ErrInvalidData, source.ErrPermanent, cdc.ErrMalformed, or an error whose
// Permanent method reports true, like an embedding provider rejecting one input).
func isPermanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.Is(err, store.ErrInvalidData) || errors.Is(err, source.ErrPermanent) || errors.Is(err, cdc.ErrMalformed) ||
		(errors.As(err, &p) && p.Permanent())
}

// Item is one record's progress through a batch, and in the end its outcome.
type Item struct {
	rec    *Record
	crec   cdc.Record
	change cdc.Change
	moved  *store.Removed // the event's previous entity, when an update moved it
	ref    store.Ref
	event  *store.Event    // an event upsert
	doc    *store.Document // a document upsert
	err    error           // poison: goes to the DLQ
	stage  string          // where err happened
	result Result          // what became of it; ResultPending until decided
}

// Result is what became of a record.
type Result uint8

const (
	ResultPending      Result = iota // not decided yet
	ResultStored                     // written (a new or changed event or document)
	ResultUnchanged                  // a newer version was already stored
	ResultDeleted                    // removed (delete, tombstone, truncate)
	ResultSkipped                    // nothing to do (a transaction marker, our own output, a knowledge truncate)
	ResultDeadLettered               // poison: to the DLQ (or the backfill's rejects)
	// ResultExpired: a record whose ai-ttl had passed when it arrived (not
	// stored); also counts events removed when their TTL or their source's
	// retention passes.
	ResultExpired
)

// Results are every decided result, in order: the label values of
// freshctx_ingest_records_total{result}.
var Results = []Result{ResultStored, ResultUnchanged, ResultDeleted, ResultSkipped, ResultDeadLettered, ResultExpired}

func (r Result) String() string {
	switch r {
	case ResultStored:
		return "stored"
	case ResultUnchanged:
		return "unchanged"
	case ResultDeleted:
		return "deleted"
	case ResultSkipped:
		return "skipped"
	case ResultDeadLettered:
		return "dead_lettered"
	case ResultExpired:
		return "expired"
	}
	return "pending"
}

// Record is the input this item is for.
func (it *Item) Record() *Record { return it.rec }

// Err is why the record is poison (nil unless Result is ResultDeadLettered).
func (it *Item) Err() error { return it.err }

// Stage is where Err happened.
func (it *Item) Stage() string { return it.stage }

// Result is what became of the record.
func (it *Item) Result() Result { return it.result }

// WriterOptions choose a writer's mode.
type WriterOptions struct {
	// Backfill moves every version below all live versions (ADR 0007).
	Backfill bool
	// DryRun stops after mapping: results say what would be written.
	DryRun bool
}

// NewWriter returns the write path for deps (embedder and store required).
func NewWriter(cfg Config, deps Deps, opts WriterOptions) *Writer {
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.Metrics == nil {
		deps.Metrics = NewMetrics(nil)
	}
	cfg = cfg.WithDefaults()
	return &Writer{cfg: cfg, deps: deps, log: deps.Logger, m: deps.Metrics, backfill: opts.Backfill, dryRun: opts.DryRun,
		combined: newCombiner(deps.Store, cfg.StoreConcurrency, cfg.BatchSize, deps.Metrics.observeTransaction)}
}

// Process runs one batch through the write path; see process.
func (p *Writer) Process(ctx context.Context, batch []*Record) ([]Item, bool) {
	return p.process(ctx, batch)
}

func (it *Item) poison(stage string, err error) {
	it.err, it.stage, it.result = err, stage, ResultDeadLettered
}

func (it *Item) isDocument() bool { return it.rec.Src.IsDocument() }

// embedPlan collects the texts a batch must embed, each distinct text once, and
// where each vector goes (an event, or a chunk of a document).
type embedPlan struct {
	entries []embedEntry
	byHash  map[string]int
}

type embedEntry struct {
	text  string
	dsts  []*[]float32
	items []int
}

// add plans text for item's dst, and reports whether an identical text was already
// planned (its vector will be shared).
func (pl *embedPlan) add(hash []byte, text string, item int, dst *[]float32) bool {
	if pl.byHash == nil {
		pl.byHash = map[string]int{}
	}
	if j, ok := pl.byHash[string(hash)]; ok {
		pl.entries[j].dsts = append(pl.entries[j].dsts, dst)
		pl.entries[j].items = append(pl.entries[j].items, item)
		return true
	}
	pl.byHash[string(hash)] = len(pl.entries)
	pl.entries = append(pl.entries, embedEntry{text: text, dsts: []*[]float32{dst}, items: []int{item}})
	return false
}

// ChunkInput is what is embedded for a chunk: the document title, then the
// chunk, so a passage is found by what its document is about (the chunk hash
// covers both).
func ChunkInput(title, text string) string {
	if title == "" {
		return text
	}
	return title + "\n\n" + text
}

// setPosition fills p with where the record came from: its Kafka position and
// the trace id of a W3C traceparent header (or a trace_id / trace-id /
// x-trace-id header). What the mapping set (the data contract's producer)
// stays.
func setPosition(p *store.Provenance, r *cdc.Record) {
	p.Topic, p.Partition, p.Offset = r.Topic, r.Partition, r.Offset
	for _, h := range r.Headers {
		switch strings.ToLower(h.Key) {
		case "traceparent":
			if parts := strings.Split(string(h.Value), "-"); len(parts) >= 3 && len(parts[1]) == 32 {
				p.TraceID = parts[1]
			}
		case "trace_id", "trace-id", "x-trace-id":
			if p.TraceID == "" && len(h.Value) <= 128 {
				p.TraceID = string(h.Value)
			}
		}
	}
}

// process runs one batch: decode, map, embed what changed, write, cache. Each
// item ends with a result, or with err set (poison: the caller dead-letters or
// rejects it). It returns false if ctx ended first: then nothing may be acknowledged.
func (p *Writer) process(ctx context.Context, batch []*Record) ([]Item, bool) {
	p.m.BatchSize.Observe(float64(len(batch)))
	items := make([]Item, len(batch))
	refs, docRefs, ok := p.decode(ctx, batch, items)
	if !ok {
		return nil, false // ctx ended: nothing acked
	}
	var priors map[store.Ref]store.Prior
	var docPriors map[store.Ref]store.DocumentPrior
	if len(refs)+len(docRefs) > 0 {
		err := p.retry(ctx, "lookup", func() (err error) {
			if priors, err = p.deps.Store.Lookup(ctx, refs); err != nil {
				return err
			}
			docPriors, err = p.deps.Store.DocumentPriors(ctx, docRefs)
			return err
		})
		if err != nil {
			return nil, false // ctx ended: nothing acked, the records will be redelivered
		}
	}
	plan := p.mapItems(items, priors, docPriors)
	if p.dryRun {
		for i := range items {
			it := &items[i]
			switch {
			case it.err != nil || it.result != ResultPending:
			case it.event != nil || it.doc != nil:
				it.result = ResultStored
			default:
				it.result = ResultDeleted
			}
		}
		p.m.EmbedTexts.Add(float64(len(plan.entries))) // what would be sent
		return items, true
	}
	if !p.embed(ctx, &plan, items) {
		return nil, false
	}
	if !p.write(ctx, items) {
		return nil, false
	}
	return items, true
}

// decode fills items from batch: the decoded change, its key and ref; poison is
// marked on its item. It returns the refs of events and of documents to look up,
// and false if ctx ended first.
func (p *Writer) decode(ctx context.Context, batch []*Record, items []Item) (refs, docRefs []store.Ref, ok bool) {
	for i, r := range batch {
		it := &items[i]
		it.rec = r
		it.crec = r.In
		if r.Bad != nil {
			it.poison("decode", r.Bad)
			continue
		}
		if n := len(r.In.Value) + len(r.In.Key); n > p.cfg.MaxRecordBytes {
			it.poison("decode", fmt.Errorf("record of %d bytes exceeds pipeline.max_record_bytes (%d)", n, p.cfg.MaxRecordBytes))
			continue
		}
		if r.Pre != nil {
			it.change = *r.Pre
		} else {
			// Only a Schema Registry outage is transient here: it is retried, never
			// dead-lettered. Everything else about a record that will not decode is poison.
			err := p.retry(ctx, "decode", func() (err error) {
				it.crec, it.change, err = r.Src.Decode(p.deps.Avro, r.In)
				return err
			})
			if err != nil && isPermanent(err) {
				it.poison("decode", err)
				continue
			} else if err != nil {
				return nil, nil, false
			}
		}
		if kafkaio.IsOwnOutput(it.crec.Headers) {
			it.change.Op = cdc.OpSkip // freshctx's own output, copied into an input topic
		}
		switch it.change.Op {
		case cdc.OpSkip:
			it.result = ResultSkipped
			continue
		case cdc.OpTruncate:
			it.change.Version = p.version(it.change.Version)
			continue
		}
		key, err := r.Src.KeyOf(&it.change)
		if err != nil {
			it.poison("map", err)
			continue
		}
		it.ref = store.Ref{Source: r.Src.Name(), Key: key}
		if it.isDocument() {
			docRefs = append(docRefs, it.ref)
		} else {
			refs = append(refs, it.ref)
		}
	}
	return refs, docRefs, true
}

// mapItems maps the decoded items in batch order (later changes of a key see
// earlier ones as their prior) and plans what to embed: only texts whose vector
// is not known already (invariant 7), and nothing for a change a newer stored
// version makes stale.
func (p *Writer) mapItems(items []Item, priors map[store.Ref]store.Prior, docPriors map[store.Ref]store.DocumentPrior) embedPlan {
	var plan embedPlan
	for i := range items {
		it := &items[i]
		if it.err != nil || it.result == ResultSkipped || it.ref.Key == "" {
			continue
		}
		if it.change.Op == cdc.OpDelete {
			if it.rec.Src.Source().Format == cdc.FormatJSON && it.change.Tombstone {
				it.change.Version = it.crec.Timestamp.UnixMicro() // same unit as JSON versions
			}
			it.change.Version = p.version(it.change.Version)
		}
		switch {
		case it.isDocument() && it.change.Op == cdc.OpUpsert:
			p.mapDocument(it, i, docPriors, &plan)
		case it.change.Op == cdc.OpUpsert:
			priors = p.mapEvent(it, i, priors, &plan)
		case it.change.Op == cdc.OpDelete && !it.isDocument():
			priors = setPrior(priors, it.ref, store.Prior{Deleted: true, Version: it.change.Version})
		}
	}
	return plan
}

// mapDocument renders a document upsert and plans its chunks' vectors.
func (p *Writer) mapDocument(it *Item, i int, docPriors map[store.Ref]store.DocumentPrior, plan *embedPlan) {
	d, err := it.rec.Src.Document(&it.change, it.ref.Key, &it.crec)
	if err != nil {
		it.poison("map", err)
		return
	}
	d.Version = p.version(d.Version)
	prior, hasPrior := docPriors[it.ref]
	if hasPrior && stale(prior.Version, prior.Deleted, d.Version) {
		it.result = ResultUnchanged // a newer version is stored: nothing to embed
		return
	}
	setPosition(&d.Provenance, &it.crec)
	for c := range d.Chunks {
		ch := &d.Chunks[c]
		if v, ok := prior.Vectors[string(ch.TextHash)]; ok && !prior.Deleted {
			ch.Embedding = v // this chunk's text is stored already
			p.m.EmbedReused.Inc()
		} else if plan.add(ch.TextHash, ChunkInput(d.Title, ch.Text), i, &ch.Embedding) {
			p.m.EmbedReused.Inc()
		}
	}
	it.doc = &d
}

// mapEvent renders an event upsert, plans its vector and records it as the
// key's prior for later changes in the batch.
func (p *Writer) mapEvent(it *Item, i int, priors map[store.Ref]store.Prior, plan *embedPlan) map[store.Ref]store.Prior {
	prior, hasPrior := priors[it.ref]
	var pp *store.Prior
	if hasPrior {
		pp = &prior
	}
	ev, err := it.rec.Src.Event(&it.change, it.ref.Key, &it.crec, pp)
	switch {
	case errors.Is(err, source.ErrExpired):
		it.result = ResultExpired // its ai-ttl passed before it arrived
		return priors
	case errors.Is(err, source.ErrContextNotAccepted):
		it.result = ResultSkipped
		return priors
	case err != nil:
		it.poison("map", err)
		return priors
	}
	ev.Version = p.version(ev.Version)
	if hasPrior && stale(prior.Version, prior.Deleted, ev.Version) {
		it.result = ResultUnchanged // a newer version is stored: nothing to embed
		return priors
	}
	setPosition(&ev.Provenance, &it.crec)
	if !ev.ExpiresAt.IsZero() {
		p.ttlSeen.Store(true)
	}
	it.event = &ev
	if hasPrior && !prior.Deleted && prior.Embedding != nil && bytes.Equal(prior.TextHash, ev.TextHash) {
		ev.Embedding = prior.Embedding // unchanged text: never embed it again
		p.m.EmbedReused.Inc()
	} else if plan.add(ev.TextHash, ev.Text, i, &it.event.Embedding) {
		p.m.EmbedReused.Inc() // the same text is already being embedded in this batch
	}
	if hasPrior && !prior.Deleted && prior.Entity != "" && (prior.Tenant != ev.Tenant || prior.Entity != ev.Entity) {
		it.moved = &store.Removed{Ref: it.ref, Tenant: prior.Tenant, Entity: prior.Entity, Version: ev.Version}
	}
	return setPrior(priors, it.ref, store.Prior{Tenant: ev.Tenant, Entity: ev.Entity, TextHash: ev.TextHash,
		Embedding: ev.Embedding, Fields: ev.Fields, Version: ev.Version})
}

// embed runs the plan in one embedder call (retrying transient failures) and
// delivers the vectors; texts the embedder rejects for good poison their items.
// It returns false if ctx ended first.
func (p *Writer) embed(ctx context.Context, plan *embedPlan, items []Item) bool {
	if len(plan.entries) == 0 {
		return true
	}
	texts := make([]string, len(plan.entries))
	for j, e := range plan.entries {
		texts[j] = e.text
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
	// Some embedders reject single inputs for good and embed the rest.
	var partial interface{ Failed(i int) error }
	failed := func(j int) error { return nil }
	if err != nil && errors.As(err, &partial) && len(vecs) == len(texts) {
		failed, err = partial.Failed, nil
	}
	if err != nil && ctx.Err() != nil {
		return false
	}
	if err == nil {
		p.m.EmbedSeconds.Observe(time.Since(start).Seconds())
		p.m.EmbedBatches.Inc()
		p.m.EmbedTexts.Add(float64(len(texts)))
	}
	dims := p.deps.Embedder.Dims()
	for j, e := range plan.entries {
		ferr := err
		if ferr == nil {
			ferr = failed(j)
		}
		if ferr == nil && len(vecs[j]) != dims {
			ferr = fmt.Errorf("%w: embedding has %d dimensions, want %d", source.ErrPermanent, len(vecs[j]), dims)
		}
		for k, dst := range e.dsts {
			if ferr != nil {
				if items[e.items[k]].err == nil {
					items[e.items[k]].poison("embed", ferr)
				}
				continue
			}
			*dst = vecs[j]
		}
	}
	return true
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
func (p *Writer) write(ctx context.Context, items []Item) bool {
	var upserts []store.Event
	var upIdx []int
	var deletes []store.Delete
	var delIdx []int
	for i := range items {
		it := &items[i]
		if it.err != nil || it.result != ResultPending {
			continue
		}
		switch {
		case it.event != nil:
			upserts = append(upserts, *it.event)
			upIdx = append(upIdx, i)
		case it.change.Op == cdc.OpDelete && !it.isDocument():
			deletes = append(deletes, store.Delete{Ref: it.ref, Version: it.change.Version})
			delIdx = append(delIdx, i)
		}
	}
	if !p.writeDocuments(ctx, items) {
		return false
	}
	var res store.WriteResult
	start := time.Now()
	err := p.retry(ctx, "store", func() (err error) {
		res, err = p.combined.Apply(ctx, upserts, deletes)
		return err
	})
	switch {
	case err == nil:
		p.m.StoreSeconds.Observe(time.Since(start).Seconds())
	case errors.Is(err, store.ErrInvalidData):
		// Some record is unacceptable to the store: write one by one to find it.
		res = store.WriteResult{Applied: make([]bool, len(upserts))}
		one := func(ups []store.Event, dels []store.Delete, it *Item) (store.WriteResult, bool) {
			var r store.WriteResult
			err := p.retry(ctx, "store", func() (err error) {
				r, err = p.combined.Apply(ctx, ups, dels)
				return err
			})
			if errors.Is(err, store.ErrInvalidData) {
				it.poison("store", err)
				return r, true
			}
			return r, err == nil
		}
		for j := range upserts {
			r, ok := one(upserts[j:j+1], nil, &items[upIdx[j]])
			if !ok {
				return false
			}
			if len(r.Applied) == 1 {
				res.Applied[j] = r.Applied[0]
			}
		}
		for j := range deletes {
			r, ok := one(nil, deletes[j:j+1], &items[delIdx[j]])
			if !ok {
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
			items[i].result = ResultStored
			cached = append(cached, upserts[j])
		} else {
			items[i].result = ResultUnchanged // a newer version is already stored
		}
	}
	for _, i := range delIdx {
		if items[i].err == nil {
			items[i].result = ResultDeleted
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
		if it.isDocument() {
			it.result = ResultSkipped // truncating a knowledge table is not applied (see docs/configuration.md)
			continue
		}
		var rem []store.Removed
		err := p.retry(ctx, "store", func() (err error) {
			rem, err = p.deps.Store.Truncate(ctx, it.rec.Src.Name(), it.change.Version)
			return err
		})
		if errors.Is(err, store.ErrInvalidData) {
			it.poison("store", err)
			continue
		} else if err != nil {
			return false
		}
		it.result = ResultDeleted
		removed = append(removed, rem...)
	}
	if p.deps.Cache != nil && len(cached)+len(removed) > 0 {
		// The store has these writes and their offsets will be committed: finish
		// the cache's even if ctx ends now (a shutdown past its drain timeout), or
		// the cache would keep older versions that nothing rewrites.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cacheWriteTimeout)
		err := p.deps.Cache.Apply(cctx, cached, removed)
		cancel()
		if err != nil {
			p.m.CacheErrors.Inc()
			p.log.Warn("cache write failed; readers use the store until it recovers", "err", err)
		}
	}
	return true
}

// writeDocuments stores the batch's document upserts and deletes in one
// transaction (each applied document replaces all its chunks), isolating documents
// the store rejects. It returns false if ctx ended first.
func (p *Writer) writeDocuments(ctx context.Context, items []Item) bool {
	var docs []store.Document
	var docIdx []int
	var dels []store.Delete
	var delIdx []int
	for i := range items {
		it := &items[i]
		if it.err != nil || it.result != ResultPending || !it.isDocument() {
			continue
		}
		switch {
		case it.doc != nil:
			docs = append(docs, *it.doc)
			docIdx = append(docIdx, i)
		case it.change.Op == cdc.OpDelete:
			dels = append(dels, store.Delete{Ref: it.ref, Version: it.change.Version})
			delIdx = append(delIdx, i)
		}
	}
	if len(docs)+len(dels) == 0 {
		return true
	}
	apply := func(d []store.Document, del []store.Delete) ([]bool, error) {
		var applied []bool
		err := p.retry(ctx, "store", func() (err error) {
			applied, err = p.deps.Store.ApplyDocuments(ctx, d, del)
			return err
		})
		return applied, err
	}
	applied, err := apply(docs, dels)
	if errors.Is(err, store.ErrInvalidData) {
		// Find the document the store rejects by writing one at a time.
		applied = make([]bool, len(docs))
		for j := range docs {
			a, err := apply(docs[j:j+1], nil)
			if errors.Is(err, store.ErrInvalidData) {
				items[docIdx[j]].poison("store", err)
			} else if err != nil {
				return false
			} else {
				applied[j] = a[0]
			}
		}
		for j := range dels {
			if _, err := apply(nil, dels[j:j+1]); errors.Is(err, store.ErrInvalidData) {
				items[delIdx[j]].poison("store", err)
			} else if err != nil {
				return false
			}
		}
	} else if err != nil {
		return false
	}
	for j, i := range docIdx {
		if items[i].err != nil {
			continue
		}
		items[i].result = ResultUnchanged
		if applied[j] {
			items[i].result = ResultStored
		}
	}
	for _, i := range delIdx {
		if items[i].err == nil {
			items[i].result = ResultDeleted
		}
	}
	return true
}
