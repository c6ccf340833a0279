package relevance

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// A thesaurus line names the same thing several ways: a question saying one
// looks for the others' terms; a one-way line only from left to right; an
// entry matches the question's words stemmed and in order, a Chinese one its
// characters; a phrase of content words is brought whole, a phrase with a stop
// word only matches.
func TestThesaurusExpands(t *testing.T) {
	th, err := ParseThesaurus("t", `# comment
refund, money back, reimbursement
bitcoin, btc => crypto
power outage, blackout
退款, 退钱
send back, return`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q       string
		terms   []string
		phrases [][]string
	}{
		{"did I get my money back?", []string{"refund", "reimburs"}, nil},
		{"where is my refund", []string{"reimburs"}, [][]string{{"money", "back"}}}, // a phrase of content words, whole
		{"did my BTC arrive?", []string{"crypto"}, nil},                             // one way…
		{"is my crypto there?", nil, nil},                                           // …not back
		{"was there a blackout?", nil, [][]string{{"power", "outag"}}},              // a phrase, whole
		{"any power outages?", []string{"blackout"}, nil},                           // stemmed: outages
		{"my money is back", nil, nil},                                              // not in order
		{"退钱了吗", []string{"退款"}, nil},                                               // pairs of characters, not one alone
		{"我 想 退 钱", []string{"退款"}, nil},                                            // Chinese written with spaces between its words
		{"can I send back the boots?", []string{"return"}, nil},                     // "send back" has a stop word: it matches, it is not brought
		{"can I send the damaged boots back?", []string{"return"}, nil},             // a verb and its particle, up to three words between
		{"send it to my sister and the boots back", nil, nil},                       // not four words apart
		{"can I send them up and back?", nil, nil},                                  // nor across another particle
	} {
		var terms []string
		var phrases [][]string
		for _, m := range th.matches(questionText(c.q)) {
			m.each(func(e expansion) {
				if e.phrase != nil {
					phrases = append(phrases, e.phrase)
				} else {
					terms = append(terms, e.term)
				}
			})
		}
		if !slices.Equal(terms, c.terms) || len(phrases) != len(c.phrases) || len(phrases) > 0 && !slices.Equal(phrases[0], c.phrases[0]) {
			t.Errorf("%q: %v %v, want %v %v", c.q, terms, phrases, c.terms, c.phrases)
		}
	}
	// An event has a phrase when it has every one of its terms.
	docs := []doc{newDoc("Planned power outage on Friday"), newDoc("Power bank shipped"), newDoc("Outage fixed")}
	if got := phraseMatches([]string{"power", "outag"}, docs); !slices.Equal(got, []int32{1, 0, 0}) {
		t.Errorf("phrase matches %v, want only the first event", got)
	}
	if got := phraseMatches([]string{"power", "cut"}, docs); got != nil {
		t.Errorf("phrase matches %v, want none", got)
	}
}

// A thesaurus that does not hold together is refused with its name, the line
// and what is wrong.
func TestThesaurusErrorsNameTheLine(t *testing.T) {
	for text, want := range map[string]string{
		"a, b\nrefund":      "t:2: \"refund\" names one thing",
		"a, , b":            "t:1: an empty entry",
		"a, b,":             "t:1: an empty entry",
		"a => b => c":       "t:1: more than one \"=>\"",
		"=> b":              "t:1: an empty entry",
		"a, b\n\n-, refund": "t:3: \"-\" has no word",
	} {
		if _, err := ParseThesaurus("t", text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", text, err, want)
		}
	}
	if _, err := LoadThesaurus(Builtin, "/nonexistent/t.txt"); err == nil || !strings.Contains(err.Error(), "/nonexistent/t.txt") {
		t.Errorf("a missing file: %v, want an error naming it", err)
	}
}

// With the built-in thesaurus, a question that shares no word with its answer
// finds it; without, it does not.
func TestBuiltinThesaurusRanks(t *testing.T) {
	now := time.Now()
	cands := []Candidate{
		{Source: "s", Time: now.Add(-8 * time.Minute), Text: "Refund for the football ticket approved: 65.00 EUR"},
		{Source: "s", Time: now.Add(-1 * time.Minute), Text: "Opened the monthly newsletter"},
		{Source: "s", Time: now.Add(-3 * time.Minute), Text: "Planned power outage in your street on Friday"},
		{Source: "s", Time: now.Add(-30 * time.Minute), Text: "Parcel P-7001 dispatched from the warehouse"},
		{Source: "s", Time: now.Add(-20 * time.Minute), Text: "Card debited 49.00 EUR for the annual plan"},
		{Source: "s", Time: now.Add(-40 * time.Minute), Text: "Boiler serviced, radiators bled"},
		{Source: "s", Time: now.Add(-50 * time.Minute), Text: "Password changed, all other devices signed out"},
		{Source: "s", Time: now.Add(-55 * time.Minute), Text: "Profile 'Kids' created with age limit 12"},
		{Source: "s", Time: now.Add(-56 * time.Minute), Text: "SIM lock removed"},
		{Source: "s", Time: now.Add(-57 * time.Minute), Text: "Referral: Anna signed up with your link"},
		{Source: "s", Time: now.Add(-58 * time.Minute), Text: "Inspection report: boiler safe"},
		{Source: "s", Time: now.Add(-59 * time.Minute), Text: "Application accepted: MSc Data Science"},
		{Source: "s", Time: now.Add(-60 * time.Minute), Text: "Login from a new device in Lisbon"},
		{Source: "s", Time: now.Add(-61 * time.Minute), Text: "Request to bring a dog: allowed"},
		{Source: "s", Time: now.Add(-62 * time.Minute), Text: "Lettering: Happy 40th, Anna"},
	}
	firstWithTheThesaurusOnly(t, cands, now, map[string]int{"did I get my money back?": 0, "will the electricity be cut off?": 2,
		"will my electricity be off soon?": 2, "has my order been sent?": 3, "was my payment taken?": 4, "is my heating working?": 5,
		"was I logged out on my TV?": 6, "what did I set up?": 7,
		"is my phone unlocked?": 8, "did my friend join?": 9, "how did it go with the inspector?": 10,
		"did i get in?": 11, "was someone else in my account?": 12, "can my pet come along?": 13,
		"what will be written on top?": 14})
}

// The same in Chinese: 丢了 is 遗失, 发货 is 出库; and across: a late rider is
// 超时, a repayment (还款) a payment.
func TestBuiltinThesaurusRanksInChinese(t *testing.T) {
	now := time.Now()
	cands := []Candidate{
		{Source: "s", Time: now.Add(-2 * time.Minute), Text: "已登录网页版"},
		{Source: "s", Time: now.Add(-25 * time.Minute), Text: "快件遗失，正在理赔"},
		{Source: "s", Time: now.Add(-35 * time.Minute), Text: "订单 DD-71 已出库"},
		{Source: "s", Time: now.Add(-45 * time.Minute), Text: "DD-70 骑手超时"},
		{Source: "s", Time: now.Add(-50 * time.Minute), Text: "尾号 6621 还款 1,681.00 元成功"},
		{Source: "s", Time: now.Add(-55 * time.Minute), Text: "师傅已更换灯泡，已完工"},
		{Source: "s", Time: now.Add(-58 * time.Minute), Text: "春节期间暂停配送"},
	}
	firstWithTheThesaurusOnly(t, cands, now, map[string]int{"包裹丢了吗？": 1, "发货了吗？": 2, "was the rider late?": 3, "did my payment go through?": 4,
		"修好了吗？": 5, "过年还送货吗？": 6})
	firstWithTheThesaurusOnly(t, []Candidate{ // (少了什么: what was out of stock, 缺货)
		{Source: "s", Time: now.Add(-50 * time.Minute), Text: "订单SX-70: 蔬菜水果共12样，98元"},
		{Source: "s", Time: now.Add(-40 * time.Minute), Text: "SX-70缺货：草莓，已退款15元"},
		{Source: "s", Time: now.Add(-30 * time.Minute), Text: "SX-70骑手：王师傅"},
		{Source: "s", Time: now.Add(-20 * time.Minute), Text: "SX-70已送达，放在门口"},
	}, now, map[string]int{"SX-70少了什么？": 1})
	// (复查 is 复诊, a doctor's follow-up: what the question brings)
	cands = append(cands, Candidate{Source: "s", Time: now.Add(-59 * time.Minute), Text: "GH-50219复诊：12月18日下午2点"})
	if _, _, f := ScoreFused(NewQuery("GH-50219什么时候复查？", nil), cands, DefaultWeights, nil, now); !slices.Contains(f.Expanded, "复诊") {
		t.Errorf("什么时候复查 should bring 复诊: %v", f.Expanded)
	}
}

// firstWithTheThesaurusOnly checks that each question ranks its candidate
// first with the built-in thesaurus, and not without it.
func firstWithTheThesaurusOnly(t *testing.T, cands []Candidate, now time.Time, want map[string]int) {
	t.Helper()
	for q, first := range want {
		on, _ := Score(NewQuery(q, nil), cands, DefaultWeights, nil, now)
		w := DefaultWeights
		w.Thesaurus = 0
		off, _ := Score(NewQuery(q, nil), cands, w, nil, now)
		if best(on) != first || best(off) == first {
			t.Errorf("%q: first %d with the thesaurus, %d without; want %d, and not without", q, best(on), best(off), first)
		}
	}
}

func best(scores []float64) int {
	b := 0
	for i, s := range scores {
		if s > scores[b] {
			b = i
		}
	}
	return b
}

// What a word brings counts in the word's own BM25 clause: an event saying
// "refund" and "money back" does not outrank one saying "refund" twice (a rare
// synonym counted apart outweighed the common word by its IDF), and an event
// with the synonym alone ranks below one with the word.
func TestBroughtTermsBlendIntoTheirWordsClause(t *testing.T) {
	now := time.Now()
	cands := []Candidate{
		{Source: "s", Time: now, Text: "Refund R-7001 approved: the refund reaches the card in 3-5 days"},
		{Source: "s", Time: now, Text: "Ticket: refund not received, when do I get my money back?"},
		{Source: "s", Time: now, Text: "Chat: where is my refund?"},
		{Source: "s", Time: now, Text: "Reimbursement of 12.00 EUR sent"},
		{Source: "s", Time: now, Text: "Order O-5001 returned"},
	}
	_, comps := Score(NewQuery("where is my refund?", nil), cands, DefaultWeights, nil, now)
	if comps[0].Lexical < comps[1].Lexical {
		t.Errorf("lexical: the refund %.3f, the ticket with refund and money back %.3f; want the refund at least level", comps[0].Lexical, comps[1].Lexical)
	}
	if comps[3].Lexical <= 0 || comps[3].Lexical >= comps[2].Lexical {
		t.Errorf("lexical: the synonym alone %.3f, the word alone %.3f; want it above 0 and below", comps[3].Lexical, comps[2].Lexical)
	}
}

// The built-in thesaurus is the same file parsed again: nothing it depends on
// (the stop words) was missing when it was parsed.
func TestBuiltinThesaurusParsedWhole(t *testing.T) {
	again, err := ParseThesaurus("thesaurus.txt", builtinThesaurus)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(DefaultThesaurus(), again) {
		t.Error("the built-in thesaurus differs from the same file parsed after initialisation")
	}
	if th, _ := LoadThesaurus(Builtin); !reflect.DeepEqual(th, again) {
		t.Error(`LoadThesaurus("builtin") differs from the built-in thesaurus`)
	}
}
