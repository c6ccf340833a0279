package api_test

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/internal/pipetest"
	teststack "github.com/freshctx/freshctx/internal/stack"
	"github.com/freshctx/freshctx/internal/testenv"
)

// The data contract through the broker: ai-ttl, ai-context and ai-provenance
// headers are stored and returned; context= filters; a context the source does
// not accept is skipped; a TTL already past at ingest is skipped and counted; a
// TTL that is not a number dead-letters the record with the header named; an
// event whose TTL passes leaves every read path, the store and the cache, and
// a replay of its record does not bring it back.
func TestDataContractThroughTheBroker(t *testing.T) {
	s := teststack.Start(t, 2, []string{"support.events", "freshctx.dlq"}, `
api: {tenant: acme, auth: {mode: none}, budget: 5s}
sources:
  - name: events
    topic: support.events
    format: json
    key: "{{.id}}"
    tenant: acme
    entity: "customer:{{.customer_id}}"
    time: ts
    text: "{{.text}}"
    contract: {contexts: [support, billing, ""]}
`)
	topic := "support.events"
	now := time.Now()
	produce := func(id, text string, at time.Time, headers ...string) kafka.TopicPartition {
		var hs []kafka.Header
		for i := 0; i+1 < len(headers); i += 2 {
			hs = append(hs, kafka.Header{Key: headers[i], Value: []byte(headers[i+1])})
		}
		v := fmt.Sprintf(`{"id":%q,"customer_id":1,"ts":%d,"text":%q}`, id, at.UnixMilli(), text)
		return s.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
			Key: []byte(id), Value: []byte(v), Timestamp: at, Headers: hs})
	}
	const ttl = 4 * time.Second
	refundAt := now
	recs := []kafka.TopicPartition{
		produce("refund", "Refund R-7001 approved", refundAt, "ai-ttl", strconv.FormatInt(ttl.Milliseconds(), 10), "ai-context", "support", "ai-provenance", "refund-service"),
		produce("invoice", "Invoice INV-1040 sent", now, "ai-context", "billing"),
		produce("promo", "Spring promotion e-mail sent", now, "ai-context", "marketing"),
		produce("stale", "Delivery slot offered for yesterday", now.Add(-time.Hour), "ai-ttl", "60000"),
		produce("badttl", "Order O-1 packed", now, "ai-ttl", "soon"),
		produce("plain", "Address changed", now),
	}
	after := url.Values{"entity": {"customer:1"}, "window": {"2h"}, "k": {"20"}}
	for _, r := range recs {
		after.Add("after", fmt.Sprintf("%s:%d:%d", topic, r.Partition, r.Offset))
	}
	ids := func(evs []api.EventOut) map[string]api.EventOut {
		m := map[string]api.EventOut{}
		for _, e := range evs {
			m[e.Key] = e
		}
		return m
	}
	var resp api.ContextResponse
	if code := s.GetJSON("/v1/context?"+after.Encode(), "", &resp); code != 200 || len(resp.Meta.Degraded) != 0 {
		t.Fatalf("context: %d, degraded %+v", code, resp.Meta.Degraded)
	}
	got := ids(resp.Events)
	if len(got) != 3 || got["refund"].Key == "" || got["invoice"].Key == "" || got["plain"].Key == "" {
		t.Fatalf("events %v, want refund, invoice and plain (promo: context not accepted; stale: TTL past; badttl: dead-lettered)", got)
	}
	r := got["refund"]
	if r.Context != "support" || r.Provenance.Producer != "refund-service" || r.ExpiresAt == nil ||
		!r.ExpiresAt.Equal(refundAt.Add(ttl).Truncate(time.Millisecond)) {
		t.Fatalf("refund: context %q, producer %q, expires %v; want support, refund-service, %v", r.Context, r.Provenance.Producer, r.ExpiresAt, refundAt.Add(ttl))
	}
	m := s.Metrics.Records
	if n := testutil.ToFloat64(m.WithLabelValues("events", "skipped")); n != 1 {
		t.Errorf("skipped %v, want 1 (the marketing context)", n)
	}
	if n := testutil.ToFloat64(m.WithLabelValues("events", "dead_lettered")); n != 1 {
		t.Errorf("dead-lettered %v, want 1 (ai-ttl: soon)", n)
	}
	if !strings.Contains(s.Logs.String(), "ai-ttl header") {
		t.Errorf("the dead letter's error does not name the ai-ttl header:\n%s", pipetest.Tail(s.Logs.String(), 2000))
	}

	// context= keeps only events of those contexts, on /v1/context and the timeline.
	q := url.Values{"entity": {"customer:1"}, "window": {"2h"}, "context": {"billing"}}
	if s.GetJSON("/v1/context?"+q.Encode(), "", &resp); len(resp.Events) != 1 || resp.Events[0].Key != "invoice" {
		t.Fatalf("context=billing: %v, want invoice only", ids(resp.Events))
	}
	var tl api.TimelineResponse
	if s.GetJSON("/v1/entities/customer:1/events?context=support", "", &tl); len(tl.Events) != 1 || tl.Events[0].Key != "refund" {
		t.Fatalf("timeline context=support: %v, want refund only", ids(tl.Events))
	}

	// The refund's TTL passes: it leaves every read path, then ingest purges it
	// from the store (a delete marker) and the cache.
	testenv.Eventually(t, "the refund to leave /v1/context and the timeline", 30*time.Second, func() bool {
		s.GetJSON("/v1/context?entity=customer:1&window=2h", "", &resp)
		s.GetJSON("/v1/entities/customer:1/events", "", &tl)
		_, inCtx := ids(resp.Events)["refund"]
		_, inTL := ids(tl.Events)["refund"]
		return !inCtx && !inTL && len(resp.Events) == 2
	}, nil)
	pg, err := pgx.Connect(context.Background(), s.Config.Postgres.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(context.Background())
	rdb := redis.NewClient(&redis.Options{Addr: s.Config.Redis.Addr})
	defer rdb.Close()
	tlKey := fmt.Sprintf("%s:{%d:%s:%s}:tl", s.Config.Redis.KeyPrefix, len("acme"), "acme", "customer:1")
	testenv.Eventually(t, "ingest to purge the refund from the store and the cache", 30*time.Second, func() bool {
		var deleted bool
		err := pg.QueryRow(context.Background(), `SELECT deleted FROM events WHERE source = 'events' AND key = 'refund'`).Scan(&deleted)
		_, zerr := rdb.ZScore(context.Background(), tlKey, "events/refund").Result()
		return err == nil && deleted && zerr == redis.Nil
	}, nil)
	if n := testutil.ToFloat64(m.WithLabelValues("events", "expired")); n != 2 {
		t.Errorf("expired %v, want 2 (stale at ingest, refund purged)", n)
	}

	// A replay of the refund's record, even with a longer TTL, does not bring it back.
	rec := produce("refund", "Refund R-7001 approved", refundAt, "ai-ttl", "3600000", "ai-context", "support")
	q = url.Values{"entity": {"customer:1"}, "window": {"2h"}, "after": {fmt.Sprintf("%s:%d:%d", topic, rec.Partition, rec.Offset)}}
	if s.GetJSON("/v1/context?"+q.Encode(), "", &resp); len(resp.Meta.Degraded) != 0 {
		t.Fatalf("degraded %+v", resp.Meta.Degraded)
	}
	if _, back := ids(resp.Events)["refund"]; back {
		t.Fatal("a replay of the expired refund brought it back")
	}
}
