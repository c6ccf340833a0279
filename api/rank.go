package api

import (
	"math"
	"sort"
	"time"

	"github.com/freshctx/freshctx/store"
)

// Scored is an event with its ranking.
type Scored struct {
	store.Event
	Score      float64  // what the ranking sorts by
	Similarity *float64 // cosine similarity to the question; nil without one
	Recency    float64  // 2^(-age/half-life)
}

// rank scores every event and returns the k best, best first.
//
// With a question vector q:
//
//	score = w·rel + (1−w)·2^(−age/halfLife),  rel = max(0, cos(q, e)) / max over candidates of max(0, cos)
//
// Similarity is normalised by the best candidate's, so the most relevant event
// gets 1 on that term whatever the embedder's similarity scale (lexical
// embedders give 0.1–0.5 to clearly related texts; without this, recency would
// drown relevance). Without q the score is the recency term alone: newest first.
// Ties go to the newer event, then source and key, so equal inputs always give the
// same order. Every candidate is scored: the entity path is exact.
func rank(events []store.Event, q []float32, now time.Time, halfLife time.Duration, w float64, k int) []Scored {
	out := make([]Scored, len(events))
	best := 0.0
	for i := range events {
		e := &events[i]
		age := now.Sub(e.Time)
		if age < 0 {
			age = 0
		}
		out[i] = Scored{Event: *e, Recency: math.Exp2(-age.Seconds() / halfLife.Seconds())}
		if q != nil {
			sim := cosine(q, e.Embedding)
			out[i].Similarity = &sim
			best = math.Max(best, sim)
		}
	}
	for i := range out {
		s := &out[i]
		if q == nil {
			s.Score = s.Recency
			continue
		}
		rel := 0.0
		if best > 0 {
			rel = math.Max(0, *s.Similarity) / best
		}
		s.Score = w*rel + (1-w)*s.Recency
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
	return out
}

// cosine assumes both vectors are L2-normalised (the embedders guarantee it) and
// returns 0 when the event has no vector or a different size.
func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot float32
	for i := range a {
		dot += a[i] * b[i]
	}
	return float64(dot)
}
