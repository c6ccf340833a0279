package rediscache

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/store"
)

// A vector comes back as it was written, whether it is read in place or copied
// (a misaligned string is copied).
func TestVectorsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 3, 384, 1536} {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		v[0] = float32(math.SmallestNonzeroFloat32)
		enc := encodeVector(v)
		s := string(enc)
		if got := decodeVector(s); !slices.Equal(got, v) {
			t.Fatalf("%d dimensions: decoded %v, want %v", n, got[:1], v[:1])
		}
		if littleEndian := binary.NativeEndian.Uint16([]byte{1, 0}) == 1; littleEndian && unsafe.SliceData(decodeVector(s)) != (*float32)(unsafe.Pointer(unsafe.StringData(s))) {
			t.Errorf("%d dimensions: copied on a little-endian machine", n)
		}
		odd := string(append([]byte{0}, enc...))[1:] // one byte past an aligned start
		if got := decodeVector(odd); !slices.Equal(got, v) {
			t.Fatalf("%d dimensions, misaligned: decoded %v, want %v", n, got[:1], v[:1])
		}
	}
	if decodeVector("") != nil {
		t.Error("an empty vector must decode to nil")
	}
}

// An event comes back with its vector and its text's encoded analysis, so the
// API neither decodes a copy of the one nor analyses the text again; after a
// delete and a re-create the body holds the new text's.
func TestRecentCarriesVectorsAndAnalyses(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg)
		ctx := context.Background()
		now := time.Now()
		e := ev("1", "acme", "customer:1", "Refund R-7001 for order O-5001 approved: 129.90 EUR", 1, now)
		e.Embedding = []float32{0.6, 0.8}
		if err := c.Apply(ctx, []store.Event{e}, nil); err != nil {
			t.Fatal(err)
		}
		got, _, err := c.Recent(ctx, "acme", "customer:1", now.Add(-time.Minute), 10)
		if err != nil || len(got) != 1 {
			t.Fatalf("%d events, %v", len(got), err)
		}
		if !slices.Equal(got[0].Embedding, e.Embedding) || !bytes.Equal(got[0].Analysis, relevance.EncodeAnalysis(e.Text)) {
			t.Fatalf("vector %v, analysis of %d bytes; want %v and the text's", got[0].Embedding, len(got[0].Analysis), e.Embedding)
		}
		// A body an older ingest wrote has no analysis: the event comes back
		// whole without one, and the reader analyses its text.
		if err := c.rdb.HDel(ctx, c.entityTag("acme", "customer:1")+":ev:"+member(e.Ref()), "a").Err(); err != nil {
			t.Fatal(err)
		}
		got, _, err = c.Recent(ctx, "acme", "customer:1", now.Add(-time.Minute), 10)
		if err != nil || len(got) != 1 || got[0].Analysis != nil || got[0].Text != e.Text || !slices.Equal(got[0].Embedding, e.Embedding) {
			t.Fatalf("a body without an analysis: %d events, %v", len(got), err)
		}
		if err := c.Apply(ctx, nil, []store.Removed{{Ref: e.Ref(), Tenant: "acme", Entity: "customer:1", Version: 2}}); err != nil {
			t.Fatal(err)
		}
		e2 := ev("1", "acme", "customer:1", "Order O-5001 delivered", 3, now)
		if err := c.Apply(ctx, []store.Event{e2}, nil); err != nil {
			t.Fatal(err)
		}
		got, _, err = c.Recent(ctx, "acme", "customer:1", now.Add(-time.Minute), 10)
		if err != nil || len(got) != 1 || !bytes.Equal(got[0].Analysis, relevance.EncodeAnalysis(e2.Text)) {
			t.Fatalf("after a delete and a re-create: %d events, %v", len(got), err)
		}
	})
}
