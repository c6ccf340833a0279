package pgstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
)

// The full-text side selects chunks by the question's words that are not
// common in the chunks (by the planner's statistics), by all of them when
// every word is common, and ranks by any of them; without statistics (a table
// never analysed) no word counts as common.
func TestFullTextQueryLeavesCommonWordsOutOfTheSelection(t *testing.T) {
	ctx := context.Background()
	dsn, _ := testenv.PostgresDSN(t)
	s, err := Connect(ctx, Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	query := func(text string, also ...string) (sel, rank string) {
		t.Helper()
		s.common.at = time.Time{} // read the statistics again
		if err := s.pool.QueryRow(ctx, `WITH `+ftsQueryCTE("$1", "$3", "$2")+` SELECT sel::text, rank::text FROM query`,
			text, s.commonLexemes(ctx), strings.Join(also, " ")).Scan(&sel, &rank); err != nil {
			t.Fatal(err)
		}
		return sel, rank
	}
	lexemes := func(q string) []string { // 'a' | 'b' or 'a' & 'b', in any order
		f := strings.FieldsFunc(q, func(r rune) bool { return r == ' ' || r == '|' || r == '&' || r == '\'' })
		slices.Sort(f)
		return f
	}
	// Not analysed yet: every word selects.
	if sel, _ := query("account refund E4711"); !slices.Equal(lexemes(sel), []string{"account", "e4711", "refund"}) || !strings.Contains(sel, "|") {
		t.Errorf("without statistics: selection %s", sel)
	}
	var docs []store.Document
	for i := range 400 {
		text := fmt.Sprintf("Your account settings, section %d", i)
		if i%20 == 0 {
			text += ": refund history" // 5% of the chunks
		}
		if i == 123 {
			text += ": error E4711"
		}
		docs = append(docs, store.Document{Source: "kb", Key: fmt.Sprint(i), DocID: fmt.Sprint(i), Tenant: "acme", Version: 1,
			Chunks: []store.Chunk{{Text: text, TextHash: []byte(text), Embedding: []float32{1, 0, 0}}}})
	}
	if _, err := s.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.VacuumAnalyze(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, also, sel, op, rank string
	}{
		{"account refund E4711", "", "e4711", "", "account e4711 refund"}, // the rare word alone selects
		{"account refund", "", "account refund", "&", "account refund"},   // all common: all of them
		{"E4711 退款", "", "e4711 退款", "|", "e4711 退款"},                     // CJK by its bigrams; not in the chunks, so rare
		// other words (translations) select too, but never stand in for the
		// question's own: all common, these still select all together; a
		// common other word ("history", "refund") is left out as a common word is
		{"account refund", "返还 history", "account refund 返还", "&", "account refund 返还"},
		{"退款 E4711", "refund", "e4711 退款", "|", "e4711 退款"},
	} {
		sel, rank := query(c.text, c.also)
		if strings.Join(lexemes(sel), " ") != c.sel || c.op != "" && !strings.Contains(sel, c.op) {
			t.Errorf("%q: selection %s, want %s joined by %q", c.text, sel, c.sel, c.op)
		}
		if strings.Join(lexemes(rank), " ") != c.rank || strings.Contains(rank, "&") {
			t.Errorf("%q: ranking %s, want any of %s", c.text, rank, c.rank)
		}
	}
}
