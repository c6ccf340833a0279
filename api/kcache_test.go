package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
)

// knowledgeStore is PostgreSQL with the schema and a 64-dimensional chunk
// index, and the local embedder of that size.
func knowledgeStore(ctx context.Context, t *testing.T) (*pgstore.Store, *embed.Local) {
	t.Helper()
	dsn, _ := testenv.PostgresDSN(t)
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	emb, _ := embed.NewLocal(64)
	if err := st.EnsureChunkIndex(ctx, 64); err != nil {
		t.Fatal(err)
	}
	return st, emb
}

// Knowledge searches are cached until the tenant's documents change: the
// cached answer is the store's, a document write (PostgreSQL NOTIFY on commit)
// makes the next search read the store again and see it, another tenant's
// writes leave the cache alone, and answers say when they come from it.
func TestKnowledgeCacheFollowsDocumentWrites(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, emb := knowledgeStore(ctx, t)
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
	// A budget for a loaded CI machine: this test is about what is cached.
	cfg := api.Config{Tenant: tenant, Auth: api.Auth{Mode: api.AuthNone}, Budget: 10 * time.Second}.WithDefaults()
	srv := httptest.NewServer(api.New(cfg, emb, st, nil, nil, nil, api.WithKnowledgeCache(ctx, st, 100)))
	defer srv.Close()
	search := func() api.SearchResponse {
		t.Helper()
		return searchOne(t, srv.URL, "how long do refunds take?")
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

// gatedSearcher is the real store whose knowledge searches are counted and,
// while held, wait for the gate.
type gatedSearcher struct {
	*pgstore.Store
	held  atomic.Bool
	gate  chan struct{}
	calls atomic.Int32
}

func (g *gatedSearcher) Search(ctx context.Context, q store.SearchQuery) ([]store.Hit, store.SearchInfo, error) {
	g.calls.Add(1)
	if g.held.Load() {
		select {
		case <-g.gate:
		case <-ctx.Done():
			return nil, store.SearchInfo{}, ctx.Err()
		}
	}
	return g.Store.Search(ctx, q)
}

// A new question asked by many at once is searched once, and a search that
// outlasts the request that started it still fills the cache: a herd of
// requests on a cold cache cannot pile searches onto the store, nor time them
// all out so that nothing is ever cached.
func TestKnowledgeSearchIsSharedAndOutlivesItsRequest(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, emb := knowledgeStore(ctx, t)
	tenant := testenv.Name("kf")
	text := "Refunds reach your account within 5 business days."
	v, _ := emb.Embed(ctx, []string{text})
	d := store.Document{Source: "kb", Key: "1", DocID: "KB-1", Tenant: tenant, Title: "Refunds", TextHash: []byte(text),
		Version: 1, Chunks: []store.Chunk{{Text: text, TextHash: []byte(text), Embedding: v[0]}}}
	if _, err := st.ApplyDocuments(ctx, []store.Document{d}, nil); err != nil {
		t.Fatal(err)
	}
	g := &gatedSearcher{Store: st, gate: make(chan struct{})}
	cfg := api.Config{Tenant: tenant, Auth: api.Auth{Mode: api.AuthNone}}.WithDefaults()
	srv := httptest.NewServer(api.New(cfg, emb, g, nil, nil, nil, api.WithKnowledgeCache(ctx, st, 100)))
	defer srv.Close()
	search := func(budgetMS int, q string) (api.SearchResponse, error) {
		b, _ := json.Marshal(map[string]any{"q": q, "k": 1, "budget_ms": budgetMS})
		res, err := http.Post(srv.URL+"/v1/search", "application/json", bytes.NewReader(b))
		if err != nil {
			return api.SearchResponse{}, err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(res.Body)
			return api.SearchResponse{}, fmt.Errorf("HTTP %d: %s", res.StatusCode, b)
		}
		var out api.SearchResponse
		err = json.NewDecoder(res.Body).Decode(&out)
		return out, err
	}
	// The cache is on once the watch listens (a search before that is not kept).
	testenv.Eventually(t, "the knowledge cache to be on", 30*time.Second, func() bool {
		r, err := search(5000, "how long do refunds take?")
		return err == nil && r.Meta.Cached
	}, nil)

	g.held.Store(true)
	g.calls.Store(0)
	const q = "when will my money be back?" // never asked: not cached
	// The first asker's budget ends before the search does: it is told so
	// (503), and the search goes on.
	if r, err := search(50, q); err == nil || !strings.Contains(err.Error(), "HTTP 503") {
		t.Fatalf("the search answered although the store had not: %+v %v", r, err)
	}
	// Eight more ask meanwhile.
	var wg sync.WaitGroup
	answers := make(chan api.SearchResponse, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r, err := search(10000, q); err == nil {
				answers <- r
			}
		}()
	}
	close(g.gate)
	wg.Wait()
	close(answers)
	n := 0
	for r := range answers {
		n++
		if len(r.Documents) != 1 || !strings.Contains(r.Documents[0].Text, "5 business days") {
			t.Fatalf("answer: %+v", r)
		}
	}
	if n != 8 {
		t.Fatalf("%d of 8 askers answered", n)
	}
	if c := g.calls.Load(); c != 1 {
		t.Fatalf("the store was searched %d times for one question; want 1", c)
	}
	if r, err := search(5000, q); err != nil || !r.Meta.Cached {
		t.Fatalf("after the shared search the answer is not cached: %+v %v", r, err)
	}
}

// A question finds an article written in the other language through its
// words' translations (CC-CEDICT) in the full-text side of the search, among
// articles the offline embedder cannot tell apart for it (no word is shared):
// a Chinese question an English article, an English question a Chinese one.
func TestAQuestionFindsAnArticleInTheOtherLanguage(t *testing.T) {
	if _, err := os.Stat(relevance.CEDICTFile); err != nil {
		t.Skip("CC-CEDICT is not installed (make setup installs it)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, emb := knowledgeStore(ctx, t)
	relevance.LoadLexicons()
	for _, c := range []struct {
		q, want  string
		articles []string
	}{
		{"退款多久到账？", "Refunds", []string{"Refunds reach your card within 5 business days of approval.",
			"Delivery takes 2-4 days; tracking is sent by e-mail.", "Reset your password from the sign-in page.",
			"Exchange an item for another size within 30 days.", "Invoices can be downloaded from your account.",
			"Gift cards never expire and can be combined.", "Our stores open at 9:00 on weekdays.",
			"Loyalty points are added after each purchase.", "Cancel an order before it ships at no cost.",
			"Warranty covers manufacturing defects for 2 years."}},
		{"how long does a refund take?", "退款", []string{"退款在审核通过后 5 个工作日内到账。", "快递一般 2-4 天送达，发货后短信通知单号。",
			"忘记密码可在登录页重置。", "30 天内可换尺码。", "发票可在账户中下载。", "礼品卡永久有效，可叠加使用。",
			"门店工作日 9 点营业。", "每次购物后自动累积积分。", "发货前可免费取消订单。", "保修期两年，涵盖制造缺陷。"}},
	} {
		tenant := testenv.Name("xl")
		var docs []store.Document
		for i, text := range c.articles {
			v, _ := emb.Embed(ctx, []string{text})
			key := strconv.Itoa(i)
			docs = append(docs, store.Document{Source: "kb", Key: key, DocID: "KB-" + key, Tenant: tenant, Title: "Help " + key, TextHash: []byte(text),
				Version: 1, Chunks: []store.Chunk{{Text: text, TextHash: []byte(text), Embedding: v[0]}}})
		}
		if _, err := st.ApplyDocuments(ctx, docs, nil); err != nil {
			t.Fatal(err)
		}
		cfg := api.Config{Tenant: tenant, Auth: api.Auth{Mode: api.AuthNone}, Budget: 10 * time.Second}.WithDefaults()
		srv := httptest.NewServer(api.New(cfg, emb, st, nil, nil, nil))
		if out := searchOne(t, srv.URL, c.q); !strings.Contains(out.Documents[0].Text, c.want) {
			t.Errorf("%s found %q, want the article on refunds", c.q, out.Documents[0].Text)
		}
		srv.Close()
	}
}

// searchOne asks the API at base for the one best knowledge chunk for q.
func searchOne(t *testing.T, base, q string) api.SearchResponse {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"q": q, "k": 1})
	res, err := http.Post(base+"/v1/search", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out api.SearchResponse
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || len(out.Documents) != 1 {
		t.Fatalf("search %q: %v %+v", q, err, out)
	}
	return out
}
