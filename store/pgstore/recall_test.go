package pgstore_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
)

// corpus makes knowledge-base-like text: every document is about one of the
// topics, and its chunks mix the topic's own words with common words (drawn with a
// Zipf-like skew), so that vectors cluster by topic the way real ones do.
type corpus struct {
	rng    *rand.Rand
	common []string
	topics [][]string
}

func newCorpus(seed uint64, topics, wordsPerTopic, common int) *corpus {
	c := &corpus{rng: rand.New(rand.NewPCG(seed, seed))}
	for i := 0; i < common; i++ {
		c.common = append(c.common, fmt.Sprintf("c%dx%c", i, 'a'+rune(i%26)))
	}
	for t := 0; t < topics; t++ {
		var ws []string
		for i := 0; i < wordsPerTopic; i++ {
			ws = append(ws, fmt.Sprintf("t%dw%dq%c", t, i, 'a'+rune((t+i)%26)))
		}
		c.topics = append(c.topics, ws)
	}
	return c
}

func (c *corpus) text(topic, words int, topical float64) string {
	var b strings.Builder
	for i := 0; i < words; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		f := c.rng.Float64()
		if c.rng.Float64() < topical {
			ws := c.topics[topic]
			b.WriteString(ws[int(f*f*float64(len(ws)))])
		} else {
			b.WriteString(c.common[int(f*f*float64(len(c.common)))])
		}
	}
	return b.String()
}

// TestKnowledgeRecall measures recall@10 of the HNSW knowledge search against exact
// search, on 100,000 chunks embedded by the local embedder as configured by default
// (384 dimensions, with word vectors).
func TestKnowledgeRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 100,000 chunks")
	}
	const chunks, perDoc, queries, k = 100000, 10, 200, 10
	st := newStore(t)
	ctx := context.Background()
	emb := testenv.LocalEmbedder(t, 384)
	cor := newCorpus(42, 1000, 40, 3000)
	start := time.Now()
	for d := 0; d < chunks/perDoc; d += 100 {
		var docs []store.Document
		var texts []string
		for j := 0; j < 100*perDoc; j++ {
			texts = append(texts, cor.text((d+j/perDoc)%1000, 30, 0.6))
		}
		vecs, _ := emb.Embed(ctx, texts)
		for i := 0; i < 100; i++ {
			doc := store.Document{Source: "kb", Key: fmt.Sprint(d + i), DocID: fmt.Sprint(d + i), Tenant: "acme", Version: 1,
				Attrs: map[string]any{"shard": (d + i) % 10}}
			for c := 0; c < perDoc; c++ {
				n := i*perDoc + c
				doc.Chunks = append(doc.Chunks, store.Chunk{Text: texts[n], TextHash: []byte(fmt.Sprint(n)), Embedding: vecs[n]})
			}
			docs = append(docs, doc)
		}
		if _, err := st.ApplyDocuments(ctx, docs, nil); err != nil {
			t.Fatal(err)
		}
	}
	loaded := time.Since(start)
	start = time.Now()
	if err := st.EnsureChunkIndex(ctx, 384); err != nil {
		t.Fatal(err)
	}
	built := time.Since(start)
	if err := st.VacuumAnalyze(ctx); err != nil {
		t.Fatal(err)
	}
	var found, filteredFound, total int
	var annTime time.Duration
	for i := 0; i < queries; i++ {
		v, _ := emb.Embed(ctx, []string{cor.text(cor.rng.IntN(1000), 8, 0.75)})
		q := store.SearchQuery{Tenant: "acme", Vector: v[0], K: k}
		if i%2 == 1 {
			q.Filter = map[string]any{"shard": float64(i % 10)} // 10% of the chunks
		}
		t0 := time.Now()
		ann, info, err := st.Search(ctx, q)
		annTime += time.Since(t0)
		if err != nil {
			t.Fatal(err)
		}
		exact, err := st.ExactSearch(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(ann) != k || len(exact) != k {
			t.Fatalf("query %d: %d ANN hits (%s), %d exact", i, len(ann), info.Mode, len(exact))
		}
		// A hit counts when it is as near as the exact k-th: chunks at equal
		// distance are equally right answers (ties are common with lexical vectors).
		kth := exact[k-1].Score
		for _, h := range ann {
			if h.Score >= kth-1e-6 {
				found++
				if q.Filter != nil {
					filteredFound++
				}
			}
		}
		total += k
	}
	// The same questions as text too (hybrid: full text fused with the
	// index), with a generous bound for a loaded machine: a generic plan
	// scanned the whole table, 415 ms a search here.
	var hybridTime time.Duration
	const hybridQueries = 50
	for range hybridQueries {
		text := cor.text(cor.rng.IntN(1000), 8, 0.75)
		v, _ := emb.Embed(ctx, []string{text})
		t0 := time.Now()
		hits, info, err := st.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: v[0], K: k, Text: text})
		hybridTime += time.Since(t0)
		if err != nil || info.Mode != "hybrid" || len(hits) != k {
			t.Fatalf("hybrid search: %d hits, mode %s, %v", len(hits), info.Mode, err)
		}
	}
	if mean := hybridTime / hybridQueries; mean > 250*time.Millisecond {
		t.Errorf("mean hybrid search %v, want well under 250 ms", mean)
	}
	recall := float64(found) / float64(total)
	t.Logf("%d chunks loaded in %v, HNSW built in %v; %d queries (half filtered to 10%%): recall@%d = %.4f (filtered %.4f), mean ANN search %v, mean hybrid search %v",
		chunks, loaded.Round(time.Millisecond), built.Round(time.Millisecond), queries, k, recall,
		float64(filteredFound)/float64(total/2), (annTime / queries).Round(time.Microsecond), (hybridTime / hybridQueries).Round(time.Microsecond))
	if recall < 0.95 {
		t.Errorf("recall@%d = %.4f, want at least 0.95", k, recall)
	}
}
