package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/storetest"
)

func newStore(t *testing.T) *pgstore.Store {
	t.Helper()
	dsn, _ := testenv.PostgresDSN(t)
	ctx := context.Background()
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	pending, err := st.Pending(ctx)
	if err != nil || len(pending) == 0 {
		t.Fatalf("fresh schema: pending = %v, %v; want every migration pending", pending, err)
	}
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if again, err := st.Migrate(ctx); err != nil || len(again) != 0 {
		t.Fatalf("second migrate applied %v, %v; want nothing", again, err)
	}
	return st
}

func ev(key, entity, text string, version int64, at time.Time) store.Event {
	return store.Event{Source: "tickets", Key: key, ID: "T-" + key, Tenant: "acme", Entity: entity, Time: at,
		Text: text, TextHash: []byte(text), Embedding: []float32{1, 0, 0}, Version: version,
		Attrs: map[string]any{"status": "open"}, Fields: map[string]any{"body": text}}
}

func apply(t *testing.T, st *pgstore.Store, ups []store.Event, dels []store.Delete) store.WriteResult {
	t.Helper()
	res, err := st.Apply(context.Background(), ups, dels)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func recentTexts(t *testing.T, st *pgstore.Store, tenant, entity string, since time.Time) []string {
	t.Helper()
	evs, err := st.Recent(context.Background(), tenant, entity, since, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Text)
	}
	return out
}

// Invariant 2: replays never regress, and a delete is never undone by an older change.
func TestVersionGuard(t *testing.T) {
	st := newStore(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	res := apply(t, st, []store.Event{ev("1", "customer:1", "v10", 10, now)}, nil)
	if !res.Applied[0] {
		t.Fatal("first write not applied")
	}
	res = apply(t, st, []store.Event{ev("1", "customer:1", "v5 (older replay)", 5, now)}, nil)
	if res.Applied[0] {
		t.Error("older version applied over a newer one")
	}
	res = apply(t, st, []store.Event{ev("1", "customer:1", "v10", 10, now)}, nil)
	if !res.Applied[0] {
		t.Error("replay of the same version should rewrite (idempotent)")
	}
	if got := recentTexts(t, st, "acme", "customer:1", now.Add(-time.Minute)); len(got) != 1 || got[0] != "v10" {
		t.Fatalf("after replays: %v, want [v10]", got)
	}

	res = apply(t, st, nil, []store.Delete{{Ref: store.Ref{Source: "tickets", Key: "1"}, Version: 20}})
	if len(res.Removed) != 1 || res.Removed[0].Entity != "customer:1" || res.Removed[0].Tenant != "acme" {
		t.Fatalf("removed = %+v, want the live event of customer:1", res.Removed)
	}
	for _, v := range []int64{10, 19, 20} {
		if res := apply(t, st, []store.Event{ev("1", "customer:1", "resurrected", v, now)}, nil); res.Applied[0] {
			t.Errorf("create at version %d resurrected a key deleted at 20", v)
		}
	}
	if got := recentTexts(t, st, "acme", "customer:1", now.Add(-time.Minute)); len(got) != 0 {
		t.Fatalf("deleted event still returned: %v", got)
	}
	if res := apply(t, st, []store.Event{ev("1", "customer:1", "re-created", 21, now)}, nil); !res.Applied[0] {
		t.Error("a newer create after the delete must apply")
	}

	// A delete of a key never seen leaves a marker that blocks older creates.
	res = apply(t, st, nil, []store.Delete{{Ref: store.Ref{Source: "tickets", Key: "2"}, Version: 50}})
	if len(res.Removed) != 0 {
		t.Errorf("deleting an unknown key reported removals: %+v", res.Removed)
	}
	if res := apply(t, st, []store.Event{ev("2", "customer:1", "late create", 40, now)}, nil); res.Applied[0] {
		t.Error("create older than a delete marker applied")
	}
	// An older delete does not override a newer state.
	apply(t, st, nil, []store.Delete{{Ref: store.Ref{Source: "tickets", Key: "1"}, Version: 3}})
	if got := recentTexts(t, st, "acme", "customer:1", now.Add(-time.Minute)); len(got) != 1 || got[0] != "re-created" {
		t.Fatalf("older delete applied: %v", got)
	}
}

func TestRecentWindowOrderAndTenants(t *testing.T) {
	st := newStore(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	apply(t, st, []store.Event{
		ev("a", "customer:1", "old", 1, now.Add(-30*time.Minute)),
		ev("b", "customer:1", "newer", 1, now.Add(-2*time.Minute)),
		ev("c", "customer:1", "newest", 1, now.Add(-time.Minute)),
		ev("d", "customer:2", "other entity", 1, now),
	}, nil)
	other := ev("e", "customer:1", "other tenant", 1, now)
	other.Tenant = "globex"
	apply(t, st, []store.Event{other}, nil)

	got := recentTexts(t, st, "acme", "customer:1", now.Add(-15*time.Minute))
	if len(got) != 2 || got[0] != "newest" || got[1] != "newer" {
		t.Fatalf("window read = %v, want [newest newer]", got)
	}
	// Invariant 8: a tenant never sees another tenant's events for the same entity id.
	if got := recentTexts(t, st, "globex", "customer:1", now.Add(-time.Hour)); len(got) != 1 || got[0] != "other tenant" {
		t.Fatalf("globex read = %v", got)
	}
	evs, _ := st.Recent(context.Background(), "acme", "customer:1", now.Add(-time.Hour), 100)
	if evs[0].Embedding == nil || evs[0].Attrs["status"] != "open" || evs[0].ID != "T-c" {
		t.Errorf("event not read back whole: %+v", evs[0])
	}
}

func TestLookupReturnsPriors(t *testing.T) {
	st := newStore(t)
	now := time.Now().UTC()
	apply(t, st, []store.Event{ev("1", "customer:1", "hello", 7, now)}, nil)
	apply(t, st, nil, []store.Delete{{Ref: store.Ref{Source: "tickets", Key: "2"}, Version: 3}})
	got, err := st.Lookup(context.Background(), []store.Ref{{Source: "tickets", Key: "1"}, {Source: "tickets", Key: "2"}, {Source: "tickets", Key: "3"}})
	if err != nil {
		t.Fatal(err)
	}
	p := got[store.Ref{Source: "tickets", Key: "1"}]
	if p.Version != 7 || string(p.TextHash) != "hello" || len(p.Embedding) != 3 || p.Fields["body"] != "hello" || p.Deleted {
		t.Errorf("prior of 1 = %+v", p)
	}
	if d := got[store.Ref{Source: "tickets", Key: "2"}]; !d.Deleted || d.Version != 3 {
		t.Errorf("prior of 2 = %+v, want a delete marker at 3", d)
	}
	if _, ok := got[store.Ref{Source: "tickets", Key: "3"}]; ok {
		t.Error("unknown key returned")
	}
}

func TestTruncateRemovesOlderEvents(t *testing.T) {
	st := newStore(t)
	now := time.Now().UTC()
	apply(t, st, []store.Event{ev("1", "customer:1", "one", 10, now), ev("2", "customer:2", "two", 30, now)}, nil)
	removed, err := st.Truncate(context.Background(), "tickets", 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0].Key != "1" || removed[0].Entity != "customer:1" {
		t.Fatalf("removed = %+v, want key 1 only (key 2 is newer than the truncate)", removed)
	}
	if got := recentTexts(t, st, "acme", "customer:1", now.Add(-time.Minute)); len(got) != 0 {
		t.Errorf("truncated event still returned: %v", got)
	}
}

func TestInvalidDataIsPermanent(t *testing.T) {
	st := newStore(t)
	bad := ev("1", "customer:1", "nul \x00 byte", 1, time.Now())
	_, err := st.Apply(context.Background(), []store.Event{bad}, nil)
	if !errors.Is(err, store.ErrInvalidData) {
		t.Fatalf("err = %v, want ErrInvalidData", err)
	}
}

func TestCheckEmbedding(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	if err := st.CheckEmbedding(ctx, "local-hash-v1-384", 384); err != nil {
		t.Fatal(err)
	}
	if err := st.CheckEmbedding(ctx, "local-hash-v1-384", 384); err != nil {
		t.Fatalf("same model again: %v", err)
	}
	if err := st.CheckEmbedding(ctx, "text-embedding-3-small", 1536); err == nil {
		t.Fatal("a different model must be refused")
	}
}

// openConformance opens a migrated store with the chunk index, for the suites.
func openConformance(t *testing.T) storetest.Store {
	dsn, _ := testenv.PostgresDSN(t)
	s, err := pgstore.Connect(context.Background(), pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if _, err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureChunkIndex(context.Background(), storetest.Dims); err != nil {
		t.Fatal(err)
	}
	return s
}

// The vector-store conformance suite, against real PostgreSQL + pgvector.
func TestConformance(t *testing.T) { storetest.Run(t, openConformance) }

// Hybrid knowledge search (full text fused with the vector index).
func TestConformanceHybrid(t *testing.T) { storetest.RunHybrid(t, openConformance) }

// Processes starting together on a fresh database all record or read the model:
// none may see "no rows" because another process's insert committed after its
// statement's snapshot.
func TestCheckEmbeddingConcurrentFirstUse(t *testing.T) {
	for round := range 5 {
		st := newStore(t)
		ctx := context.Background()
		const n = 20
		var wg sync.WaitGroup
		errs := make(chan error, n)
		start := make(chan struct{})
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs <- st.CheckEmbedding(ctx, "local-hash-v1-384", 384)
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		// Each round's pool (up to 16 connections) goes now, not at the test's
		// end: five of them with the other packages' tests and a running demo
		// reached PostgreSQL's 100 connections once.
		st.Close()
	}
}

// A batch is all or nothing: Apply sends it in one round trip without BEGIN and
// COMMIT, relying on PostgreSQL running a pipelined batch in one implicit
// transaction. An event the database rejects (a NUL byte in its text) fails
// the batch, and the good event before it is not stored either.
func TestApplyBatchIsAtomic(t *testing.T) {
	s := openConformance(t).(*pgstore.Store)
	ctx := context.Background()
	ev := func(key, text string) store.Event {
		return store.Event{Source: "tickets", Key: key, ID: key, Tenant: "acme", Entity: "customer:1", Time: time.Now(), Text: text,
			Embedding: make([]float32, storetest.Dims), Version: 1}
	}
	good, bad := ev("good", "fine"), ev("bad", "a NUL \x00 byte")
	if _, err := s.Apply(ctx, []store.Event{good, bad}, nil); !errors.Is(err, store.ErrInvalidData) {
		t.Fatalf("a batch with an event PostgreSQL rejects: %v, want ErrInvalidData", err)
	}
	got, err := s.Lookup(ctx, []store.Ref{good.Ref()})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got[good.Ref()]; ok {
		t.Fatal("the good event of a failed batch was stored: the batch was not one transaction")
	}
	if r, err := s.Apply(ctx, []store.Event{good}, nil); err != nil || !r.Applied[0] {
		t.Fatalf("the good event alone: %+v %v", r, err)
	}
}

// Chinese has no spaces between words: full text matches the question's CJK
// character bigrams, so a question sharing a term with an article finds it
// first in a hybrid search though another chunk is nearer by vector.
func TestKnowledgeFullTextInChinese(t *testing.T) {
	s := openConformance(t).(*pgstore.Store)
	ctx := context.Background()
	axis := func(i int) []float32 {
		v := make([]float32, storetest.Dims)
		v[i] = 1
		return v
	}
	doc := func(key, text string, v []float32) store.Document {
		return store.Document{Source: "kb", Key: key, DocID: "KB-" + key, Tenant: "acme", Title: "文章 " + key, TextHash: []byte(text),
			Version: 1, Chunks: []store.Chunk{{Text: text, TextHash: []byte(text), Embedding: v}}}
	}
	docs := []store.Document{
		doc("points", "会员积分在每次购物后自动发放，可在下次结账时使用。", axis(0)), // nearest to the question's vector
		doc("hours", "门店营业时间为每天上午九点至晚上九点。", axis(1)),
		doc("refund", "退款审核通过后，款项会在三到五个工作日内退回原支付方式。", nil),
	}
	// The refund's chunk is second nearest by vector: fused, it must come first.
	docs[2].Chunks[0].Embedding = axis(2)
	docs[2].Chunks[0].Embedding[0] = 0.5
	if _, err := s.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	hits, info, err := s.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: axis(0), Text: "我的退款多久能到账？", K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode != "hybrid" || len(hits) == 0 || hits[0].DocID != "KB-refund" {
		t.Fatalf("mode %s, hits %+v: want KB-refund first", info.Mode, hits)
	}
	// Without the question's words the vector order stands.
	hits, _, err = s.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: axis(0), K: 2})
	if err != nil || len(hits) == 0 || hits[0].DocID != "KB-points" {
		t.Fatalf("vector only: %+v, %v; want KB-points first", hits, err)
	}
}

// Knowledge full text reads Traditional Chinese as Simplified (migration
// 008): a question in one script finds an article in the other first, though
// another chunk is nearest by vector; the article's text comes back as written.
func TestKnowledgeFullTextReadsTraditionalAsSimplified(t *testing.T) {
	s := openConformance(t).(*pgstore.Store)
	ctx := context.Background()
	axis := func(i int) []float32 { return unit(storetest.Dims, i) }
	doc := func(key, title, text string, v []float32) store.Document {
		return store.Document{Source: "kb", Key: key, DocID: "KB-" + key, Tenant: "acme", Title: title, TextHash: []byte(text),
			Version: 1, Chunks: []store.Chunk{{Text: text, TextHash: []byte(text), Embedding: v}}}
	}
	refund := "退款審核通過後，款項會在三到五個工作天內退回原付款方式。"
	docs := []store.Document{
		doc("points", "会员积分", "会员积分在每次购物后自动发放，可在下次结账时使用。", axis(0)), // nearest to the questions' vector
		doc("refund", "退款時間", refund, axis(1)),                 // Traditional
		doc("invoice", "电子发票", "电子发票会在订单完成后发送到您的邮箱。", axis(2)), // Simplified
	}
	if _, err := s.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ q, want string }{
		{"款项几天到账？", "KB-refund"},    // Simplified question, Traditional article
		{"電子發票寄到哪裡？", "KB-invoice"}, // Traditional question, Simplified article (no Also)
	} {
		hits, info, err := s.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: axis(0), Text: c.q, K: 2})
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode != "hybrid" || len(hits) == 0 || hits[0].DocID != c.want {
			t.Errorf("%q: mode %s, hits %+v: want %s first", c.q, info.Mode, hits, c.want)
		} else if c.want == "KB-refund" && hits[0].Text != refund {
			t.Errorf("the article's text came back as %q, want it as written", hits[0].Text)
		}
	}
}

// With the planner's statistics in place, a hybrid search's full-text side
// selects the chunks by the question's words that are not common in the
// chunks, and ranks them by all of its words: the chunk naming the rare error
// code is found, and a question of common words alone still finds the chunks
// that hold all of them.
func TestHybridSearchSelectsByTheQuestionsRareWords(t *testing.T) {
	ctx := context.Background()
	st := openConformance(t).(*pgstore.Store)
	var docs []store.Document
	for i := range 400 {
		text := fmt.Sprintf("Your account settings page, section %d: notifications and language.", i)
		switch {
		case i == 123:
			text = "Your account shows error E4711 when the card expired: add a new card."
		case i%20 == 0: // "refund" in 5% of the chunks
			text = fmt.Sprintf("Your account refund history, section %d: refunds reach the card in 5 days.", i)
		}
		docs = append(docs, doc(fmt.Sprint(i), 1, nil, text))
	}
	if _, err := st.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.VacuumAnalyze(ctx); err != nil {
		t.Fatal(err)
	}
	far := unit(storetest.Dims, storetest.Dims-1) // the chunks' vectors use the first few dimensions only
	search := func(text string) []store.Hit {
		hits, info, err := st.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: far, K: 3, Text: text})
		if err != nil || info.Mode != "hybrid" {
			t.Fatalf("%q: mode %s, %v", text, info.Mode, err)
		}
		return hits
	}
	// (Its vector is far: fused by rank, it ties with the nearest chunk.)
	if hits := search("my account says error E4711, what now?"); !slices.ContainsFunc(hits, func(h store.Hit) bool { return h.DocID == "KB-123" }) {
		t.Errorf("the rare error code's chunk should be found: %+v", hits)
	}
	// "account" is in every chunk, "refund" in 5%: both are common, so the
	// chunks must hold both.
	hits := search("account refund")
	found := false
	for _, h := range hits {
		found = found || strings.Contains(h.Text, "refund history")
	}
	if !found {
		t.Errorf("a question of common words alone should still find the chunks holding all of them: %+v", hits)
	}
}
