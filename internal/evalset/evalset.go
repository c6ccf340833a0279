// Package evalset is freshctx's labelled retrieval set and its metrics: support
// questions over customers' recent events from varied businesses (shops, telecom,
// banking, travel, insurance, SaaS, health, utilities; English and Chinese), each
// question with graded relevance (2 answers it, 1 is related, unlisted is 0)
// and a kind: lexical (shares words with the answer), paraphrase (shares none),
// identifier (names an order, invoice or reference number), recency (asks for
// what is newest), multi (needs two events), chinese, lookalike (many similar
// events, one right).
//
// Customers are split into "tune" (weights may be chosen on it) and "heldout"
// (never tuned on; reported beside it). Every customer also gets everyday noise
// events and one event older than the evaluation window, which an answer must
// never contain.
package evalset

import (
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path"
	"sort"
	"strings"
)

//go:embed set_*.json
var files embed.FS

// Window is how far back every question asks (the events are at most 59 minutes old).
const Window = 60

// Event is one labelled event, Ago minutes before the evaluation starts.
type Event struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Ago    int    `json:"ago"`
	Text   string `json:"text"`
}

// Question is one labelled question.
type Question struct {
	Q    string         `json:"q"`
	Kind string         `json:"kind"`
	Rel  map[string]int `json:"rel"`
}

// Case is one customer: events and questions.
type Case struct {
	Customer  string     `json:"customer"`
	Split     string     `json:"split"`
	Events    []Event    `json:"events"`
	Questions []Question `json:"questions"`
}

// Kinds in report order.
var Kinds = []string{"lexical", "paraphrase", "identifier", "recency", "multi", "chinese", "lookalike"}

// OldID is the id of each customer's event older than the window.
const OldID = "old"

// noise are everyday events that answer none of the questions.
var noise = []Event{
	{Source: "web", Text: "Signed in from the mobile app"},
	{Source: "web", Text: "Viewed the help centre page about opening hours"},
	{Source: "marketing", Text: "Opened the monthly newsletter e-mail"},
	{Source: "web", Text: "Changed the app language to English"},
	{Source: "marketing", Text: "Clicked a banner for the spring sale"},
	{Source: "web", Text: "Notification settings viewed"},
	{Source: "web", Text: "Searched the catalogue for gift cards"},
	{Source: "marketing", Text: "Survey invitation sent: rate your last visit"},
	{Source: "web", Text: "已登录网页版"},
	{Source: "web", Text: "浏览了常见问题页面"},
}

// Load returns every case with its noise and out-of-window events added.
func Load() ([]Case, error) {
	names, err := files.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, n := range names {
		b, err := files.ReadFile(path.Join(".", n.Name()))
		if err != nil {
			return nil, err
		}
		var cs []Case
		if err := json.Unmarshal(b, &cs); err != nil {
			return nil, fmt.Errorf("%s: %w", n.Name(), err)
		}
		out = append(out, cs...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Customer < out[j].Customer })
	for ci := range out {
		c := &out[ci]
		ids := map[string]bool{}
		for _, e := range c.Events {
			ids[e.ID] = true
		}
		for _, q := range c.Questions {
			for id := range q.Rel {
				if !ids[id] {
					return nil, fmt.Errorf("%s: question %q labels unknown event %s", c.Customer, q.Q, id)
				}
			}
		}
		for k := range 3 {
			n := noise[(ci*3+k)%len(noise)]
			n.ID, n.Ago = fmt.Sprintf("n%d", k+1), 7+((ci*11+k*17)%50)
			c.Events = append(c.Events, n)
		}
		old := c.Events[0]
		old.ID, old.Ago = OldID, Window+35
		c.Events = append(c.Events, old)
	}
	return out, nil
}

// NDCG is nDCG@k of ranked ids against graded relevance (gain 2^rel − 1).
func NDCG(ranked []string, rel map[string]int, k int) float64 {
	dcg := 0.0
	for i, id := range ranked {
		if i >= k {
			break
		}
		dcg += (math.Exp2(float64(rel[id])) - 1) / math.Log2(float64(i+2))
	}
	var gains []int
	for _, g := range rel {
		gains = append(gains, g)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(gains)))
	ideal := 0.0
	for i, g := range gains {
		if i >= k {
			break
		}
		ideal += (math.Exp2(float64(g)) - 1) / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// MRR is the reciprocal rank of the first event that answers (grade 2; grade 1
// when the question has no grade 2).
func MRR(ranked []string, rel map[string]int) float64 {
	top := 0
	for _, g := range rel {
		top = max(top, g)
	}
	for i, id := range ranked {
		if rel[id] == top && top > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// Recall is the share of the relevant events (grade ≥ 1) within the first k.
func Recall(ranked []string, rel map[string]int, k int) float64 {
	if len(rel) == 0 {
		return 0
	}
	n := 0
	for i, id := range ranked {
		if i < k && rel[id] > 0 {
			n++
		}
	}
	return float64(n) / float64(len(rel))
}

// Scores are the mean metrics of a group of questions.
type Scores struct {
	N                  int
	NDCG5, MRR, Recall float64
}

func (s *Scores) add(ranked []string, rel map[string]int) {
	s.N++
	s.NDCG5 += NDCG(ranked, rel, 5)
	s.MRR += MRR(ranked, rel)
	s.Recall += Recall(ranked, rel, 3)
}

func (s Scores) mean() Scores {
	if s.N == 0 {
		return s
	}
	d := float64(s.N)
	return Scores{N: s.N, NDCG5: s.NDCG5 / d, MRR: s.MRR / d, Recall: s.Recall / d}
}

// Report collects the results of one ranking and of the baselines.
type Report struct {
	// By split ("tune", "heldout", "all"), then kind (and "overall").
	Ranked, Newest, Random map[string]map[string]Scores
	// WindowViolations counts answers that held an event older than the window;
	// TenantViolations answers that held another tenant's event.
	WindowViolations, TenantViolations int
	Questions                          int
}

// NewReport starts an empty report.
func NewReport() *Report {
	mk := func() map[string]map[string]Scores {
		return map[string]map[string]Scores{"tune": {}, "heldout": {}, "all": {}}
	}
	return &Report{Ranked: mk(), Newest: mk(), Random: mk()}
}

// Add records one question's answer (event ids, best first; only the first 5
// count) with the two baselines computed from the case's in-window events.
func (r *Report) Add(c Case, q Question, ranked []string, rng *rand.Rand) {
	r.Questions++
	var in []Event
	for _, e := range c.Events {
		if e.Ago < Window {
			in = append(in, e)
		}
	}
	newest := append([]Event(nil), in...)
	sort.SliceStable(newest, func(i, j int) bool { return newest[i].Ago < newest[j].Ago })
	random := append([]Event(nil), in...)
	rng.Shuffle(len(random), func(i, j int) { random[i], random[j] = random[j], random[i] })
	for _, id := range ranked {
		if id == OldID {
			r.WindowViolations++
		}
	}
	for _, sp := range []string{c.Split, "all"} {
		for _, kind := range []string{q.Kind, "overall"} {
			add := func(m map[string]map[string]Scores, ids []string) {
				s := m[sp][kind]
				s.add(ids, q.Rel)
				m[sp][kind] = s
			}
			add(r.Ranked, ranked)
			add(r.Newest, idsOf(newest))
			add(r.Random, idsOf(random))
		}
	}
}

func idsOf(evs []Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

// Get returns the mean scores of a split and kind.
func (r *Report) Get(split, kind string) Scores { return r.Ranked[split][kind].mean() }

// Markdown renders the report as tables: one per split.
func (r *Report) Markdown() string {
	var b strings.Builder
	for _, sp := range []string{"all", "tune", "heldout"} {
		fmt.Fprintf(&b, "\n%s questions (%d):\n\n", sp, r.Ranked[sp]["overall"].N)
		b.WriteString("| kind | n | nDCG@5 | MRR | Recall@3 | newest-first nDCG@5 | random nDCG@5 |\n|---|---|---|---|---|---|---|\n")
		for _, kind := range append(append([]string{}, Kinds...), "overall") {
			s := r.Ranked[sp][kind].mean()
			if s.N == 0 {
				continue
			}
			fmt.Fprintf(&b, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f |\n", kind, s.N, s.NDCG5, s.MRR, s.Recall,
				r.Newest[sp][kind].mean().NDCG5, r.Random[sp][kind].mean().NDCG5)
		}
	}
	fmt.Fprintf(&b, "\nwindow violations: %d, tenant violations: %d\n", r.WindowViolations, r.TenantViolations)
	return b.String()
}
