package evalset

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The example set of one's own parses: a case without a split is held back,
// and every case gets the event older than the window.
func TestReadFilesReadsTheExample(t *testing.T) {
	cs, warnings, err := ReadFiles("../../examples/evalset.json")
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	if len(cs) != 12 {
		t.Fatalf("%d cases", len(cs))
	}
	for _, c := range cs {
		if c.Split != "heldout" {
			t.Errorf("%s: split %q", c.Customer, c.Split)
		}
		if last := c.Events[len(c.Events)-1]; last.ID != OldID || last.Ago < Window {
			t.Errorf("%s: last event %+v, want the old one", c.Customer, last)
		}
	}
	// A directory reads its *.json files.
	dir := t.TempDir()
	b, _ := os.ReadFile("../../examples/evalset.json")
	os.WriteFile(filepath.Join(dir, "a.json"), b, 0o644)
	if cs, _, err := ReadFiles(dir); err != nil || len(cs) != 12 {
		t.Fatalf("directory: %d cases, %v", len(cs), err)
	}
	// The same customer twice is refused.
	if _, _, err := ReadFiles(dir, "../../examples/evalset.json"); err == nil || !strings.Contains(err.Error(), `customer "x-bikes-01": in the set twice`) {
		t.Fatalf("twice: %v", err)
	}
}

// A set that does not hold together is refused with the file, the case and
// the field at fault.
func TestParseNamesTheFieldAtFault(t *testing.T) {
	const ok = `{"customer":"c1","events":[{"id":"e1","ago":5,"text":"Order O-1 shipped"}],"questions":[{"q":"where is it?","kind":"lexical","rel":{"e1":2}}]}`
	if _, err := Parse("ok.json", []byte("["+ok+"]")); err != nil {
		t.Fatalf("a valid case refused: %v", err)
	}
	for _, c := range []struct{ set, want string }{
		{`{"customer":"c1"}`, "want a JSON array of cases"},
		{`[{"customer":"c1","evnts":[]}]`, `field "evnts" is none of customer, split, events, questions`},
		{`[{"customer":"","events":[],"questions":[]}]`, `case 1 (customer ""): customer: empty`},
		{`[{"customer":"c 1","events":[],"questions":[]}]`, "customer: letters, digits"},
		{strings.Replace(`[`+ok+`]`, `"customer":"c1"`, `"customer":"c1","split":"training"`, 1), `split: "training": want tune (or train, dev) or heldout`},
		{strings.Replace(`[`+ok+`]`, `"ago":5`, `"ago":-1`, 1), `event "e1": ago: -1 minutes`},
		{strings.Replace(`[`+ok+`]`, `"text":"Order O-1 shipped"`, `"text":" "`, 1), `event "e1": text: empty`},
		{strings.Replace(`[`+ok+`]`, `"id":"e1"`, `"id":"old"`, 1), `event 1: id: "old" is the event older than the window`},
		{strings.Replace(`[`+ok+`]`, `{"e1":2}`, `{"e2":2}`, 1), `question 1 ("where is it?"): rel: "e2" is none of the case's events`},
		{strings.Replace(`[`+ok+`]`, `{"e1":2}`, `{"e1":3}`, 1), `rel: "e1" graded 3`},
		{strings.Replace(`[`+ok+`]`, `{"e1":2}`, `{"e1":0}`, 1), `rel: no event graded 1 or 2`},
		{strings.Replace(`[`+ok+`]`, `"ago":5`, `"ago":60`, 1), `rel: "e1" graded 2 is 60 minutes old, outside the 60-minute window`},
		{strings.Replace(`[`+ok+`]`, `"kind":"lexical"`, `"kind":""`, 1), `kind: empty`},
	} {
		_, err := Parse("mine.json", []byte(c.set))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "mine.json: ") {
			t.Errorf("%s: got %v, want an error naming mine.json and %q", c.set, err, c.want)
		}
	}
}

// An answer holding any event from outside the window counts as a violation,
// and kinds of one's own are reported after the built-in ones.
func TestReportCountsWindowViolationsAndOwnKinds(t *testing.T) {
	c := Case{Customer: "c1", Split: "heldout", Events: []Event{{ID: "a", Ago: 3}, {ID: "b", Ago: 10}, {ID: "late", Ago: 90}}}
	r := NewReport()
	rng := rand.New(rand.NewPCG(1, 2))
	r.Add(c, Question{Q: "x", Kind: "billing", Rel: map[string]int{"b": 2}}, []string{"b", "a"}, rng)
	r.Add(c, Question{Q: "y", Kind: "lexical", Rel: map[string]int{"a": 2}}, []string{"late", "a"}, rng)
	if r.WindowViolations != 1 {
		t.Fatalf("window violations %d, want 1", r.WindowViolations)
	}
	md := r.Markdown()
	if strings.Contains(md, "tune questions") || strings.Contains(md, "heldout questions") || !strings.Contains(md, "all questions (2)") {
		t.Fatalf("splits:\n%s", md)
	}
	if i, j := strings.Index(md, "| lexical |"), strings.Index(md, "| billing | 1 | 1.000 | 1.000 |"); i < 0 || j < i {
		t.Fatalf("kinds:\n%s", md)
	}
}

// A set of one's own may carry fields the format does not have (a note, a
// source of its own): ReadFiles ignores them with a warning naming each; the
// built-in set's Parse refuses them.
func TestReadFilesWarnsAboutFieldsItIgnores(t *testing.T) {
	dir := t.TempDir()
	set := `[{"customer":"c1","note":"from the March export","events":[{"id":"e1","ago":5,"text":"Order O-1 shipped","lang":"en"}],` +
		`"questions":[{"q":"where is it?","kind":"lexical","rel":{"e1":2},"author":"qa"}]}]`
	os.WriteFile(filepath.Join(dir, "mine.json"), []byte(set), 0o644)
	cs, warnings, err := ReadFiles(filepath.Join(dir, "mine.json"))
	if err != nil || len(cs) != 1 {
		t.Fatalf("%d cases, %v", len(cs), err)
	}
	want := []string{`case 1 (customer "c1"): field "note" is none of customer, split, events, questions: ignored`,
		`case 1 (customer "c1"): event 1: field "lang" is none of id, source, ago, text: ignored`,
		`case 1 (customer "c1"): question 1: field "author" is none of q, kind, rel: ignored`}
	if len(warnings) != len(want) {
		t.Fatalf("warnings %q", warnings)
	}
	for i, w := range want {
		if !strings.HasSuffix(warnings[i], w) || !strings.HasPrefix(warnings[i], filepath.Join(dir, "mine.json")+": ") {
			t.Errorf("warning %q, want …%s", warnings[i], w)
		}
	}
	if _, err := Parse("builtin.json", []byte(set)); err == nil || !strings.Contains(err.Error(), `field "note"`) {
		t.Errorf("Parse accepted an unknown field: %v", err)
	}
	// A misspelt field leaves the one it meant missing: the error says both.
	os.WriteFile(filepath.Join(dir, "typo.json"), []byte(`[{"customer":"c1","evnts":[],"questions":[]}]`), 0o644)
	if _, _, err := ReadFiles(filepath.Join(dir, "typo.json")); err == nil || !strings.Contains(err.Error(), `events: none (`) || !strings.Contains(err.Error(), `field "evnts"`) {
		t.Errorf("typo: %v", err)
	}
}
