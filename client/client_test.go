package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/client"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/session"
	"github.com/freshctx/freshctx/store"
)

// events is a store for the real API handler: an entity's events, knowledge,
// the timeline and session turns; failing makes the next reads fail.
type events struct {
	mu      sync.Mutex
	evs     []store.Event
	failing atomic.Int32
}

func (e *events) Recent(ctx context.Context, tenant, entity string, since time.Time, limit int) ([]store.Event, error) {
	if e.failing.Add(-1) >= 0 {
		return nil, errors.New("store down")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []store.Event
	for _, ev := range e.evs {
		if ev.Tenant == tenant && ev.Entity == entity && !ev.Time.Before(since) {
			out = append(out, ev)
		}
	}
	return out, nil
}
func (e *events) Ping(context.Context) error { return nil }
func (e *events) Search(ctx context.Context, q store.SearchQuery) ([]store.Hit, store.SearchInfo, error) {
	return []store.Hit{{Source: "kb", DocID: "KB-1", Text: "Refunds take 3-5 days.", Score: 0.5}}, store.SearchInfo{Mode: "ann"}, nil
}
func (e *events) Timeline(ctx context.Context, tenant, entity string, after *store.Cursor, limit int) ([]store.Event, error) {
	return e.Recent(ctx, tenant, entity, time.Time{}, limit)
}

type noSummaries struct{}

func (noSummaries) Summary(context.Context, string, string) (store.Summary, bool, error) {
	return store.Summary{}, false, nil
}

// server is the real API handler over events, with a spy on request bodies.
func server(t *testing.T, cfg api.Config) (*httptest.Server, *events, *[]map[string]any) {
	t.Helper()
	now := time.Now()
	emb, _ := embed.NewLocal(64)
	st := &events{}
	for i, text := range []string{"Refund R-7001 approved: 129.90 EUR", "Order O-5001 shipped", "Newsletter subscription confirmed"} {
		v, _ := emb.Embed(context.Background(), []string{text})
		st.evs = append(st.evs, store.Event{Source: "s", Key: string(rune('a' + i)), ID: string(rune('a' + i)), Tenant: "acme", Entity: "customer:1",
			Time: now.Add(-time.Duration(i+1) * time.Minute), Text: text, Embedding: v[0], Version: 1})
	}
	st.evs = append(st.evs, store.Event{Source: "turns", Key: "m1", ID: "m1", Tenant: "acme", Entity: "session:s-1", Time: now.Add(-time.Minute),
		Text: "Where is my refund?", Attrs: map[string]any{"role": "customer"}, Version: 1})
	cfg.Tenant = "acme"
	cfg.ReadLatestTopics = []string{"support.chat"}
	h := api.New(cfg.WithDefaults(), emb, st, nil, nil, nil, api.WithSessions(session.Config{Source: "turns"}, noSummaries{}),
		api.WithFreshness([]string{"support.chat"}, marks{}, waker{}), api.WithLatestReader(latest{}))
	var mu sync.Mutex
	bodies := &[]map[string]any{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			b, _ := io.ReadAll(r.Body)
			var m map[string]any
			if json.Unmarshal(b, &m) == nil {
				mu.Lock()
				*bodies = append(*bodies, m)
				mu.Unlock()
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, st, bodies
}

// marks: support.chat[0] is durable below offset 10.
type marks struct{}

func (marks) Watermarks(context.Context, []string) ([]store.Watermark, error) {
	return []store.Watermark{{Topic: "support.chat", Partition: 0, Offset: 10, Time: time.Now(), High: 12, WrittenAt: time.Now()}}, nil
}

type waker struct{}

func (waker) C() <-chan struct{} { return make(chan struct{}) }

type latest struct{}

func (latest) ReadLatest(_ context.Context, tenant, topic string, partition int32, n int) (any, error) {
	return []kafkaio.Latest{{Partition: partition, Offset: 9, Key: "m9", Op: "upsert", Text: tenant + " " + topic}}, nil
}

func dev() api.Config { return api.Config{Auth: api.Auth{Mode: api.AuthNone}} }

// Every endpoint, typed.
func TestEveryEndpoint(t *testing.T) {
	srv, _, _ := server(t, dev())
	c := client.New(srv.URL)
	ctx := context.Background()
	ans, err := c.Context(ctx, client.ContextRequest{Entity: "customer:1", Q: "where is my refund?", Explain: true})
	if err != nil || len(ans.Events) != 3 || ans.Events[0].ID != "a" || ans.Events[0].Explain == nil || len(ans.Documents) != 1 || ans.Meta.Ranking != "hybrid" {
		t.Fatalf("context: %+v %v", ans, err)
	}
	s, err := c.Search(ctx, client.SearchRequest{Q: "refund"})
	if err != nil || len(s.Documents) != 1 || s.Documents[0].DocID != "KB-1" {
		t.Fatalf("search: %+v %v", s, err)
	}
	tl, err := c.Timeline(ctx, "customer:1", "", 2)
	if err != nil || tl.Entity != "customer:1" || len(tl.Events) == 0 {
		t.Fatalf("timeline: %+v %v", tl, err)
	}
	m, err := c.Memory(ctx, "s-1", "where is my refund?", 0, 0, client.After(client.Record("support.chat", 0, 9)))
	if err != nil || len(m.Turns) != 1 || m.Turns[0].Content != "Where is my refund?" || len(m.Meta.Degraded) != 0 || m.Meta.FreshThrough == nil {
		t.Fatalf("memory: %+v %v", m, err)
	}
	// A record not yet written: the answer comes within the deadline, and says so.
	tctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	tl, err = c.Timeline(tctx, "customer:1", "", 2, client.After(client.Record("support.chat", 0, 10)))
	if err != nil || len(tl.Degraded) != 1 || tl.Degraded[0].Stage != "freshness" {
		t.Fatalf("timeline after an unwritten record: %+v %v", tl, err)
	}
	st, err := c.Status(ctx)
	if err != nil || len(st.Sources) != 1 || st.Sources[0].Offset != 10 || *st.Sources[0].Lag != 2 || st.ReadableTopics[0] != "support.chat" {
		t.Fatalf("status: %+v %v", st, err)
	}
	l, err := c.Latest(ctx, "support.chat", 0, 5)
	if err != nil || len(l.Records) != 1 || l.Records[0].Text != "acme support.chat" {
		t.Fatalf("latest: %+v %v", l, err)
	}
	if _, err := c.Latest(ctx, "secret.topic", 0, 5); err == nil || err.(*client.Error).Status != http.StatusNotFound {
		t.Fatalf("latest of a topic outside the allow-list: %v", err)
	}
}

// The caller's deadline becomes the request's budget (most of what is left), so
// the API answers, degraded if it must, before the caller gives up.
func TestDeadlineBecomesTheBudget(t *testing.T) {
	srv, _, bodies := server(t, dev())
	c := client.New(srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := c.Context(ctx, client.ContextRequest{Entity: "customer:1", Q: "refund"}); err != nil {
		t.Fatal(err)
	}
	b, _ := (*bodies)[0]["budget_ms"].(float64)
	if b < 200 || b > 400 {
		t.Fatalf("budget_ms %v for a 500 ms deadline; want about 80%% of it", (*bodies)[0]["budget_ms"])
	}
	if _, err := c.Context(context.Background(), client.ContextRequest{Entity: "customer:1"}); err != nil {
		t.Fatal(err)
	}
	if _, set := (*bodies)[1]["budget_ms"].(float64); set {
		t.Fatal("without a deadline the API's default budget applies: budget_ms must be absent")
	}
}

// 503 is retried with backoff; the answer comes once the store is back.
func TestRetriesUnavailable(t *testing.T) {
	srv, st, _ := server(t, dev())
	st.failing.Store(2)
	c := client.New(srv.URL, client.WithRetries(3, 10*time.Millisecond))
	ans, err := c.Context(context.Background(), client.ContextRequest{Entity: "customer:1"})
	if err != nil || len(ans.Events) != 3 {
		t.Fatalf("after two 503s: %+v %v", ans, err)
	}
	st.failing.Store(10)
	_, err = client.New(srv.URL, client.WithRetries(1, time.Millisecond)).Context(context.Background(), client.ContextRequest{Entity: "customer:1"})
	var e *client.Error
	if !errors.As(err, &e) || e.Status != 503 || e.Code != "unavailable" || !e.Temporary() {
		t.Fatalf("retries exhausted: %v", err)
	}
}

// 429 is retried after Retry-After; other errors carry the API's code and a
// message naming the field.
func TestRateLimitAndErrors(t *testing.T) {
	t.Setenv("BOT_KEY", "k-123")
	cfg := api.Config{Auth: api.Auth{Mode: api.AuthKeys, RatePerSecond: 1, Burst: 1,
		Keys: []api.Key{{Name: "bot", Tenant: "acme", Env: "BOT_KEY", Secret: "k-123"}}}}
	srv, _, _ := server(t, cfg)
	c := client.New(srv.URL, client.WithAPIKey("k-123"))
	ctx := context.Background()
	if _, err := c.Context(ctx, client.ContextRequest{Entity: "customer:1"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := c.Context(ctx, client.ContextRequest{Entity: "customer:1"}); err != nil {
		t.Fatalf("after Retry-After: %v", err)
	}
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Fatalf("retried after %s; the 429 said Retry-After: 1", waited)
	}
	_, err := c.Context(ctx, client.ContextRequest{Q: "no entity"})
	var e *client.Error
	if !errors.As(err, &e) || e.Status != 400 || e.Code != "bad_request" || !strings.Contains(e.Message, "entity") || e.Temporary() {
		t.Fatalf("bad request: %v", err)
	}
	_, err = client.New(srv.URL, client.WithAPIKey("wrong")).Context(ctx, client.ContextRequest{Entity: "customer:1"})
	if !errors.As(err, &e) || e.Status != 401 {
		t.Fatalf("wrong key: %v", err)
	}
}
