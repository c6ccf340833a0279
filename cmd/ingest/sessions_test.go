package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/session"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

// fakeChat is a chat-completions server: it answers with a summary naming the
// turns it was given, and records every request.
type fakeChat struct {
	mu    sync.Mutex
	calls []string // the user message of each call
}

func (f *fakeChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string            `json:"model"`
		Messages []session.Message `json:"messages"`
	}
	if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.calls = append(f.calls, req.Messages[1].Content)
	n := len(f.calls)
	f.mu.Unlock()
	var said []string
	for _, l := range strings.Split(req.Messages[1].Content, "\n") {
		if i := strings.Index(l, ": "); i > 0 && !strings.HasPrefix(l, "Summary so far") {
			said = append(said, l[i+2:])
		}
	}
	out, _ := json.Marshal(map[string]any{"id": fmt.Sprint("c", n), "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": fmt.Sprintf("Summary %d: %s", n, strings.Join(said, " | "))}}}})
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

func (f *fakeChat) count() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.calls) }

// Session memory through a real broker: turns appear in order, a repeated message
// once; the builder folds only the turns older than the newest 2 (memory's
// verbatim turns), once 2 more have come (or after 1 s idle), into a summary
// written to the compacted topic and the store, so summary and turns never
// overlap; a summary copied back into the turn topic is neither summarised nor
// ingested; and a restart whose committed offsets were rewound to the start
// summarises nothing twice.
func TestSessionMemoryEndToEnd(t *testing.T) {
	const turnTopic, sumTopic = "support.turns", "test.session-summaries"
	brokers, _ := testenv.Kafka(t, 3, []string{turnTopic, sumTopic, "freshctx.dlq"})
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)
	chat := &fakeChat{}
	chatSrv := httptest.NewServer(chat)
	defer chatSrv.Close()
	group, sumGroup := testenv.Name("g"), testenv.Name("sg")
	metrics := freePort(t)
	cfgPath := filepath.Join(t.TempDir(), "sessions.yaml")
	os.WriteFile(cfgPath, []byte(fmt.Sprintf(`
kafka: {brokers: %q, group: %q, consumer_properties: {auto.commit.interval.ms: "100"}}
postgres: {dsn: %q}
redis: {addr: %q, key_prefix: %q}
embedder: {dims: 64, word_vectors: none}
api: {auth: {mode: none}, tenant: acme, budget: 5s}  # generous: tests must hold on a loaded machine
sources:
  - {name: turns, topic: %s, format: json, key: "{{.message_id}}", tenant: "{{.tenant}}", entity: "session:{{.session_id}}",
     time: timestamp, text: "{{.content}}", attrs: [role], retention: 72h}
sessions:
  source: turns
  turns: 2
  persona: "You are the shop's support assistant."
  summary: {topic: %s, group: %q, every_turns: 2, idle: 1s, summariser: openai, base_url: %q, model: summ-1}
`, brokers, group, dsn, redisAddr, prefix, turnTopic, sumTopic, sumGroup, chatSrv.URL+"/v1")), 0o600)
	var out bytes.Buffer
	ctx := context.Background()
	if err := run(ctx, []string{"migrate", "-config", cfgPath}, os.Getenv, &out, &out); err != nil {
		t.Fatalf("migrate: %v %s", err, out.String())
	}
	cfg, err := config.Load(cfgPath, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	st, err := pgstore.Connect(ctx, cfg.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cache := rediscache.MustNew(cfg.Redis)
	defer cache.Close()
	emb, _ := embed.NewLocal(64)
	apiSrv := httptest.NewServer(api.New(cfg.API, emb, st, cache, nil, nil, api.WithSessions(*cfg.Sessions, st)))
	defer apiSrv.Close()

	start := func() func() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		var logs syncBuffer
		go func() {
			done <- run(ctx, []string{"-config", cfgPath, "-metrics-listen", metrics, "-log-level", "info"}, os.Getenv, &logs, &logs)
		}()
		return func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("ingest: %v\n%s", err, logs.String())
			}
		}
	}
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "linger.ms": 2, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	base := time.Now().Add(-10 * time.Minute).Truncate(time.Second)
	turn := func(session string, n int, role, content string) {
		v, _ := json.Marshal(map[string]any{"session_id": session, "message_id": fmt.Sprintf("%s-m%d", session, n), "tenant": "acme",
			"role": role, "content": content, "timestamp": base.Add(time.Duration(n) * time.Second).Format(time.RFC3339)})
		produceSync(t, p, turnTopic, []byte(session), v, nil)
	}
	memory := func(session string) api.MemoryResponse {
		res, err := http.Get(apiSrv.URL + "/v1/sessions/" + session + "/memory?q=where+is+my+refund%3F")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m api.MemoryResponse
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || json.Unmarshal(b, &m) != nil {
			t.Fatalf("memory: %d %s", res.StatusCode, b)
		}
		return m
	}
	ids := func(m api.MemoryResponse) string {
		var s []string
		for _, tu := range m.Turns {
			s = append(s, tu.ID)
		}
		return strings.Join(s, ",")
	}
	summary := func() (int, string) {
		s, ok, err := st.Summary(ctx, "acme", "s-1")
		if err != nil || !ok {
			return 0, ""
		}
		return s.Turns, s.Text
	}

	stop := start()
	turn("s-1", 1, "customer", "Hi, I returned my trail shoes last week.")
	turn("s-1", 2, "bot", "Thanks, let me look that up.")
	turn("s-1", 2, "bot", "Thanks, let me look that up.") // the same message again
	turn("s-1", 3, "customer", "Where is my refund for order 5001?")
	waitFor(t, "3 turns in memory", 20*time.Second, func() bool { return ids(memory("s-1")) == "s-1-m1,s-1-m2,s-1-m3" })
	m := memory("s-1")
	if m.Summary != nil || m.Messages[0].Role != "system" || m.Messages[1].Content != "Hi, I returned my trail shoes last week." ||
		m.Messages[len(m.Messages)-1].Content != "where is my refund?" {
		t.Fatalf("memory before any summary: %+v", m.Memory)
	}

	// The 4th turn makes 2 more than memory's 2 verbatim turns: the oldest 2 are
	// folded into the first summary, the newest 2 stay turns.
	turn("s-1", 4, "bot", "Refund R-7001 of 129.90 EUR was approved on Monday.")
	waitFor(t, "the first summary", 20*time.Second, func() bool { n, _ := summary(); return n == 2 })
	if _, text := summary(); text != "Summary 1: Hi, I returned my trail shoes last week. | Thanks, let me look that up." {
		t.Fatalf("summary text %q", text)
	}
	// The builder (its own consumer group) may fold turn 4's predecessors before
	// ingest has stored turn 4 itself: wait for it, and never see a folded turn.
	waitFor(t, "memory after the first summary to hold m3 and m4", 20*time.Second, func() bool {
		m := memory("s-1")
		if m.Summary != nil && (strings.Contains(ids(m), "s-1-m1") || strings.Contains(ids(m), "s-1-m2")) {
			t.Fatalf("memory after the first summary repeats a summarised turn: %s, %+v", ids(m), m.Memory)
		}
		return m.Summary != nil && ids(m) == "s-1-m3,s-1-m4"
	})
	// One more turn; after 1 s without another, what precedes the newest 2 (m3)
	// is folded in, with the summary so far.
	turn("s-1", 5, "customer", "It has not arrived yet.")
	waitFor(t, "the idle summary", 20*time.Second, func() bool { n, _ := summary(); return n == 3 })
	if chat.count() != 2 || !strings.Contains(chat.calls[1], "Summary so far:\nSummary 1:") {
		t.Fatalf("%d summariser calls; second input %q", chat.count(), chat.calls[len(chat.calls)-1])
	}
	waitFor(t, "memory with the second summary to hold m4 and m5", 20*time.Second, func() bool {
		m = memory("s-1")
		return m.Summary != nil && m.Summary.Turns == 3 && ids(m) == "s-1-m4,s-1-m5"
	})
	if m.Summary == nil || m.Summary.Turns != 3 || ids(m) != "s-1-m4,s-1-m5" || !strings.Contains(m.Messages[0].Content, "Summary 2:") ||
		!strings.Contains(m.Text, "(3 earlier turns)") {
		t.Fatalf("memory with summary: turns %s, %+v", ids(m), m.Memory)
	}
	// /v1/context puts the memory before the entity's events.
	res, err := http.Get(apiSrv.URL + "/v1/context?entity=customer:1&q=refund&session=s-1&memory_tokens=300")
	if err != nil {
		t.Fatal(err)
	}
	var cr api.ContextResponse
	json.NewDecoder(res.Body).Decode(&cr)
	res.Body.Close()
	if cr.Memory == nil || cr.Memory.Summary == nil || !strings.HasPrefix(cr.Context, "You are the shop's support assistant.") {
		t.Fatalf("context with session: %d memory %v context %.200q", res.StatusCode, cr.Memory, cr.Context)
	}
	sums := readAll(t, brokers, sumTopic, 2)
	if string(sums[1].Key) != "acme/s-1" || header(sums[1], kafkaio.OutputHeader) != "summary" {
		t.Fatalf("summary record: key %q headers %v", sums[1].Key, sums[1].Headers)
	}

	// A summary copied into the turn topic is skipped by ingest and the builder alike.
	produceSync(t, p, turnTopic, []byte("s-1"), sums[1].Value, sums[1].Headers)
	time.Sleep(2500 * time.Millisecond) // more than the idle time
	if n, _ := summary(); n != 3 || chat.count() != 2 || ids(memory("s-1")) != "s-1-m4,s-1-m5" {
		t.Fatalf("after a summary was fed back: summary turns %d, %d calls, memory %s", n, chat.count(), ids(memory("s-1")))
	}
	stop()

	// Rewind the builder's group to the start, as if it had crashed before
	// committing: the restart re-reads every turn and summarises none again.
	rewind(t, brokers, sumGroup, turnTopic, 3)
	stop = start()
	waitFor(t, "the builder to re-read the turns", 20*time.Second, func() bool {
		// m1, m2 (twice), m3 are summarised; m4 and m5 are not (memory shows them).
		return scrape(metrics, `freshctx_sessions_records_total{result="already_summarised"}`) >= 4 &&
			scrape(metrics, `freshctx_sessions_records_total{result="pending"}`) >= 2
	})
	time.Sleep(1500 * time.Millisecond) // more than the idle time: nothing may be folded
	if n, _ := summary(); n != 3 || chat.count() != 2 {
		t.Fatalf("after the rewound restart: summary turns %d, %d summariser calls; want 3 and 2", n, chat.count())
	}
	if got := len(readAll(t, brokers, sumTopic, 2)); got != 2 {
		t.Fatalf("%d summary records, want 2", got)
	}
	// By now the idle session's two turns were released (memory shows them; no
	// summary needed). The conversation resumes: the builder reads m4 and m5 back
	// from the store, and once idle folds what precedes the newest 2 (m4).
	turn("s-1", 6, "bot", "Let me check refund R-7001 with the payment team.")
	waitFor(t, "the resumed session's summary", 20*time.Second, func() bool { n, _ := summary(); return n == 4 })
	if m := memory("s-1"); ids(m) != "s-1-m5,s-1-m6" || !strings.Contains(m.Text, "(4 earlier turns)") {
		t.Fatalf("memory after the session resumed: turns %s\n%s", ids(m), m.Text)
	}
	stop()
}

func produceSync(t *testing.T, p *kafka.Producer, topic string, key, value []byte, headers []kafka.Header) {
	t.Helper()
	done := make(chan kafka.Event, 1)
	if err := p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
		Key: key, Value: value, Headers: headers}, done); err != nil {
		t.Fatal(err)
	}
	if m := (<-done).(*kafka.Message); m.TopicPartition.Error != nil {
		t.Fatal(m.TopicPartition.Error)
	}
}

// rewind commits offset 0 on every partition of topic for group.
func rewind(t *testing.T, brokers, group, topic string, partitions int32) {
	t.Helper()
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": brokers, "group.id": group, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var tps []kafka.TopicPartition
	for p := int32(0); p < partitions; p++ {
		tps = append(tps, kafka.TopicPartition{Topic: &topic, Partition: p, Offset: 0})
	}
	if _, err := c.CommitOffsets(tps); err != nil {
		t.Fatalf("rewinding %s: %v", group, err)
	}
}

// scrape returns the value of one exact metric line at addr, or -1.
func scrape(addr, series string) float64 {
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return -1
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, series+" ") {
			var v float64
			fmt.Sscan(strings.TrimPrefix(l, series+" "), &v)
			return v
		}
	}
	return -1
}
