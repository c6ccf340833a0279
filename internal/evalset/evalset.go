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
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode"
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

// Load returns every case of the built-in set with its noise and
// out-of-window events added.
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
		cs, err := Parse(n.Name(), b)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Customer < out[j].Customer })
	for ci := range out {
		c := &out[ci]
		for k := range 3 {
			n := noise[(ci*3+k)%len(noise)]
			n.ID, n.Ago = fmt.Sprintf("n%d", k+1), 7+((ci*11+k*17)%50)
			c.Events = append(c.Events, n)
		}
	}
	return withOld(out), nil
}

// ReadFiles reads a labelled set of one's own: each path a JSON file in the
// built-in set's format (docs/evaluation.md) or a directory of them (its
// *.json files). A case without a split is held back. Each case gets an
// event older than the window, as the built-in set's do; nothing else is
// added. Fields the format does not have are ignored, each with a warning
// (a typo's field is then missing, which the checks name).
func ReadFiles(paths ...string) (cases []Case, warnings []string, err error) {
	for _, p := range paths {
		names := []string{p}
		if st, err := os.Stat(p); err != nil {
			return nil, nil, err
		} else if st.IsDir() {
			if names, err = filepath.Glob(filepath.Join(p, "*.json")); err != nil {
				return nil, nil, err
			}
			if len(names) == 0 {
				return nil, nil, fmt.Errorf("%s: no *.json files in the directory", p)
			}
		}
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				return nil, nil, err
			}
			cs, unknown, err := parse(name, b)
			if err != nil {
				return nil, nil, err
			}
			cases, warnings = append(cases, cs...), append(warnings, unknown...)
		}
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.Customer] {
			return nil, nil, fmt.Errorf("customer %q: in the set twice (customers name entities: one case each)", c.Customer)
		}
		seen[c.Customer] = true
	}
	return withOld(cases), warnings, nil
}

// splits are the names a set may give its parts: the one weights may be
// chosen on, and the held-back one (the default).
var splits = map[string]string{"": "heldout", "heldout": "heldout", "held-out": "heldout", "holdout": "heldout",
	"test": "heldout", "tune": "tune", "train": "tune", "dev": "tune"}

// The fields of the format, as the types' JSON tags name them.
var caseFields, eventFields, questionFields = jsonFields(Case{}), jsonFields(Event{}), jsonFields(Question{})

func jsonFields(v any) []string {
	t := reflect.TypeOf(v)
	out := make([]string, t.NumField())
	for i := range out {
		out[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return out
}

// MaxEvents bounds a case's events: loadtest eval waits until the API shows
// them all in one answer of at most 100 events (one more is the old event).
const MaxEvents = 99

// Parse reads name's cases (a JSON array of cases) and checks them; every
// error names the case, the event or question, and the field.
func Parse(name string, b []byte) ([]Case, error) {
	cs, unknown, err := parse(name, b)
	if len(unknown) > 0 {
		return nil, errors.New(strings.TrimSuffix(unknown[0], ": ignored"))
	}
	return cs, err
}

// parse is Parse that reports fields it does not know as warnings (a set of
// one's own may carry notes of its own) rather than errors.
func parse(name string, b []byte) ([]Case, []string, error) {
	var cs []Case
	if err := json.Unmarshal(b, &cs); err != nil {
		return nil, nil, fmt.Errorf("%s: %w (want a JSON array of cases: %s)", name, err, strings.Join(caseFields, ", "))
	}
	var fields []map[string]json.RawMessage // each case's fields
	var inner []struct {
		Events    []map[string]json.RawMessage `json:"events"`
		Questions []map[string]json.RawMessage `json:"questions"`
	}
	json.Unmarshal(b, &fields) // (they decoded as cases above)
	json.Unmarshal(b, &inner)
	var unknown []string
	firstUnknown := map[int]string{} // by case: its first unknown field, for an error it may explain
	note := func(i int, where string, have map[string]json.RawMessage, known []string) {
		var extra []string
		for f := range have {
			if !slices.Contains(known, f) {
				extra = append(extra, f)
			}
		}
		slices.Sort(extra)
		for _, f := range extra {
			what := fmt.Sprintf("field %q is none of %s", f, strings.Join(known, ", "))
			unknown = append(unknown, fmt.Sprintf("%s: %s: %s: ignored", name, where, what))
			if _, ok := firstUnknown[i]; !ok {
				firstUnknown[i] = what
			}
		}
	}
	for i := range min(len(fields), len(inner), len(cs)) {
		where := fmt.Sprintf("case %d (customer %q)", i+1, cs[i].Customer)
		note(i, where, fields[i], caseFields)
		for k, e := range inner[i].Events {
			note(i, fmt.Sprintf("%s: event %d", where, k+1), e, eventFields)
		}
		for k, q := range inner[i].Questions {
			note(i, fmt.Sprintf("%s: question %d", where, k+1), q, questionFields)
		}
	}
	for i := range cs {
		c := &cs[i]
		if sp, ok := splits[strings.ToLower(c.Split)]; ok {
			c.Split = sp
		}
		if err := c.check(); err != nil {
			err = fmt.Errorf("%s: case %d (customer %q): %w", name, i+1, c.Customer, err)
			if what, ok := firstUnknown[i]; ok { // a misspelt field is likely why
				err = fmt.Errorf("%w (and its %s)", err, what)
			}
			return nil, unknown, err
		}
	}
	return cs, unknown, nil
}

func (c *Case) check() error {
	switch {
	case c.Customer == "":
		return errors.New("customer: empty")
	case strings.IndexFunc(c.Customer, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-_.", r)
	}) >= 0:
		return errors.New("customer: letters, digits, '-', '_' and '.' only (it becomes part of an entity id)")
	case c.Split != "tune" && c.Split != "heldout":
		return fmt.Errorf("split: %q: want tune (or train, dev) or heldout (or held-out, holdout, test; empty: heldout)", c.Split)
	case len(c.Events) == 0:
		return errors.New("events: none")
	case len(c.Events) > MaxEvents:
		return fmt.Errorf("events: %d, at most %d a case", len(c.Events), MaxEvents)
	case len(c.Questions) == 0:
		return errors.New("questions: none")
	}
	ids, ago := map[string]bool{}, map[string]int{}
	for i, e := range c.Events {
		switch {
		case e.ID == "":
			return fmt.Errorf("event %d: id: empty", i+1)
		case e.ID == OldID:
			return fmt.Errorf("event %d: id: %q is the event older than the window, which is added to every case", i+1, OldID)
		case ids[e.ID]:
			return fmt.Errorf("event %d: id: %q twice in the case", i+1, e.ID)
		case e.Ago < 0 || e.Ago >= 24*60:
			return fmt.Errorf("event %q: ago: %d minutes: want 0 to %d (before the evaluation; %d or more is outside the window and must never be answered)", e.ID, e.Ago, 24*60-1, Window)
		case strings.TrimSpace(e.Text) == "":
			return fmt.Errorf("event %q: text: empty", e.ID)
		}
		ids[e.ID], ago[e.ID] = true, e.Ago
	}
	for i, q := range c.Questions {
		where := fmt.Sprintf("question %d (%q)", i+1, q.Q)
		switch {
		case strings.TrimSpace(q.Q) == "":
			return fmt.Errorf("question %d: q: empty", i+1)
		case q.Kind == "":
			return fmt.Errorf("%s: kind: empty (e.g. one of %s)", where, strings.Join(Kinds, ", "))
		}
		answers := 0
		for id, g := range q.Rel {
			switch {
			case !ids[id]:
				return fmt.Errorf("%s: rel: %q is none of the case's events", where, id)
			case g < 0 || g > 2:
				return fmt.Errorf("%s: rel: %q graded %d: want 2 (answers), 1 (related) or 0", where, id, g)
			case g > 0 && ago[id] >= Window:
				return fmt.Errorf("%s: rel: %q graded %d is %d minutes old, outside the %d-minute window every question asks about, so no answer may hold it (grade it 0 or make it younger)", where, id, g, ago[id], Window)
			}
			if g > 0 {
				answers++
			}
		}
		if answers == 0 {
			return fmt.Errorf("%s: rel: no event graded 1 or 2, so there is nothing to find", where)
		}
	}
	return nil
}

// withOld adds to every case a copy of its first event older than the
// window (OldID), which an answer must never contain.
func withOld(cs []Case) []Case {
	for i := range cs {
		old := cs[i].Events[0]
		old.ID, old.Ago = OldID, Window+35
		cs[i].Events = append(cs[i].Events, old)
	}
	return cs
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
	outside := map[string]bool{}
	for _, e := range c.Events {
		if e.Ago >= Window {
			outside[e.ID] = true
		}
	}
	for _, id := range ranked {
		if outside[id] {
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

// kinds are the kinds of question seen: Kinds' order first, then any other
// (a set of one's own may name kinds of its own), sorted.
func (r *Report) kinds() []string {
	out := append([]string{}, Kinds...)
	var extra []string
	for k := range r.Ranked["all"] {
		if k != "overall" && !slices.Contains(Kinds, k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}

// Markdown renders the report as tables: all questions, then each split's
// (when the set has both).
func (r *Report) Markdown() string {
	var b strings.Builder
	for _, sp := range []string{"all", "tune", "heldout"} {
		n := r.Ranked[sp]["overall"].N
		if sp != "all" && (n == 0 || n == r.Ranked["all"]["overall"].N) {
			continue // no questions, or all of them: the first table
		}
		fmt.Fprintf(&b, "\n%s questions (%d):\n\n", sp, n)
		b.WriteString("| kind | n | nDCG@5 | MRR | Recall@3 | newest-first nDCG@5 | random nDCG@5 |\n|---|---|---|---|---|---|---|\n")
		for _, kind := range append(r.kinds(), "overall") {
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
