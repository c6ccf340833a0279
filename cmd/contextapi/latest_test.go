package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store/pgstore"
)

// read_latest over MCP: the newest records of an allow-listed topic, decoded and
// trimmed, of the caller's tenant only; no consumer group and no committed offset
// is left at the broker.
func TestReadLatestOverMCP(t *testing.T) {
	const topic = "support.chat"
	brokers, _ := testenv.Kafka(t, 1, []string{topic})
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)
	st, err := pgstore.Connect(context.Background(), pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	st.Close()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	listen := ln.Addr().String()
	ln.Close()
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`
kafka: {brokers: %q}
postgres: {dsn: %q}
redis: {addr: %q, key_prefix: %q}
api:
  listen: %q
  read_latest_topics: [%s]
  auth:
    mode: keys
    keys:
      - {name: acme-bot, tenant: acme, env: ACME_KEY}
      - {name: globex-bot, tenant: globex, env: GLOBEX_KEY}
sources:
  - {name: chat, topic: %s, format: json, key: "{{.id}}", tenant: "{{.tenant}}", entity: "customer:{{.c}}", text: "Chat: {{.text}}"}
`, brokers, dsn, redisAddr, prefix, listen, topic, topic)), 0o600)
	env := map[string]string{"ACME_KEY": "acme-key-0123456789abcdef", "GLOBEX_KEY": "globex-key-0123456789abcdef"}

	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan kafka.Event, 30)
	tp := topic
	for i := 0; i < 30; i++ {
		tenant := []string{"acme", "globex"}[i%2]
		v, _ := json.Marshal(map[string]any{"id": i, "tenant": tenant, "c": i % 3, "text": fmt.Sprintf("%s message %d", tenant, i)})
		p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &tp, Partition: 0}, Value: v}, done)
	}
	for i := 0; i < 30; i++ {
		<-done
	}
	p.Close()

	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() {
		stopped <- run(ctx, []string{"-config", cfg}, func(k string) string { return env[k] }, &bytes.Buffer{}, &bytes.Buffer{})
	}()
	defer func() { cancel(); <-stopped }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if res, err := http.Get("http://" + listen + "/healthz"); err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("contextapi did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	s, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + listen + "/mcp",
		HTTPClient: &http.Client{Transport: testenv.Bearer{Key: env["ACME_KEY"]}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_latest", Arguments: map[string]any{"topic": topic, "n": 10}})
	if err != nil || res.IsError {
		t.Fatalf("read_latest: %v %s", err, res.Content[0].(*mcp.TextContent).Text)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var records []map[string]any
	if err := json.Unmarshal([]byte(text), &records); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	// The 10 newest records are offsets 20..29: five of them are acme's.
	if len(records) != 5 || strings.Contains(text, "globex") {
		t.Fatalf("records = %s", text)
	}
	if records[4]["text"] != "Chat: acme message 28" || records[4]["offset"] != float64(28) {
		t.Errorf("newest record = %v", records[4])
	}
	res, _ = s.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_latest", Arguments: map[string]any{"topic": "secret.topic"}})
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "not one of support.chat") {
		t.Errorf("a topic outside the allow-list: %+v", res)
	}
	// Nothing was left at the broker: no consumer group, so no committed offset.
	admin, err := kafka.NewAdminClient(&kafka.ConfigMap{"bootstrap.servers": brokers})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	groups, err := admin.ListConsumerGroups(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(groups.Valid) != 0 {
		t.Errorf("read_latest left consumer groups behind: %+v", groups.Valid)
	}
}
