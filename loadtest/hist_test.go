package main

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// Bucket bounds tile the value range without gaps, and every value lands in the
// bucket whose bounds hold it.
func TestHistBuckets(t *testing.T) {
	for i := 0; i < 40*subBuckets; i++ {
		if lowest(i+1) <= lowest(i) {
			t.Fatalf("bucket %d: lowest %d, next %d", i, lowest(i), lowest(i+1))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		v := int64(rng.ExpFloat64() * 20000)
		i := bucket(v)
		if v < lowest(i) || v >= lowest(i+1) {
			t.Fatalf("value %d in bucket %d [%d, %d)", v, i, lowest(i), lowest(i+1))
		}
	}
}

// Quantiles agree with the exact ones (from the sorted values) within 1 %, and
// merged histograms equal one fed everything.
func TestHistQuantilesWithinOnePercent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, b, all := newHist(), newHist(), newHist()
	var vals []float64
	for i := range 200000 {
		d := time.Duration(math.Exp(math.Log(3000)+0.8*rng.NormFloat64())) * time.Microsecond // log-normal: ~3 ms median, long tail
		vals = append(vals, float64(d.Microseconds())/1000)
		all.record(d)
		if i%2 == 0 {
			a.record(d)
		} else {
			b.record(d)
		}
	}
	a.merge(b)
	sort.Float64s(vals)
	for _, q := range []float64{.5, .9, .99, .999} {
		exact := vals[int(math.Ceil(q*float64(len(vals))))-1]
		got := a.quantile(q)
		if math.Abs(got-exact)/exact > 0.01 {
			t.Errorf("p%v: %.4f ms, exact %.4f ms", q*100, got, exact)
		}
		if got != all.quantile(q) {
			t.Errorf("p%v: merged %.4f, single %.4f", q*100, got, all.quantile(q))
		}
	}
	if s := a.summary(); s.Count != 200000 || s.Max != vals[len(vals)-1] || len(s.Percentiles) == 0 {
		t.Errorf("summary %+v", s)
	}
}

func TestReportFiles(t *testing.T) {
	h := newHist()
	for i := 1; i <= 1000; i++ {
		h.record(time.Duration(i) * time.Millisecond / 10)
	}
	dir := t.TempDir()
	r := &report{Name: "query", Command: "loadtest query -clients 4", Results: map[string]any{"requests_per_s": 123.4}, Latency: h.summary(), LatencyOf: "GET /v1/context"}
	if err := r.write(dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"query.json": `"p99_ms"`, "query.md": "![latency](query.svg)", "query.svg": "<polyline"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v, want it to contain %q", name, err, want)
		}
	}
}
