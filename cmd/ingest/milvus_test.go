package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/jackc/pgx/v5"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store/milvusstore"
	"github.com/freshctx/freshctx/store/milvusstore/milvustest"
)

// `store: milvus` puts events and knowledge in Milvus for ingest and the API:
// migrate creates the collections, ingest writes there (not to PostgreSQL's
// events table), a delete reaches it, and the context API answers from it.
func TestMilvusStoreEndToEnd(t *testing.T) {
	const topic = "shop.public.tickets"
	fake, milvusAddr := milvustest.Start(t)
	brokers, _ := testenv.Kafka(t, 2, []string{topic, "freshctx.dlq"})
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)
	cfgPath := filepath.Join(t.TempDir(), "milvus.yaml")
	os.WriteFile(cfgPath, []byte(fmt.Sprintf(`
kafka: {brokers: %q, group: %q}
postgres: {dsn: %q}
store: milvus
milvus: {addr: %q, prefix: fc}
redis: {addr: %q, key_prefix: %q}
embedder: {dims: 32, word_vectors: none}
api: {auth: {mode: none}, tenant: acme, budget: 5s}  # generous: tests must hold on a loaded machine
sources:
  - {name: tickets, topic: %s, format: debezium, tenant: "{{.tenant_id}}", entity: "customer:{{.customer_id}}", time: updated_at,
     text: "{{.subject}}: {{.body}}", attrs: [status]}
`, brokers, testenv.Name("g"), dsn, milvusAddr, redisAddr, prefix, topic)), 0o600)
	var out bytes.Buffer
	ctx := context.Background()
	if err := run(ctx, []string{"migrate", "-config", cfgPath}, os.Getenv, &out, &out); err != nil {
		t.Fatalf("migrate: %v %s", err, out.String())
	}
	if !strings.Contains(out.String(), "created Milvus collection fc_events") || !strings.Contains(out.String(), "knowledge search: hybrid") || len(fake.PartitionKeys) != 3 {
		t.Fatalf("migrate output:\n%s", out.String())
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	var logs syncBuffer
	go func() {
		done <- run(runCtx, []string{"-config", cfgPath, "-metrics-listen", ""}, os.Getenv, &logs, &logs)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ingest: %v\n%s", err, logs.String())
		}
	}()

	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	change := func(op string, id int, lsn int64, subject string) {
		row := map[string]any{"id": id, "tenant_id": "acme", "customer_id": 7, "status": "open", "subject": subject,
			"body": "the parcel is late", "updated_at": time.Now().UnixMicro()}
		env := map[string]any{"op": op, "after": row, "source": map[string]any{"connector": "postgresql", "lsn": lsn}}
		if op == "d" {
			env["after"], env["before"] = nil, map[string]any{"id": id}
		}
		v, _ := json.Marshal(env)
		produceSync(t, p, topic, []byte(fmt.Sprintf(`{"id":%d}`, id)), v, nil)
	}
	change("c", 1, 10, "Parcel late")
	change("c", 2, 11, "Refund question")

	cfg, err := config.Load(cfgPath, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ms, err := milvusstore.Connect(ctx, cfg.Milvus, 32)
	if err != nil {
		t.Fatal(err)
	}
	defer ms.Close()
	// The two rows are on two partitions, processed in either order: the
	// delete is produced once both are stored, so that "one event left" can
	// only mean the delete was applied.
	waitFor(t, "both events in Milvus", time.Minute, func() bool {
		evs, err := ms.Recent(ctx, "acme", "customer:7", time.Now().Add(-time.Hour), 10)
		return err == nil && len(evs) == 2
	})
	change("d", 2, 12, "")
	waitFor(t, "the event in Milvus, the deleted one gone", time.Minute, func() bool {
		evs, err := ms.Recent(ctx, "acme", "customer:7", time.Now().Add(-time.Hour), 10)
		return err == nil && len(evs) == 1 && evs[0].Key == "1" && evs[0].Text == "Parcel late: the parcel is late"
	})
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var inPG int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&inPG); err != nil || inPG != 0 {
		t.Fatalf("%d events in PostgreSQL (%v): with store: milvus they belong in Milvus", inPG, err)
	}

	// The context API over the Milvus store (no Redis cache here: every answer
	// comes from Milvus).
	emb, _ := embed.NewLocal(32)
	srv := httptest.NewServer(api.New(cfg.API, emb, ms, nil, nil, nil))
	defer srv.Close()
	res, err := http.Get(srv.URL + "/v1/context?entity=customer:7&q=late+parcel")
	if err != nil {
		t.Fatal(err)
	}
	var cr api.ContextResponse
	json.NewDecoder(res.Body).Decode(&cr)
	res.Body.Close()
	if res.StatusCode != 200 || len(cr.Events) != 1 || cr.Events[0].ID != "1" || cr.Meta.ServedFrom != "store" {
		t.Fatalf("context from Milvus: %d %+v", res.StatusCode, cr)
	}
	if fake.Inserts != 0 {
		t.Fatalf("%d inserts: ingest must upsert", fake.Inserts)
	}
}
