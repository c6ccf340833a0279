package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// produce sends a paced, realistic mix to the demo topics: ticket and order
// changes as Debezium envelopes (creates, updates, deletes with tombstones) and
// refund and chat events as plain JSON, over entities with a skewed popularity.
func produce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest produce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	brokers := fs.String("brokers", "127.0.0.1:19092", "Kafka bootstrap servers")
	rate := fs.Int("rate", 1000, "events per second (0: as fast as possible)")
	duration := fs.Duration("duration", 30*time.Second, "how long to produce (at most 10m)")
	entities := fs.Int("entities", 10000, "customers (customer:100000 … 100000+N-1, apart from the demo's)")
	skew := fs.Float64("skew", 1.1, "Zipf exponent of entity popularity (> 1; higher: a few entities get most events)")
	debezium := fs.Float64("debezium", 0.6, "share of Debezium change events (the rest: JSON events)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *duration > 10*time.Minute || *rate < 0 || *entities < 1 || *skew <= 1 || *debezium < 0 || *debezium > 1 {
		return fmt.Errorf("-duration ≤ 10m, -rate ≥ 0, -entities ≥ 1, -skew > 1, -debezium in [0, 1]")
	}
	p, err := newMixProducer(*brokers)
	if err != nil {
		return err
	}
	defer p.Close()
	start := time.Now()
	n, err := mix{rate: *rate, entities: *entities, skew: *skew, debezium: *debezium}.run(ctx, p, *duration)
	if err != nil {
		return err
	}
	p.Flush(30000)
	el := time.Since(start)
	fmt.Fprintf(stdout, "produce: %d events in %.1fs (%.0f/s) to %s\n", n, el.Seconds(), float64(n)/el.Seconds(), *brokers)
	return nil
}

// newMixProducer is a producer for the event mix: batched (linger 5 ms), with
// room for a million queued records, its delivery reports drained.
func newMixProducer(brokers string) (*kafka.Producer, error) {
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "linger.ms": 5, "enable.metrics.push": false,
		"queue.buffering.max.messages": 1000000})
	if err != nil {
		return nil, err
	}
	go func() {
		for range p.Events() { // delivery reports
		}
	}()
	return p, nil
}

// mix is produce's event mix: Debezium ticket changes and JSON chat events over
// Zipf-skewed customers, at a rate (0: as fast as possible).
//
// Its customers and tickets are numbered apart from the demo's (customer:1001,
// ticket 9001, chat message m-1001-1), which the same topics carry: a load run
// beside the demo (produce, freshness) must not change the demo's story.
const (
	mixCustomerBase = 100_000
	mixTicketBase   = 1_000_000
)

type mix struct {
	rate, entities int
	skew, debezium float64
	limit          int // stop after this many events (0: no limit)
}

// run produces the mix for duration (or until ctx ends) and returns how many
// events it sent.
func (m mix) run(ctx context.Context, p *kafka.Producer, duration time.Duration) (int, error) {
	rng := rand.New(rand.NewPCG(11, 11))
	zipf := rand.NewZipf(rng, m.skew, 1, uint64(m.entities-1))
	lsn := time.Now().UnixMicro() * 16
	send := func(topic string, key, value []byte) error { return sendAsync(p, topic, key, value) }
	start := time.Now()
	deadline := start.Add(duration)
	n, tickets := 0, 0
	for time.Now().Before(deadline) && ctx.Err() == nil && (m.limit == 0 || n < m.limit) {
		if m.rate > 0 {
			if wait := time.Until(start.Add(time.Duration(float64(n) / float64(m.rate) * float64(time.Second)))); wait > 0 {
				time.Sleep(wait) // pacing
			}
		}
		customer := mixCustomerBase + int(zipf.Uint64())
		now := time.Now()
		if rng.Float64() < m.debezium {
			lsn += 8
			id := rng.IntN(int(math.Max(1, float64(tickets)))) + 1 // an existing ticket, for updates and deletes
			op := "u"
			switch r := rng.Float64(); {
			case r < 0.4 || tickets == 0:
				tickets++
				id, op = tickets, "c"
			case r > 0.97:
				op = "d"
			}
			id += mixTicketBase
			row := map[string]any{"id": id, "tenant_id": "acme", "customer_id": customer, "status": []string{"open", "pending", "solved"}[rng.IntN(3)],
				"priority": "normal", "subject": "Order question", "body": fmt.Sprintf("Customer %d asks about order O-%d.", customer, rng.IntN(100000)),
				"updated_at": now.UnixMicro()}
			env := map[string]any{"op": op, "after": row, "source": map[string]any{"connector": "postgresql", "lsn": lsn, "ts_ms": now.UnixMilli()}}
			if op == "d" {
				env["before"], env["after"] = row, nil
			}
			v, _ := json.Marshal(env)
			key := []byte(fmt.Sprintf(`{"id":%d}`, id))
			if err := send("shop.public.tickets", key, v); err != nil {
				return n, err
			}
			if op == "d" {
				if err := send("shop.public.tickets", key, nil); err != nil {
					return n, err
				}
			}
		} else {
			id := fmt.Sprintf("m-%d-%d", customer, n)
			v, _ := json.Marshal(map[string]any{"message_id": id, "tenant": "acme", "customer_id": customer, "role": "customer",
				"channel": "app", "text": fmt.Sprintf("Where is my refund for order O-%d?", rng.IntN(100000)), "ts": now.UTC().Format(time.RFC3339Nano)})
			if err := send("support.chat", []byte(id), v); err != nil {
				return n, err
			}
		}
		n++
	}
	return n, nil
}

// sendAsync produces without waiting for the delivery report, flushing while
// the local queue is full.
func sendAsync(p *kafka.Producer, topic string, key, value []byte) error {
	for {
		err := p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny}, Key: key, Value: value}, nil)
		if e, ok := err.(kafka.Error); ok && e.Code() == kafka.ErrQueueFull {
			p.Flush(100)
			continue
		}
		return err
	}
}

// produceAll produces msgs and waits until Kafka has acknowledged every one
// (30 s at most).
func produceAll(ctx context.Context, p *kafka.Producer, msgs []*kafka.Message, brokers string) error {
	deliveries := make(chan kafka.Event, len(msgs))
	for _, m := range msgs {
		if err := p.Produce(m, deliveries); err != nil {
			return fmt.Errorf("producing to %s: %w", *m.TopicPartition.Topic, err)
		}
	}
	timeout := time.After(30 * time.Second)
	for range msgs {
		select {
		case e := <-deliveries:
			if m, ok := e.(*kafka.Message); ok && m.TopicPartition.Error != nil {
				return fmt.Errorf("delivery to %s: %w", *m.TopicPartition.Topic, m.TopicPartition.Error)
			}
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout:
			return fmt.Errorf("kafka at %s did not acknowledge %d records within 30s (is ingest running?)", brokers, len(msgs))
		}
	}
	return nil
}
