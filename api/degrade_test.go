package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

// stack is the context API over real PostgreSQL (behind a fault proxy), Redis
// (behind a fault proxy) and a real HTTP embedding provider.
type stack struct {
	srv        *api.Server
	pg, rds    *testenv.Faults
	embedSrv   *testenv.EmbeddingServer
	embedDelay time.Duration
}

const dims = 16

func newStack(t *testing.T, embedDelay time.Duration) *stack {
	ctx := context.Background()
	dsn, _ := testenv.PostgresDSN(t)
	u, _ := url.Parse(dsn)
	pgAddr, pgFaults := testenv.Proxy(t, u.Host)
	u.Host = pgAddr
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: u.String()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.EnsureChunkIndex(ctx, dims); err != nil {
		t.Fatal(err)
	}
	redisAddr, prefix := testenv.RedisAddr(t)
	rdsAddr, rdsFaults := testenv.Proxy(t, redisAddr)
	cache := rediscache.MustNew(rediscache.Config{Addr: rdsAddr, KeyPrefix: prefix})
	t.Cleanup(func() { cache.Close() })
	es := testenv.NewEmbeddingServer(t, dims, embedDelay)
	client, err := embed.NewClient(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: es.URL, Model: "fake", Dims: dims, Linger: time.Microsecond}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)

	// Events for customer:1 in the store and the cache; the cache has been fed
	// for longer than any window asked for; one knowledge article.
	now := time.Now()
	var evs []store.Event
	for i, text := range []string{"refund approved", "order shipped", "ticket opened: refund missing"} {
		v := make([]float32, dims)
		v[i] = 1
		evs = append(evs, store.Event{Source: "s", Key: string(rune('a' + i)), ID: string(rune('a' + i)), Tenant: "acme",
			Entity: "customer:1", Time: now.Add(-time.Duration(i+1) * time.Minute), Text: text, Embedding: v, Version: 1})
	}
	if _, err := st.Apply(ctx, evs, nil); err != nil {
		t.Fatal(err)
	}
	if err := cache.Apply(ctx, evs, nil); err != nil {
		t.Fatal(err)
	}
	if err := cache.MarkFedSince(ctx, now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	chunk := make([]float32, dims)
	chunk[0] = 1
	if _, err := st.ApplyDocuments(ctx, []store.Document{{Source: "kb", Key: "1", DocID: "KB-1", Tenant: "acme", Version: 1,
		Chunks: []store.Chunk{{Text: "Refunds take five days.", TextHash: []byte("x"), Embedding: chunk}}}}, nil); err != nil {
		t.Fatal(err)
	}
	srv := api.New(api.Config{Tenant: "acme"}, client, st, cache, nil, nil)
	return &stack{srv: srv, pg: pgFaults, rds: rdsFaults, embedSrv: es, embedDelay: embedDelay}
}

func (s *stack) ask(t *testing.T, budgetMS string) (int, api.ContextResponse, time.Duration) {
	t.Helper()
	rec := httptest.NewRecorder()
	start := time.Now()
	s.srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/context?entity=customer:1&q=where+is+my+refund&budget_ms="+budgetMS, nil))
	took := time.Since(start)
	var resp api.ContextResponse
	if rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
			t.Fatal(err)
		}
	}
	return rec.Code, resp, took
}

func stages(resp api.ContextResponse) map[string]string {
	out := map[string]string{}
	for _, d := range resp.Meta.Degraded {
		out[d.Stage] = d.Fallback
	}
	return out
}

// margin is what an answer may take beyond its budget (scheduling and encoding,
// under the race detector on two busy cores). The slow dependencies below take
// 300–400 ms, so an answer within budget+margin did not wait for them.
const margin = 100 * time.Millisecond

func TestDegradationWithRealDependencies(t *testing.T) {
	t.Run("healthy", func(t *testing.T) {
		s := newStack(t, 0)
		s.ask(t, "1000") // warm the connections
		code, resp, _ := s.ask(t, "1000")
		if code != 200 || len(resp.Meta.Degraded) != 0 || resp.Meta.ServedFrom != "cache" || len(resp.Documents) != 1 || resp.Meta.Ranking != "hybrid" {
			t.Fatalf("%d %+v docs=%d", code, resp.Meta, len(resp.Documents))
		}
	})
	t.Run("slow embedding server: recency, no knowledge, within budget", func(t *testing.T) {
		s := newStack(t, 400*time.Millisecond)
		code, resp, took := s.ask(t, "100")
		if code != 200 || stages(resp)["embed"] != "hybrid-lexical" || stages(resp)["knowledge"] != "events_only" || len(resp.Events) != 3 {
			t.Fatalf("%d %+v", code, resp.Meta)
		}
		if took > 100*time.Millisecond+margin {
			t.Errorf("answered in %v with a 100 ms budget", took)
		}
	})
	t.Run("Redis stopped: the store answers", func(t *testing.T) {
		s := newStack(t, 0)
		s.rds.Cut()
		code, resp, took := s.ask(t, "200")
		if code != 200 || stages(resp)["cache"] != "store" || resp.Meta.ServedFrom != "store" || len(resp.Events) != 3 {
			t.Fatalf("%d %+v", code, resp.Meta)
		}
		if took > 200*time.Millisecond+margin {
			t.Errorf("answered in %v with a 200 ms budget", took)
		}
	})
	t.Run("slow PostgreSQL: events from the cache, knowledge late", func(t *testing.T) {
		s := newStack(t, 0)
		s.ask(t, "1000")
		s.pg.SetLatency(300 * time.Millisecond)
		code, resp, took := s.ask(t, "100")
		if code != 200 || resp.Meta.ServedFrom != "cache" || stages(resp)["knowledge"] != "events_only" || len(resp.Events) != 3 {
			t.Fatalf("%d %+v", code, resp.Meta)
		}
		// The question's embedding was there in time: only the knowledge is
		// late, and the events are ranked with the vector.
		if _, late := stages(resp)["embed"]; late || resp.Meta.Ranking != "hybrid" {
			t.Errorf("a late knowledge search degraded the embedding too: ranking %s, degraded %+v", resp.Meta.Ranking, resp.Meta.Degraded)
		}
		if took > 100*time.Millisecond+margin {
			t.Errorf("answered in %v with a 100 ms budget", took)
		}
	})
	t.Run("Redis and PostgreSQL stopped: 503, never a guess", func(t *testing.T) {
		s := newStack(t, 0)
		s.rds.Cut()
		s.pg.Cut()
		code, _, took := s.ask(t, "100")
		if code != http.StatusServiceUnavailable {
			t.Fatalf("status %d", code)
		}
		if took > 100*time.Millisecond+margin {
			t.Errorf("answered in %v with a 100 ms budget", took)
		}
	})
}
