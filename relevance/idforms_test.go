package relevance_test

import (
	"regexp"
	"testing"

	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/evalset"
	"github.com/freshctx/freshctx/relevance"
)

// prefixed is an identifier with a letter prefix: INV-1040, O-5001, RA-3301.
var prefixed = regexp.MustCompile(`\b[A-Za-z]{1,6}[-_/]?([0-9]{3,})\b`)

// Customers name an order by its number alone ("order 5001") as often as by the
// form the events use (O-5001). The labelled identifier questions that name a
// prefixed identifier, asked with the number alone, must rank about as well
// as asked as written.
func TestIdentifiersByTheirNumberAlone(t *testing.T) {
	only := func(bare bool) func([]evalset.Case) []evalset.Case {
		return func(cases []evalset.Case) []evalset.Case {
			var out []evalset.Case
			for _, c := range cases {
				var qs []evalset.Question
				for _, q := range c.Questions {
					if q.Kind == "identifier" && prefixed.MatchString(q.Q) {
						if bare {
							q.Q = prefixed.ReplaceAllString(q.Q, "$1")
						}
						qs = append(qs, q)
					}
				}
				if len(qs) > 0 {
					c.Questions = qs
					out = append(out, c)
				}
			}
			return out
		}
	}
	emb, _ := embed.NewLocal(384)
	asWritten := evaluateCases(t, relevance.DefaultWeights, emb, only(false)).Get("all", "identifier")
	byNumber := evaluateCases(t, relevance.DefaultWeights, emb, only(true)).Get("all", "identifier")
	t.Logf("%d identifier questions naming a prefixed identifier: MRR %.3f as written, %.3f by the number alone", asWritten.N, asWritten.MRR, byNumber.MRR)
	if asWritten.N < 10 || byNumber.MRR < asWritten.MRR-0.05 {
		t.Errorf("by the number alone MRR %.3f against %.3f as written (%d questions)", byNumber.MRR, asWritten.MRR, asWritten.N)
	}
}
