package relevance

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/internal/evalset"
	"github.com/kljensen/snowball/english"
)

// texts are the labelled set's event texts and questions: English, Chinese,
// identifiers, amounts.
func texts(t *testing.T) []string {
	cases, err := evalset.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cases {
		for _, e := range c.Events {
			out = append(out, e.Text)
		}
		for _, q := range c.Questions {
			out = append(out, q.Q)
		}
	}
	return append(out, "", "INV-1040 inv1040 129,90 € Ｄ－３００２１ ana.lee@example.com")
}

// A text's scripts: a CJK character, a lower-case Latin letter (a word; an
// identifier's capitals are none), both or neither.
func TestScriptsOf(t *testing.T) {
	for _, c := range []struct {
		text string
		want uint16
	}{{"Refund approved", scriptLatin}, {"退款已到账", scriptCJK}, {"订单 FD-3301 已送达", scriptCJK},
		{"iPad Air 已发货", scriptCJK | scriptLatin}, {"INV-1040 129.90 EUR", 0}, {"", 0}} {
		if got := scriptsOf(c.text); got != c.want {
			t.Errorf("scriptsOf(%q) = %b, want %b", c.text, got, c.want)
		}
	}
}

// An encoded analysis decodes to what analysing the text gives, read in place
// or (misaligned) copied; a truncated one or one of another version is refused.
func TestEncodedAnalysisRoundTrip(t *testing.T) {
	for _, text := range texts(t) {
		want := newDoc(text)
		enc := EncodeAnalysis(text)
		for _, b := range [][]byte{enc, append([]byte{0}, enc...)[1:]} {
			got, ok := decodeAnalysis(b)
			if !ok || got.nTerms != want.nTerms || got.nIDs != want.nIDs || got.nNum != want.nNum || got.nOwn != want.nOwn ||
				got.n != want.n || got.marks != want.marks || !slices.Equal(got.slab, want.slab) {
				t.Fatalf("%q: decoded %+v (%v), want %+v", text, got, ok, want)
			}
		}
		if _, ok := decodeAnalysis(enc[:len(enc)-8]); ok && len(enc) > 16 {
			t.Fatalf("%q: a truncated analysis was accepted", text)
		}
		other := slices.Clone(enc)
		other[7]++ // the version's low byte: the header's last byte, little-endian
		if _, ok := decodeAnalysis(other); ok {
			t.Fatalf("%q: an analysis of another version was accepted", text)
		}
	}
}

// Scores are the same whether the candidates carry encoded analyses or are
// analysed here.
func TestScoresWithEncodedAnalyses(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	all := texts(t)
	var plain, encoded []Candidate
	for i, text := range all[:200] {
		c := Candidate{Source: "s", Time: now.Add(-time.Duration(i) * time.Minute), Text: text}
		plain = append(plain, c)
		c.Analysis = EncodeAnalysis(text)
		encoded = append(encoded, c)
	}
	for _, q := range []string{"where is my refund?", "has INV-1040 been paid?", "退款到账了吗？", "what did I just change?"} {
		a, _ := Score(NewQuery(q, nil), plain, DefaultWeights, nil, now)
		b, _ := Score(NewQuery(q, nil), encoded, DefaultWeights, nil, now)
		if !slices.Equal(a, b) {
			t.Errorf("%q: scores differ with encoded analyses", q)
		}
	}
}

// analysisFingerprint is what EncodeAnalysis gives for texts(t) at
// analysisVersion. When a change to the analysis changes it, bump
// analysisVersion (caches then hold analyses a reader no longer trusts, and it
// analyses those texts itself) and put the new fingerprint here (when only
// the labelled set's texts changed, the fingerprint alone).
const analysisFingerprint = "97fcf3e9097409eb61384b7d2a4a072b078e5d8ff93b416b6536da760f7d1a31"

func TestEncodedAnalysisVersion(t *testing.T) {
	h := sha256.New()
	for _, text := range texts(t) {
		h.Write(EncodeAnalysis(text))
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != analysisFingerprint {
		t.Errorf("the analysis changed (fingerprint %s): bump analysisVersion and set analysisFingerprint to it", got)
	}
}

// BenchmarkEncodeAnalysis is what ingest pays per event it writes to the cache.
func BenchmarkEncodeAnalysis(b *testing.B) {
	for b.Loop() {
		EncodeAnalysis("Refund R-7001 for order O-5001 approved: 129.90 EUR to Visa ending 4242. The refund reaches the card in 3-5 business days.")
	}
}

// Whatever bytes a cache hands back (corrupted, truncated, from another
// writer), decoding never panics, and an accepted analysis can be scored.
func FuzzDecodeAnalysis(f *testing.F) {
	f.Add(EncodeAnalysis("Refund R-7001 for order O-5001 approved: 129.90 EUR"))
	f.Add(EncodeAnalysis("退款 15 元已批准"))
	f.Add(EncodeAnalysis(""))
	f.Add([]byte("not an analysis at all, but a multiple of eight long"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, ok := decodeAnalysis(b)
		if !ok {
			return
		}
		now := time.Now()
		c := []Candidate{{Source: "s", Time: now, Text: "x", Analysis: b}, {Source: "s", Time: now, Text: "Order O-5001 shipped"}}
		Score(NewQuery("where is order 5001?", nil), c, DefaultWeights, nil, now)
		for k := range int(d.nOwn) {
			d.names(d.own(k))
		}
	})
}

// While WarmUpInBackground's load runs, a question is not expanded (nothing
// waits for WordNet), and Loading says so; after it, the synonyms are back.
func TestExpandDoesNotWaitForABackgroundLoad(t *testing.T) {
	const q = "has my parcel been delivered?"
	LoadLexicons()       // (Loading is the whole background load: WordNet, then CC-CEDICT)
	want := Expand(q, 1) // what a question gets once WordNet is loaded
	if len(want) == 0 {
		t.Skip("no WordNet here")
	}
	defer wn.background.Store(false)
	wn.background.Store(true)
	wn.loaded.Store(false) // as if the load were still under way
	if !Loading() || Expand(q, 1) != nil {
		t.Fatalf("while loading: Loading %v, Expand %v; want true and nothing", Loading(), Expand(q, 1))
	}
	wn.loaded.Store(true)
	if Loading() || !slices.Equal(Expand(q, 1), want) {
		t.Fatalf("after the load: Loading %v, Expand %v; want false and %v", Loading(), Expand(q, 1), want)
	}
}

// A regular inflection is reduced by WordNet's own rules (morphy) before its
// synonyms are looked up: "throttled" is "throttle" (not "throttl"),
// "deliveries" is "delivery", "postponed" is "postpone".
func TestExpandReducesRegularForms(t *testing.T) {
	if _, err := os.Stat(WordNetDir); err != nil {
		t.Skip("WordNet is not installed (make setup installs it)")
	}
	for q, want := range map[string]string{
		"why are my calls being throttled?": "limit",    // throttle: restrict, limit
		"where are my deliveries?":          "bringing", // delivery: bringing
		"was the match postponed?":          "defer",    // postpone: defer
		"how many kilometres am I allowed?": "km",       // a unit's abbreviation, though two letters
	} {
		if got := Expand(q, 1); !slices.Contains(got, english.Stem(want, false)) {
			t.Errorf("%q expands to %v, want %q among them", q, got, english.Stem(want, false))
		}
	}
}

// A word's senses in a part of speech WordNet's corpus never used it in,
// while it used another, bring no synonyms: "come" is a verb (come back:
// return), not the noun whose one sense is semen.
func TestExpandLeavesOutUnusedPartsOfSpeech(t *testing.T) {
	if _, err := os.Stat(WordNetDir); err != nil {
		t.Skip("WordNet is not installed (make setup installs it)")
	}
	got := Expand("when do I come back?", 3)
	if slices.Contains(got, english.Stem("semen", false)) || !slices.Contains(got, english.Stem("return", false)) {
		t.Errorf(`"when do I come back?" expands to %v, want "return" and no "semen"`, got)
	}
}

// A regular form is reduced only to a base of the part of speech its rule
// inflects, as morphy does: "changed" is the verb "change", not "chang" (a
// noun alone: the Yangtze's name), "booking" the verb "book", not a booklet.
func TestExpandReducesByPartOfSpeech(t *testing.T) {
	if _, err := os.Stat(WordNetDir); err != nil {
		t.Skip("WordNet is not installed (make setup installs it)")
	}
	for q, unwanted := range map[string]string{
		"what changed?":           "yangtze",
		"is the booking changed?": "changjiang",
		"who is the booking for?": "booklet",
	} {
		if got := Expand(q, 1); slices.Contains(got, english.Stem(unwanted, false)) {
			t.Errorf("%q expands to %v, want no %q among them", q, got, english.Stem(unwanted, false))
		}
	}
	if got := Expand("what changed?", 1); !slices.Contains(got, english.Stem("alter", false)) {
		t.Errorf(`"what changed?" expands to %v, want the verb's "alter" among them`, got)
	}
}

// A word inflected irregularly is the word: the question's "pay" finds an
// event's "paid", "ate" its "eat" and "eaten", "bought" its "buy"; no stemmer
// joins them. They come from WordNet's exception lists, in both directions,
// and from a regular form of the word too ("eating" finds "ate").
func TestExpandInflectsIrregularly(t *testing.T) {
	if _, err := os.Stat(WordNetDir); err != nil {
		t.Skip("WordNet is not installed (make setup installs it)")
	}
	for q, want := range map[string][]string{
		"what did I pay?":             {"paid"},
		"did the dog eat?":            {"ate", "eaten"},
		"who bought the camera?":      {"buy"},
		"were the documents sent?":    {"send"},
		"did the children get there?": {"child"},
		"is my cat eating?":           {"ate"},
		"are they paying me?":         {"paid"},
		"who is sending it?":          {"sent"},
	} {
		inflected := map[string]bool{}
		synonymsOf(q, Analyze(q).Terms, 1, func(e expansion) {
			if e.inflected {
				inflected[e.term] = true
			}
		})
		for _, w := range want {
			if !inflected[english.Stem(w, false)] {
				t.Errorf("%q: inflected forms %v, want %q among them", q, inflected, w)
			}
		}
	}
}

// BenchmarkExpand is a question's WordNet expansion once its words' synonyms
// are cached (as they are after the first questions).
func BenchmarkExpand(b *testing.B) {
	q := "has my refund for the cancelled delivery been paid yet?"
	Expand(q, 1)
	for b.Loop() {
		Expand(q, 1)
	}
}

// A question word that is no English word, in no event, and one edit from a
// word the events contain is taken for that word; real words, short words and
// words the events contain are left alone.
func TestRespellings(t *testing.T) {
	if _, err := os.Stat(WordNetDir); err != nil {
		t.Skip("WordNet is not installed (make setup installs it)")
	}
	var docs []doc
	for _, text := range []string{"Refund R-7001 approved", "Order O-5001 delivered to the parcel shop", "Password changed", "Bitcoin withdrawal on hold"} {
		docs = append(docs, newDoc(text))
	}
	for q, want := range map[string]string{
		"where is my refnud?":                  "refund",   // swapped
		"where is my refnd?":                   "refund",   // deleted
		"was it delivered to the parcle shop?": "parcel",   // swapped, beside real words
		"how do I reset my pasword":            "password", // deleted
		"where is my bitcion?":                 "bitcoin",  // no English word, but in the events
		"where is my order?":                   "",         // an English word
		"is the ordr there?":                   "",         // too short to guess
		"why was my bitcoin held?":             "",         // in the events as written
		"is my subscripton active?":            "",         // nothing one edit away in the events
		"was the refund apprvoed?":             "approv",   // swapped, stemmed
	} {
		got := respellings(q, Analyze(q).Terms, docs)
		if want == "" && len(got) > 0 || want != "" && !slices.Contains(got, english.Stem(want, false)) {
			t.Errorf("%q: respellings %v, want %q", q, got, want)
		}
	}
}

// The question's term table finds every term by hash, a term given twice at
// both places, and nothing else, however many terms fill it.
func TestTermTableFindsEveryTermOfTheQuestion(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 40, 300} {
		var keys []uint64
		for j := range n {
			keys = append(keys, termHash(fmt.Sprint("term", j)))
		}
		if n > 1 {
			keys = append(keys, keys[1]) // a term given twice
		}
		tab := newTermTable(keys)
		for j, h := range keys {
			var at []int32
			for k := tab.find(h); k >= 0; k = tab.next[k] {
				at = append(at, k)
			}
			want := []int32{int32(j)}
			if n > 1 && h == keys[1] {
				want = []int32{1, int32(len(keys) - 1)}
			}
			if !slices.Equal(at, want) {
				t.Fatalf("%d terms: term %d found at %v, want %v", n, j, at, want)
			}
		}
		for j := range 1000 {
			if k := tab.find(termHash(fmt.Sprint("other", j))); k >= 0 {
				t.Fatalf("%d terms: a term not in the table found at %d", n, k)
			}
		}
	}
}

// A Chinese particle is no term alone, only in its character pairs.
func TestNoUnigramOfAChineseParticle(t *testing.T) {
	terms := Analyze("外卖送到了没有？").Terms
	if slices.Contains(terms, "了") || !slices.Contains(terms, "到了") || !slices.Contains(terms, "送") {
		t.Errorf("terms %q: want 送 and 到了, and no 了", terms)
	}
}

// A Chinese question word is no term, as "what" and "why" are none in
// English: "为什么没送到？" does not match "有什么可以帮您？" by 什么.
func TestNoTermOfAChineseQuestionWord(t *testing.T) {
	terms := Analyze("我的快递为什么没送到？").Terms
	// nor its characters, nor a pair across its edge: 为 matched "已为您预约",
	// and 递为 or 么没 match nothing
	for _, w := range []string{"什么", "为什", "什", "么", "为", "递为", "么没"} {
		if slices.Contains(terms, w) {
			t.Errorf("terms %q hold %q", terms, w)
		}
	}
	if !slices.Contains(terms, "快递") || !slices.Contains(terms, "送到") || !slices.Contains(terms, "没送") {
		t.Errorf("terms %q: want 快递, 没送 and 送到", terms)
	}
	// 什么时候 (when) names no time of its own, spaced or not: its 时 matched
	// "接猫时付"; an event's 时间 is a term
	for _, q := range []string{"3308什么时候能接？", "什么 时候 上门？", "什么时间到？"} {
		if terms := Analyze(q).Terms; slices.ContainsFunc(terms, func(w string) bool { return strings.ContainsAny(w, "时候间") }) {
			t.Errorf("%q: terms %q hold 时, 候 or 间", q, terms)
		}
	}
	if terms := Analyze("上门 时间 改 到 周六").Terms; !slices.Contains(terms, "时间") {
		t.Errorf("terms %q: want 时间", terms)
	}
	// Nor a function word, as English stop words are none: 可以 (can), 已经
	// (already), 我们 (we); "几点可以进场？" matched the bot's "还有什么可以帮您的吗？".
	terms = Analyze("我们已经可以进场了吗？").Terms
	for _, w := range []string{"可以", "已经", "我们"} {
		if slices.Contains(terms, w) {
			t.Errorf("terms %q hold %q", terms, w)
		}
	}
	if !slices.Contains(terms, "进场") {
		t.Errorf("terms %q: want 进场", terms)
	}
	// An ordinal's numeral is also its number, as an event prints it: "第一讲"
	// and "第 1 讲" share "1"; 一 elsewhere is no number ("一起").
	if terms := Analyze("第一讲在哪里看？").Terms; !slices.Contains(terms, "1") {
		t.Errorf("terms %q: want 1 for 第一", terms)
	}
	// Spaced as a segmenter leaves it, too: "第 三 天" is 第三天 ("第 3 天").
	if terms := Analyze("5508 第 三 天 去 哪？").Terms; !slices.Contains(terms, "3") {
		t.Errorf("terms %q: want 3 for 第 三", terms)
	}
	// And a month's: "三月" and "3 月" share "3", "十二 月" and "12月" "12".
	for q, want := range map[string]string{"218 三月 多少？": "3", "十二 月 的 账单": "12", "十一月还要交吗": "11"} {
		if terms := Analyze(q).Terms; !slices.Contains(terms, want) {
			t.Errorf("%q: terms %q, want %s", q, terms, want)
		}
	}
	for _, q := range []string{"我们一起去", "第几次课？", "第三方支付", "第 几 次 课？"} {
		if terms := Analyze(q).Terms; slices.Contains(terms, "1") {
			t.Errorf("terms %q: %s holds no 1", terms, q)
		}
	}
	// So is an English ordinal's ("the first walk" and "Walk 1", "on the 6th"
	// and "6 December"), but not "at first" nor "the first time".
	for q, want := range map[string]string{"how did the first walk go?": "1", "what seat am I in on the 6th?": "6", "when is my 2nd lesson?": "2",
		"who is coming on the 26th?": "26"} {
		if terms := Analyze(q).Terms; !slices.Contains(terms, want) {
			t.Errorf("%q: terms %q, want %s", q, terms, want)
		}
	}
	for _, q := range []string{"why did it fail at first?", "why didn't the TV go through the first time?", "it failed a second time"} {
		if terms := Analyze(q).Terms; slices.Contains(terms, "1") || slices.Contains(terms, "2") {
			t.Errorf("%q: terms %q: at first, the first time hold no number", q, terms)
		}
	}
}

// A question's two-word collocations bring their WordNet synonyms, with an
// object pronoun between a verb and its particle; one that starts with a stop
// word brings none.
func TestExpandFindsCollocations(t *testing.T) {
	if _, err := os.Stat(WordNetDir); err != nil {
		t.Skip("WordNet is not installed (make setup installs it)")
	}
	for q, want := range map[string]string{
		"is the down payment through?":      "deposit",  // down payment: deposit
		"will they put it together for me?": "assemble", // put together: assemble
		"did you put together the desk?":    "assemble",
	} {
		if got := Expand(q, 1); !slices.Contains(got, english.Stem(want, false)) {
			t.Errorf("%q expands to %v, want %q among them", q, got, english.Stem(want, false))
		}
	}
	if got := Expand("I can't get in", 1); slices.Contains(got, english.Stem("arrive", false)) {
		t.Errorf("a collocation starting with a stop word should bring nothing: %v", got)
	}
}

// A question whether something is so also looks for what says it is not: an
// adjective's WordNet antonyms ("available" → "unavailable"), in a question
// opening with an auxiliary only.
func TestAYesNoQuestionLooksForTheOpposite(t *testing.T) {
	if _, err := os.Stat(WordNetDir); err != nil {
		t.Skip("WordNet is not installed (make setup installs it)")
	}
	for q, want := range map[string]string{
		"is the blue sofa available?":  "unavailable",
		"was the invoice paid?":        "unpaid",
		"is my application complete?":  "incomplete",
		"are the shops open tomorrow?": "shut",
	} {
		if got := Expand(q, 1); !slices.Contains(got, english.Stem(want, false)) {
			t.Errorf("%q expands to %v, want %q among them", q, got, english.Stem(want, false))
		}
	}
	if got := Expand("when will the blue sofa be available?", 1); slices.Contains(got, english.Stem("unavailable", false)) {
		t.Errorf("a question asking when brings no antonym: %v", got)
	}
}

// FuzzAnalyze: any text (ingest analyses whatever the events say) analyses
// without panicking; each identifier is also a term, each answer type's term
// is there at most once, and the analysis without answer types is the same
// minus those terms.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"Appointment on Friday 11:00", "declined due to limit reached", "12:3 1: May 2",
		"周六班调整为周日上午 9 点", "https://a.example/1Z88AA0312,O-1/O-2", "20/05/2026 €35", "Ｄ－３００２１到了吗", "Let me check that for you", "0Ms", "Driving lesson 8 cancelled", "Classroom moved to room 4.12",
		"0000000?", "Chat (customer): whats up", "tracking 1Z 999 AA1 01 2345 6784", "会员有效期 一年", "Chat (agent): ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := Analyze(s)
		for _, id := range a.IDs {
			// a numbered thing ("lesson 8": lesson8) is no term; its number is
			if n := strings.TrimLeft(id, "abcdefghijklmnopqrstuvwxyz"); !slices.Contains(a.Terms, id) &&
				!(len(n) <= 2 && len(id)-len(n) >= 3 && slices.Contains(a.Terms, n)) {
				t.Fatalf("%q: identifier %q is no term of %q", s, id, a.Terms)
			}
		}
		isType := func(term string) bool {
			return term == OfferTerm || term == QuestionTerm || slices.ContainsFunc(answerTypes, func(t *answerType) bool { return t.term == term })
		}
		var types []string
		for _, term := range a.Terms {
			if isType(term) {
				if slices.Contains(types, term) {
					t.Fatalf("%q: %q twice", s, term)
				}
				types = append(types, term)
			}
		}
		plain := slices.DeleteFunc(analyze(normalise(s), false, true).Terms, isType) // (as an event: a question leaves out some words, a number's groups)
		rest := slices.DeleteFunc(slices.Clone(a.Terms), isType)
		if !slices.Equal(plain, rest) {
			t.Fatalf("%q: without answer types %q, want %q", s, plain, rest)
		}
	})
}

// Summed over the question's non-zero dimensions only (and its dense tail,
// the word vectors' dimensions, as a dense loop), the cosine is Cosine's to
// the bit, at every length (the tail past the last four too), and a dense
// question is left to Cosine.
func TestCosineOverTheNonZerosIsCosine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, denseTail := range []int{0, 17, 100} {
		for n := 130; n <= 390; n += 17 {
			a, b := make([]float32, n), make([]float32, n)
			for i := range b {
				b[i] = r.Float32() - 0.5
			}
			for range max(1, (n-denseTail)/8) {
				a[r.IntN(n-denseTail)] = r.Float32() - 0.5
			}
			a[n-1] = 0.25 // a dimension past the last four
			for i := n - denseTail; i < n; i++ {
				a[i] = r.Float32() + 0.1
			}
			sv := nonZero(a)
			if sv == nil {
				t.Fatalf("length %d, dense tail %d: a sparse vector gave no shape", n, denseTail)
			}
			if denseTail >= 16 && sv.tail > n-denseTail {
				t.Errorf("length %d: the dense tail begins at %d, want at most %d", n, sv.tail, n-denseTail)
			}
			if got, want := cosineAt(a, sv, b), Cosine(a, b); got != want {
				t.Errorf("length %d, dense tail %d: %v, want Cosine's %v", n, denseTail, got, want)
			}
		}
	}
	dense := make([]float32, 384)
	for i := range dense {
		dense[i] = 1
	}
	if nonZero(dense) != nil {
		t.Error("a dense vector: want nil (Cosine's dense loop)")
	}
}

// A question asking what a thing costs, not how much money moved (inherit).
func TestAsksWhatItCosts(t *testing.T) {
	for q, want := range map[string]bool{"how much is the hotel?": true, "这期账单多少钱？": true, "11 月 账单 多少？": true, "what's the price of the course?": true,
		"how much does the seat cost?": true, "how much is left to pay?": false, "how much did I get back?": false,
		"退了多少钱？": false, "付了多少钱？": false, "when is the hotel?": false, "is my costume ready?": false} {
		if got := asksWhatItCosts(newText(q)); got != want {
			t.Errorf("%q asks what a thing costs: %v, want %v", q, got, want)
		}
	}
}

// An event is about another day's (or month's) thing when it names none of
// the days (months) a question names and a day it names is not where
// something moved to.
func TestAboutAnotherDay(t *testing.T) {
	for text, want := range map[string]bool{
		"Monday booking moved to room Vega":    true,
		"Appointment moved to Saturday 09:00":  false,
		"Friday appointment moved to Monday":   true,
		"Thursday appointment moved to Monday": false,
		"张医生 周三 停诊，已 改约 周四 上午 9:30":            false, // (names the day asked)
		"周三的课取消了":                              true,
	} {
		if got := aboutAnotherDay(text, dayMask(daysNamed(newText("is the Thursday one still on? 周四的呢")))); got != want {
			t.Errorf("%q: about another day %v, want %v", text, got, want)
		}
	}
	// months: named in English in full or by a number before 月 (not "3 个 月")
	for text, want := range map[string]bool{
		"Invoice INV-30425: consulting April, due 15 May": true,
		"Invoice INV-30418: consulting March":             false,
		"4 月 电费 88 元":                                     true,
		"三月 电费 186 元":                                     false,
		"合同 3 个 月":                                        false,
		"Friday appointment moved to Monday":              false, // (a weekday, no month)
	} {
		if got := aboutAnotherDay(text, dayMask(daysNamed(newText("did you get my 240 for March? 3 月 的 呢")))); got != want {
			t.Errorf("%q: about another month %v, want %v", text, got, want)
		}
	}
}

// A question asking the business to tell ("can you tell me where it is?") is
// no question about what someone said ("what did the doctor tell me?").
func TestAskingToBeToldIsNoQuestionOfWhatWasSaid(t *testing.T) {
	for q, want := range map[string]bool{"can you tell me where it is?": true, "tell me when it ships": true, "please tell me the status": true,
		"请告诉我快递到哪了": true, "what did the doctor tell me?": false, "what did Marta say about the oven?": false,
		"医生告诉我什么了？": false, "did you tell me about the delay?": false} {
		if got := asksToBeTold(questionText(q)); got != want {
			t.Errorf("%q asks to be told: %v, want %v", q, got, want)
		}
	}
}

// "May" beside a day is the month, not the stop word: "due 25 May" and "by 25
// May?" share it; "you may cancel" holds no term for it.
func TestMayBesideADayIsTheMonth(t *testing.T) {
	for text, want := range map[string]bool{"minimum 62.00 EUR due 25 May": true, "on May 3rd": true, "you may cancel": false, "I may be 5 minutes late": false} {
		if got := slices.Contains(Analyze(text).Terms, "may"); got != want {
			t.Errorf("%q: terms %q hold may: %v, want %v", text, Analyze(text).Terms, got, want)
		}
	}
}

// A clock time is read from the normalised text: written full-width, as
// Chinese keyboards type it, it is one ("取件 ９：３０"), and a day beside
// it is read too.
func TestAClockTimeFullWidth(t *testing.T) {
	for text, want := range map[string]uint16{
		"取件 ９：３０":         markClock,
		"周五 取件 ９：３０":      markClock | markDay,
		"Refund 9.30 EUR": 0,
	} {
		if got := clockOf(normalise(text)); got != want {
			t.Errorf("%q: marks %b, want %b", text, got, want)
		}
	}
}

// A month with no day of it, as a text's only time, is marked once when the
// text is analysed: it answers no question asking which day.
func TestAMonthAloneIsMarked(t *testing.T) {
	for text, want := range map[string]uint16{
		"BJ-2281 12 月 套餐 600 元 已 扣":   markMonthOnly,
		"入住 日期 改为 12 月 25 日":          0,
		"12 月 套餐 已 扣，下 次 周三 上门":       0,
		"Order O-7001 placed, 12 Dec": 0,
	} {
		if got := monthOnlyOf(normalise(text)); got != want {
			t.Errorf("%q: marks %b, want %b", text, got, want)
		}
	}
}

// A letter joined to a word by a hyphen is also the word written together:
// "E-mail changed" says "email" as "which email is on my account?" asks it,
// and still says "mail"; "e-tickets" says "etickets" and "tickets". Not a
// longer prefix ("re-sent").
func TestALetterJoinedToAWordIsOneWord(t *testing.T) {
	for text, want := range map[string][]string{
		"E-mail changed": {"email", "mail"}, "E-tickets in the app": {"eticket", "ticket"}, "X-ray booked": {"xray", "ray"},
	} {
		for _, term := range want {
			if got := Analyze(text).Terms; !slices.Contains(got, term) {
				t.Errorf("%q: terms %q, want %q among them", text, got, term)
			}
		}
	}
	if got := Analyze("re-sent the code").Terms; slices.Contains(got, "resent") {
		t.Errorf("a prefix of two letters joins its word: %q", got)
	}
}

// TestReplacesItself: an event says its object itself is another now when
// nothing but its identifiers and words naming no thing ("has been", 已,
// 免费, 需) come before the word saying so; one naming a thing of it there
// says that thing is another (the mark made once, at analysis).
func TestReplacesItself(t *testing.T) {
	for text, want := range map[string]bool{
		"GM-330 upgraded to Premium":         true,
		"LS-2204 switched to Spanish B1":     true,
		"HT-30912 已 免费 升级 为 江景 套房":           true,
		"HT-30912 已免费升级为江景套房":                true,
		"DG-7713 改 为 10 寸":                   true,
		"WY-7203 需 更换 阀门，材料费 45 元":           true,
		"0719 tyre replaced":                 false,
		"Room for LS-2204 changed to 2.14":   false,
		"XS-20417 班主任 更换 为 王 老师":             false,
		"WX-7702 更换 时间 改 到 周六 上午":            false,
		"BH-5120 moved to Sunday 9:00-13:00": false,
	} {
		d := newDoc(text)
		if got := replacesItself(&d); got != want {
			t.Errorf("replacesItself(%q) = %v, want %v", text, got, want)
		}
	}
}

// A Chinese word saying a change is read spaced or not: "增加 到 35 份" and
// "增加到35份" both say 增加到, which is no term of the analysis (a pair is).
func TestChineseChangeWordsSpacedOrNot(t *testing.T) {
	for _, text := range []string{"TC-5502 增加 到 35 份", "TC-5502增加到35份", "CW-1181车位月租调到650元", "CW-1181 车位 月租 调 到 650 元"} {
		if d := newDoc(text); !saysChanged(&d) {
			t.Errorf("%q says no change", text)
		}
	}
}

// The customer's choice says what a thing is now, as a change does ("you
// chose to wait for size 56" after "size 56 out of stock, size 58 offered";
// "opted for"); a value corrected or recalculated has changed.
func TestAChoiceOrACorrectionSaysAChange(t *testing.T) {
	for _, text := range []string{"BK-1190 you chose to wait for size 56", "SF-2210 you opted for the blue cover",
		"Bill GB-6610 recalculated with your reading: 88.10 EUR", "RE-0771 corrected: 2,160 EUR after discount"} {
		if d := newDoc(text); !saysChanged(&d) {
			t.Errorf("%q says no change", text)
		}
	}
	// an offer is no change yet: the choice that follows is
	if d := newDoc("GL-3397 frame out of stock, brown version offered instead"); saysChanged(&d) {
		t.Errorf("an alternative offered instead says a change")
	}
}
