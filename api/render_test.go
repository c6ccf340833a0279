package api

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/store"
)

// renderContext appends into one buffer; what it writes is what the plain
// formatting below (its first version) wrote, cut at the same lines, for any
// events, passages and budget.
func TestRenderContextMatchesPlainFormatting(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	words := []string{"refund", "R-7001", "approved", "退款", "已批准", "Zurück", "\t", "  ", "\n", "naïve", `"quoted"`, "e-mail"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(3) > 0 {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	now := time.Date(2026, 12, 2, 3, 4, 5, 0, time.UTC)
	for i := range 500 {
		var evs []Scored
		for j := range rng.IntN(8) {
			var e Scored
			e.ID, e.Source, e.Text = fmt.Sprintf("E-%d", j), "orders", text(1+rng.IntN(20))
			e.Time = now.Add(-time.Duration(rng.IntN(3*3600)-60) * time.Second)
			evs = append(evs, e)
		}
		var hits []store.Hit
		for j := range rng.IntN(4) {
			h := store.Hit{Source: "kb", DocID: fmt.Sprintf("doc-%d", j), Chunk: j, Text: text(1 + rng.IntN(40))}
			if rng.IntN(2) == 0 {
				h.Title = text(3)
			}
			hits = append(hits, h)
		}
		budget := 5 + rng.IntN(400)
		wantText, wantTokens, wantOmitted, wantDocs := plainRender("customer:1", evs, hits, now, budget)
		text, tokens, omitted, docs := renderContext("customer:1", evs, hits, now, budget)
		if text != wantText || tokens != wantTokens || omitted != wantOmitted || docs != wantDocs {
			t.Fatalf("case %d (budget %d):\n%q %d %d %d\nwant\n%q %d %d %d", i, budget, text, tokens, omitted, docs, wantText, wantTokens, wantOmitted, wantDocs)
		}
	}
}

func plainRender(entity string, events []Scored, hits []store.Hit, now time.Time, maxTokens int) (string, int, int, int) {
	byTime := append([]Scored(nil), events...)
	sort.SliceStable(byTime, func(i, j int) bool { return byTime[i].Time.After(byTime[j].Time) })
	var b strings.Builder
	tokens := 0
	write := func(s string) bool {
		t := estimateTokens(s)
		if tokens+t > maxTokens {
			return false
		}
		b.WriteString(s)
		tokens += t
		return true
	}
	header := fmt.Sprintf("Recent events for %s, newest first (now %s):\n", entity, now.UTC().Format(time.RFC3339))
	if len(byTime) == 0 {
		header = fmt.Sprintf("No recent events for %s in the requested window (now %s).\n", entity, now.UTC().Format(time.RFC3339))
	}
	if !write(header) {
		return "", 0, len(byTime), len(hits)
	}
	omitted := 0
	for i, e := range byTime {
		if !write(fmt.Sprintf("- [%s, %s ago] %s %s: %s\n", e.Time.UTC().Format(time.RFC3339), plainAgo(now.Sub(e.Time)), e.Source, e.ID, e.Text)) {
			omitted = len(byTime) - i
			write(fmt.Sprintf("(%d older events omitted to fit %d tokens)\n", omitted, maxTokens))
			break
		}
	}
	if len(hits) == 0 || omitted > 0 {
		return b.String(), tokens, omitted, len(hits)
	}
	omittedDocs := 0
	if !write("\nRelevant knowledge:\n") {
		return b.String(), tokens, omitted, len(hits)
	}
	for i, h := range hits {
		title := ""
		if h.Title != "" {
			title = fmt.Sprintf(" %q", h.Title)
		}
		if !write(fmt.Sprintf("- [%s %s%s, part %d] %s\n", h.Source, h.DocID, title, h.Chunk+1, strings.Join(strings.Fields(h.Text), " "))) {
			omittedDocs = len(hits) - i
			write(fmt.Sprintf("(%d knowledge passages omitted to fit %d tokens)\n", omittedDocs, maxTokens))
			break
		}
	}
	return b.String(), tokens, omitted, omittedDocs
}

func plainAgo(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	default:
		return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
	}
}

func BenchmarkRenderContext(b *testing.B) {
	now := time.Now()
	var evs []Scored
	for j := range 5 {
		var e Scored
		e.ID, e.Source, e.Text = fmt.Sprintf("E-%d", j), "orders", "Refund R-7001 for order O-4410 approved: 129.90 EUR back to the card ending 4242"
		e.Time = now.Add(-time.Duration(j) * time.Minute)
		evs = append(evs, e)
	}
	hits := []store.Hit{{Source: "kb", DocID: "refunds", Title: "Refunds", Text: strings.Repeat("Refunds reach the card within five working days.  ", 8)}}
	b.ReportAllocs()
	for b.Loop() {
		renderContext("customer:1", evs, hits, now, 2000)
	}
}
