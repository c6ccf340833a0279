package pgstore_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
)

func unit(dims int, hot ...int) []float32 {
	v := make([]float32, dims)
	for _, h := range hot {
		v[h%dims] = 1
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

func doc(key string, version int64, attrs map[string]any, chunks ...string) store.Document {
	d := store.Document{Source: "kb", Key: key, DocID: "KB-" + key, Tenant: "acme", Title: "Article " + key, Attrs: attrs,
		Version: version, TextHash: []byte(strings.Join(chunks, "|")), Provenance: store.Provenance{Topic: "kb.articles", Partition: 2, Offset: 40 + version}}
	for i, c := range chunks {
		d.Chunks = append(d.Chunks, store.Chunk{Text: c, TextHash: []byte(c), Embedding: unit(8, i+len(key))})
	}
	return d
}

func chunkTexts(t *testing.T, st *pgstore.Store, q store.SearchQuery) []string {
	t.Helper()
	hits, _, err := st.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.Text)
	}
	return out
}

func TestDocumentsReplaceAndDelete(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	if err := st.EnsureChunkIndex(ctx, 8); err != nil {
		t.Fatal(err)
	}
	if err := st.EnsureChunkIndex(ctx, 8); err != nil {
		t.Fatalf("second EnsureChunkIndex: %v", err)
	}
	all := store.SearchQuery{Tenant: "acme", Vector: unit(8, 1), K: 10}
	applied, err := st.ApplyDocuments(ctx, []store.Document{doc("1", 10, nil, "refunds take 5 days", "refunds go to the card", "exchanges are free")}, nil)
	if err != nil || !applied[0] {
		t.Fatal(applied, err)
	}
	if got := chunkTexts(t, st, all); len(got) != 3 {
		t.Fatalf("chunks = %v", got)
	}
	// An update replaces every chunk, even when it has fewer.
	applied, _ = st.ApplyDocuments(ctx, []store.Document{doc("1", 20, nil, "refunds take 3 days")}, nil)
	if got := chunkTexts(t, st, all); !applied[0] || len(got) != 1 || got[0] != "refunds take 3 days" {
		t.Fatalf("after the update: %v", got)
	}
	// An older replay changes nothing.
	applied, _ = st.ApplyDocuments(ctx, []store.Document{doc("1", 15, nil, "stale", "stale too")}, nil)
	if got := chunkTexts(t, st, all); applied[0] || len(got) != 1 {
		t.Fatalf("a stale replay applied: %v", got)
	}
	priors, err := st.DocumentPriors(ctx, []store.Ref{{Source: "kb", Key: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if p := priors[store.Ref{Source: "kb", Key: "1"}]; p.Version != 20 || len(p.Vectors["refunds take 3 days"]) != 8 {
		t.Errorf("prior = %+v", p)
	}
	// A delete removes the chunks and blocks older versions.
	if _, err := st.ApplyDocuments(ctx, nil, []store.Delete{{Ref: store.Ref{Source: "kb", Key: "1"}, Version: 30}}); err != nil {
		t.Fatal(err)
	}
	applied, _ = st.ApplyDocuments(ctx, []store.Document{doc("1", 25, nil, "resurrected")}, nil)
	if got := chunkTexts(t, st, all); applied[0] || len(got) != 0 {
		t.Fatalf("after the delete: %v (applied %v)", got, applied)
	}
}

// A selective filter never silently returns fewer than k hits: with few matching
// chunks among many, the search falls back to an exact scan of the filtered rows.
func TestSearchFilterReturnsK(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	if err := st.EnsureChunkIndex(ctx, 8); err != nil {
		t.Fatal(err)
	}
	var docs []store.Document
	for i := 0; i < 300; i++ {
		cat := "shipping"
		if i%100 == 0 {
			cat = "refunds" // 3 of 300 documents
		}
		docs = append(docs, doc(fmt.Sprint(i), 1, map[string]any{"category": cat, "lang": "en"}, fmt.Sprintf("article %d part a", i), fmt.Sprintf("article %d part b", i)))
	}
	if _, err := st.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	hits, info, err := st.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: unit(8, 3), K: 5, Filter: map[string]any{"category": "refunds"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 5 {
		t.Fatalf("%d hits (mode %s), want 5 of the 6 refund chunks", len(hits), info.Mode)
	}
	for i, h := range hits {
		if h.Attrs["category"] != "refunds" || h.Provenance.Topic != "kb.articles" || h.Provenance.Partition != 2 {
			t.Errorf("hit %d = %+v", i, h)
		}
		if i > 0 && h.Score > hits[i-1].Score {
			t.Errorf("hits out of order at %d", i)
		}
	}
	// Tenants never see each other's knowledge.
	if got := chunkTexts(t, st, store.SearchQuery{Tenant: "globex", Vector: unit(8, 3), K: 5}); len(got) != 0 {
		t.Errorf("another tenant found %v", got)
	}
	// Unfiltered, the index answers.
	if _, info, _ := st.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: unit(8, 3), K: 5}); info.Mode != "ann" {
		t.Errorf("unfiltered search mode = %s, want ann", info.Mode)
	}
}

func TestSearchUsesTheHNSWIndex(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	if err := st.EnsureChunkIndex(ctx, 8); err != nil {
		t.Fatal(err)
	}
	var docs []store.Document
	for i := 0; i < 1000; i++ {
		docs = append(docs, doc(fmt.Sprint(i), 1, nil, "a", "b", "c"))
	}
	if _, err := st.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.VacuumAnalyze(ctx); err != nil {
		t.Fatal(err)
	}
	plan, err := st.ExplainSearch(ctx, store.SearchQuery{Tenant: "acme", Vector: unit(8, 1), K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "document_chunks_hnsw_8") {
		t.Fatalf("the search does not use the HNSW index:\n%s", plan)
	}
}

func TestTimelinePagingAndProvenance(t *testing.T) {
	st := newStore(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	var evs []store.Event
	for i := 0; i < 25; i++ {
		e := ev(fmt.Sprint(i), "customer:1", fmt.Sprint("event ", i), 1, now.Add(-time.Duration(i/2)*time.Minute)) // pairs share a time
		e.Provenance = store.Provenance{Topic: "t", Partition: 1, Offset: int64(i), TraceID: "trace-" + fmt.Sprint(i)}
		evs = append(evs, e)
	}
	apply(t, st, evs, nil)
	var seen []string
	var cur *store.Cursor
	for page := 0; page < 5; page++ {
		got, err := st.Timeline(context.Background(), "acme", "customer:1", cur, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range got {
			seen = append(seen, e.Key)
			if e.Provenance.TraceID != "trace-"+e.Key || e.Provenance.Offset == -1 {
				t.Errorf("provenance of %s = %+v", e.Key, e.Provenance)
			}
		}
		if len(got) < 10 {
			break
		}
		last := got[len(got)-1]
		cur = &store.Cursor{Time: last.Time, Source: last.Source, Key: last.Key}
	}
	if len(seen) != 25 {
		t.Fatalf("paged through %d events, want 25 (no gaps, no repeats): %v", len(seen), seen)
	}
	uniq := map[string]bool{}
	for _, k := range seen {
		uniq[k] = true
	}
	if len(uniq) != 25 {
		t.Fatalf("repeats in %v", seen)
	}
}

// The per-connection pgvector settings take effect (a mistyped value would
// silently fall back to off).
func TestIterativeScanIsOn(t *testing.T) {
	st := newStore(t)
	got, err := st.Setting(context.Background(), "hnsw.iterative_scan")
	if err != nil || got != "relaxed_order" {
		t.Fatalf("hnsw.iterative_scan = %q, %v", got, err)
	}
}
