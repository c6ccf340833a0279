package main

import (
	"math"
	"math/bits"
	"time"
)

// hist is an HDR-style latency histogram: log-linear buckets (each power of two
// split into 128 equal steps), so every recorded value is kept within 1/128
// (< 0.8 %) of its true value from 1 µs to hours, in fixed memory, and histograms
// from many goroutines merge exactly.
type hist struct {
	counts   [64 * subBuckets]uint64
	n        uint64
	sum      float64
	min, max int64
}

const subBits = 7
const subBuckets = 1 << subBits

func newHist() *hist { return &hist{min: math.MaxInt64} }

// bucket returns the index for v ≥ 0 µs.
func bucket(v int64) int {
	if v < subBuckets {
		return int(v) // exact below 128 µs
	}
	exp := 63 - bits.LeadingZeros64(uint64(v)) // 2^exp ≤ v < 2^(exp+1)
	shift := exp - subBits
	return (shift+1)*subBuckets + int(v>>shift) - subBuckets
}

// lowest returns the smallest value of bucket i.
func lowest(i int) int64 {
	if i < subBuckets {
		return int64(i)
	}
	shift := i/subBuckets - 1
	return int64(i%subBuckets+subBuckets) << shift
}

func (h *hist) record(d time.Duration) {
	v := max(d.Microseconds(), 0)
	h.counts[bucket(v)]++
	h.n++
	h.sum += float64(v)
	h.min = min(h.min, v)
	h.max = max(h.max, v)
}

func (h *hist) merge(o *hist) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.sum += o.sum
	h.min = min(h.min, o.min)
	h.max = max(h.max, o.max)
}

// quantile returns the value (ms) at quantile q in [0, 1]: the middle of the
// bucket holding it, clamped to the recorded extremes.
func (h *hist) quantile(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			lo, hi := lowest(i), lowest(i+1)
			mid := float64(lo+hi-1) / 2
			return math.Min(math.Max(mid, float64(h.min)), float64(h.max)) / 1000
		}
	}
	return float64(h.max) / 1000
}

// latencySummary is what reports show of a histogram (milliseconds).
type latencySummary struct {
	Count uint64  `json:"count"`
	Min   float64 `json:"min_ms"`
	Mean  float64 `json:"mean_ms"`
	P50   float64 `json:"p50_ms"`
	P90   float64 `json:"p90_ms"`
	P99   float64 `json:"p99_ms"`
	P999  float64 `json:"p999_ms"`
	Max   float64 `json:"max_ms"`
	// Percentiles is the latency curve for charts: [percentile, ms] pairs.
	Percentiles [][2]float64 `json:"percentiles"`
}

func (h *hist) summary() latencySummary {
	if h.n == 0 {
		return latencySummary{}
	}
	s := latencySummary{Count: h.n, Min: float64(h.min) / 1000, Mean: h.sum / float64(h.n) / 1000,
		P50: h.quantile(.5), P90: h.quantile(.9), P99: h.quantile(.99), P999: h.quantile(.999), Max: float64(h.max) / 1000}
	for _, p := range []float64{0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100} {
		s.Percentiles = append(s.Percentiles, [2]float64{p, h.quantile(p / 100)})
	}
	return s
}
