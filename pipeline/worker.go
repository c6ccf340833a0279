package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/store"
)

// worker processes one lane's records in batches until the lane is closed.
func (p *Pipeline) worker(ctx context.Context, ch <-chan *record) {
	batch := make([]*record, 0, p.cfg.BatchSize)
	for r := range ch {
		batch, open := p.fill(ch, append(batch[:0], r))
		p.process(ctx, batch)
		if !open {
			return
		}
	}
}

// fill adds what is queued to batch, up to BatchSize. With no Linger it returns as
// soon as the queue is empty; else it waits up to Linger in all for more. It
// reports false when the lane was closed.
func (p *Pipeline) fill(ch <-chan *record, batch []*record) ([]*record, bool) {
	var linger <-chan time.Time
	for len(batch) < p.cfg.BatchSize {
		var r *record
		var ok bool
		select {
		case r, ok = <-ch:
		default:
			if p.cfg.Linger == 0 {
				return batch, true
			}
			if linger == nil {
				linger = time.After(p.cfg.Linger)
			}
			select {
			case r, ok = <-ch:
			case <-linger:
				return batch, true
			}
		}
		if !ok {
			return batch, false
		}
		batch = append(batch, r)
	}
	return batch, true
}

// retry runs fn until it succeeds, fails permanently (store.ErrInvalidData,
// ErrPermanent) or ctx ends, backing off exponentially with jitter.
func (p *Pipeline) retry(ctx context.Context, stage string, fn func() error) error {
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

// ErrPermanent marks an error that retrying cannot fix.
var ErrPermanent = errors.New("permanent error")

// isPermanent decides by behaviour: the error, or one it wraps, says no retry can
// help (store.ErrInvalidData, ErrPermanent, or an error whose Permanent method
// reports true, like an embedding provider rejecting one input).
func isPermanent(err error) bool {
	var p interface{ Permanent() bool }
	return errors.Is(err, store.ErrInvalidData) || errors.Is(err, ErrPermanent) || (errors.As(err, &p) && p.Permanent())
}

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
		// Some embedders reject single inputs for good and embed the rest.
		var partial interface{ Failed(i int) error }
		if err != nil && errors.As(err, &partial) && len(vecs) == len(texts) {
			for j, i := range toEmbed {
				if ferr := partial.Failed(j); ferr != nil {
					items[i].poison("embed", ferr)
				}
			}
			err = nil
		}
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
				if items[i].err != nil {
					continue
				}
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
		one := func(ups []store.Event, dels []store.Delete, it *item) (store.WriteResult, bool) {
			var r store.WriteResult
			err := p.retry(ctx, "store", func() (err error) {
				r, err = p.deps.Store.Apply(ctx, ups, dels)
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
