package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
)

// Knowledge searches are cached until the tenant's documents change: the
// cached answer is the store's, a document write (PostgreSQL NOTIFY on commit)
// makes the next search read the store again and see it, another tenant's
// writes leave the cache alone, and answers say when they come from it.
func TestKnowledgeCacheFollowsDocumentWrites(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dsn, _ := testenv.PostgresDSN(t)
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	emb, _ := embed.NewLocal(64)
	if err := st.EnsureChunkIndex(ctx, 64); err != nil {
		t.Fatal(err)
	}
	tenant, other := testenv.Name("kc"), testenv.Name("kc")
	write := func(tenant, key string, version int64, text string) {
		t.Helper()
		v, _ := emb.Embed(ctx, []string{text})
		d := store.Document{Source: "kb", Key: key, DocID: "KB-" + key, Tenant: tenant, Title: "Refunds", TextHash: []byte(text),
			Version: version, Chunks: []store.Chunk{{Text: text, TextHash: []byte(text), Embedding: v[0]}}}
		if _, err := st.ApplyDocuments(ctx, []store.Document{d}, nil); err != nil {
			t.Fatal(err)
		}
	}
	write(tenant, "1", 1, "Refunds reach your account within 5 business days.")
	cfg := api.Config{Tenant: tenant, Auth: api.Auth{Mode: api.AuthNone}}.WithDefaults()
	srv := httptest.NewServer(api.New(cfg, emb, st, nil, nil, nil, api.WithKnowledgeCache(ctx, st, 100)))
	defer srv.Close()
	search := func() api.SearchResponse {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"q": "how long do refunds take?", "k": 1})
		res, err := http.Post(srv.URL+"/v1/search", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out api.SearchResponse
		if err := json.NewDecoder(res.Body).Decode(&out); err != nil || len(out.Documents) != 1 {
			t.Fatalf("search: %v %+v", err, out)
		}
		return out
	}
	testenv.Eventually(t, "a repeated search to come from the cache", 30*time.Second, func() bool { return search().Meta.Cached }, nil)
	if got := search(); !got.Meta.Cached || !strings.Contains(got.Documents[0].Text, "5 business days") {
		t.Fatalf("cached answer: %+v", got)
	}
	write(other, "1", 1, "Another tenant's refunds take 30 days.")
	time.Sleep(100 * time.Millisecond) // let the other tenant's notice arrive: it must not matter
	if got := search(); !got.Meta.Cached {
		t.Fatal("another tenant's document write emptied this tenant's cache")
	}
	write(tenant, "1", 2, "Refunds reach your account within 10 business days.")
	testenv.Eventually(t, "the changed document in the answer", 30*time.Second, func() bool {
		return strings.Contains(search().Documents[0].Text, "10 business days")
	}, nil)
	for range 3 { // and never the old text again, cached or not
		if got := search(); strings.Contains(got.Documents[0].Text, "5 business days") {
			t.Fatalf("the old chunk came back: %+v", got)
		}
	}
}
