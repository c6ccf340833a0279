package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/client"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
)

// Read-your-writes through a real broker: a bot publishes a customer's message
// and at once asks for the customer's context with after= naming the record
// its delivery report gave: the answer holds it every time (none missed), and
// meta.fresh_through is there. When the budget is too small for the write to
// land, the answer comes on time and says freshness degraded. It holds right
// after a restart and through the rebalances of a second process joining and
// leaving.
func TestReadYourWritesThroughTheBroker(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	emb, err := embed.NewLocalFromConfig(h.cfg.Embedder)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(api.New(h.cfg.API, emb, h.store, h.cache, nil, nil,
		api.WithFreshness([]string{ticketsTopic, chatTopic}, h.cache, h.cache.WatchWatermarks(ctx))))
	defer srv.Close()
	c := client.New(srv.URL)
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": h.brokers, "linger.ms": 0, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	send := func(i int) string {
		topic := chatTopic
		v, _ := json.Marshal(map[string]any{"message_id": fmt.Sprintf("ryw-%d", i), "tenant": "acme", "customer_id": 7000 + i%10,
			"ts": time.Now().UTC().Format(time.RFC3339Nano), "text": fmt.Sprintf("message number %d", i)})
		done := make(chan kafka.Event, 1)
		if err := p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
			Key: []byte(fmt.Sprint("c", i%10)), Value: v}, done); err != nil {
			t.Fatal(err)
		}
		m := (<-done).(*kafka.Message)
		if m.TopicPartition.Error != nil {
			t.Fatal(m.TopicPartition.Error)
		}
		return fmt.Sprintf("%s:%d:%d", topic, m.TopicPartition.Partition, m.TopicPartition.Offset)
	}
	missed, degraded, n := 0, 0, 0
	var waited time.Duration
	budget := 5000 // ms: the API waits up to half of it
	ask := func(count int) {
		for range count {
			i := n
			n++
			after := send(i)
			start := time.Now()
			ans, err := c.Context(ctx, client.ContextRequest{Entity: fmt.Sprint("customer:", 7000+i%10), After: []string{after}, BudgetMS: ptr(budget)})
			if err != nil {
				t.Fatal(err)
			}
			waited += time.Since(start)
			found := false
			for _, e := range ans.Events {
				found = found || strings.HasSuffix(e.Text, fmt.Sprintf("message number %d", i))
			}
			if !found {
				missed++
			}
			if len(ans.Meta.Degraded) > 0 {
				degraded++
			}
			if ans.Meta.FreshThrough == nil {
				t.Fatalf("pair %d: no meta.fresh_through", i)
			}
		}
	}
	ask(500)
	h.stop() // and right after a restart, which starts from the committed offsets
	h.start()
	ask(500)
	// ... and through rebalances: a second process joins the group (partitions
	// move to it), then leaves (they move back). While the group rebalances,
	// no one fetches the moving partitions (seconds on a loaded machine: a
	// member hears of the rebalance at its next heartbeat, then drains and
	// commits), so these asks take the largest budget, as a caller that must
	// not miss would.
	budget = 10000
	revokes := func() int { return strings.Count(h.logs.String(), "partitions revoked") }
	before := revokes()
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan error, 1)
	go func() {
		done2 <- run(ctx2, []string{"-config", h.cfgPath, "-metrics-listen", freePort(t)}, func(string) string { return "" }, io.Discard, io.Discard)
	}()
	ask(200)
	waitFor(t, "the second process to take partitions", 60*time.Second, func() bool { return revokes() > before })
	ask(100)
	cancel2()
	select {
	case err := <-done2:
		if err != nil {
			t.Fatalf("second ingest process: %v", err)
		}
	case <-time.After(testenv.Patience(30 * time.Second)):
		t.Fatal("the second ingest process did not stop")
	}
	ask(200)
	budget = 5000
	if missed != 0 || degraded != 0 {
		t.Fatalf("%d of %d produce-then-ask pairs missed the record they named (%d degraded)", missed, n, degraded)
	}
	t.Logf("%d pairs, 0 missed, mean produce-ack-to-answer %s", n, waited/time.Duration(n))

	// The timeline waits the same way.
	for range 50 {
		i := n
		n++
		after := send(i)
		res, err := http.Get(srv.URL + "/v1/entities/" + url.PathEscape(fmt.Sprint("customer:", 7000+i%10)) + "/events?limit=1&after=" + url.QueryEscape(after))
		if err != nil {
			t.Fatal(err)
		}
		var tl api.TimelineResponse
		json.NewDecoder(res.Body).Decode(&tl)
		res.Body.Close()
		if len(tl.Events) != 1 || !strings.HasSuffix(tl.Events[0].Text, fmt.Sprintf("message number %d", i)) || tl.FreshThrough == nil {
			t.Fatalf("timeline after %s: %+v", after, tl)
		}
	}

	// /v1/status: every chat partition written, its dead-lettered records
	// counted (one malformed record), the same in /metrics.
	h.produce(chatTopic, []byte("c0"), []byte("{not json"))
	var st api.StatusResponse
	waitFor(t, "the dead-lettered record in /v1/status", 20*time.Second, func() bool {
		res, err := http.Get(srv.URL + "/v1/status")
		if err != nil {
			return false
		}
		defer res.Body.Close()
		st = api.StatusResponse{}
		json.NewDecoder(res.Body).Decode(&st)
		dead := int64(0)
		for _, p := range st.Sources {
			dead += p.DeadLettered
		}
		return dead == 1
	})
	var chatOffsets int64
	for _, p := range st.Sources {
		if p.Topic == chatTopic {
			chatOffsets += p.Offset
			if p.LastWrite == nil {
				t.Errorf("partition %d: no last write: %+v", p.Partition, p)
			}
		}
	}
	if chatOffsets != int64(n)+1 || st.FreshThrough == nil {
		t.Fatalf("status: chat offsets sum to %d, want %d (every record, the malformed one too): %+v", chatOffsets, n+1, st)
	}
	res, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `freshctx_source_fresh_through_seconds{partition="0",topic="support.chat"}`) {
		t.Fatalf("/metrics lacks the source freshness")
	}

	// A write that cannot land within the budget: ingest is stopped.
	h.stop()
	after := send(n)
	start := time.Now()
	ans, err := c.Context(ctx, client.ContextRequest{Entity: "customer:7000", After: []string{after}, BudgetMS: ptr(200)})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > testenv.Patience(2*time.Second) {
		t.Fatalf("a 200 ms budget answered after %s", took)
	}
	if len(ans.Meta.Degraded) == 0 || ans.Meta.Degraded[0].Stage != "freshness" {
		t.Fatalf("degraded %+v, want freshness", ans.Meta.Degraded)
	}
}

func ptr[T any](v T) *T { return &v }

// Watermarks of partitions a topic no longer has (it was created again with
// fewer, or another run wrote to the same names) never advance and would hold
// every answer's fresh_through back: ingest forgets them when it is assigned
// the topic, and keeps the real partitions'.
func TestWatermarksOfGonePartitionsAreForgotten(t *testing.T) {
	h := newHarness(t)
	// The ghosts are put there while no ingest runs, as by an earlier run.
	h.eventually("partitions assigned", func() bool { return strings.Contains(h.logs.String(), "partitions assigned") })
	h.stop()
	ctx := context.Background()
	old := time.Now().Add(-time.Hour).UTC()
	var ghosts []store.Watermark
	for p := int32(3); p < 8; p++ { // the harness's topics have 3 partitions
		ghosts = append(ghosts, store.Watermark{Topic: chatTopic, Partition: p, Offset: 10_000, Time: old, High: 10_000})
	}
	if err := h.cache.PublishWatermarks(ctx, ghosts); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eventually("the gone partitions' watermarks forgotten", func() bool {
		ws, err := h.cache.Watermarks(ctx, []string{chatTopic})
		if err != nil {
			return false
		}
		for _, w := range ws {
			if w.Partition >= 3 {
				return false
			}
		}
		return true
	})
	// (it says so after forgetting them: the line may come a moment after)
	h.eventually("ingest saying it forgot them", func() bool {
		return strings.Contains(h.logs.String(), "forgot the watermarks of partitions the topic no longer has")
	})
	// The real partitions' watermarks are published as usual.
	h.produce(chatTopic, []byte("c1"), []byte(`{"message_id":"gone-1","tenant":"acme","customer_id":7001,"ts":"`+time.Now().UTC().Format(time.RFC3339Nano)+`","text":"hello"}`))
	h.eventually("a real partition's watermark", func() bool {
		ws, err := h.cache.Watermarks(ctx, []string{chatTopic})
		return err == nil && len(ws) > 0 && ws[0].Partition < 3
	})
}
