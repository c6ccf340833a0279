package milvusstore_test

import (
	"context"
	"os"
	"strings"
	"testing"

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
