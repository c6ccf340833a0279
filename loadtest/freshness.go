package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"golang.org/x/time/rate"
)

// freshness measures what users feel: the time from a record's Kafka timestamp to
// the moment the context API returns it. Marker events (each on an entity of its
// own) are produced at a steady rate, optionally over a background load of the
// produce mix, and each is polled through GET /v1/entities/{entity}/events until
// it is visible.
func freshness(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest freshness", flag.ContinueOnError)
	fs.SetOutput(stderr)
	brokers := fs.String("brokers", "127.0.0.1:19092", "Kafka bootstrap servers")
	apiURL := fs.String("api", "http://127.0.0.1:8080", "context API base URL")
	topic := fs.String("topic", "support.chat", "topic of the markers: a json source keyed by message_id with entity customer:{{.customer_id}} (the demo's chat)")
	markerRate := fs.Int("rate", 20, "markers per second")
	duration := fs.Duration("duration", 30*time.Second, "how long to send markers (at most 10m)")
	loadRate := fs.Int("load-rate", 0, "background load: events per second of the produce mix beside the markers (0: none)")
	entities := fs.Int("entities", 10000, "background load: customers")
	timeout := fs.Duration("timeout", 30*time.Second, "a marker not visible after this counts as lost")
	poll := fs.Duration("poll", 2*time.Millisecond, "how often each marker is polled at first (then every 5% of its age, at most 50 ms)")
	pollRate := fs.Float64("poll-rate", 200, "cap on all polls together, per second: the pollers must not become the load they measure")
	out := fs.String("out", "", "directory for the report: freshness.json, freshness.md, freshness.svg")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	useAfter := fs.Bool("after", false, "read-your-writes: ask once per marker with after=TOPIC:PARTITION:OFFSET from its delivery report, instead of polling")
	cpu := fs.Bool("cpu", false, "also report the CPU time each component used per 1,000 events produced (ingest, broker, postgresql, redis, contextapi, the load generator, the machine; read from /proc, so run it on the same machine)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	stopCPU, err := startCPU(*cpu)
	if err != nil {
		return err
	}
	if *duration > 10*time.Minute || *markerRate < 1 || *markerRate > 1000 || *loadRate < 0 || *pollRate <= 0 {
		return fmt.Errorf("-duration at most 10m, -rate in [1, 1000], -load-rate ≥ 0, -poll-rate > 0")
	}
	// Markers go out at once (no linger), so the measurement starts at the record
	// timestamp, not after a batching delay.
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": *brokers, "linger.ms": 0, "enable.metrics.push": false})
	if err != nil {
		return err
	}
	defer p.Close()
	go func() {
		for range p.Events() {
		}
	}()
	var loadN atomic.Int64
	loadDone := make(chan error, 1)
	if *loadRate > 0 {
		lp, err := newMixProducer(*brokers)
		if err != nil {
			return err
		}
		defer lp.Close()
		go func() {
			n, err := mix{rate: *loadRate, entities: *entities, skew: 1.1, debezium: 0.6}.run(ctx, lp, *duration)
			loadN.Store(int64(n))
			loadDone <- err
		}()
	} else {
		loadDone <- nil
	}

	run := time.Now().UnixNano() % 1e9
	client := &http.Client{Timeout: 5 * time.Second}
	polls := rate.NewLimiter(rate.Limit(*pollRate), 1)
	h := newHist()
	var mu sync.Mutex
	var lost, sent atomic.Int64
	var whyLost atomic.Value // the first lost marker's answer, to say why
	var wg sync.WaitGroup
	start := time.Now()
	for n := 0; time.Since(start) < *duration && ctx.Err() == nil; n++ {
		if wait := time.Until(start.Add(time.Duration(n) * time.Second / time.Duration(*markerRate))); wait > 0 {
			time.Sleep(wait)
		}
		id := fmt.Sprintf("fresh-%d-%d", run, n)
		ts := time.Now()
		v, _ := json.Marshal(map[string]any{"message_id": id, "tenant": "acme", "customer_id": id, "role": "customer",
			"channel": "loadtest", "text": "freshness marker " + id, "ts": ts.UTC().Format(time.RFC3339Nano)})
		t := *topic
		var delivered chan kafka.Event
		if *useAfter {
			delivered = make(chan kafka.Event, 1)
		}
		if err := p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &t, Partition: kafka.PartitionAny},
			Key: []byte(id), Value: v, Timestamp: ts}, delivered); err != nil {
			return fmt.Errorf("producing a marker: %w", err)
		}
		sent.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if *useAfter {
				// What a bot does: take the delivery report's position and ask once,
				// with after=, for an answer that holds the record.
				m, ok := (<-delivered).(*kafka.Message)
				if !ok || m.TopicPartition.Error != nil {
					lost.Add(1)
					return
				}
				after := fmt.Sprintf("%s:%d:%d", *m.TopicPartition.Topic, m.TopicPartition.Partition, m.TopicPartition.Offset)
				u := *apiURL + "/v1/context?" + url.Values{"entity": {"customer:" + id}, "k": {"1"}, "after": {after},
					"budget_ms": {strconv.Itoa(int(min(*timeout, 10*time.Second).Milliseconds()))}}.Encode()
				ok, why := visibleWhy(client, u)
				if ok {
					mu.Lock()
					h.record(time.Since(ts))
					mu.Unlock()
					return
				}
				lost.Add(1)
				whyLost.CompareAndSwap(nil, fmt.Sprintf("marker %s (after=%s): %s", id, after, why))
				return
			}
			u := *apiURL + "/v1/entities/" + url.PathEscape("customer:"+id) + "/events?limit=1"
			for time.Since(ts) < *timeout && ctx.Err() == nil {
				if polls.Wait(ctx) != nil {
					break
				}
				if ok, _ := visibleWhy(client, u); ok {
					d := time.Since(ts)
					mu.Lock()
					h.record(d)
					mu.Unlock()
					return
				}
				// Poll often at first and then less: the pollers must not become the
				// load they measure (resolution stays within 5 % of the latency).
				time.Sleep(max(*poll, min(time.Since(ts)/20, 50*time.Millisecond)))
			}
			lost.Add(1)
		}()
	}
	wg.Wait()
	if err := <-loadDone; err != nil {
		return fmt.Errorf("background load: %w", err)
	}
	use, err := stopCPU()
	if err != nil {
		return err
	}
	l := h.summary()
	res := map[string]any{"markers": sent.Load(), "visible": l.Count, "lost": lost.Load(), "marker_rate": *markerRate,
		"load_rate": *loadRate, "load_events": loadN.Load(), "seconds": time.Since(start).Seconds(),
		"p50_ms": l.P50, "p99_ms": l.P99, "max_ms": l.Max}
	if use != nil {
		res["cpu"] = use
	}
	if why, ok := whyLost.Load().(string); ok {
		res["first_lost"] = why
	}
	r := newReport("freshness", args)
	r.Results, r.LatencyOf, r.Latency = res, "record timestamp → visible through the API", l
	if *useAfter {
		res["mode"] = "after"
		r.LatencyOf = "produce → answer holding the record (after=)"
	}
	if err := r.write(*out); err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "freshness: %d markers at %d/s over %d events/s of load: visible p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms; %d not visible within %s\n",
		sent.Load(), *markerRate, *loadRate, l.P50, l.P90, l.P99, l.Max, lost.Load(), *timeout)
	if why, ok := whyLost.Load().(string); ok {
		fmt.Fprintf(stdout, "first not visible: %s\n", why)
	}
	if use != nil {
		events := int(loadN.Load() + sent.Load())
		fmt.Fprintf(stdout, "\nCPU per component over the run (%d events produced):\n\n%s", events, use.table(events, "events"))
	}
	return nil
}

// visibleWhy asks u and reports whether the answer holds an event; if not,
// what came back instead (an error, a status, or the answer's meta).
func visibleWhy(c *http.Client, u string) (bool, string) {
	res, err := c.Get(u)
	if err != nil {
		return false, err.Error()
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return false, err.Error()
	}
	var body struct {
		Events []json.RawMessage `json:"events"`
		Meta   json.RawMessage   `json:"meta"`
	}
	if err := json.Unmarshal(b, &body); err != nil || res.StatusCode != http.StatusOK {
		return false, fmt.Sprintf("HTTP %d: %.300s", res.StatusCode, b)
	}
	return len(body.Events) > 0, "no event; meta " + string(body.Meta)
}
