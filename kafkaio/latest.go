package kafkaio

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/source"
)

// Latest is one record read by Reader.ReadLatest, decoded and trimmed with its
// source's rules.
type Latest struct {
	Partition int32          `json:"partition"`
	Offset    int64          `json:"offset"`
	Timestamp time.Time      `json:"timestamp"`
	Key       string         `json:"key"`
	Op        string         `json:"op"` // upsert, delete, truncate, skip
	Entity    string         `json:"entity,omitempty"`
	ID        string         `json:"id,omitempty"`
	Time      time.Time      `json:"time,omitempty"`
	Text      string         `json:"text,omitempty"`
	Attrs     map[string]any `json:"attrs,omitempty"`
	// DeadLetter is set on the records of the dead-letter topic: why and where
	// from.
	DeadLetter *DeadLetter `json:"dead_letter,omitempty"`
}

// DeadLetter is what a dead-lettered record's headers say (pipeline.deadLetter
// writes them).
type DeadLetter struct {
	Error     string `json:"error"`
	Stage     string `json:"stage"`
	Source    string `json:"source"`
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
}

// Reader reads the newest records of source topics without joining a consumer
// group and without committing anything: it assigns offsets directly, so it leaves
// no trace at the broker. Each call is independent.
type Reader struct {
	kcfg    Config
	sources map[string]*source.Mapper // by topic
	byName  map[string]*source.Mapper // by source name, for dead letters
	avro    *cdc.Avro
}

// Limits of ReadLatest.
const (
	ReadLatestMax     = 100
	readLatestBytes   = 4 << 20
	readLatestTimeout = 5 * time.Second
)

// NewReader returns a reader for the given sources' topics; avro (nil without
// Avro sources) decodes debezium-avro records.
func NewReader(kcfg Config, sources []source.Source, avro *cdc.Avro) (*Reader, error) {
	r := &Reader{kcfg: kcfg.WithDefaults(), sources: map[string]*source.Mapper{}, byName: map[string]*source.Mapper{}, avro: avro}
	for i, s := range sources {
		m, err := source.NewMapper(s)
		if err != nil {
			return nil, fmt.Errorf("sources[%d].%w", i, err)
		}
		r.sources[s.Topic] = m
		r.byName[s.Name] = m
	}
	return r, nil
}

// ReadLatest returns up to n of the newest records of topic's partition that
// belong to tenant, oldest first. Records of other tenants, and records whose
// tenant cannot be rendered, are left out. topic is a source topic or the
// dead-letter topic; a dead letter is decoded with the rules of the source it
// came from, so one that cannot be attributed to a tenant is never shown. It reads at most n records and 4 MiB,
// and stops at the context's deadline (5 s at most).
func (r *Reader) ReadLatest(ctx context.Context, tenant, topic string, partition int32, n int) ([]Latest, error) {
	m, ok := r.sources[topic] // nil for the dead-letter topic
	if !ok && topic != r.kcfg.DLQTopic {
		return nil, fmt.Errorf("topic %q is not a configured source or the dead-letter topic", topic)
	}
	if n < 1 || n > ReadLatestMax {
		return nil, fmt.Errorf("n: must be in [1, %d]", ReadLatestMax)
	}
	ctx, cancel := context.WithTimeout(ctx, readLatestTimeout)
	defer cancel()
	// librdkafka wants a group.id, but a group exists at the broker only once a
	// member joins (Subscribe) or commits: this reader only assigns and never
	// commits, so the id below is never seen by the broker as a group.
	c, err := kafka.NewConsumer(r.kcfg.Consumer(kafka.ConfigMap{
		"group.id":                 "freshctx-read-latest-" + strconv.FormatInt(time.Now().UnixNano(), 36),
		"enable.auto.commit":       false,
		"enable.auto.offset.store": false,
		"enable.partition.eof":     true,
	}, "group.id", "enable.auto.commit", "enable.auto.offset.store"))
	if err != nil {
		return nil, fmt.Errorf("creating a reader: %w", err)
	}
	defer c.Close()
	timeoutMS := func() int {
		d, _ := ctx.Deadline()
		return max(1, int(time.Until(d).Milliseconds()))
	}
	low, high, err := c.QueryWatermarkOffsets(topic, partition, timeoutMS())
	if err != nil {
		return nil, fmt.Errorf("reading the offsets of %s[%d]: %w", topic, partition, err)
	}
	if high <= low {
		return []Latest{}, nil
	}
	start := max(low, high-int64(n))
	t := topic
	if err := c.Assign([]kafka.TopicPartition{{Topic: &t, Partition: partition, Offset: kafka.Offset(start)}}); err != nil {
		return nil, err
	}
	out := []Latest{}
	bytes := 0
	for ctx.Err() == nil && bytes < readLatestBytes {
		switch e := c.Poll(min(100, timeoutMS())).(type) {
		case *kafka.Message:
			bytes += len(e.Key) + len(e.Value)
			if l, ok := r.latest(m, e, tenant); ok {
				out = append(out, l)
			}
			if int64(e.TopicPartition.Offset) >= high-1 {
				return out, nil
			}
		case kafka.PartitionEOF:
			return out, nil
		case kafka.Error:
			if e.IsFatal() {
				return out, e
			}
		}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && len(out) > 0 {
		return out, nil // what arrived within the time bound
	}
	return out, ctx.Err()
}

// latest decodes and trims one record for tenant; false when it belongs to
// another tenant or cannot be attributed to one.
func (r *Reader) latest(m *source.Mapper, msg *kafka.Message, tenant string) (Latest, bool) {
	var dl *DeadLetter
	if m == nil { // the dead-letter topic
		dl = deadLetterOf(msg)
		if m = r.byName[dl.Source]; m == nil {
			return Latest{}, false
		}
	}
	rec, ch, err := m.Decode(r.avro, RecordOf(msg))
	l := Latest{Partition: rec.Partition, Offset: rec.Offset, Timestamp: rec.Timestamp, DeadLetter: dl}
	if err != nil || ch.Row == nil {
		return l, false // nothing that names a tenant: never shown
	}
	l.Op, l.Key = ch.Op.String(), ch.Key
	if t, err := m.TenantOf(ch.Row); err != nil || t != tenant {
		return l, false
	}
	if ch.Op != cdc.OpUpsert {
		return l, true
	}
	if m.IsDocument() {
		d, err := m.Document(&ch, ch.Key, &rec)
		if err != nil {
			return l, dl != nil // a dead letter of this tenant: shown with its error
		}
		l.ID, l.Text, l.Attrs = d.DocID, d.Title, d.Attrs
		return l, true
	}
	e, err := m.Event(&ch, ch.Key, &rec, nil)
	if err != nil {
		return l, dl != nil
	}
	l.Entity, l.ID, l.Time, l.Text, l.Attrs = e.Entity, e.ID, e.Time, e.Text, e.Attrs
	return l, true
}

// deadLetterOf reads the freshctx.* headers of a dead-lettered record.
func deadLetterOf(msg *kafka.Message) *DeadLetter {
	dl := &DeadLetter{}
	for _, h := range msg.Headers {
		v := string(h.Value)
		switch h.Key {
		case "freshctx.error":
			dl.Error = v
		case "freshctx.stage":
			dl.Stage = v
		case "freshctx.source":
			dl.Source = v
		case "freshctx.topic":
			dl.Topic = v
		case "freshctx.partition":
			p, _ := strconv.ParseInt(v, 10, 32)
			dl.Partition = int32(p)
		case "freshctx.offset":
			dl.Offset, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	return dl
}
