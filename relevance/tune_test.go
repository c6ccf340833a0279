package relevance_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/freshctx/freshctx/relevance"
)

// TestTuneWeights searches the fusion weights on the tuning part only (run it
// with FRESHCTX_TUNE=1); the held-back part is printed for the chosen weights
// but never used to choose them.
func TestTuneWeights(t *testing.T) {
	if os.Getenv("FRESHCTX_TUNE") == "" {
		t.Skip("set FRESHCTX_TUNE=1 to search the weights")
	}
	best, bestW := -1.0, relevance.DefaultWeights
	for _, sim := range []float64{0.2, 0.4, 0.6} {
		for _, rec := range []float64{0.1, 0.2, 0.3} {
			for _, intent := range []float64{0.5, 0.6, 0.7, 0.8} {
				for _, status := range []float64{0.2, 0.35, 0.5, 0.65} {
					for _, hl := range []time.Duration{10 * time.Minute, 20 * time.Minute, 40 * time.Minute} {
						for _, thread := range []float64{0, 0.3, 0.5, 0.7} {
							for _, first := range []float64{0, 0.5, 0.6, 0.7, 0.8, 0.9} {
								w := relevance.DefaultWeights
								w.Similarity, w.Lexical, w.Recency, w.RecencyIntent, w.Status, w.HalfLife = sim, 1-sim, rec, intent, status, hl
								w.Thread, w.ThreadFirst = thread, first
								s := evaluate(t, w).Get("tune", "overall").NDCG5
								if s > best+1e-9 {
									best, bestW = s, w
								}
							}
						}
					}
				}
			}
		}
	}
	rep := evaluate(t, bestW)
	fmt.Printf("best on tune: %.3f with %+v; heldout %.3f\n", best, bestW, rep.Get("heldout", "overall").NDCG5)
}
