package pipeline

import (
	"context"
	"strconv"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/kafkaio"
)

// worker processes one lane's records in batches until the lane is closed.
func (p *Pipeline) worker(ctx context.Context, ch <-chan *Record) {
	batch := make([]*Record, 0, p.cfg.BatchSize)
	for r := range ch {
		batch, open := p.fill(ch, append(batch[:0], r))
		p.handle(ctx, batch)
		if !open {
			return
		}
	}
}

// fill adds what is queued to batch, up to BatchSize. With no Linger it returns as
// soon as the queue is empty; else it waits up to Linger in all for more. It
// reports false when the lane was closed.
func (p *Pipeline) fill(ch <-chan *Record, batch []*Record) ([]*Record, bool) {
	var linger <-chan time.Time
	for len(batch) < p.cfg.BatchSize {
		var r *Record
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

// handle processes a batch, dead-letters its poison records and acknowledges it.
func (p *Pipeline) handle(ctx context.Context, batch []*Record) {
	items, ok := p.process(ctx, batch)
	if !ok {
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
		p.tracker.ack(r.part, r.epoch, r.In.Offset)
		p.inflight.Add(-1)
		p.inflightBytes.Add(-r.Size)
		p.m.Inflight.Dec()
		p.m.InflightB.Sub(float64(r.Size))
		p.m.Records.WithLabelValues(r.Src.Name(), it.result.String()).Inc()
		if !r.In.Timestamp.IsZero() {
			p.m.Freshness.Observe(now.Sub(r.In.Timestamp).Seconds())
		}
	}
	// The batch is durable: publish how far its partitions now are, at once, so
	// a reader waiting for one of these records (after=) wakes without waiting
	// for the next offset store.
	if p.deps.Watermarks == nil {
		return
	}
	dead := map[partition]int64{} // every partition of the batch, with its poison count
	for i := range items {
		n := int64(0)
		if items[i].err != nil {
			n = 1
		}
		dead[items[i].rec.part] += n
	}
	for k, n := range dead {
		// With the log end offset (librdkafka's cached value, no request): a
		// stored watermark beyond it is of a deleted and re-created topic and
		// is replaced at once, not at the next lag update.
		high := int64(0)
		if _, h, err := p.consumer.GetWatermarkOffsets(k.topic, k.part); err == nil && h > 0 {
			high = h
		}
		p.noteDurable(k, high, n)
	}
}

// deadLetter sends poison records to the DLQ topic and waits until Kafka has them.
func (p *Pipeline) deadLetter(ctx context.Context, items []Item) {
	for i := range items {
		it := &items[i]
		if it.err == nil {
			continue
		}
		r := it.rec.In
		p.log.Warn("dead-lettering record", "topic", r.Topic, "partition", r.Partition,
			"offset", r.Offset, "stage", it.stage, "err", it.err)
		topic := p.kcfg.DLQTopic
		headers := make([]kafka.Header, 0, len(r.Headers)+6)
		for _, h := range r.Headers {
			headers = append(headers, kafka.Header{Key: h.Key, Value: h.Value})
		}
		headers = append(headers,
			kafka.Header{Key: "freshctx.error", Value: []byte(it.err.Error())},
			kafka.Header{Key: "freshctx.stage", Value: []byte(it.stage)},
			kafka.Header{Key: "freshctx.source", Value: []byte(it.rec.Src.Name())},
			kafka.Header{Key: "freshctx.topic", Value: []byte(r.Topic)},
			kafka.Header{Key: "freshctx.partition", Value: []byte(strconv.Itoa(int(r.Partition)))},
			kafka.Header{Key: "freshctx.offset", Value: []byte(strconv.FormatInt(r.Offset, 10))},
		)
		msg := &kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
			Key: r.Key, Value: r.Value, Headers: headers, Timestamp: r.Timestamp}
		_ = p.retry(ctx, "dlq", func() error { return kafkaio.ProduceSync(ctx, p.producer, msg) })
	}
}
