// Package kafkaio is freshctx's Kafka plumbing, shared by ingest's pipeline,
// backfill's topic replay, the session summary builder and the API's
// latest-records read: the one place librdkafka configurations are built (so a
// user's security and tuning properties reach every client alike), produce-and-
// wait, and the record conversion decoding needs.
package kafkaio

import (
	"context"
	"errors"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/cdc"
)

// Config is the `kafka:` section: where the brokers are and what every client
// gets.
type Config struct {
	// Brokers is the bootstrap list, host:port[,host:port]. Empty: ingest starts an
	// in-process development broker (see DevBroker).
	Brokers string `yaml:"brokers"`
	// DevBroker is where the development broker listens when Brokers is empty.
	// Default DevBrokerDefault.
	DevBroker string `yaml:"dev_broker"`
	// Group is ingest's consumer group. Default GroupDefault.
	Group string `yaml:"group"`
	// DLQTopic receives poison records with error headers. Default DLQTopicDefault.
	DLQTopic string `yaml:"dlq_topic"`
	// Properties are passed to librdkafka as they are, for every consumer and
	// producer (security.protocol, sasl.*, ssl.*); they override freshctx's
	// defaults.
	Properties map[string]string `yaml:"properties"`
	// ConsumerProperties apply to consumers only (fetch.*, session.timeout.ms, ...).
	ConsumerProperties map[string]string `yaml:"consumer_properties"`
	// ProducerProperties apply to producers only (the DLQ, summaries).
	ProducerProperties map[string]string `yaml:"producer_properties"`
}

// Defaults.
const (
	DevBrokerDefault = "127.0.0.1:19092"
	GroupDefault     = "freshctx-ingest"
	DLQTopicDefault  = "freshctx.dlq"
)

// WithDefaults fills unset fields.
func (k Config) WithDefaults() Config {
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

// BootstrapServers is Brokers, or the development broker's address without them.
func (k Config) BootstrapServers() string {
	if k.Brokers != "" {
		return k.Brokers
	}
	return k.DevBroker
}

// Consumer is the configuration of a consumer: freshctx's base settings, then
// the caller's settings, then the user's Properties and ConsumerProperties. keep
// names settings the user may not override (a reader that must never commit).
func (k Config) Consumer(settings kafka.ConfigMap, keep ...string) *kafka.ConfigMap {
	cm := kafka.ConfigMap{
		"bootstrap.servers":    k.BootstrapServers(),
		"enable.metrics.push":  false,
		"enable.partition.eof": false,
	}
	for n, v := range settings {
		cm[n] = v
	}
	overlay(cm, k.Properties, keep)
	overlay(cm, k.ConsumerProperties, keep)
	return &cm
}

// Producer is the configuration of a producer that waits for each delivery
// (ProduceSync), as all of freshctx's do: idempotent, acks from all replicas,
// small Go channels (confluent-kafka-go's million-entry defaults cost ~23 MB of
// heap per producer), then the caller's settings and the user's Properties and
// ProducerProperties.
func (k Config) Producer(settings kafka.ConfigMap) *kafka.ConfigMap {
	cm := kafka.ConfigMap{
		"bootstrap.servers":       k.BootstrapServers(),
		"enable.idempotence":      true,
		"acks":                    "all",
		"enable.metrics.push":     false,
		"go.events.channel.size":  1000,
		"go.produce.channel.size": 1000,
	}
	for n, v := range settings {
		cm[n] = v
	}
	overlay(cm, k.Properties, nil)
	overlay(cm, k.ProducerProperties, nil)
	return &cm
}

func overlay(cm kafka.ConfigMap, props map[string]string, keep []string) {
next:
	for n, v := range props {
		for _, kn := range keep {
			if n == kn {
				continue next
			}
		}
		cm[n] = v
	}
}

// ProduceSync produces msg and waits until Kafka acknowledges it (or ctx ends).
func ProduceSync(ctx context.Context, p *kafka.Producer, msg *kafka.Message) error {
	done := make(chan kafka.Event, 1)
	if err := p.Produce(msg, done); err != nil {
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
}

// IsNoOffset reports librdkafka's "nothing to commit", which is no failure.
func IsNoOffset(err error) bool {
	var ke kafka.Error
	return errors.As(err, &ke) && ke.Code() == kafka.ErrNoOffset
}

// RecordOf is the part of a Kafka message that decoding needs.
func RecordOf(m *kafka.Message) cdc.Record {
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

// OutputHeader marks records freshctx itself produces (session summaries); ingest
// and the summary builder skip them wherever they turn up, so an output is never
// read back as input.
const OutputHeader = "freshctx-kind"

// IsOwnOutput reports a record freshctx produced (it carries OutputHeader).
func IsOwnOutput(hs []cdc.Header) bool {
	for _, h := range hs {
		if h.Key == OutputHeader {
			return true
		}
	}
	return false
}
