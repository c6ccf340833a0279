package pipeline

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// Every labelled series with known label values exists, at 0, from the first
// scrape, so dashboards and rate() alerts see it before its first event.
func TestMetricsExistFromTheFirstScrape(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	m.Init([]string{"shop.tickets"}, []string{"tickets"})
	var want strings.Builder
	want.WriteString("# HELP freshctx_ingest_records_total Records processed, by source and result (stored, unchanged, deleted, skipped, dead_lettered, expired: an ai-ttl passed or a source retention).\n# TYPE freshctx_ingest_records_total counter\n")
	for _, r := range []string{"dead_lettered", "deleted", "expired", "skipped", "stored", "unchanged"} {
		want.WriteString(`freshctx_ingest_records_total{result="` + r + `",source="tickets"} 0` + "\n")
	}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want.String()), "freshctx_ingest_records_total"); err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(m.Retries); n != len(RetryStages) {
		t.Errorf("retries series = %d, want %d (one per stage)", n, len(RetryStages))
	}
	if n := testutil.CollectAndCount(m.Consumed); n != 1 {
		t.Errorf("consumed series = %d, want 1", n)
	}
}
