package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde/avrov2"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

const (
	ticketsTopic   = "shop.public.tickets"
	customersTopic = "PostgreSQL_server.public.customers" // the Debezium doc fixtures' topic
	chatTopic      = "support.chat"
	dlqTopic       = "freshctx.dlq"
)

// harness runs the real ingest command against a kfake broker, PostgreSQL and
// Redis, and serves the context API over the same store and cache.
type harness struct {
	t        *testing.T
	brokers  string
	cfgPath  string
	cfg      *config.Config
	metrics  string
	producer *kafka.Producer
	store    *pgstore.Store
	cache    *rediscache.Cache
	api      *httptest.Server
	lsn      int64
	registry string
	cancel   context.CancelFunc
	done     chan error
	logs     *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func newHarness(t *testing.T) *harness {
	brokers, _ := testenv.Kafka(t, 3, []string{ticketsTopic, customersTopic, chatTopic, dlqTopic, kbTopic, flatTopic, avroTopic, txnTopic})
	sr := testenv.NewSchemaRegistry(t)
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)
	h := &harness{t: t, brokers: brokers, metrics: freePort(t), lsn: 1000, logs: &syncBuffer{}, registry: sr.URL}
	cfgText := fmt.Sprintf(`
kafka: {brokers: %q, group: %q, dlq_topic: %q}
postgres: {dsn: %q}
redis: {addr: %q, key_prefix: %q, window: 1h}
embedder: {provider: local, dims: 256}
pipeline: {lanes: 4, drain_timeout: 5s}
api: {tenant: acme, auth: {mode: none}, budget: 5s}  # generous: tests must hold on a loaded machine
sources:
  - name: tickets
    topic: %s
    format: debezium
    id: "T-{{.id}}"
    tenant: "{{.tenant_id}}"
    entity: "customer:{{.customer_id}}"
    time: updated_at
    text: "Ticket T-{{.id}} [{{.status}}] {{.subject}}: {{.body}}"
    attrs: [status, assignee]
  - name: customers
    topic: %s
    format: debezium
    tenant: acme
    entity: "customer:{{.id}}"
    text: "Customer {{.first_name}} {{.last_name}} <{{.email}}> {{.biography}}"
  - name: chat
    topic: %s
    format: json
    key: "{{.message_id}}"
    tenant: "{{.tenant}}"
    entity: "customer:{{.customer_id}}"
    time: ts
    text: "Chat: {{.text}}"
  - name: kb
    topic: %s
    format: debezium
    kind: document
    id: "KB-{{.id}}"
    tenant: "{{.tenant_id}}"
    title: "{{.title}}"
    text: "{{.body}}"
    attrs: [category]
    chunk: {size: 200, overlap: 40}
  - name: flat
    topic: %s
    format: debezium-flat
    tenant: acme
    entity: "customer:{{.id}}"
    text: "{{.__table}}: {{.first_name}} {{.last_name}} <{{.email}}>"
  - name: avro
    topic: %s
    format: debezium-avro
    tenant: "{{.tenant_id}}"
    entity: "customer:{{.customer_id}}"
    text: "Ticket {{.id}} [{{.status}}] {{.body}}"
  - name: txn
    topic: %s
    format: debezium
    tenant: acme
    entity: "a:{{.pk}}"
    text: "row {{.pk}}: {{.aa}}"
schema_registry: {url: %q}
`, brokers, testenv.Name("g"), dlqTopic, dsn, redisAddr, prefix, ticketsTopic, customersTopic, chatTopic, kbTopic, flatTopic, avroTopic, txnTopic, sr.URL)
	h.cfgPath = filepath.Join(t.TempDir(), "freshctx.yaml")
	if err := os.WriteFile(h.cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	var err error
	if h.cfg, err = config.Load(h.cfgPath, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var out bytes.Buffer
	if err := run(ctx, []string{"migrate", "-config", h.cfgPath}, os.Getenv, &out, &out); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "applied 001_events.sql") {
		t.Fatalf("migrate output: %s", out.String())
	}

	h.producer, err = kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "linger.ms": 1, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.producer.Close)
	if h.store, err = pgstore.Connect(ctx, h.cfg.Postgres); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.store.Close)
	h.cache = rediscache.MustNew(h.cfg.Redis)
	t.Cleanup(func() { h.cache.Close() })
	emb, err := embed.NewLocalFromConfig(h.cfg.Embedder)
	if err != nil {
		t.Fatal(err)
	}
	h.api = httptest.NewServer(api.New(h.cfg.API, emb, h.store, h.cache, nil, nil))
	t.Cleanup(h.api.Close)
	h.start()
	return h
}

// start runs `ingest -config FILE` until stop.
func (h *harness) start() {
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.done = cancel, make(chan error, 1)
	go func() {
		h.done <- run(ctx, []string{"-config", h.cfgPath, "-metrics-listen", h.metrics, "-log-level", "debug"}, func(string) string { return "" }, h.logs, h.logs)
	}()
	h.t.Cleanup(func() { h.stop() })
}

func (h *harness) stop() {
	if h.cancel == nil {
		return
	}
	h.cancel()
	h.cancel = nil
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Errorf("ingest returned %v\n%s", err, h.logs.String())
		}
	case <-time.After(30 * time.Second):
		h.t.Fatalf("ingest did not stop within 30s\n%s", h.logs.String())
	}
}

func (h *harness) produce(topic string, key, value []byte) {
	h.t.Helper()
	done := make(chan kafka.Event, 1)
	if err := h.producer.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
		Key: key, Value: value}, done); err != nil {
		h.t.Fatal(err)
	}
	if m := (<-done).(*kafka.Message); m.TopicPartition.Error != nil {
		h.t.Fatal(m.TopicPartition.Error)
	}
}

// ticket produces a Debezium change event for a ticket row; body may be the TOAST placeholder.
func (h *harness) ticket(op string, id, customer int, status, subject, body, assignee string) int64 {
	h.lsn += 8
	row := map[string]any{"id": id, "tenant_id": "acme", "customer_id": customer, "status": status, "subject": subject,
		"body": body, "assignee": assignee, "updated_at": time.Now().UnixMicro()}
	env := map[string]any{"op": op, "after": row, "before": nil,
		"source": map[string]any{"connector": "postgresql", "lsn": h.lsn, "ts_ms": time.Now().UnixMilli()}}
	if op == "d" {
		env["after"], env["before"] = nil, map[string]any{"id": id}
	}
	v, _ := json.Marshal(env)
	h.produce(ticketsTopic, []byte(fmt.Sprintf(`{"id":%d}`, id)), v)
	return h.lsn
}

func (h *harness) context(entity, q string) api.ContextResponse {
	h.t.Helper()
	res, err := http.Get(h.api.URL + "/v1/context?" + url.Values{"entity": {entity}, "q": {q}, "k": {"20"}}.Encode())
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	var out api.ContextResponse
	if res.StatusCode != http.StatusOK {
		h.t.Fatalf("context: %s", res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// eventually polls cond until it holds (20 s, times testenv.Patience).
func (h *harness) eventually(what string, cond func() bool) {
	h.t.Helper()
	testenv.Eventually(h.t, what, 20*time.Second, cond, func() string { return "ingest log:\n" + h.logs.String() })
}

// version returns the stored version of a ticket, or -1.
func (h *harness) version(source, key string) int64 {
	ref := store.Ref{Source: source, Key: key}
	got, err := h.store.Lookup(context.Background(), []store.Ref{ref})
	if err != nil {
		h.t.Fatal(err)
	}
	if p, ok := got[ref]; ok {
		return p.Version
	}
	return -1
}

func (h *harness) metric(name string) float64 {
	h.t.Helper()
	res, err := http.Get("http://" + h.metrics + "/metrics")
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	var sum float64
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, name+" ") || strings.HasPrefix(line, name+"{") {
			f, _ := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
			sum += f
		}
	}
	return sum
}

func eventByID(resp api.ContextResponse, id string) *api.EventOut {
	for i := range resp.Events {
		if resp.Events[i].ID == id {
			return &resp.Events[i]
		}
	}
	return nil
}

func TestEndToEnd(t *testing.T) {
	h := newHarness(t)

	// 1. Debezium events in, ranked context out.
	h.ticket("c", 1, 42, "open", "Refund not received", "I returned the shoes two weeks ago and the refund has not arrived.", "ann")
	h.ticket("c", 2, 42, "open", "Change delivery address", "Please deliver to my office instead.", "bob")
	h.ticket("c", 3, 43, "open", "Refund for order 7", "Another customer's refund.", "ann")
	chat, _ := json.Marshal(map[string]any{"message_id": "m1", "tenant": "acme", "customer_id": 42, "text": "hello, anyone there?", "ts": time.Now().UnixMilli()})
	h.produce(chatTopic, nil, chat)
	h.eventually("the first events", func() bool { return len(h.context("customer:42", "").Events) == 3 })
	resp := h.context("customer:42", "where is my refund?")
	if resp.Events[0].ID != "T-1" {
		t.Fatalf("top event for a refund question = %s, want T-1: %+v", resp.Events[0].ID, resp.Events)
	}
	if eventByID(resp, "T-3") != nil {
		t.Fatal("another customer's ticket in customer:42's context")
	}
	if !strings.Contains(resp.Context, "tickets T-1: Ticket T-1 [open] Refund not received") {
		t.Errorf("context text:\n%s", resp.Context)
	}

	// 2. An update that leaves the rendered text unchanged (only the assignee, an
	// attribute, changes) is stored without a new embedding.
	texts, reused := h.metric("freshctx_ingest_embed_texts_total"), h.metric("freshctx_ingest_embed_reused_total")
	v := h.ticket("u", 2, 42, "open", "Change delivery address", "Please deliver to my office instead.", "carol")
	h.eventually("the assignee update", func() bool { return h.version("tickets", "2") == v })
	if got := h.metric("freshctx_ingest_embed_texts_total"); got != texts {
		t.Errorf("unchanged text was embedded again: embed_texts_total %v → %v", texts, got)
	}
	if got := h.metric("freshctx_ingest_embed_reused_total"); got != reused+1 {
		t.Errorf("embed_reused_total %v → %v, want +1", reused, got)
	}
	if e := eventByID(h.context("customer:42", ""), "T-2"); e == nil || e.Attrs["assignee"] != "carol" {
		t.Errorf("T-2 attrs not updated: %+v", e)
	}

	// 3. TOAST: the body did not change and Debezium sent the placeholder; the
	// stored body is kept, and the placeholder is never rendered or embedded.
	v = h.ticket("u", 1, 42, "pending", "Refund not received", "__debezium_unavailable_value", "ann")
	h.eventually("the TOAST update", func() bool { return h.version("tickets", "1") == v })
	e := eventByID(h.context("customer:42", ""), "T-1")
	if e == nil || e.Text != "Ticket T-1 [pending] Refund not received: I returned the shoes two weeks ago and the refund has not arrived." {
		t.Fatalf("TOAST update rendered %+v", e)
	}

	// 4. Delete with its tombstone: gone from the answer, from the cache and the store.
	v = h.ticket("d", 2, 42, "", "", "", "")
	h.produce(ticketsTopic, []byte(`{"id":2}`), nil)
	h.eventually("the delete", func() bool { return eventByID(h.context("customer:42", ""), "T-2") == nil })
	// The cache is written right after the store commit, by the same worker.
	h.eventually("the delete to reach the Redis cache", func() bool {
		cached, _, err := h.cache.Recent(context.Background(), "acme", "customer:42", time.Now().Add(-time.Hour), 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cached {
			if c.Key == "2" {
				return false
			}
		}
		return true
	})
	// A replayed create older than the delete does not resurrect it.
	h.lsn = v - 12 // the next ticket() adds 8: version v-4, older than the delete
	h.ticket("c", 2, 42, "open", "Change delivery address", "replayed old create", "bob")
	h.lsn = v + 100

	// 5. Poison: a malformed record goes to the DLQ; its neighbours are served.
	h.produce(ticketsTopic, []byte(`{"id":5}`), []byte(`{"op":"c","after":{"id":5,`))
	h.ticket("c", 6, 42, "open", "Broken zipper", "The zipper broke on day one.", "ann")
	h.eventually("the neighbour of a poison record", func() bool { return eventByID(h.context("customer:42", ""), "T-6") != nil })
	if eventByID(h.context("customer:42", ""), "T-2") != nil {
		t.Error("an older replayed create resurrected a deleted ticket")
	}
	dlq := readAll(t, h.brokers, dlqTopic, 1)
	if got := header(dlq[0], "freshctx.error"); !strings.Contains(got, "malformed record") {
		t.Errorf("DLQ error header = %q", got)
	}
	if header(dlq[0], "freshctx.topic") != ticketsTopic || header(dlq[0], "freshctx.offset") == "" || string(dlq[0].Value) != `{"op":"c","after":{"id":5,` {
		t.Errorf("DLQ record lacks its origin or bytes: %+v", dlq[0])
	}

	// 6. The Debezium documentation's own records, including the TOAST fixture.
	for _, f := range []string{"create.json", "update.json"} {
		b, err := os.ReadFile(filepath.Join("../../cdc/testdata/debezium/postgres", f))
		if err != nil {
			t.Fatal(err)
		}
		h.produce(customersTopic, []byte(`{"id":1}`), b)
	}
	// Their source time is in 2019, outside any API window: read the store.
	h.eventually("the fixture customer", func() bool {
		evs, err := h.store.Recent(context.Background(), "acme", "customer:1", time.Unix(0, 0), 10)
		return err == nil && len(evs) == 1 && evs[0].Text == "Customer Anne Marie Kretchmar <annek@noanswer.org>" &&
			evs[0].Time.Equal(time.UnixMilli(1559033904863))
	})

	// 7. Shutdown drains and commits every offset.
	h.stop()
	assertCommittedToEnd(t, h.brokers, h.cfg.Kafka.Group, ticketsTopic, customersTopic, chatTopic)
}

func header(m *kafka.Message, key string) string {
	for _, hd := range m.Headers {
		if hd.Key == key {
			return string(hd.Value)
		}
	}
	return ""
}

// readAll reads a topic from the start without a consumer group until n records arrived.
func readAll(t *testing.T, brokers, topic string, n int) []*kafka.Message {
	t.Helper()
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": brokers, "group.id": "unused", "enable.auto.commit": false, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	md, err := c.GetMetadata(&topic, false, 5000)
	if err != nil {
		t.Fatal(err)
	}
	var tps []kafka.TopicPartition
	for _, p := range md.Topics[topic].Partitions {
		tps = append(tps, kafka.TopicPartition{Topic: &topic, Partition: p.ID, Offset: kafka.OffsetBeginning})
	}
	if err := c.Assign(tps); err != nil {
		t.Fatal(err)
	}
	var out []*kafka.Message
	deadline := time.Now().Add(15 * time.Second)
	for len(out) < n && time.Now().Before(deadline) {
		if m, ok := c.Poll(100).(*kafka.Message); ok {
			out = append(out, m)
		}
	}
	if len(out) < n {
		t.Fatalf("read %d records from %s, want %d", len(out), topic, n)
	}
	return out
}

func assertCommittedToEnd(t *testing.T, brokers, group string, topics ...string) {
	t.Helper()
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": brokers, "group.id": group, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, topic := range topics {
		md, err := c.GetMetadata(&topic, false, 5000)
		if err != nil {
			t.Fatal(err)
		}
		var tps []kafka.TopicPartition
		for _, p := range md.Topics[topic].Partitions {
			tps = append(tps, kafka.TopicPartition{Topic: &topic, Partition: p.ID})
		}
		committed, err := c.Committed(tps, 5000)
		if err != nil {
			t.Fatal(err)
		}
		for _, tp := range committed {
			_, high, err := c.QueryWatermarkOffsets(topic, tp.Partition, 5000)
			if err != nil {
				t.Fatal(err)
			}
			if high > 0 && int64(tp.Offset) != high {
				t.Errorf("%s[%d]: committed %v, end %d", topic, tp.Partition, tp.Offset, high)
			}
		}
	}
}

const (
	kbTopic   = "kb.public.articles"
	flatTopic = "unwrapped.public.customers"
	avroTopic = "avro.public.tickets"
	txnTopic  = "PostgreSQL_server.s1.a" // the transaction-metadata fixture's table
)

// Debezium's transaction metadata through the broker: a data event carrying a
// transaction block is stored like any other; a BEGIN marker on the same topic is
// skipped, not dead-lettered.
func TestTransactionMetadataEndToEnd(t *testing.T) {
	h := newHarness(t)
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("../../cdc/testdata/debezium/postgres", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	h.produce(txnTopic, []byte(`{"id":"571:53195829"}`), read("transaction-begin.json"))
	h.produce(txnTopic, []byte(`{"pk":"2"}`), read("create.with-transaction.json"))
	h.eventually("the transactional row", func() bool {
		evs, err := h.store.Recent(context.Background(), "acme", "a:2", time.Unix(0, 0), 10)
		return err == nil && len(evs) == 1 && evs[0].Text == "row 2: 1" && evs[0].Version == 53195832
	})
	h.eventually("the BEGIN marker counted as skipped", func() bool {
		return h.metric(`freshctx_ingest_records_total{result="skipped",source="txn"}`) == 1
	})
	if got := h.metric(`freshctx_ingest_records_total{result="dead_lettered",source="txn"}`); got != 0 {
		t.Errorf("%v transaction records dead-lettered", got)
	}
}

// Debezium envelopes as Go types for confluent-kafka-go's Avro serializer; the
// second table version adds a column.
type (
	avroKey struct {
		ID int32 `avro:"id"`
	}
	avroRowV1 struct {
		ID         int32  `avro:"id"`
		TenantID   string `avro:"tenant_id"`
		CustomerID int32  `avro:"customer_id"`
		Body       string `avro:"body"`
	}
	avroRowV2 struct {
		ID         int32   `avro:"id"`
		TenantID   string  `avro:"tenant_id"`
		CustomerID int32   `avro:"customer_id"`
		Body       string  `avro:"body"`
		Status     *string `avro:"status"`
	}
	// before and after need distinct record names in one schema.
	avroBeforeV1 avroRowV1
	avroBeforeV2 avroRowV2
	avroSource   struct {
		Connector string `avro:"connector"`
		LSN       int64  `avro:"lsn"`
	}
	avroEnvV1 struct {
		Before *avroBeforeV1 `avro:"before"`
		After  *avroRowV1    `avro:"after"`
		Op     string        `avro:"op"`
		Source avroSource    `avro:"source"`
	}
	avroEnvV2 struct {
		Before *avroBeforeV2 `avro:"before"`
		After  *avroRowV2    `avro:"after"`
		Op     string        `avro:"op"`
		Source avroSource    `avro:"source"`
	}
)

// Avro envelopes through the Schema Registry and a real broker connection: stored,
// a schema evolution (an added column) keeps working, a delete applies, and a
// record with an unknown schema id goes to the DLQ while its neighbours flow.
func TestAvroEndToEnd(t *testing.T) {
	h := newHarness(t)
	client, err := schemaregistry.NewClient(schemaregistry.NewConfig(h.registry))
	if err != nil {
		t.Fatal(err)
	}
	conf := avrov2.NewSerializerConfig()
	conf.AutoRegisterSchemas = true
	ks, _ := avrov2.NewSerializer(client, serde.KeySerde, conf)
	vs, _ := avrov2.NewSerializer(client, serde.ValueSerde, conf)
	key, err := ks.Serialize(avroTopic, &avroKey{ID: 5})
	if err != nil {
		t.Fatal(err)
	}
	v1, err := vs.Serialize(avroTopic, &avroEnvV1{Op: "c", Source: avroSource{Connector: "postgresql", LSN: 5000},
		After: &avroRowV1{ID: 5, TenantID: "acme", CustomerID: 55, Body: "refund missing"}})
	if err != nil {
		t.Fatal(err)
	}
	h.produce(avroTopic, key, v1)
	h.eventually("the Avro create", func() bool {
		e := eventByID(h.context("customer:55", ""), "5")
		return e != nil && e.Text == "Ticket 5 [] refund missing"
	})
	status := "pending"
	v2, err := vs.Serialize(avroTopic, &avroEnvV2{Op: "u", Source: avroSource{Connector: "postgresql", LSN: 6000},
		After: &avroRowV2{ID: 5, TenantID: "acme", CustomerID: 55, Body: "refund missing", Status: &status}})
	if err != nil {
		t.Fatal(err)
	}
	h.produce(avroTopic, key, []byte{0, 0, 0, 0x7f, 0xff, 1, 2}) // unknown schema id: DLQ
	h.produce(avroTopic, key, v2)
	h.eventually("the evolved schema's update", func() bool {
		e := eventByID(h.context("customer:55", ""), "5")
		return e != nil && e.Text == "Ticket 5 [pending] refund missing"
	})
	del, err := vs.Serialize(avroTopic, &avroEnvV2{Op: "d", Source: avroSource{Connector: "postgresql", LSN: 7000},
		Before: &avroBeforeV2{ID: 5, TenantID: "acme", CustomerID: 55, Body: "refund missing", Status: &status}})
	if err != nil {
		t.Fatal(err)
	}
	h.produce(avroTopic, key, del)
	h.produce(avroTopic, key, nil)
	h.eventually("the Avro delete", func() bool { return eventByID(h.context("customer:55", ""), "5") == nil })
	dlq := readAll(t, h.brokers, dlqTopic, 1)
	if got := header(dlq[0], "freshctx.error"); !strings.Contains(got, "Avro") || header(dlq[0], "freshctx.topic") != avroTopic {
		t.Errorf("DLQ record: %q from %q", got, header(dlq[0], "freshctx.topic"))
	}
}

// The unwrap (ExtractNewRecordState) fixtures through the broker: a create with
// metadata fields is stored, its rewrite-mode delete removes it, and a default-mode
// delete (a null value) removes another key.
func TestFlatFormatEndToEnd(t *testing.T) {
	h := newHarness(t)
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("../../cdc/testdata/debezium/unwrap", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	stored := func(key string) (store.Prior, bool) {
		ref := store.Ref{Source: "flat", Key: key}
		got, err := h.store.Lookup(context.Background(), []store.Ref{ref})
		if err != nil {
			t.Fatal(err)
		}
		p, ok := got[ref]
		return p, ok
	}
	h.produce(flatTopic, []byte(`{"id":1}`), read("create.add-fields.json"))
	h.produce(flatTopic, []byte(`{"id":7}`), []byte(`{"id":7,"first_name":"Ola","last_name":"Nordmann","email":"ola@example.com","__deleted":"false"}`))
	h.eventually("the flat creates", func() bool {
		p1, ok1 := stored("1")
		_, ok7 := stored("7")
		return ok1 && ok7 && !p1.Deleted
	})
	evs, err := h.store.Recent(context.Background(), "acme", "customer:1", time.Unix(0, 0), 10)
	if err != nil || len(evs) != 1 || evs[0].Text != "customers: Anne Kretchmar <annek@noanswer.org>" {
		t.Fatalf("flat create stored as %+v, %v", evs, err)
	}
	h.produce(flatTopic, []byte(`{"id":1}`), read("delete.rewrite.add-fields.json"))
	h.produce(flatTopic, []byte(`{"id":7}`), read("delete.default.json"))
	h.eventually("the flat deletes", func() bool {
		p1, _ := stored("1")
		p7, _ := stored("7")
		return p1.Deleted && p7.Deleted
	})
}

// article produces a Debezium change event for a knowledge article.
func (h *harness) article(op string, id int, category, title, body string) int64 {
	h.lsn += 8
	row := map[string]any{"id": id, "tenant_id": "acme", "category": category, "title": title, "body": body}
	env := map[string]any{"op": op, "after": row, "source": map[string]any{"connector": "postgresql", "lsn": h.lsn, "ts_ms": time.Now().UnixMilli()}}
	if op == "d" {
		env["after"], env["before"] = nil, map[string]any{"id": id}
	}
	v, _ := json.Marshal(env)
	h.produce(kbTopic, []byte(fmt.Sprintf(`{"id":%d}`, id)), v)
	return h.lsn
}

func (h *harness) search(q string, k int, filter map[string]any) api.SearchResponse {
	h.t.Helper()
	body, _ := json.Marshal(map[string]any{"q": q, "k": k, "filter": filter})
	res, err := http.Post(h.api.URL+"/v1/search", "application/json", bytes.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	var out api.SearchResponse
	if res.StatusCode != http.StatusOK {
		h.t.Fatalf("search: %s", res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		h.t.Fatal(err)
	}
	return out
}

func docChunks(resp api.SearchResponse, docID string) []string {
	var out []string
	for _, d := range resp.Documents {
		if d.DocID == docID {
			out = append(out, d.Text)
		}
	}
	return out
}

// Knowledge (incremental RAG): articles from CDC are chunked, embedded, found by
// search and in /v1/context; an update replaces every chunk; a delete removes them;
// an update of metadata alone embeds nothing.
func TestKnowledgeEndToEnd(t *testing.T) {
	h := newHarness(t)
	refundPolicy := "Refunds are issued to the original payment method. A refund takes three to five business days to reach your card once the warehouse has received the return.\n\n" +
		"If the refund has not arrived after ten business days, contact support with your order number. We can trace the payment with your bank.\n\n" +
		"Store credit is issued at once and never expires."
	h.article("c", 1, "refunds", "Refund policy", refundPolicy)
	h.article("c", 2, "shipping", "Delivery times", "Parcels ship within one business day. Delivery takes two to four days in Germany. Tracking updates every few hours.")
	h.eventually("the articles to be searchable", func() bool {
		r := h.search("how long does a refund take", 10, nil)
		return len(docChunks(r, "KB-1")) >= 2 && len(docChunks(r, "KB-2")) >= 1
	})
	r := h.search("how long does a refund take to reach my card", 3, nil)
	if r.Documents[0].DocID != "KB-1" || !strings.Contains(r.Documents[0].Text, "three to five business days") {
		t.Fatalf("top hit for a refund question: %+v", r.Documents[0])
	}
	if r.Documents[0].Provenance.Topic != kbTopic || r.Documents[0].Title != "Refund policy" {
		t.Errorf("hit provenance/title: %+v", r.Documents[0])
	}
	if got := h.search("how long does a refund take", 10, map[string]any{"category": "shipping"}); len(got.Documents) != 1 || got.Documents[0].DocID != "KB-2" {
		t.Fatalf("filtered search: %+v", got.Documents)
	}

	// /v1/context adds the knowledge after the customer's events.
	h.ticket("c", 11, 77, "open", "Refund missing", "Where is the refund for my returned shoes?", "ann")
	h.eventually("the ticket", func() bool { return len(h.context("customer:77", "").Events) == 1 })
	resp := h.context("customer:77", "where is my refund?")
	if len(resp.Documents) == 0 || resp.Documents[0].DocID != "KB-1" || !strings.Contains(resp.Context, "Relevant knowledge:\n- [kb KB-1 \"Refund policy\", part") {
		t.Fatalf("context knowledge: %+v\n%s", resp.Documents, resp.Context)
	}
	if strings.Index(resp.Context, "tickets T-11") > strings.Index(resp.Context, "Relevant knowledge") {
		t.Error("events must come before knowledge")
	}

	// A category change alone re-embeds nothing: every chunk's vector is reused.
	texts := h.metric("freshctx_ingest_embed_texts_total")
	v := h.article("u", 1, "payments", "Refund policy", refundPolicy)
	h.eventually("the category update", func() bool {
		return len(docChunks(h.search("refund", 10, map[string]any{"category": "payments"}), "KB-1")) > 0
	})
	if got := h.metric("freshctx_ingest_embed_texts_total"); got != texts {
		t.Errorf("a metadata-only update embedded %v texts", got-texts)
	}
	_ = v

	// An edit replaces every chunk: nothing of the old text survives.
	h.article("u", 1, "payments", "Refund policy", "Refunds now take one to two business days. Store credit is issued at once.")
	h.eventually("the edited article", func() bool {
		chunks := docChunks(h.search("refund business days", 10, nil), "KB-1")
		return len(chunks) == 1 && strings.Contains(chunks[0], "one to two business days")
	})

	// A delete (and its tombstone) removes the document's chunks.
	h.article("d", 2, "", "", "")
	h.produce(kbTopic, []byte(`{"id":2}`), nil)
	h.eventually("the deleted article to disappear", func() bool {
		return len(h.search("delivery parcels tracking", 10, map[string]any{"category": "shipping"}).Documents) == 0
	})
}
