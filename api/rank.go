package api

import (
	"context"
	"sort"
	"strconv"
	"time"

	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/store"
)

// Scored is an event with its ranking.
type Scored struct {
	store.Event
	Score      float64               // what the ranking sorts by
	Similarity *float64              // cosine similarity to the question; nil without a question vector
	Components *relevance.Components // each part of the score (explain=true)
}

// Ranking modes (the ranking parameter; meta.ranking says which one answered).
const (
	RankHybrid     = "hybrid"     // lexical (BM25) + identifiers + similarity + recency (with intent)
	RankSimilarity = "similarity" // vector similarity + recency (freshctx before 2026-12)
	RankRecency    = "recency"    // newest first
	// rankLexical is hybrid without a question vector (the embedder failed or was late).
	rankLexical = "hybrid-lexical"
)

// weights are the relevance weights of this server: relevance.DefaultWeights
// with the configured share of recency, half-life, source weights, share of
// vector similarity against BM25 and thesaurus.
func (s *Server) weights() relevance.Weights {
	w := relevance.DefaultWeights
	w.Recency = 1 - *s.cfg.SimilarityWeight
	w.HalfLife = s.cfg.HalfLife
	w.Sources = s.cfg.SourceWeights
	w.CorpusIDF = s.cfg.CorpusIDF
	w.Lexicon = s.cfg.Lexicon
	if len(s.cfg.Thesaurus) == 0 { // thesaurus: []
		w.Thesaurus = 0
	}
	if v := s.cfg.VectorShare; v != nil {
		w.Similarity, w.Lexical = *v, 1-*v
	}
	if w.Recency >= 1 { // similarity_weight 0: recency alone, whatever the question says
		w.RecencyIntent, w.Status, w.Identifier = 1, 1, 0
	}
	return w
}

// rank scores every event (the entity path is exact) and returns the k best,
// best first. Ties go to the newer event, then source and key, so equal inputs
// always give the same order.
//
//   - hybrid: relevance.Score (see its formula): BM25 with per-source statistics,
//     identifiers matched exactly, similarity when a question vector is there,
//     recency whose share grows when the question asks for what is newest.
//   - similarity: w·rel + (1−w)·2^(−age/half-life), rel = cosine normalised by the
//     best candidate's.
//   - recency (or no question): 2^(−age/half-life): newest first.
//
// With hybrid ranking and a question it also returns how the components were
// fused (meta.fusion with explain=true); nil otherwise.
func (s *Server) rank(events []store.Event, q string, qvec []float32, stats relevance.Stats, now time.Time, mode string, k int) ([]Scored, *relevance.Fusion) {
	out := make([]Scored, len(events))
	var fusion *relevance.Fusion
	w := s.weights()
	switch {
	case mode == RankRecency || q == "":
		for i := range events {
			out[i] = Scored{Event: events[i], Score: relevance.Recency(now, events[i].Time, w.HalfLife)}
		}
	case mode == RankSimilarity:
		w.Lexical, w.Identifier, w.Similarity, w.Thread, w.ThreadFirst = 0, 0, 1, 0, 0
		w.RecencyIntent, w.Status = w.Recency, w.Recency
		w.Unstated, w.Sibling, w.Changed, w.ChangedNow, w.Newer = 0, 0, 0, 0, 0 // (the formula before hybrid: whole recency, no objects, no changes)
		fallthrough
	default:
		cands := make([]relevance.Candidate, len(events))
		for i := range events {
			e := &events[i]
			// A stored version of an event never changes its text: (source, key,
			// version) keys its analysis in the cache, for events that carry none
			// the ranking can use (from the stores, or of another analysis version).
			cands[i] = relevance.Candidate{Source: e.Source, Time: e.Time, Text: e.Text, Embedding: e.Embedding, Analysis: e.Analysis,
				Hash: strconv.AppendInt([]byte(e.Source+"\x00"+e.Key+"\x00"), e.Version, 36)}
		}
		scores, comps, f := relevance.ScoreFused(relevance.NewQuery(q, qvec), cands, w, stats, now)
		if mode != RankSimilarity {
			fusion = &f
		}
		for i := range events {
			out[i] = Scored{Event: events[i], Score: scores[i], Components: &comps[i]}
			if qvec != nil {
				sim := comps[i].Cosine
				out[i].Similarity = &sim
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if !a.Time.Equal(b.Time) {
			return a.Time.After(b.Time)
		}
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		return a.Key < b.Key
	})
	if len(out) > k {
		out = out[:k]
	}
	return out, fusion
}

// TermStatser serves BM25's corpus statistics per tenant and source (the Redis
// cache keeps them from a sample of what ingest writes).
type TermStatser interface {
	TermStats(ctx context.Context, tenant string, sources, terms []string) (map[string]relevance.SourceStats, error)
}

// termStats reads the statistics of the candidates' sources for the question's
// terms within a tenth of the budget; without them (no cache, too few events
// sampled, Redis late or down) the ranking takes them from the candidates.
func (s *Server) termStats(ctx context.Context, budget time.Duration, events []store.Event, q string) relevance.Stats {
	ts, ok := s.cache.(TermStatser)
	if !ok || q == "" || len(events) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var sources []string
	for i := range events {
		if src := events[i].Source; !seen[src] {
			seen[src] = true
			sources = append(sources, src)
		}
	}
	uniq := relevance.UniqueTerms(q)
	if len(uniq) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, share(budget, statsShare))
	defer cancel()
	st, err := ts.TermStats(ctx, tenantOf(ctx), sources, uniq)
	if err != nil {
		return nil
	}
	return st
}
