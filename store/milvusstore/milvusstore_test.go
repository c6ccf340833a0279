package milvusstore_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/milvus-io/milvus-proto/go-api/v2/commonpb"

	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/milvusstore"
	"github.com/freshctx/freshctx/store/milvusstore/milvustest"
	"github.com/freshctx/freshctx/store/storetest"
)

func open(t *testing.T, addr, prefix string) *milvusstore.Store {
	t.Helper()
	s, err := milvusstore.Connect(context.Background(), milvusstore.Config{Addr: addr, Prefix: prefix}, storetest.Dims)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if _, err := s.Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// The conformance suite against the in-process server that speaks Milvus's
// protocol, then checks of what the store sent it.
func TestConformanceFake(t *testing.T) {
	var fakes []*milvustest.Server
	storetest.Run(t, func(t *testing.T) storetest.Store {
		fake, addr := milvustest.Start(t)
		fakes = append(fakes, fake)
		return open(t, addr, "fc")
	})
	for _, f := range fakes {
		if f.Inserts != 0 || f.Upserts == 0 {
			t.Fatalf("inserts %d, upserts %d: the store must upsert, never insert", f.Inserts, f.Upserts)
		}
		for coll, pk := range f.PartitionKeys {
			if pk != "tenant" {
				t.Fatalf("collection %s has partition key %s, want tenant", coll, pk)
			}
		}
		if len(f.PartitionKeys) != 3 {
			t.Fatalf("partition keys declared on %d collections, want 3", len(f.PartitionKeys))
		}
		for _, l := range f.Levels {
			if l != commonpb.ConsistencyLevel_Session {
				t.Fatalf("a read at consistency %s, want Session (the default)", l)
			}
		}
	}
	// The hostile tenants and entities of the suite never appear in an expression:
	// values travel as template parameters.
	for _, f := range fakes {
		for _, e := range f.Exprs {
			for _, bad := range []string{"acme", "globex", `\`, "'", "customer:"} {
				if strings.Contains(e, bad) {
					t.Fatalf("expression %q contains the value %q", e, bad)
				}
			}
		}
	}
}

// Knowledge search fuses Milvus's BM25 full text with the vectors: the hybrid
// conformance checks, through the fake's HybridSearch; with full_text off (or a
// collection made without the BM25 field) it stays vector-only and says so.
func TestConformanceHybridFake(t *testing.T) {
	var fake *milvustest.Server
	storetest.RunHybrid(t, func(t *testing.T) storetest.Store {
		f, addr := milvustest.Start(t)
		fake = f
		return open(t, addr, "fc")
	})
	if fake.HybridSearches == 0 {
		t.Fatal("no hybrid search reached the server")
	}
	for _, e := range fake.Exprs {
		if strings.Contains(e, "acme") {
			t.Fatalf("expression %q contains the tenant: values travel as template parameters", e)
		}
	}
	_, addr := milvustest.Start(t)
	s, err := milvusstore.Connect(context.Background(), milvusstore.Config{Addr: addr, Prefix: "fc", FullText: "off"}, storetest.Dims)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ft, err := s.FullText(context.Background()); err != nil || ft {
		t.Fatalf("full_text off: FullText = %v, %v; want false", ft, err)
	}
	_, info, err := s.Search(context.Background(), store.SearchQuery{Tenant: "acme", Vector: make([]float32, storetest.Dims), Text: "error E-7731", K: 3})
	if err != nil || info.Mode != "ann" {
		t.Fatalf("full_text off: mode %q, %v; want ann", info.Mode, err)
	}
}

// The same suite against a real Milvus, when MILVUS_ADDR is set (see compose/).
func TestConformanceMilvus(t *testing.T) {
	addr := os.Getenv("MILVUS_ADDR")
	if addr == "" {
		t.Skip("MILVUS_ADDR is not set; `docker compose -f compose/docker-compose.yml --profile milvus up -d milvus` starts one")
	}
	n := 0
	openReal := func(t *testing.T) storetest.Store {
		n++
		return open(t, addr, "fctest_"+strings.ReplaceAll(t.Name(), "/", "_")+"_"+string(rune('a'+n)))
	}
	storetest.Run(t, openReal)
	storetest.RunHybrid(t, openReal)
}

// CopyPage (ingest reembed with store: milvus) copies every row of each kind
// once, page by page in key order, into collections of another vector size,
// with the vectors it is given; keys with quotes, backslashes and separators
// travel as template parameters. Against the fake, and a real Milvus with
// MILVUS_ADDR.
func TestCopyPage(t *testing.T) {
	t.Run("fake", func(t *testing.T) {
		_, addr := milvustest.Start(t)
		testCopyPage(t, addr, "fc")
	})
	t.Run("milvus", func(t *testing.T) {
		addr := os.Getenv("MILVUS_ADDR")
		if addr == "" {
			t.Skip("MILVUS_ADDR is not set")
		}
		testCopyPage(t, addr, "fctest_copy_"+strconv.FormatInt(time.Now().UnixNano(), 36))
	})
}

func testCopyPage(t *testing.T, addr, prefix string) {
	ctx := context.Background()
	src := open(t, addr, prefix+"_a")
	dst, err := milvusstore.Connect(ctx, milvusstore.Config{Addr: addr, Prefix: prefix + "_b"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dst.Close)
	if _, err := dst.Setup(ctx); err != nil {
		t.Fatal(err)
	}
	vec := func(text string) []float32 { return []float32{float32(len(text)), 1, 0} }
	var events []store.Event
	for i := range 23 {
		key := fmt.Sprintf(`k"%d\'`, i)
		events = append(events, store.Event{Source: "s", Key: key, ID: key, Tenant: "acme", Entity: "e", Time: time.Now(),
			Text: strings.Repeat("x", i+1), TextHash: []byte{byte(i)}, Embedding: make([]float32, storetest.Dims), Version: 1})
		events[i].Embedding[0] = 1
	}
	if _, err := src.Apply(ctx, events, []store.Delete{{Ref: store.Ref{Source: "s", Key: "gone"}, Version: 2}}); err != nil {
		t.Fatal(err)
	}
	doc := store.Document{Source: "kb", Key: "1", DocID: "KB-1", Tenant: "acme", Title: "T", TextHash: []byte{1}, Version: 1,
		Chunks: []store.Chunk{{Text: "one", TextHash: []byte{1}, Embedding: events[0].Embedding}, {Text: "three", TextHash: []byte{2}, Embedding: events[0].Embedding}}}
	if _, err := src.ApplyDocuments(ctx, []store.Document{doc}, nil); err != nil {
		t.Fatal(err)
	}
	input := func(title, text string) string { return title + ": " + text }
	for kind, want := range map[string]int{"events": 24, "documents": 1, "chunks": 2} {
		after, copied, pages := "", 0, 0
		for {
			next, n, err := dst.CopyPage(ctx, src, kind, after, 7, input, func(texts []string) ([][]float32, error) {
				out := make([][]float32, len(texts))
				for i, s := range texts {
					out[i] = vec(s)
				}
				return out, nil
			})
			if err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			if n == 0 {
				break
			}
			if next <= after {
				t.Fatalf("%s: the cursor went from %q to %q", kind, after, next)
			}
			after, copied, pages = next, copied+n, pages+1
		}
		if copied != want || pages != (want+6)/7 {
			t.Errorf("%s: %d rows in %d pages, want %d in %d", kind, copied, pages, want, (want+6)/7)
		}
	}
	got, err := dst.Recent(ctx, "acme", "e", time.Now().Add(-time.Hour), 100)
	if err != nil || len(got) != 23 {
		t.Fatalf("copied events: %v, %d", err, len(got))
	}
	for _, e := range got {
		if e.Embedding[0] != float32(len(e.Text)) {
			t.Fatalf("%s: vector %v, not the one made of its text", e.Key, e.Embedding)
		}
	}
	if p, err := dst.Lookup(ctx, []store.Ref{{Source: "s", Key: "gone"}}); err != nil || !p[store.Ref{Source: "s", Key: "gone"}].Deleted {
		t.Errorf("the delete marker: %v %+v", err, p)
	}
	hits, _, err := dst.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: vec("T: three"), K: 2})
	if err != nil || len(hits) != 2 || hits[0].Chunk != 1 || hits[0].Title != "T" {
		t.Errorf("the copied chunks: %v %+v", err, hits)
	}
}
