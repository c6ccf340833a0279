package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/store"
)

func (p *Pipeline) pollLoop(ctx context.Context) error {
	lagTick := time.NewTicker(5 * time.Second)
	defer lagTick.Stop()
	idleTick := time.NewTicker(250 * time.Millisecond)
	defer idleTick.Stop()
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
		case <-idleTick.C:
			p.markCaughtUp()
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
		if e.Error != nil && !kafkaio.IsNoOffset(e.Error) {
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
	if !p.fetching[part] {
		// Its fetcher has started: from now on it can be paused safely.
		p.fetching[part] = true
		if p.paused {
			p.pauseParts([]partition{part})
		}
	}
	r := &Record{In: kafkaio.RecordOf(msg), part: part, epoch: ep, Src: p.sources[part.topic],
		Size: int64(len(msg.Key) + len(msg.Value) + 64)}
	if len(p.stash) > 0 || p.full() || !p.trySend(r) {
		// Its lane is full (or records before it wait): it waits in the stash,
		// which counts in the in-flight limits. The partitions pause only when
		// those are reached (backpressure), not at every full lane: a resume
		// costs up to a second before librdkafka fetches again (wakeFetchers).
		p.stash = append(p.stash, r)
		p.stashBytes += r.Size
	}
}

// full reports the in-flight high-water mark is reached: what the poll loop still
// receives (librdkafka's prefetch, bounded by queued.max.messages.kbytes) waits in
// the stash, in order, while the partitions are paused.
func (p *Pipeline) full() bool {
	return p.inflight.Load() >= int64(p.cfg.MaxInflightRecords) || p.inflightBytes.Load() >= p.cfg.MaxInflightBytes
}

// trySend hands r to its lane if the lane has room.
func (p *Pipeline) trySend(r *Record) bool {
	h := fnv.New64a()
	h.Write([]byte(r.part.topic))
	if len(r.In.Key) > 0 {
		h.Write(r.In.Key)
	} else {
		// Keyless: keep the partition's order.
		h.Write([]byte(strconv.Itoa(int(r.part.part))))
	}
	ch := p.lanes[h.Sum64()%uint64(len(p.lanes))]
	if len(ch) == cap(ch) {
		return false
	}
	if !p.tracker.add(r.part, r.epoch, r.In.Offset, r.In.Timestamp.UnixMilli()) {
		return true // already in flight (redelivered after a seek): drop the copy
	}
	p.m.Consumed.WithLabelValues(r.part.topic).Inc()
	p.inflight.Add(1)
	p.inflightBytes.Add(r.Size)
	p.m.Inflight.Inc()
	p.m.InflightB.Add(float64(r.Size))
	ch <- r // never blocks: the poll goroutine is the only sender
	return true
}

func (p *Pipeline) flushStash() {
	n := 0
	for _, r := range p.stash {
		if p.full() || !p.trySend(r) {
			break
		}
		p.stashBytes -= r.Size
		p.stash[n] = nil
		n++
	}
	if n == len(p.stash) {
		p.stash = p.stash[:0]
	} else if n > 0 {
		p.stash = p.stash[n:] // no copy: the stash can hold thousands of records
	}
}

// backpressure pauses every assigned partition at the high-water mark and resumes
// them at half of it (hysteresis).
func (p *Pipeline) backpressure() {
	recs, bytes := p.inflight.Load()+int64(len(p.stash)), p.inflightBytes.Load()+p.stashBytes
	if !p.paused && (recs >= int64(p.cfg.MaxInflightRecords) || bytes >= p.cfg.MaxInflightBytes) {
		p.pause()
	} else if p.paused && len(p.stash) == 0 && recs <= int64(p.cfg.MaxInflightRecords/2) && bytes <= p.cfg.MaxInflightBytes/2 {
		p.paused = false
		p.m.Paused.Set(0)
		parts := keys(p.pausedParts)
		p.resumeParts(parts)
		p.wakeFetchers(parts)
		p.log.Debug("resumed", "inflight", recs)
	}
}

// wakeFetchers asks the broker for the log end offsets of resumed partitions,
// only for the requests: they get the partitions fetched at once. librdkafka's
// thread for a broker all of whose partitions were paused sleeps up to a second
// (rd_kafka_max_block_ms), and a resume does not wake it, but a request to send
// does: measured, 0.8 s from Resume to the next Fetch without it. A request per
// partition reaches each partition's leader; one round runs at a time.
func (p *Pipeline) wakeFetchers(parts []partition) {
	if len(parts) == 0 || !p.waking.CompareAndSwap(false, true) {
		return
	}
	p.inBackground(func() {
		defer p.waking.Store(false)
		p.logEnds(parts, 1000, func(partition, int64) {}) // only to wake; lag is updateLag's
	})
}

// inBackground runs f on a goroutine that Run waits for before it closes the
// consumer.
func (p *Pipeline) inBackground(f func()) {
	p.checks.Add(1)
	go func() {
		defer p.checks.Done()
		f()
	}()
}

// logEnds asks the broker for each partition's log end offset, one at a time,
// and calls each with those it gets; it stops early when the pipeline stops.
func (p *Pipeline) logEnds(parts []partition, timeoutMS int, each func(part partition, high int64)) {
	for _, part := range parts {
		select {
		case <-p.stopped: // shutting down: the consumer is about to close
			return
		default:
		}
		if _, high, err := p.consumer.QueryWatermarkOffsets(part.topic, part.part, timeoutMS); err == nil && high >= 0 {
			each(part, high)
		}
	}
}

// pause pauses every assigned partition whose fetcher has started; the others
// are paused when their first record arrives (dispatch).
func (p *Pipeline) pause() {
	if p.paused {
		return
	}
	p.paused = true
	p.m.Paused.Set(1)
	var parts []partition
	for part := range p.assigned {
		if p.fetching[part] {
			parts = append(parts, part)
		}
	}
	p.pauseParts(parts)
	p.log.Debug("paused", "inflight", p.inflight.Load(), "stash", len(p.stash))
}

func (p *Pipeline) pauseParts(parts []partition) {
	if len(parts) == 0 {
		return
	}
	for _, part := range parts {
		p.pausedParts[part] = true
	}
	if err := p.consumer.Pause(topicPartitions(parts)); err != nil {
		p.log.Warn("pausing partitions", "err", err)
	}
}

func (p *Pipeline) resumeParts(parts []partition) {
	if len(parts) == 0 {
		return
	}
	for _, part := range parts {
		delete(p.pausedParts, part)
	}
	if err := p.consumer.Resume(topicPartitions(parts)); err != nil {
		p.log.Warn("resuming partitions", "err", err)
	}
}

func (p *Pipeline) assignedList() []kafka.TopicPartition { return topicPartitions(keys(p.assigned)) }

func keys(m map[partition]bool) []partition {
	out := make([]partition, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func topicPartitions(parts []partition) []kafka.TopicPartition {
	out := make([]kafka.TopicPartition, 0, len(parts))
	for _, tp := range parts {
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

// markCaughtUp publishes, for each assigned partition with nothing in flight
// whose durable prefix reaches the broker's high watermark, that it is fresh up
// to now: an idle partition holds back no answer.
func (p *Pipeline) markCaughtUp() {
	if p.deps.Watermarks == nil || len(p.assigned) == 0 {
		return
	}
	now := time.Now().UTC()
	positions, err := p.consumer.Position(p.assignedList())
	if err != nil {
		return
	}
	var stashed map[partition]bool // partitions with records polled but not dispatched
	for _, tp := range positions {
		k := partition{*tp.Topic, tp.Partition}
		off, _, idle, ok := p.tracker.watermark(k)
		if !ok || !idle {
			continue
		}
		if off < 0 { // nothing dispatched since assignment: where fetching stands
			// The position is past what was polled, and a polled record waiting
			// in the stash (backpressure) is not durable: not caught up then.
			if stashed == nil {
				stashed = map[partition]bool{}
				for _, r := range p.stash {
					stashed[r.part] = true
				}
			}
			if stashed[k] {
				continue
			}
			off = int64(tp.Offset)
		}
		_, high, err := p.consumer.GetWatermarkOffsets(k.topic, k.part)
		if err != nil || off < 0 || high < 0 || off < high {
			continue
		}
		p.noteWatermark(store.Watermark{Topic: k.topic, Partition: k.part, Offset: off, Time: now, High: high})
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
		// Paused by backpressure or not, a new partition is paused only once
		// its first record arrives (dispatch): its fetch has started then.
		p.log.Info("partitions assigned", "partitions", fmtParts(e.Partitions))
		if sw, ok := p.deps.Watermarks.(store.StaleWatermarks); ok {
			parts := make([]partition, len(e.Partitions))
			for i, tp := range e.Partitions {
				parts[i] = partition{*tp.Topic, tp.Partition}
			}
			p.inBackground(func() { p.forgetStaleWatermarks(sw, parts) })
		}
	case kafka.RevokedPartitions:
		revoked := make([]partition, 0, len(e.Partitions))
		for _, tp := range e.Partitions {
			revoked = append(revoked, partition{*tp.Topic, tp.Partition})
		}
		// Records of revoked partitions not yet in a lane are simply dropped.
		kept := p.stash[:0]
		p.stashBytes = 0
		for _, r := range p.stash {
			if !containsPart(revoked, r.part) {
				kept = append(kept, r)
				p.stashBytes += r.Size
			}
		}
		clear(p.stash[len(kept):])
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
			if _, err := c.Commit(); err != nil && !kafkaio.IsNoOffset(err) {
				p.log.Warn("commit on revoke", "err", err)
			}
		}
		// librdkafka keeps an application pause across unassign and a later
		// assign: a partition given up paused would come back, if it ever came
		// back here, owned but never fetched. Resume it while it is still ours.
		var wasPaused []partition
		for _, part := range revoked {
			if p.pausedParts[part] {
				wasPaused = append(wasPaused, part)
			}
		}
		p.resumeParts(wasPaused)
		for _, part := range revoked {
			p.tracker.revoke(part)
			delete(p.assigned, part)
			delete(p.fetching, part)
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
		if tp.Offset >= 0 {
			fmt.Fprintf(&b, "@%d", tp.Offset)
		}
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
		// The log end offset goes with the watermark, for lag in /v1/status.
		p.noteDurable(partition{*tp.Topic, tp.Partition}, high, 0)
	}
}

// forgetStaleWatermarks asks the broker for each newly assigned partition's log
// end offset and forgets a published watermark beyond it: the topic was
// deleted and created again (its offsets restarted), perhaps while no ingest
// ran. Until then an after= naming a record of the new log would be answered
// as already written; the first durable batch of the new log would also
// replace the mark (PublishWatermarks), but this needs no record. It also
// forgets the watermarks of partitions the topic no longer has.
func (p *Pipeline) forgetStaleWatermarks(sw store.StaleWatermarks, parts []partition) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p.logEnds(parts, 5000, func(part partition, high int64) { // an unanswered one: the batch path catches it
		forgot, err := sw.ForgetStaleWatermark(ctx, part.topic, part.part, high)
		if err != nil {
			p.log.Warn("checking the watermark against the log end", "topic", part.topic, "partition", part.part, "err", err)
		} else if forgot {
			p.log.Warn("forgot a watermark beyond the log end offset: the topic was re-created", "topic", part.topic, "partition", part.part, "log_end", high)
		}
	})
	// A partition the topic no longer has (re-created with fewer) never
	// advances: its watermark would hold every answer's fresh_through back.
	seen := map[string]bool{}
	for _, part := range parts {
		if seen[part.topic] {
			continue
		}
		seen[part.topic] = true
		select {
		case <-p.stopped:
			return
		default:
		}
		topic := part.topic
		md, err := p.consumer.GetMetadata(&topic, false, 5000)
		if err != nil || md.Topics[topic].Error.Code() != kafka.ErrNoError || len(md.Topics[topic].Partitions) == 0 {
			continue // unknown for now; the next assignment looks again
		}
		n := int32(len(md.Topics[topic].Partitions))
		if gone, err := sw.ForgetPartitionsFrom(ctx, topic, n); err != nil {
			p.log.Warn("checking the watermarks against the topic's partitions", "topic", topic, "err", err)
		} else if gone > 0 {
			p.log.Warn("forgot the watermarks of partitions the topic no longer has", "topic", topic, "partitions", n, "forgotten", gone)
		}
	}
}
