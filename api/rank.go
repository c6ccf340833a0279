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
// score = w·max(0, cos(q, e)) + (1−w)·2^(−age/halfLife) with a question vector,
// else the recency term alone (newest first). Ties go to the newer event, then
// source and key, so equal inputs always give the same order. Every candidate is
// scored: the entity path is exact, with no approximate index involved.
func rank(events []store.Event, q []float32, now time.Time, halfLife time.Duration, w float64, k int) []Scored {
	out := make([]Scored, len(events))
	for i := range events {
		e := &events[i]
		age := now.Sub(e.Time)
		if age < 0 {
			age = 0
		}
		s := Scored{Event: *e, Recency: math.Exp2(-age.Seconds() / halfLife.Seconds())}
		if q != nil {
			sim := cosine(q, e.Embedding)
			s.Similarity = &sim
			s.Score = w*math.Max(0, sim) + (1-w)*s.Recency
		} else {
			s.Score = s.Recency
		}
		out[i] = s
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
