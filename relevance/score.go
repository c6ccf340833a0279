package relevance

import (
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Candidate is one event to score.
type Candidate struct {
	Source    string
	Time      time.Time
	Text      string
	Embedding []float32 // nil: no vector (similarity 0)
	// Hash identifies Text (the event's text hash): its analysis is cached under
	// it. Empty: analysed every time.
	Hash []byte
	// Analysis is Text's analysis as EncodeAnalysis made it, when a cache kept
	// one beside the event: used instead of analysing Text (nil, or one of
	// another analysis version: Text is analysed). Read in place: never written.
	Analysis []byte
}

// Query is the question, analysed once for all candidates.
type Query struct {
	Text string // what is asked (Asked)
	// Context is what the message says besides what it asks (Asked): its
	// words are looked for at Weights.Context, and read for nothing else.
	Context  string
	Analysis Analysis
	Vector   []float32 // the question's embedding; nil when it could not be had
	// Intent reports that the question asks for what is newest ("what did I just
	// change?", "latest", "刚才", "最近").
	Intent   bool
	prepared *text    // Text normalised and split once (NewQuery) for the analysis, every cue and the thesaurus
	context  []string // Context's words, not the question's (NewQuery): each a clause of BM25 at Weights.Context (lexQuery)
}

// normalised is the question's text (questionText), made on first use.
func (q *Query) normalised() text {
	if q.prepared == nil {
		t := questionText(q.Text)
		q.prepared = &t
	}
	return *q.prepared
}

// NewQuery analyses the question; vec may be nil. What a question states counts as its
// words ("was my card declined?" looks for the problems), but a question asking
// for help ("can you look into my order?") does not look for the lines that
// offer it: its analysis has no OfferTerm.
func NewQuery(question string, vec []float32) Query {
	asked, context := Asked(spelledOut(question))
	q := Query{Text: asked, Context: context, Vector: vec}
	q.Analysis, q.Intent = analyze(normalise(codesJoined(q.Text)), true, false), recencyIntent(q.normalised())
	if context != "" {
		// (its words the question's are not, nor a number: a cue the
		// question's reading left out, "now", is no context; analysed
		// without answer types, which would be no words of it)
		own := words(q.Analysis)
		for _, t := range words(analyze(normalise(context), false, false)) {
			if !slices.Contains(own, t) && strings.IndexFunc(t, unicode.IsLetter) >= 0 {
				q.context = append(q.context, t)
			}
		}
	}
	return q
}

// codesJoined is a question with the codes it writes apart from their
// numbers joined to them ("what is VC 4410?", "inv 60215 paid?", "INV: 1040",
// "INV #1040": VC-4410, inv-60215, INV-1040): two to five letters, then a
// space, a colon or " #", and three digits or more, the letters in capitals (whatever word they spell: "BR 220", "EX 5502")
// or no word WordNet knows ("order 5001", "room 204" and "br 220" stay
// apart); not a currency, a unit or a month ("EUR 4410", "KG 500"), nor an
// amount or a time ("EUR 12.50").
func codesJoined(s string) string {
	if !letterThenDigits(s) {
		return s // (most questions: no match to look for)
	}
	var b []byte
	last := 0
	for _, m := range codeApart.FindAllStringSubmatchIndex(s, -1) {
		letters, end := s[m[2]:m[3]], m[1]
		w := strings.ToLower(letters)
		if end+1 < len(s) && strings.IndexByte(".,:", s[end]) >= 0 && s[end+1] >= '0' && s[end+1] <= '9' ||
			stopWords[w] || currencyCodes[w] || quantityUnits[w] || timeUnits[w] || months[w] || timeAlone[w] ||
			strings.ToUpper(letters) != letters && knows(w) {
			continue
		}
		b = append(append(append(b, s[last:m[3]]...), '-'), s[m[4]:end]...)
		last = end
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// letterThenDigits reports a digit after a space, a colon or a "#" that
// follow a letter (one or two of them): where codeApart may match.
func letterThenDigits(s string) bool {
	for k := 2; k < len(s); k++ {
		if s[k] < '0' || s[k] > '9' || strings.IndexByte(" :#", s[k-1]) < 0 {
			continue
		}
		j := k - 1
		for j > 0 && k-j <= 2 && strings.IndexByte(" :#", s[j]) >= 0 {
			j--
		}
		if c := s[j] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

var codeApart = regexp.MustCompile(`\b([A-Za-z]{2,5})(?:: ?| #| )([0-9]{3,})\b`)

// Weights fuse the components. See Score.
type Weights struct {
	Similarity float64 // share of vector similarity in relevance
	Lexical    float64 // share of BM25 in relevance
	// SimilarityFloor is the least cosine that is scaled to a similarity of 1
	// (ADR 0005): the window's cosines are divided by its best one or by this,
	// whichever is larger, so that in a window where nothing is similar to the
	// question (the best cosine 0.04) chance overlaps stay small instead of
	// one of them counting as a perfect match (0: the best one, however low).
	SimilarityFloor float64
	// Identifier is added per matched identifier fraction: with 1, an event naming
	// the question's identifier outranks every event that does not.
	Identifier float64
	// IdentifierAlone is the share of Identifier that counts when no event in
	// the window names another object of the question's identifiers' kinds
	// (INV-1041 beside INV-1040: the same prefix, another number): then every
	// event is as likely about the one object there is, and naming it is
	// evidence, not a verdict ("what did BR-220 cost?" is answered by "Monthly
	// subscription 28.00 EUR charged", which names nothing; 0: all of it).
	IdentifierAlone float64
	// IdentifierStory is the share of Identifier that counts when the
	// question asks only for the newest on the one object of its kind in the
	// window, or where it stands ("what is the latest on CV-33019?", "what's
	// the status of CV-33019?"): the window is then the
	// object's story, and its newest event the answer whether it names the
	// object or not; naming it makes an event only the surer news of it, over
	// a slightly newer notice naming nothing ("you may claim up to 50 EUR a
	// day while your bag is delayed", after the courier's slot for
	// CPHAY21567; 0: none).
	IdentifierStory float64
	// Recency is the share of recency in the score; RecencyIntent replaces it when
	// the question asks for what is newest.
	Recency       float64
	RecencyIntent float64
	// Status is the share of recency when the question names an identifier: a
	// question about an order or a ticket asks for its latest state, and later
	// events about one object supersede earlier ones.
	Status   float64
	HalfLife time.Duration
	// CorpusIDF is the share of the tenant's source statistics in BM25's IDF;
	// the rest comes from the candidates themselves.
	CorpusIDF float64
	// Synonyms weighs BM25 matches of the question's WordNet synonyms (0: off);
	// Senses is how many of a word's most common senses give synonyms.
	Synonyms float64
	Senses   int
	// Inflected weighs BM25 matches of the question's words inflected
	// irregularly, from WordNet's exception lists ("pay" finds "paid", "ate"
	// finds "eat"; 0: off): the same word, which no stemmer joins, but at
	// less than 1, as "held" brings the noun "hold" too.
	Inflected float64
	// Thesaurus weighs BM25 matches of the terms Lexicon brings for the
	// question's words and phrases (0: off); Lexicon nil is DefaultThesaurus().
	Thesaurus float64
	Lexicon   *Thesaurus
	// Bilingual weighs BM25 matches of the question's words' translations
	// into the other language, English or Chinese, from CC-CEDICT
	// (CEDICTFile; 0: off): an English question over Chinese events, or the
	// reverse.
	Bilingual float64
	// Thread is the share of an earlier event's relevance that a later event on
	// the same object inherits (0: off), ThreadFirst the share of the story's
	// first event's (the one that introduces the object): see Score.
	Thread, ThreadFirst float64
	// ThreadAnswer replaces ThreadFirst when the question asks for an answer
	// type (which a later event must state to inherit at all): such an event
	// is the story's newer word on what is asked ("expected back in 10 days"
	// after "Order PH-7302 placed: blood pressure monitor", for "when does the
	// monitor come?").
	ThreadAnswer float64
	// Amount, Time and Reason weigh, as BM25 weighs a word, the events that
	// state what the question asks for (AnswerTypes; 0: off): for a question
	// asking how much, those stating an amount of money; asking when, a time
	// or a date; asking why, a cause or a problem.
	Amount, Time, Reason float64
	// Person weighs the events that name a person by a role or a title
	// ("cleaner", "Dr.", "骑手") for a question asking who (0: off).
	Person float64
	// Instruction weighs the events that tell the customer what to do
	// ("Bring your passport", "Please bring your cycling shoes", "must",
	// "请勿进食") for a question asking what to bring or do (0: off).
	Instruction float64
	// Count weighs the events that state how many of something ("80 guests",
	// "Crew of 3 movers", "3 名师傅") for a question asking how many (0: off).
	Count float64
	// Said weighs the lines the business said (a chat line of an agent, a
	// bot or 客服) for a question asking what it said ("what did you tell me
	// about the skis?", "客服怎么说？"; 0: off).
	Said float64
	// Description weighs, as BM25 weighs a word, the event that introduces the
	// question's object (the first of the window to name its identifier) for a
	// question asking what the object is or holds ("what's in WB-118?", "what
	// was INC-2291 about?"; 0: off). Less than an answer type's 1: "what is the
	// reminder for INV-1041 about?" asks about a later event.
	Description float64
	// Named weighs the events that name a thing of the kind a question asks
	// by its make, its level or its number: a vehicle ("Renault Clio" for
	// "what car am I getting?"), a level ("B2" for "what level am I?"), a
	// flight ("EK147" for "which flight took 44018293?"), or a work by its
	// title in quotes ("'Aula 4'" for "what book do I need?"; 0: off).
	Named float64
	// Place weighs the events that name a place ("room 4.12", "platform 22",
	// "at the front desk") for a question asking where to go or be (0: off).
	Place float64
	// Linked is the identifier score of an event naming the question's object
	// through another identifier (see link; 0: off).
	Linked float64
	// Echo is the identifier score of an event that repeats a word only the
	// events naming the question's object use (see echo; 0: off).
	Echo float64
	// EchoAnswer is the identifier score of an event tied to the question's
	// object by echo (or by link, with Linked below it) that matches the question's words
	// by echoMargin more than every event naming the object does, for a
	// question asking neither for the newest nor where the object stands
	// (see echoAnswers; not above Echo: off).
	EchoAnswer float64
	// Respelled weighs BM25 matches of a misspelt question word's near
	// spellings that the candidates contain (respellings; 0: off).
	Respelled float64
	// CJKChar weighs a Chinese character of the question alone, against 1 for
	// its character pairs: a pair is a word more often than a character is
	// ("那次打车" matched "本次行程打了 5 星" by 次 and 打; 0: as 1).
	CJKChar float64
	// Acronym weighs, as BM25 weighs a word, the events that spell out an
	// acronym of the question by their words' initials, or whose acronym the
	// question spells out ("2FA", "two-factor authentication"; 0: off).
	Acronym float64
	// Sources scales the relevance of a source's events (default 1): e.g. 0.5 for
	// the bot's own chat lines, which echo the question's words.
	Sources map[string]float64
	// Offer scales the relevance of an event that only offers or promises help
	// ("Let me check the status of your refund": OfferTerm), whatever its
	// source (0: off, as 1), unless the question asks for deals; and of an
	// event that only asks (a customer's question in a chat, or any line of
	// the customer's: QuestionTerm), unless the question asks what someone
	// asked or what the customer complained of.
	Offer float64
	// Unstated scales the recency of an event that does not state what a
	// question asks for (an answer type: a time for "when", an amount for
	// "how much"): its newness says little of the answer, as a payment made a
	// minute ago says little of "眼科几点？" (0: off, as 1; a question asking
	// for the newest gives such an event none). So does an event outside the
	// story of the object a question asks the standing of ("what happened
	// with LP-2210?": it neither names nor echoes the object, and inherits
	// nothing); and, of its relevance too, an event stating no fault or
	// finding when a question asks what is wrong or what a check found.
	Unstated float64
	// Sibling scales the relevance of an event about another object of the
	// kind of the one a question names by its words alone (aboutASibling: "why
	// are the flyers not printed yet?" and "PR-7702 printed and packed", when
	// the flyers are PR-7701; 0: off, as 1).
	Sibling float64
	// Noun scales the weight of the word a "what …" or "which …" question
	// names the thing it asks for by, when it asks for no answer type
	// (askedNoun, askedCJKNoun): "孩子 做 了 什么 作品？" asks for the work (作品),
	// and the event naming it answers it more than one naming only the child;
	// "which gate for the outbound flight?" asks for a gate (0: off, as 1).
	Noun float64
	// Changed is the share an event that says something changed (saysChanged:
	// "moved to", "rebooked", "raised", 改到) adds to its relevance when a
	// question asks for the newest ("where is the jazz gig now?"): the change
	// is the newer word on what an older event says, whichever of the two its
	// words match better (0: off).
	Changed float64
	// ChangedNow is Changed for a question asking what something is now
	// (nowCues: "when is the filling now?", "现在是星期几上课？"), where an
	// event stating a new or current value ("New installation date: 10 June",
	// "total now 342 EUR", "replaces INV-66310") counts as saying it changed
	// (statesCurrent): such a question asks for the value that replaced the
	// booked one, not for what happened last (0: Changed).
	ChangedNow float64
	// Newer is Changed for a question naming an object and asking for one of
	// its values (an answer type or a thing named: "how many guests is WV118
	// for?"), given to a later event on the object that says the value
	// changed and states a new one ("WV-118: guest count raised to 95" after
	// "Booking WV-118: …, 80 guests"): newerValues (0: off).
	Newer float64
	// Context is the weight of a word of what a message says besides what it
	// asks (Query.Context: "I ordered a blue sofa last week." before "when
	// will it arrive?") in BM25, a clause of its own: evidence of what the
	// question is about, weaker than its own words (0: off).
	Context float64
}

// DefaultWeights were chosen on the tuning part of the labelled set in
// internal/evalset (never on its held-back part); BENCHMARKS.md has the figures.
var DefaultWeights = Weights{Similarity: 0.2, Lexical: 0.8, SimilarityFloor: 0.1, Identifier: 1, IdentifierAlone: 0.3, IdentifierStory: 0.1, Recency: 0.3, RecencyIntent: 0.5, Status: 0.5, HalfLife: 20 * time.Minute,
	Synonyms: 0.2, Senses: 1, Inflected: 0.5, Thesaurus: 0.5, Bilingual: 0.5, Thread: 0.5, ThreadFirst: 0.8, ThreadAnswer: 1, Amount: 1, Time: 1, Reason: 1, Person: 1, Named: 1, Place: 1, Instruction: 1, Count: 1, Said: 1, Description: 0.5, Linked: 1, Echo: 0.4, EchoAnswer: 0.8, Respelled: 1, Acronym: 1, Offer: 0.2, CJKChar: 0.3, Sibling: 0.5, Noun: 1.2, Unstated: 0.7, Changed: 0.1, ChangedNow: 0.5, Newer: 0.2, Context: 0.2}

// Components are a candidate's scores, each in [0, 1].
type Components struct {
	Similarity float64 `json:"similarity"` // cosine, normalised by the best candidate's
	Lexical    float64 `json:"lexical"`    // BM25, normalised by the best candidate's
	Identifier float64 `json:"identifier"` // share of the question's identifiers the event names
	// Recency is 2^(−age/half-life); 0 for an event that does not state what
	// a question asking for the newest asks (a time for "when is it now?"):
	// such an event cannot be its newest answer; Weights.Unstated of it for
	// one that does not state what any other question asks.
	Recency float64 `json:"recency"`
	Source  float64 `json:"source"` // the source's weight (times Weights.Offer for a line offering help, Weights.Sibling for one about another object: aboutASibling)
	// Thread is the relevance inherited from an earlier event on the same object.
	Thread float64 `json:"thread"`
	// Change is 1 for an event that says something changed ("moved to",
	// "rebooked", 改到) when the question asks for what is newest, or that
	// states a new or current value when it asks what something is now
	// (statesCurrent), or that states a newer value of what a question
	// naming its object asks for (newerValues), 0 for any other.
	Change float64 `json:"change"`
	// Cosine is the raw cosine similarity (before normalising).
	Cosine float64 `json:"-"`
}

// SourceStats are a source's corpus statistics for BM25 (for one tenant): how
// many events it holds, their mean length in terms, and in how many of them each
// term occurs. A sample will do: IDF uses the ratio df/N.
type SourceStats struct {
	N, AvgLen float64
	DF        map[string]float64
}

// Stats are corpus statistics per source; a source missing from the map takes
// its statistics from the candidates.
type Stats map[string]SourceStats

// BM25 parameters: b is low because events are short and of similar length.
const (
	bm25K1 = 1.2
	bm25B  = 0.3
)

// Score scores every candidate:
//
//	rel    = source · (wS·sim + wL·lex) / (wS + wL)     (wS is 0 without a question vector)
//	thread = max(wT · rel of an earlier event sharing an identifier with it,
//	             wF · rel of the first such event: the story's first;
//	             wA instead of wF when the question asks for an answer type)
//	score  = (1 − r)·(1 + wC·change)·max(rel, thread) + source·(r·recency + wI·id)
//
// where source is the source's weight (Weights.Sources; times Weights.Offer for
// a line that only offers help or goods): it scales all of an event's own
// evidence, its newness and its identifiers as its match (an advertisement is
// often the newest event, and its newness says nothing of the case), but not
// what the event inherits. sim is the cosine to the question normalised
// by the best candidate's, lex
// the BM25 score normalised by the best candidate's, id the share of the
// question's identifiers the event names, recency 2^(−age/half-life), thread
// what a later event inherits from the earlier events on the same object (only
// the stories of the three most relevant events are followed), change 1 for an
// event saying something changed (or, for a question asking what something is
// now, stating a new or current value), wC Weights.Changed when the question
// asks for what is newest (Weights.ChangedNow when it asks what something is
// now; Weights.Newer when it names an object and asks for one of its values,
// and an event on it states a newer one: newerValues; else 0), r is
// Weights.Recency, or Weights.RecencyIntent when the question asks for what is
// newest (Weights.Status when it names an object and asks where it stands),
// and wI is Weights.Identifier, times Weights.IdentifierAlone when no other
// object of the question's identifiers' kind is in the window (contested);
// Fusion reports them. Normalising by the best candidate makes the components comparable
// whatever the embedder's or the corpus's scale. BM25's statistics come from
// stats (per tenant and source); without them, from the candidates.
func Score(q Query, cands []Candidate, w Weights, stats Stats, now time.Time) ([]float64, []Components) {
	scores, comps, _ := ScoreFused(q, cands, w, stats, now)
	return scores, comps
}

// Fusion is how Score fused one question's components: with an event's
// Components,
//
//	rel   = source · (Similarity·similarity + Lexical·lexical) / (Similarity + Lexical)
//	score = (1 − Recency)·(1 + Change·change)·max(rel, thread) + source·(Recency·recency + Identifier·identifier)
//
// and why the shares are what they are for this question.
type Fusion struct {
	Similarity float64 `json:"similarity_weight"` // wS (0 without a question vector)
	Lexical    float64 `json:"lexical_weight"`    // wL
	Recency    float64 `json:"recency_share"`     // r
	Identifier float64 `json:"identifier_weight"` // wI
	// AsksNewest: the question asks for what is newest (r is Weights.RecencyIntent).
	AsksNewest bool `json:"asks_newest,omitempty"`
	// AsksStatus: it names an object and asks where it stands (r is Weights.Status).
	AsksStatus bool `json:"asks_status,omitempty"`
	// Change is wC, the share an event saying something changed adds to its
	// relevance: Weights.Changed when the question asks for the newest
	// (Weights.ChangedNow when it asks what something is now; Weights.Newer
	// when it names an object and asks for one of its values, and an event
	// states a newer one: newerValues), else 0.
	Change float64 `json:"change_weight,omitempty"`
	// AsksNow: the question asks what something is now; an event stating a
	// new or current value counts as saying it changed (Weights.ChangedNow).
	AsksNow bool `json:"asks_now,omitempty"`
	// IdentifierAlone: no other object of its identifiers' kind is in the
	// window (wI is Weights.IdentifierAlone of Weights.Identifier;
	// Weights.IdentifierStory of it when the question asks only what is
	// newest on it: "what is the latest on CV-33019?" is then "what is the
	// latest?", naming the object only the surer news of it; not while an
	// event neither naming nor linked to it names an object of another kind:
	// strangers).
	IdentifierAlone bool `json:"identifier_alone,omitempty"`
	// Asks are the answer types it looks for: amount, time, reason, person,
	// place, instruction, count; description for a question asking what its object
	// is or holds (Weights.Description); deals for one asking for discounts or
	// promotions (lines that only offer keep their whole weight); asked for
	// one asking what someone asked or the customer complained of (lines that
	// only ask, and the customer's lines, keep theirs).
	Asks []string `json:"asks,omitempty"`
	// Question and Context are what a message of several sentences was
	// read as (Asked): the sentences that ask, with the identifiers the
	// others name, and the others, whose words count Weights.Context; both
	// empty for a message that is all question.
	Question string `json:"question,omitempty"`
	Context  string `json:"context,omitempty"`
	// Object is the identifier a question naming none names by its words
	// alone (aboutASibling: "pr7701" for "why are the flyers not printed
	// yet?"), as the analysis writes it: the events naming another object of
	// its kind, and none of those words, count Weights.Sibling. For a
	// question about one way of a trip ("when do I fly home now?", legsAsked)
	// it is the flights and tickets only that way's legs name ("tp218"): the
	// events naming one, or stating its route, match as if the question had
	// named it (Components.Identifier). For a question naming an object by
	// its place ("has the second transfer gone through?", nthObject) it is
	// the object of that place in the order the window introduces its kind's
	// ("tr88121"): the question names it.
	Object string `json:"object,omitempty"`
	// Expanded are what the question's words brought into BM25 besides
	// themselves, as it matched them (stems, Chinese character pairs, phrases
	// with their words): irregular inflections, WordNet's synonyms, the
	// thesaurus's terms, CC-CEDICT's translations, respellings.
	Expanded []string `json:"expanded,omitempty"`
}

// ScoreFused is Score, and how it fused the components (see Fusion).
func ScoreFused(q Query, cands []Candidate, w Weights, stats Stats, now time.Time) ([]float64, []Components, Fusion) {
	sc := scratches.Get().(*scratch)
	defer sc.done()
	rk := ranking{q: q, cands: cands, w: w, now: now, sc: sc, comps: make([]Components, len(cands))}
	rk.docs = grow(&sc.docs, len(cands))
	analysesOf(cands, rk.docs, sc)
	rk.reading = rk.readQuestion()
	rk.wordMatch = wordMatch{lex: grow(&sc.lex, len(cands)), kindWas: -1, kindNow: -1}
	if w.Lexical > 0 {
		rk.wordMatch = rk.matchWords(stats)
	}
	rk.rels, rk.wS, rk.wL, rk.questions = rk.relevances()
	sc.questions = rk.questions // (its room, for the next question)
	if w.Unstated > 0 && w.Unstated < 1 {
		rk.lessOfAnAnswer()
		if !rk.billsAnswer {
			// a bill or a payment, asked nothing of money: its words match
			// by chance ("Receipt FL-2231: 49 EUR paid by card" for "what
			// does the card say?"; +8 −0 on the development sets)
			scaleMarked(rk.rels, rk.docs, markBill, w.Unstated)
		}
	}
	if asksFor(rk.byClause, ReasonTerm) && w.Identifier > 0 {
		rk.sumsExplained()
		rk.causesFound()
	}
	rk.object, rk.qids = rk.objectByWords()
	rk.threads()
	rk.aboutEvent, rk.happened, rk.steps = rk.stories()
	f, story := rk.fusion()
	newer, stepNow := rk.newerAnswers(&f)
	scores := make([]float64, len(cands))
	rk.fuse(scores, f, story, newer, stepNow)
	return scores, rk.comps, f
}

// ranking is one question's ranking of a window, as ScoreFused makes it in
// stages, each a method called in this order:
//
//   - readQuestion: what the question asks, before any event is matched: its
//     identifiers, the answer types it asks for, whether it asks for deals or
//     for what was asked;
//   - matchWords: BM25 over its words and what they bring (lexQuery: the
//     answer types asked, expansions; describe: the event describing its
//     object), which events state what is asked only as the question does
//     (unstatedBy), the thing it asks for by naming it (askedThing);
//   - relevances: each event's similarity, match, identifier share, recency
//     and source weight, and its relevance from them;
//   - lessOfAnAnswer, sumsExplained and causesFound: what the question's
//     shape takes from, or gives to, an event's relevance;
//   - objectByWords: the object a question naming none names by its words;
//   - threads and stories: what later events inherit from the earlier events
//     on their object;
//   - fusion: the shares of recency and identifiers for this question;
//   - newerAnswers: the events stating a newer value of what is asked;
//   - fuse: each event's score (Score's formula).
//
// Each stage reads what the ones before it made; none goes back. (A stage
// returns what it makes, and ScoreFused keeps it: written through the
// pointer, its slices would escape to the heap.)
type ranking struct {
	q     Query
	cands []Candidate
	docs  []doc
	w     Weights
	now   time.Time
	sc    *scratch
	comps []Components
	reading
	wordMatch

	// relevances
	rels      []float64
	wS, wL    float64
	questions []int // the lines that only ask (QuestionTerm), when they count less

	// objectByWords
	object string // (Fusion.Object)

	// stories
	aboutEvent, happened bool
	steps                []bool // (stepsDone)
}

// reading is what a question asks (readQuestion).
type reading struct {
	qids      []ident  // the question's identifiers (objectByWords may name one)
	own       []string // its words, without its identifiers
	asked     []*answerType
	byClause  [][]*answerType
	asksMoney bool
	asksWho   bool // who, and nothing else
	asksFault bool // what is wrong, what a check found
	howLong   bool // a question asking how long (durationCues)
	// why a thing changed, why it is late (asksWhyChanged): the events
	// saying a change, or a delay, state the reason asked
	whyChanged, whyLate bool
	whyDearer           bool // asked why a thing named costs more (costsMoreCues)
	// a question asking for the newest, of money (asksOfMoney) or a
	// thing's status: a bill or a payment (markBill) may answer it; for any
	// other, it is less of an answer (lessOfAnAnswer), no newer word on its
	// object (billsNoNews), and passes on no more than Weights.Thread of
	// its story (inherit)
	billsAnswer bool
	offer       float64 // the scale of a line that only offers
	asking      float64 // the scale of a line that asks (QuestionTerm): as one that offers
}

// wordMatch is what a question's words match (matchWords).
type wordMatch struct {
	lex       []float64
	clauses   []uint64 // which of the question's first 64 BM25 clauses each candidate matches
	qterms    []string // the question's words and their expansions, as BM25 matched them
	unstated  []bool   // the events that do not state what is asked as the question asks it (inheritance.unstated)
	expanded  []string // (Fusion.Expanded)
	describes bool     // the question asks what its object is or holds (DescriptionTerm)
	// the clauses of the thing a "what …"/"which …" question asks for by
	// naming it, when it asks for no answer type (askedNoun, askedCJKNoun)
	noun, counted    uint64
	countedStem      string   // (counted's term)
	kindWas, kindNow int      // (a kind asked, the object's first and newer kind: changedSince)
	head             rune     // (a Chinese question's noun of one character: askedCJKHead)
	nounWords        []string // (noun's terms)
	// the events whose only reason is the problem a question asking why
	// names (problemsOnly), for causesFound
	restaters []bool
	added     []bool // asked why a thing costs more, the events adding a sum to it (sumsAdded: lessOfAnAnswer, for fuse)
}

// readQuestion reads what the question asks.
func (rk *ranking) readQuestion() reading {
	q, cands, docs, w := &rk.q, rk.cands, rk.docs, rk.w
	qids := identities(&q.Analysis, true)
	own := words(q.Analysis)                     // the question's words, without its identifiers
	howLong := durationCueSet.in(q.normalised()) // (a question asking how long: durationCues)
	asked := answerTypesAsked(q.normalised(), w)
	asksMoney := slices.ContainsFunc(asked, func(t *answerType) bool { return t.term == MoneyTerm })
	if len(qids) > 0 && w.Place > 0 && len(asked) == 0 && asksWhereItIs(q.normalised(), own) {
		if intro := introOf(qids, cands, docs); intro >= 0 && hasAny(&docs[intro], placedHashes) {
			// "where is ph4427?" of a photo shoot, a lesson, a party: where it
			// takes place, as "where is the shoot?" asks (placeAsked); of a
			// thing introduced as installed or located somewhere ("Router …
			// installed in office 2"), where it is; of a parcel or an order,
			// where its story stands
			asked = append(asked, placeType)
		}
	}
	if len(qids) > 0 && w.Place > 0 && len(asked) == 0 && !nowCues.in(q.normalised()) && cjkWhereItIs(q.normalised().norm) {
		// "CD6613 在 哪？", "61204 装 在 哪？": where the thing is, a place,
		// not where its story stands ("到 哪 了", "现在 在 哪"; +4 −1 on the
		// development sets, the one down "DY-8801 座位 在 哪？", whose seat
		// is no place)
		asked = append(asked, placeType)
	}
	byClause := askedByClause(q.normalised(), asked)
	asksFault := slices.ContainsFunc(asked, func(t *answerType) bool { return t.name == "fault" }) // (what is wrong, what a check found)
	offer := w.Offer                                                                               // the scale of a line that only offers
	if dealWords.in(q.normalised()) {
		offer = 0
	}
	asking := w.Offer // the scale of a line that asks (QuestionTerm): as one that offers
	if askWords.in(q.normalised()) {
		asking = 0
	}
	whyChanged, whyLate := asksWhyChanged(q.normalised(), byClause)
	return reading{qids: qids, own: own, howLong: howLong, asked: asked, asksMoney: asksMoney, asksWho: len(asked) == 1 && asked[0].term == PersonTerm,
		byClause: byClause, asksFault: asksFault, offer: offer, asking: asking, whyChanged: whyChanged, whyLate: whyLate,
		whyDearer:   len(qids) > 0 && asksFor(byClause, ReasonTerm) && costsMoreCues.in(q.normalised()),
		billsAnswer: q.Intent || asksFor(byClause, MoneyTerm) || asksOfMoney(q.normalised()) || slices.Contains(q.normalised().words, "status")}
}

// matchWords matches the question's words, and what they bring, by BM25
// (Weights.Lexical > 0).
func (rk *ranking) matchWords(stats Stats) wordMatch {
	cands, docs, w, sc := rk.cands, rk.docs, rk.w, rk.sc
	qids, asked, howLong := rk.qids, rk.asked, rk.howLong
	lq := rk.lexQuery()
	describes, kindWas, kindNow := rk.describe(lq)
	unstated, restaters := rk.unstatedBy(lq)
	noun, counted, countedStem, head, nounWords := rk.askedThing(lq)
	if len(qids) > 0 && !howLong && slices.ContainsFunc(asked, func(t *answerType) bool { return t.term == TimeTerm }) {
		// (after the object's time moved, another time of its events is
		// no time of it: afterTheMove)
		unstated = lq.unstateAll(unstated, afterTheMove(qids, lq, cands, docs), timeHash)
	}
	lex, clauses := bm25(lq.done(), cands, docs, stats, w.CorpusIDF, sc)
	if head != 0 {
		// (an event names a one-character noun as the end of a word
		// only: 景观房 and 一等座 are rooms and seats, 房型 and 车票 none)
		for i := range clauses {
			if clauses[i]&noun != 0 && !namesHead(cands[i].Text, head) {
				clauses[i] &^= noun
			}
		}
	}
	expanded := lq.expanded()
	qterms := append(append(sc.qterms[:0], lq.terms...), lq.phraseWords...) // asksWhatAnEventSays looks at the phrases' words
	sc.nounWords, sc.qterms = nounWords, qterms                             // (their room, for the next question)
	return wordMatch{lex: lex, clauses: clauses, qterms: qterms, unstated: unstated, restaters: restaters, expanded: expanded, describes: describes,
		noun: noun, counted: counted, countedStem: countedStem, kindWas: kindWas, kindNow: kindNow, head: head, nounWords: nounWords}
}

// lexQuery is the question's words and what they bring, as BM25 matches
// them: without the cues that only ask for the newest, with the answer types
// asked, expansions (the thesaurus, translations, synonyms, inflections,
// respellings), a doer's noun, a delay for a reason, acronyms.
func (rk *ranking) lexQuery() *lexQuery {
	q, cands, docs, w := &rk.q, rk.cands, rk.docs, rk.w
	own, asked, asksMoney, asksFault := rk.own, rk.asked, rk.asksMoney, rk.asksFault
	qw := own
	if q.Intent {
		qw = withoutCues(qw, q.normalised().norm)
	}
	qw, idiom := withoutIdiom(qw, q.normalised())
	if asksMoney && costVerb(q.normalised().words) {
		qw = slices.DeleteFunc(slices.Clone(qw), func(t string) bool { return t == "cost" })
	}
	lq := newLexQuery(qw, w.CJKChar)
	if w.Context > 0 {
		for _, t := range q.context {
			if !slices.Contains(lq.terms, t) {
				lq.addWord(t, w.Context, w.CJKChar)
			}
		}
	}
	for _, h := range negatedCJK(q.normalised().norm) {
		// "为什么没送到？" asks about a delivery that did not happen: "已送到"
		// says the opposite, and 送到 counts half (negatedShare)
		if k := slices.Index(lq.hashes, h); k >= 0 {
			lq.weights[k] *= negatedShare
		}
	}
	for _, t := range speakerWords(q.normalised().words) {
		// "what did the vet say about her weight?" asks about the weight:
		// who said it is named by few of the events saying it
		if k := slices.Index(lq.terms, t); k >= 0 {
			lq.weights[k] *= speakerShare
		}
	}
	if w.Thesaurus > 0 {
		th := w.Lexicon
		if th == nil {
			th = DefaultThesaurus()
		}
		for _, m := range th.matches(q.normalised()) {
			m.each(func(e expansion) {
				if !q.Intent || !fromOnly(e, cueStems) {
					lq.bring(e, w.Thesaurus, docs)
				}
			})
		}
	}
	if w.Bilingual > 0 && crossesLanguages(q.Text, docs) {
		translationsOf(q.normalised(), q.Analysis.Terms, func(e expansion) { lq.bring(e, w.Bilingual, docs) })
	}
	if w.Synonyms > 0 && w.Senses > 0 || w.Inflected > 0 {
		synonymsOf(q.Text, q.Analysis.Terms, w.Senses, func(e expansion) {
			switch {
			case q.Intent && fromOnly(e, cueStems), idiom && fromOnly(e, idiomStems):
				// what "latest", "newest" or "recently" bring ("late",
				// "new"): the words only ask for the newest (withoutCues)
			case e.inflected && w.Inflected > 0:
				lq.bring(e, w.Inflected, docs)
			case !e.inflected && w.Synonyms > 0:
				lq.bring(e, w.Synonyms, docs)
			}
		})
		if w.Synonyms > 0 && w.Senses > 0 {
			// a kind of the thing a "which …" question asks for names
			// which one it is ("dt4410 which tooth?": "small cavity on
			// lower left molar"), weighed as a synonym
			kindsOf(q.normalised().words, func(e expansion) { lq.bring(e, w.Synonyms, docs) })
		}
	}
	if w.Thesaurus > 0 && (asksTheNew(q.normalised().words) || asksWhatChanged(q.normalised())) {
		// what a date, time or price changed to ("what's the new moving
		// day?") is said by the events saying it changed: their words
		// come in as the thesaurus's do, each a clause of its own
		for _, cw := range changeWords {
			if t := stem(cw); !slices.Contains(lq.terms, t) {
				lq.add(t, w.Thesaurus, -1)
			}
		}
	}
	if w.Respelled > 0 {
		for _, t := range respellings(q.Text, lq.terms, docs) {
			lq.add(t, w.Respelled, -1)
		}
	}
	for _, t := range asked {
		if !slices.Contains(lq.terms, t.term) {
			lq.add(t.term, t.weight(w), -1)
			if t.alt != 0 { // (a length blended into the time's clause, a delay into the reason's)
				lq.addHashed(altTerm(t.alt), t.alt, 1, len(lq.terms)-1)
			}
		}
	}
	if k := slices.Index(lq.terms, PersonTerm); k >= 0 {
		// the noun of the one who does what is asked names who does
		// it ("who tunes pt-208?": "PT-208 tuner: Ilse Brandt"), as a
		// role does, and says the word it comes from, inflected: in
		// both their clauses (not a role's noun, which states a
		// person already: personWords)
		doers(q.normalised().words, func(noun, from string) {
			if !slices.Contains(lq.terms[:lq.words], noun) && !personStems[noun] {
				lq.add(noun, 1, k)
				if v := slices.Index(lq.terms[:lq.words], from); v >= 0 && w.Inflected > 0 {
					lq.add(noun, w.Inflected, v)
				}
			}
		})
	}
	if k := slices.Index(lq.terms, ReasonTerm); k >= 0 && !slices.Contains(lq.terms, DelayTerm) &&
		!asksFault {
		// the question's own words state a reason ("why is my package
		// stuck?"): an event stating only a delay states one too, blended
		// into its clause, as for a question asking why; not for one
		// asking what is wrong with a thing (DelayTerm)
		lq.add(DelayTerm, 1, k)
	}
	if w.Acronym > 0 {
		// AcronymTerm's frequencies, when a candidate spells out an acronym
		// of the question or the reverse
		if acr := acronymMatches(q.Text, cands, docs); acr != nil {
			lq.synth = append(lq.synth, synthTerm{term: AcronymTerm, weight: w.Acronym, of: -1, tf: acr})
		}
	}
	return lq
}

// describe adds DescriptionTerm for a question asking what its object is,
// what kind it is, what it changed to or what it costs: the event
// introducing it (or its newest change, its newer kind, its new price).
func (rk *ranking) describe(lq *lexQuery) (describes bool, kindWas, kindNow int) {
	q, cands, docs, w, qids, own, asked := &rk.q, rk.cands, rk.docs, rk.w, rk.qids, rk.own, rk.asked
	kindWas, kindNow = -1, -1
	if w.Description > 0 && len(qids) > 0 {
		// DescriptionTerm's frequency: 1 for the event introducing the
		// object (for a price, when it states one: "Meal plan KT-318
		// started" leaves the price to the charge)
		price := asksPrice(q.Analysis, asked)
		what := asksDescription(q.normalised()) || asksWhatItIs(q.normalised(), own)
		kind := !price && !what && asksWhatKind(q.normalised(), own)
		changedTo := !price && !what && !kind && asksChangedTo(q.normalised())
		if price || what || kind || changedTo {
			intro := introOf(qids, cands, docs)
			if changedTo {
				intro = newestChange(qids, cands, docs)
			}
			if what && intro >= 0 && asksWhatFor(q.normalised()) {
				// what a thing of the object was for ("what was the
				// PI-7702 claim for?" of a policy, then "Claim for
				// PI-7702: vet bill 410 EUR for an ear infection"): the
				// event introducing that thing (+2 −0 on the development
				// sets; for any question asking what a thing is, +2 −3)
				intro = firstNaming(intro, own, qids, cands, docs)
			}
			if kind && intro >= 0 {
				// (things named in the plural, "what extras are on
				// rc-55310?", are no kind the object changed to)
				plural := asksPlural(q.normalised(), own)
				things := plural && strings.IndexFunc(q.normalised().norm, isCJK) < 0
				was := intro
				if intro = changedSince(intro, qids, cands, docs, plural, !things, own); intro >= 0 && intro != was {
					kindWas, kindNow = was, intro
				}
			}
			if price && intro >= 0 {
				intro = repriced(intro, qids, cands, docs)
			}
			if intro >= 0 && (!price || docs[intro].count(moneyHash) > 0) {
				tf := make([]int32, len(docs))
				tf[intro] = 1
				lq.synth = append(lq.synth, synthTerm{term: DescriptionTerm, weight: w.Description, of: -1, tf: tf})
				describes = true
			}
		}
	}
	return describes, kindWas, kindNow
}

// unstatedBy marks the events that state what is asked only as the
// question does not count it: for the lexical match, and for the stories
// (inheritance).
func (rk *ranking) unstatedBy(lq *lexQuery) (unstated, restaters []bool) {
	q, cands, docs := &rk.q, rk.cands, rk.docs
	qids, own, asked, asksMoney, howLong := rk.qids, rk.own, rk.asked, rk.asksMoney, rk.howLong
	if slices.ContainsFunc(asked, func(t *answerType) bool { return t.term == TimeTerm }) {
		unstated = lq.unstateAll(unstated, relativeTimes(own, cands, docs), timeHash)
		if clockAsked.in(q.normalised()) {
			unstated = lq.unstateAll(unstated, timeLacking(docs, func(i int) bool { return docs[i].marks&markClock != 0 }), timeHash)
		} else if asksDay(q.normalised()) {
			unstated = lq.unstateAll(unstated, timeLacking(docs, func(i int) bool {
				return (docs[i].marks&markClock == 0 || docs[i].marks&markDay != 0) && docs[i].marks&markMonthOnly == 0
			}), timeHash)
		}
		if howLong {
			// (a time and no length of it: "SP-7702 moved to Saturday 11:00"
			// beside "SP-7702 upgraded to 90 min")
			unstated = lq.unstateAll(unstated, timeLacking(docs, func(i int) bool { return statesLength([]rune(normalise(cands[i].Text))) }), timeHash)
		} else if !aboutPaying(q.normalised()) {
			unstated = lq.unstateAll(unstated, paymentDates(docs, qids), timeHash)
		} else if !slices.Contains(q.normalised().words, "due") {
			// asked when to pay ("when do I have to pay GD-7340?"), where
			// an event states a sum due by a time, the other times are
			// the thing's, not the payment's ("Job GD-7340: …, Friday
			// 8:00, 180 EUR"; +3 −0 on the development sets). Not "when
			// is the work due?": a deadline of the work too (−2)
			if due := paymentDates(docs, qids); due != nil {
				for i := range due {
					due[i] = !due[i] && docs[i].count(timeHash) > 0
				}
				unstated = lq.unstateAll(unstated, due, timeHash)
			}
		}
	}
	if asksMoney && asksMoneyReturned(q.normalised()) {
		unstated = lq.unstateAll(unstated, notReturned(docs), moneyHash)
	}
	if asksMoney && asksNoMoneyMoved(q.normalised()) {
		unstated = lq.unstateAll(unstated, givenBack(cands, docs), moneyHash)
	}
	if asksMoney && asksPaidPast(q.normalised()) {
		unstated = lq.unstateAll(unstated, stillToPay(docs, cands), moneyHash)
	}
	if asksMoney && len(qids) > 0 && asksStandingPrice(q.normalised()) {
		unstated = lq.unstateAll(unstated, standingPriceOnly(qids, cands, docs), moneyHash)
		if !asksLater(q.normalised()) {
			// (asked for now, a price said to take effect later, "下 月
			// 生效", is no price yet: takesEffectLater)
			unstated = lq.unstateAll(unstated, amountsWhere(docs, func(_ int, d *doc) bool { return takesEffectLater(d) }), moneyHash)
		}
	}
	if asksMoney && totalCues.in(q.normalised()) && !asksPaid(q.normalised()) {
		unstated = lq.unstateAll(unstated, depositsOnly(docs), moneyHash)
	}
	if slices.ContainsFunc(asked, func(t *answerType) bool { return t.term == ReasonTerm }) && !aboutSaid(q.normalised()) {
		restaters = problemsOnly(q.normalised(), cands, docs)
		// (a copy for causesFound: unstateAll may return the mask itself,
		// which a later one then adds to)
		unstated = lq.unstateAll(unstated, slices.Clone(restaters), reasonHash, delayHash)
	}
	return unstated, restaters
}

// askedThing is the thing a question asks for by naming it (noun, its terms
// and, for a Chinese noun of one character, head) when it asks for no
// answer type, or the thing a count asks for (counted); it weighs more
// (Weights.Noun), and the 天 of 哪天 nothing.
func (rk *ranking) askedThing(lq *lexQuery) (noun, counted uint64, countedStem string, head rune, nounWords []string) {
	q, w, qids, asked := &rk.q, rk.w, rk.qids, rk.asked
	nounWords = rk.sc.nounWords[:0]
	if len(asked) == 0 {
		noun = askedNoun(q.normalised().words, lq.terms) | askedCJKNoun(q.normalised().norm, lq.terms)
		if noun == 0 && len(qids) > 0 {
			noun = terseNoun(q.normalised(), q.Analysis.IDs, lq.terms)
		}
		if noun == 0 {
			if r := askedCJKHead(q.normalised().norm); r != 0 {
				if j := slices.Index(lq.terms, string(r)); j >= 0 && j < 64 {
					noun, head = 1<<j, r
				}
			}
		}
		for k := range min(64, len(lq.terms)) {
			if noun&(1<<k) != 0 {
				nounWords = append(nounWords, lq.terms[k])
			}
		}
	} else if slices.ContainsFunc(asked, func(t *answerType) bool { return t.term == CountTerm }) {
		counted, countedStem = countedNoun(q.normalised().words, lq.terms)
	}
	if strings.Contains(q.normalised().norm, "哪天") || strings.Contains(q.normalised().norm, "哪一天") {
		// the 天 of 哪天 asks which day: no word to match, as a length's
		// "15 天 后 交付" would ("HS5531 哪 天 拍？" asks for the shoot's
		// date). Not the other Chinese time cues' characters: 什么时候's
		// 时候 and 几号's 号 match their answers as often (+5 −4)
		for k := range min(64, len(lq.terms)) {
			if lq.terms[k] == "天" && lq.of[k] < 0 {
				lq.weights[k] = 0
			}
		}
	}
	if w.Noun > 0 && w.Noun != 1 {
		// the thing a "what …"/"which …" question names as what it asks
		// for weighs more than its other words (Weights.Noun)
		for k := range min(64, len(lq.terms)) {
			if noun&(1<<k) != 0 && lq.of[k] < 0 {
				lq.weights[k] *= w.Noun
			}
		}
	}
	return noun, counted, countedStem, head, nounWords
}

// relevances sets each event's components and its relevance from them.
func (rk *ranking) relevances() ([]float64, float64, float64, []int) {
	q, cands, docs, w, comps, lex, qids, now, sc := &rk.q, rk.cands, rk.docs, rk.w, rk.comps, rk.lex, rk.qids, rk.now, rk.sc
	offer, asking := rk.offer, rk.asking
	var bestSim, bestLex float64
	var qnz *sparseVec // the question vector's shape, when there are enough candidates to pay for finding it
	if len(cands) >= 16 {
		qnz = nonZero(q.Vector)
	}
	for i := range cands {
		if q.Vector != nil {
			comps[i].Cosine = cosineAt(q.Vector, qnz, cands[i].Embedding)
			comps[i].Similarity = math.Max(0, comps[i].Cosine)
			bestSim = math.Max(bestSim, comps[i].Similarity)
		}
		comps[i].Lexical = lex[i]
		bestLex = math.Max(bestLex, lex[i])
	}
	wS, wL := w.Similarity, w.Lexical
	if q.Vector == nil {
		wS = 0
	}
	rels := grow(&sc.rels, len(cands))
	questions := sc.questions[:0] // the lines that only ask (QuestionTerm), when they count less
	for i := range cands {
		c := &comps[i]
		if bestSim > 0 {
			c.Similarity /= max(bestSim, w.SimilarityFloor)
		}
		if bestLex > 0 {
			c.Lexical /= bestLex
		}
		c.Identifier = idMatch(qids, &docs[i])
		c.Recency = Recency(now, cands[i].Time, w.HalfLife)
		c.Source = 1
		if sw, ok := w.Sources[cands[i].Source]; ok {
			c.Source = sw
		}
		if offer > 0 && docs[i].count(offerHash) > 0 {
			c.Source *= offer
		}
		if asking > 0 && docs[i].count(questionHash) > 0 {
			c.Source *= asking
			questions = append(questions, i)
		}
		if wS+wL > 0 {
			rels[i] = c.Source * (wS*c.Similarity + wL*c.Lexical) / (wS + wL)
		}
	}
	return rels, wS, wL, questions
}

// lessOfAnAnswer scales by Weights.Unstated the relevance of the events
// that do not state what is asked (0 < Weights.Unstated < 1).
func (rk *ranking) lessOfAnAnswer() {
	q, cands, docs, w, rels := &rk.q, rk.cands, rk.docs, rk.w, rk.rels
	qids, asked, byClause, asksMoney, asksFault := rk.qids, rk.asked, rk.byClause, rk.asksMoney, rk.asksFault
	// an event not stating what is asked keeps Weights.Unstated of its
	// relevance, not only of its recency, for these questions: one
	// asking what is wrong with a thing or what a check found ("Engineer
	// Karl's visit report sent" names the engineer, "Service done: flue
	// seal cracked" is what he found), and one asking what time (几点) or
	// which day (哪天), for an event stating no clock time, or no day
	// (lacksTimeAsked): for "what time do I see the teacher?",
	// "Parent-teacher day: Thu 28 Nov, book a slot" names the teacher,
	// "Your slot: Thu 28 Nov 16:40" is the time (+7 −1 on the development
	// sets for the clock, +4 −1 for the day); and those below (found)
	clock := clockAsked.in(q.normalised())
	// (and when of a thing named, not how long nor when one can do a
	// thing: "when is the oven repair for 66102?" is answered by "hinge
	// delivered, fitting booked for Monday", not the claim "oven door
	// hinge broken"; "when can I get Bella?" by "ready for pick-up", +8 −2
	// on the development sets, both downs a lesser answer one place lower;
	// with "can" too, +8 −4)
	when := len(asked) == 1 && asked[0].term == TimeTerm &&
		(clock || asksDay(q.normalised()) || len(qids) > 0 && !rk.howLong && !possibleCues.in(q.normalised()))
	if len(qids) > 0 && asksFor(byClause, ReasonTerm) && !rk.whyDearer && asksNoMoneyMoved(q.normalised()) {
		// why, of a thing named, asking nothing of money: a sum given
		// back on it (givenBack: "故障 补偿 10 元 已 到账") followed from
		// the problem and is less of an answer than its cause ("充电
		// 中断：桩 故障"; +1 −0 on the development sets; for any question
		// asking why, stop 90 measured +7 −8)
		if back := givenBack(rk.cands, docs); back != nil {
			for i := range docs {
				if back[i] && rk.comps[i].Identifier > 0 {
					rels[i] *= w.Unstated
				}
			}
		}
	}
	if rk.whyDearer {
		// why a thing costs more: the event adding a sum to it is the
		// reason ("worktop changed to granite, plus 600 EUR"), not a
		// damage the window reports nor the invoice restating the total;
		// where none adds one, an event stating no sum is less of an
		// answer. The sum added answers as the best match on the object
		// does (a question saying "more than 189" matches none of its
		// words), and fuse gives it the object's newest recency and the
		// rest Weights.Unstated of theirs (+4 −0 on the development sets,
		// without fuse's recency +3 −0; answering as the best match, with
		// "more than" a cue, +3 −0 more)
		rk.added = rk.sumsAdded()
		if rk.added == nil {
			for i := range docs {
				if docs[i].marks&markSum == 0 {
					rels[i] *= w.Unstated
				}
			}
		} else {
			rk.answerAsAdded()
		}
	}
	if rk.noun != 0 && len(qids) > 0 && whichCues.in(q.normalised()) {
		// which thing an object has ("wy81203 是 哪个 车位？"): where an
		// event names the thing with its own code ("地下 车库 B2-117 车位
		// 被 占"), one naming the thing alone ("车位 恢复") is less of an
		// answer (+2 −0 on the development sets; of any question naming
		// the thing asked, "what plan is 4498 on?", +2 −15)
		if valued := valuesNamed(qids, rk.clauses, rk.noun, docs); valued != nil {
			for i := range docs {
				if i < len(rk.clauses) && rk.clauses[i]&rk.noun != 0 && !valued[i] {
					rels[i] *= w.Unstated
				}
			}
		}
	}
	if rk.asksWho && holderCues.in(q.normalised()) {
		// who has a thing: whoever it was handed to last, named or by a
		// role ("left with the neighbour" after "rider Tomasz picked up
		// the envelope"; +2 −0 on the development sets, as by not
		// applying vaguer alone)
		lastHolder(rels, rk.comps, cands, docs, len(qids) > 0, w.Unstated)
	} else if rk.asksWho {
		// who: where an event names a person by name ("Service visit
		// BS-3318: … engineer Tom", "维修 师傅 李师傅 周四 上门"), one
		// naming a role alone ("BS-3318 engineer running late") is
		// less of an answer (markNamed; +12 −2 on the development sets)
		vaguer(rels, docs, personHash, markNamed, w.Unstated)
	}
	if asksMoney && !asksWhether(q.normalised()) && !(asksFor(byClause, ReasonTerm) && denies(q.normalised())) {
		// how much: where an event states a sum ("Order TC-55190: …
		// 164 EUR"), one naming money by a word alone ("fee waived")
		// is less of an answer (markSum; +4 −0 on the development
		// sets). Not a question whether ("will I pay for the
		// scratch?"): "no charge" answers it; nor one asking why no
		// money moved ("why was SW-1180 not charged in December?"):
		// "December fee waived: closure days credited" does (+1 −0)
		vaguer(rels, docs, moneyHash, markSum, w.Unstated)
	}
	if rk.whyChanged {
		// why a thing changed: an event saying no change is less of an
		// answer, the reason stated with the change the one asked
		// ("VA-2281 moved to Friday 9:30: vet called away" over the
		// booking it moved; with fuse keeping its recency, +12 −0 on the
		// development sets)
		for i := range docs {
			if !saysAChange(&docs[i]) && !(rk.whyLate && docs[i].count(delayHash) > 0) {
				rels[i] *= w.Unstated
			}
		}
	}
	// why a thing did not happen (asksWhyNot): an event stating no cause
	// nor problem is less of an answer, as for what is wrong ("Installation
	// booked: Tuesday 8:00-12:00" restates the plan, "Technician could not
	// get into the building" is why; +13 −6 on the development sets; for
	// every question asking why, +36 −69; the Chinese 为什么 没, 怎么 还 没,
	// +1 −1); and what someone who checked said (a verdict asked: +2 −1);
	// and who, asked alone: the booking naming the cat is no answer to
	// "who sees Luna at VT-6620?", "vet Dr. Okafor replaced by Dr.
	// Brandt" is (+9 −4)
	found := asksFault || asksFor(byClause, VerdictTerm) || asksWhyNot(q.normalised()) && asksFor(byClause, ReasonTerm) || rk.asksWho
	if found || when {
		for i := range docs {
			if found && !statesAsked(&docs[i], byClause) || when && lacksTimeAsked(&docs[i], clock) {
				rels[i] *= w.Unstated
			}
		}
	}
	if asksFault && len(qids) > 0 {
		// what is wrong with an object: where a later event of it
		// states a problem, its first event's is only what was
		// reported (+1 −0 on the development sets; not stating the
		// problem at all, the report fell below events stating none:
		// +1 −2)
		if reported := reportedOnly(qids, cands, docs); reported >= 0 {
			rels[reported] *= w.Unstated
		}
	}
}

// sumsExplained gives the events whose sums make the sum a question asks
// why of ("why did I only get 130?") a match (the question asks for a
// reason; Weights.Identifier > 0).
func (rk *ranking) sumsExplained() {
	q, cands, docs, w, rels, comps, qids := &rk.q, rk.cands, rk.docs, rk.w, rk.rels, rk.comps, rk.qids
	// "why did I only get 130?": the event whose sums make it
	// (+4 −0 on the development sets; matching as well as the
	// object's best event, and with a text that states the sum
	// beside them, +2 −0 more; an event stating the sum alone
	// as money moved, "130.00 EUR paid", also keeping
	// Weights.Unstated of its relevance as one restating the
	// question: +4 −4, as "Invoice … 36.00 USD: 3 extra seats added"
	// explains with no word of a reason); asked of an object, the
	// later event on it whose sum and an earlier one's make it
	// (addsUp: +2 −0 more)
	if asked := questionSums(q.Text); len(asked) > 0 {
		best := 0.0
		sums := make([][]int64, len(docs)) // (each event's sums, read once)
		for i := range docs {
			if comps[i].Identifier > 0 {
				best = max(best, rels[i])
			}
			if docs[i].count(moneyHash) > 0 {
				sums[i] = sumsStated(cands[i].Text)
			}
		}
		var makers []int
		for i := range docs {
			if makesSum(sums[i], asked) || timesSum(cands[i].Text, sums[i], asked) {
				comps[i].Identifier = max(comps[i].Identifier, 1)
				rels[i] = max(rels[i], best)
				makers = append(makers, i)
			}
		}
		// (and the events restating the sum alone keep Weights.Unstated of
		// their relevance, the event making it as new as the newest: "CL-
		// 88120 approved, 940 EUR will be paid" restates "why only 940?",
		// "assessor estimate 1 240 EUR, excess 300 EUR" is why; +2 −0)
		if len(qids) > 0 {
			adders := addsUp(asked, sums, comps, cands, docs)
			makers = append(makers, adders...)
			if rk.added == nil && len(adders) > 0 && !statesSum(asked, sums, comps) {
				// where no event on the object states the sum ("why is
				// SK-4406 160?" of a rental at 140 and "helmet added, 20
				// EUR"), the events making it are the sums added to it, as
				// for "why is it dearer?" (sumsAdded): fuse gives them the
				// object's newest recency (+1 −0 on the development sets,
				// as the rule it replaced, which read any sum the events
				// did not state that way; with a sum stated too, −1: "why
				// is TC-4471 325?")
				rk.added = make([]bool, len(docs))
				for _, j := range adders {
					rk.added[j] = true
				}
				rk.answerAsAdded()
			}
		}
		restatedBy(makers, asked, sums, rels, comps, docs, w.Unstated)
	}
}

// causesFound: asked why of a problem of an object the question names
// ("KD22317708 为什么 断网？"), a later event on the object stating another
// problem ("7708 检修：路由器 过热，已 更换") is what was found, and matches at
// least as well as the event restating the problem ("7708 报障：晚上 经常
// 断网": the restaters matchWords found, problemsOnly).
func (rk *ranking) causesFound() {
	cands, docs, comps, restaters := rk.cands, rk.docs, rk.comps, rk.restaters
	if len(rk.qids) == 0 {
		return
	}
	for i := range restaters {
		if !restaters[i] || comps[i].Identifier == 0 {
			continue
		}
		for j := range cands {
			if !restaters[j] && comps[j].Identifier > 0 && docs[j].count(reasonHash) > 0 && cands[j].Time.After(cands[i].Time) {
				rk.answersAs(j, i)
			}
		}
	}
}

// objectByWords names the object a question naming none names by its
// words: a way of a trip, an ordinal, a sibling's kind (Fusion.Object).
func (rk *ranking) objectByWords() (string, []ident) {
	q, cands, docs, w, rels, comps, qids, own := &rk.q, rk.cands, rk.docs, rk.w, rk.rels, rk.comps, rk.qids, rk.own
	var object string // (Fusion.Object)
	if dir := askedDirection(q.normalised()); len(qids) == 0 && dir != 0 && w.Identifier > 0 {
		// "when do I fly home now?" names the flights of the trip's way back
		if way := legsAsked(dir, cands, docs); len(way.stating) > 0 {
			for i := range cands {
				if namesLeg(i, cands[i].Text, &docs[i], way) {
					comps[i].Identifier = 1
				}
			}
			object = strings.Join(way.names, " ")
		}
	}
	if n, noun := askedOrdinal(q.normalised()); len(qids) == 0 && object == "" && n > 0 && w.Identifier > 0 {
		// "has the second transfer gone through?" names the second transfer
		// the window introduces: the question names its identifier
		if x, intro := nthObject(n, noun, own, rels, docs, cands); intro >= 0 {
			qids = []ident{x}
			for i := range docs {
				comps[i].Identifier = idMatch(qids, &docs[i])
			}
			object = idText(cands[intro].Text, x)
		}
	}
	if len(qids) == 0 && object == "" && w.Sibling > 0 && w.Sibling < 1 {
		siblings, intro, x := aboutASibling(own, q.normalised().words, rels, comps, docs, cands)
		for _, i := range siblings {
			comps[i].Source *= w.Sibling
			rels[i] *= w.Sibling
		}
		if len(siblings) > 0 {
			object = idText(cands[intro].Text, x)
		}
	}
	return object, qids
}

// threads links the events of one object's story: the replies to a line
// that asks, the events linked to the question's object, the echoes of
// its story.
func (rk *ranking) threads() {
	cands, docs, w, rels, comps, qids, sc := rk.cands, rk.docs, rk.w, rk.rels, rk.comps, rk.qids, rk.sc
	questions, asking := rk.questions, rk.asking
	if len(questions) > 0 && w.Thread > 0 {
		replies(questions, rels, comps, cands, docs, asking, w.Thread)
	}
	if len(qids) > 0 && w.Linked > 0 {
		link(comps, docs, cands, qids, w.Linked)
	}
	if len(qids) > 0 && w.Echo > 0 {
		echo(comps, docs, cands, rels, w.Echo, sc)
	}
}

// stories decides whether the question asks about what one event says or
// where its object's story stands, and lets later events inherit from the
// earlier ones in the second case (inherit).
func (rk *ranking) stories() (bool, bool, []bool) {
	q, cands, docs, w, rels, comps, qids := &rk.q, rk.cands, rk.docs, rk.w, rk.rels, rk.comps, rk.qids
	asked, asksMoney, byClause, clauses, noun, qterms, describes, unstated := rk.asked, rk.asksMoney, rk.byClause, rk.clauses, rk.noun, rk.qterms, rk.describes, rk.unstated
	// A question about what one of an object's events says is no question
	// about where the object stands: neither the status share nor the story's
	// threads apply to it. One asking for what is newest ("when is the
	// drop-off of RV-77 now?") asks where it stands, whatever it asks for, and
	// so does one whether something still holds ("do I still have to pay
	// PF-88019?": the fine's amount is what one event says, whether it is
	// still owed is where its story stands; not "what is still missing for
	// CL-6101?", which asks what an event says), and so does one whether a
	// step of its story is done ("is 917 paid?": asksIfDone).
	// Nor is one about what someone said ("what did Marta say about the
	// oven?"): the event saying it answers it, not a later one of its story
	// (the invoice charging the 35.00 EUR she noted), unless it asks for the
	// newest ("what did I just tell the hotel?"). Nor one asking for a
	// thing's first value ("RF-2025 original quote?", "原来 几 点？":
	// originalCues): a later event of its story is no newer word on it.
	still := stillAsked(q.normalised()) || asksIfStillOwed(q.normalised())
	happened := false
	var steps []bool // (stepsDone)
	whether := asksWhether(q.normalised())
	ifFixed := asksIfFixed(q.normalised())
	var cjkSteps []bool // (a Chinese question whether a step happened, and the events saying it done: cjkStepsDone)
	if len(qids) > 0 && happenedCues.in(q.normalised()) {
		cjkSteps = cjkStepsDone(q.normalised(), cands, comps, docs)
	}
	aboutEvent := len(qids) > 0 && !q.Intent && !(still && whether) && !notYetCues.in(q.normalised()) && !asksIfDone(q.normalised()) && !ifFixed && cjkSteps == nil && !asksWhereStands(q.normalised()) && (describes || asksWhatAnEventSays(qterms, asked, comps, docs, cands))
	said := !q.Intent && aboutSaid(q.normalised())
	if aboutEvent && w.EchoAnswer > w.Echo {
		echoAnswers(comps, docs, qids, w)
	}
	if (w.Thread > 0 || w.ThreadFirst > 0) && !aboutEvent && !said && !originalCues.in(q.normalised()) {
		// a later event inherits only when it names the thing a "what …" or
		// "which …" question asks for (noun) or says the thing is another now
		// ("GM-330 upgraded to Premium" for "what plan is GM-330 on?", not
		// "popcorn added to CN-7781" for "what seats do I have for CN-7781?")
		happened = !still && (happenedCues.in(q.normalised()) || asksWhetherDone(q.normalised()))
		if happened && len(qids) > 0 {
			steps = stepsDone(q.normalised(), cands, comps)
			if steps == nil {
				steps = cjkSteps
			}
			if steps == nil && ifFixed {
				steps = fixedSteps(cands, comps, docs)
			}
		} else if happened {
			// (no identifier: the stories the window's own identifiers tell,
			// "轿车 还 了 吗？" of "2256 已 还车" and "2256 押金 已 退")
			steps = cjkStepsDone(q.normalised(), cands, nil, docs)
			if steps == nil && ifFixed {
				steps = fixedSteps(cands, nil, docs) // ("09 修 好 了 没？" of "WX-1207-09 已 修好")
			}
		}
		how := inheritance{still: still, whether: whether, fixed: fixedCues.in(q.normalised()), newest: q.Intent, happened: happened, aboutMoney: happened && aboutMoney(q.normalised()),
			costs:     !still && len(asked) == 1 && asked[0].term == MoneyTerm && asksWhatItCosts(q.normalised()),
			sum:       !still && !happened && asksMoney && !asksMoneyBack(q.normalised()),
			when:      !still && !q.Intent && len(asked) == 1 && asked[0].term == TimeTerm,
			elsewhere: newAnotherDay(dayMask(daysNamed(q.normalised())), cands), unstated: unstated, steps: steps,
			noMoney: !still && !q.Intent && len(asked) == 0 && !aboutMoney(q.normalised()) && !asksWhatHappened(q.normalised()) && !priceWords.in(q.normalised())}
		// (not when it names the thing it asks after and not "still": "does
		// HS-4410 have a certificate yet?" asks whether it came, and a later
		// state ended, "HS-4410 restored", is no news of it)
		if len(qids) > 0 && asksIfItHolds(q.normalised(), still, whether) && (noun == 0 || slices.Contains(q.normalised().words, "still")) {
			how.holds = qids
		}
		if happened {
			how.sumKinds = sumKindsIn(q.normalised().norm)
		}
		how.required = !still && !happened && asksIfRequired(q.normalised())
		how.stillAt = still && stillAtTime(q.normalised().norm)
		how.changes = asksWhatChanged(q.normalised())
		how.deed = asksDeed(q.normalised())
		how.noBill = !rk.billsAnswer
		if len(qids) > 0 && noun == 0 && len(asked) == 0 && !q.Intent {
			how.items = itemsNamed(q.normalised().words, comps, cands, docs)
		}
		inherit(rels, comps, cands, docs, w, byClause, clauses, noun, how)
	}
	if w.ThreadAnswer > 0 && remedyCues.in(q.normalised()) {
		// (what is done about a problem: the later remedy, whether or not the
		// question asks where a story stands)
		remedied(rels, comps, cands, docs, w)
	}
	return aboutEvent, happened, steps
}

// priceWords name a price in a question without asking a sum ("is my
// insurance getting more expensive", "是不是 更 贵 了？"): a later amount of
// the story may be its newer price.
var priceWords = newCueSet([]string{"expensive", "cheaper", "cheap", "price", "prices", "cost", "costs", "premium", "rate", "贵", "便宜", "价"})

// fusion is the question's shares of recency and identifiers (Fusion), and
// whether the window is its object's story alone (story).
func (rk *ranking) fusion() (Fusion, bool) {
	q, cands, docs, w, comps, qids, own := &rk.q, rk.cands, rk.docs, rk.w, rk.comps, rk.qids, rk.own
	wS, wL, expanded, object, aboutEvent := rk.wS, rk.wL, rk.expanded, rk.object, rk.aboutEvent
	asked, describes, offer, asking := rk.asked, rk.describes, rk.offer, rk.asking
	f := Fusion{Similarity: wS, Lexical: wL, Recency: w.Recency, Identifier: w.Identifier, Expanded: expanded, Object: object}
	if q.Context != "" {
		f.Question, f.Context = q.Text, q.Context
	}
	switch {
	case q.Intent:
		f.Recency, f.AsksNewest, f.Change = w.RecencyIntent, true, w.Changed
		if w.ChangedNow > 0 && nowCues.in(q.normalised()) {
			f.Change, f.AsksNow = w.ChangedNow, true
		}
	case len(qids) > 0 && !aboutEvent:
		f.Recency, f.AsksStatus = w.Status, true
	}
	story := false
	if w.IdentifierAlone > 0 && len(qids) > 0 && !contested(qids, docs) {
		f.Identifier, f.IdentifierAlone = w.Identifier*w.IdentifierAlone, true
		if (f.AsksNewest || f.AsksStatus) && !slices.ContainsFunc(own, func(t string) bool { return !newsWord(t) }) && !strangers(comps, docs, cands) {
			// "what is the latest on CV-33019?" (or "what's the status of
			// AP-6612?") and nothing else in the window of its kind: the
			// window is the object's story, and its newest
			// event the answer whether it names the object or not, unless it
			// names another object instead (a policy's renewal quote is no
			// news of claim CL-50317); naming it counts IdentifierStory. Not
			// when an event outside its story names an object of another
			// kind (strangers): the window then holds more than its story,
			// and its newest event, naming nothing, need be no news of it
			f.Identifier, story = w.Identifier*w.IdentifierStory, true
		}
	}
	for _, t := range asked {
		f.Asks = append(f.Asks, t.name)
	}
	if describes {
		f.Asks = append(f.Asks, "description")
	}
	if offer != w.Offer {
		f.Asks = append(f.Asks, "deals")
	}
	if asking != w.Offer {
		f.Asks = append(f.Asks, "asked")
	}
	return f, story
}

// newerAnswers marks the events stating a newer value of what is asked
// (newerValues: f.Change becomes Weights.Newer), and the step asked when
// of, said done (whenDone); what followed a cancellation (consequences);
// and the kind an object changed to.
func (rk *ranking) newerAnswers(f *Fusion) ([]uint8, []bool) {
	q, cands, docs, w, rels, comps, qids := &rk.q, rk.cands, rk.docs, rk.w, rk.rels, rk.comps, rk.qids
	asked, byClause, clauses, noun, counted, countedStem, nounWords, howLong := rk.asked, rk.byClause, rk.clauses, rk.noun, rk.counted, rk.countedStem, rk.nounWords, rk.howLong
	kindWas, kindNow := rk.kindWas, rk.kindNow
	var newer []uint8 // (newerValues: a question naming an object asks for a value it has now)
	if w.Newer > 0 && len(qids) > 0 && !q.Intent && (len(asked) > 0 || noun != 0) && !asksFor(byClause, ReasonTerm) && !originalCues.in(q.normalised()) &&
		!(rk.asksMoney && asksWhether(q.normalised())) {
		// (not asked whether one pays, "do I pay for the BR-8807 motor?":
		// "motor fixed under warranty, no charge" answers, and the later
		// total is no newer word on it; +1 −0 on the development sets)
		var best int
		// a time moved is a newer one of a question asking when, not of one
		// asking how long ("每 次 多久？" is no clock time moved)
		moves := asksFor(byClause, TimeTerm) && !howLong
		if newer, best = newerValues(rels, comps, cands, docs, byClause, clauses, noun, countedStem, nounWords, moves); newer != nil {
			f.Change = w.Newer
			// an event naming the thing asked with its newer value ("CP-4412
			// moved to pitch 31" for "which pitch is cp4412?"), the thing a
			// count asked counts ("00417 seats increased to 8" for "how many
			// seats …?": countedNoun), or the type asked by its word
			// ("quantity raised to 1,000" for "how many cards …?":
			// typeNames), or, when a time is asked, a time moved
			// ("MV-7714 start moved to 10:00" for "what time do the
			// movers come for mv7714?": movesATime; not after a best
			// that is itself a later change: changesLater), matches the
			// question as the best does:
			// what else the best says ("Pitch booking …: pitch 23, 5
			// nights") is no more of an answer. Not any newer value of a
			// type asked, which need not be of the thing asked: a plan's
			// base rate "adjusted" is no newer price of the month asked
			for j, kind := range newer {
				if kind != 0 && (noun != 0 || namesTypeAsked(&docs[j], byClause) || j < len(clauses) && clauses[j]&counted != 0 || kind == newerTime && !changesLater(best, comps, cands, docs)) {
					rk.answersAs(j, best)
				}
			}
		}
	}
	if w.Newer > 0 && w.Unstated > 0 && w.Unstated < 1 {
		// the newest event of a kind the question asks for: a headcount
		// changed ("SC-8812 changed to 1 person" for "how many people is
		// sc8812 for?"), an outcome stated ("报告 已 出：血脂 偏高" for "体检
		// 结果 怎么样？")
		for _, now := range [...]int{rk.headcountNow(), rk.resultNow()} {
			if now < 0 {
				continue
			}
			f.Change = w.Newer
			if newer == nil {
				newer = make([]uint8, len(cands))
			}
			newer[now] = 1
		}
	}
	if len(qids) > 0 && asksWhatHappened(q.normalised()) || stillAsked(q.normalised()) {
		consequences(comps, cands, docs, len(qids) > 0)
	}
	if asksFor(byClause, ReasonTerm) && !asksWhatHappened(q.normalised()) {
		amends(comps, cands, docs, len(qids) > 0)
	}
	var stepNow []bool // (whenDone: a step asked when of, said done)
	if len(qids) > 0 && !q.Intent && !howLong && len(asked) == 1 && asked[0].term == TimeTerm {
		stepNow = whenDone(q.normalised(), rels, cands, comps, docs)
	}
	if kindNow >= 0 {
		// the kind the object changed to answers as its first kind matched
		// ("TJ-8826 升级 为 高级 版" for "TJ-8826 什么 套餐？", where only the
		// booking says 套餐)
		rk.answersAs(kindNow, kindWas)
	}
	return newer, stepNow
}

// answersAs lets event j, a newer word on what event best answers, answer as
// best does: its relevance, and, when it is tied to the question's object
// without naming it (it echoes the object's words, or names it through
// another identifier: "您 修改 人数 为 6 位" after "餐厅 预订 CT-2081：…，4
// 位"), the identifier score of best too: the reading found it on the object,
// and the older event naming the object is no surer an answer for naming it.
func (rk *ranking) answersAs(j, best int) {
	rk.rels[j] = max(rk.rels[j], rk.rels[best])
	if len(rk.qids) > 0 && rk.comps[j].Identifier > 0 {
		rk.comps[j].Identifier = max(rk.comps[j].Identifier, rk.comps[best].Identifier)
	}
}

// fuse scores each event (Score's formula).
func (rk *ranking) fuse(scores []float64, f Fusion, story bool, newer []uint8, stepNow []bool) {
	q, cands, docs, w, rels, comps, qids := &rk.q, rk.cands, rk.docs, rk.w, rk.rels, rk.comps, rk.qids
	asked, byClause, clauses, noun, happened, steps := rk.asked, rk.byClause, rk.clauses, rk.noun, rk.happened, rk.steps
	r, wI := f.Recency, f.Identifier
	// the share of its recency an event keeps when it does not state what is
	// asked: none for a question asking for the newest (as it inherits
	// nothing: inherit), nor, for one naming an object and asking what thing
	// it has now ("what colour is tl7718 now?"), when it neither names the
	// thing nor says it is another ("ready for collection"),
	// Weights.Unstated for any other asking for a type;
	// none either, in an object's story, for an event naming another object
	// (story holds only for a question asking the newest); and
	// Weights.Unstated, for a question asking where an object stands, for an
	// event outside its story (neither naming the object nor echoing it, and
	// inheriting nothing): "续保 优惠 截止 12 月 20 日" is newer than "维修
	// 完成，800 元 已 由 对方 保险 支付" but says nothing of claim LP-2210
	// asked whether a thing named is done, an event on it not saying so
	// keeps Weights.Unstated of its recency, as one not stating an asked
	// type does: the newest word on the object need not be that it is done
	doneAsked := f.AsksStatus && happened && w.Unstated > 0 && w.Unstated < 1
	money := doneAsked && aboutMoney(q.normalised())
	// (asked whether paid, the payment said done is the newest word on it:
	// it takes the recency of the object's newest event, a later meter
	// check saying nothing of it; +2 −0 on the development sets, for any
	// step asked, +4 −4)
	// (why it costs more, lessOfAnAnswer's sums added take the same)
	added, newestOn := rk.added, 0.0
	if added != nil || doneAsked && steps != nil && asksIfPaid(q.normalised()) {
		for i := range comps {
			if comps[i].Identifier > 0 {
				newestOn = max(newestOn, comps[i].Recency)
			}
		}
	}
	keep, scaled := 0.0, f.AsksNewest
	if !f.AsksNewest && len(asked) > 0 && w.Unstated > 0 && w.Unstated < 1 {
		keep, scaled = w.Unstated, true
	}
	laterIsNoValue := f.AsksNow && !asksFor(byClause, TimeTerm) // (a change from next month is no value now; a time asked, it is)
	if !rk.billsAnswer && w.Unstated > 0 && w.Unstated < 1 {
		billsNoNews(cands, docs, comps, rk.now, w.HalfLife)
	}
	changed := -1 // (the newest event saying a change, of the object when the question names one)
	if rk.whyChanged {
		for i := range docs {
			if saysAChange(&docs[i]) && (len(qids) == 0 || comps[i].Identifier > 0) && (changed < 0 || cands[i].Time.After(cands[changed].Time)) {
				changed = i
			}
		}
	}
	// (who: where an event names a person by name, one naming a role alone
	// states no answer, for its recency as for its match: vaguer)
	named := scaled && rk.asksWho && slices.ContainsFunc(docs, func(d doc) bool { return d.marks&markNamed != 0 })
	// (how much: as for who, an event naming money by a word alone, "fee
	// waived", where another states a sum; not asked whether, "要 钱 吗？",
	// which "no charge" answers)
	summed := scaled && len(asked) == 1 && rk.asksMoney && !asksWhether(q.normalised()) && !strings.HasSuffix(askedEnd(q.normalised()), "吗") &&
		slices.ContainsFunc(docs, func(d doc) bool { return d.marks&markSum != 0 })
	for i := range cands {
		c := &comps[i]
		if scaled && ((!statesAsked(&docs[i], byClause) || named && docs[i].marks&markNamed == 0 || summed && docs[i].marks&markSum == 0) && (stepNow == nil || !stepNow[i]) && !(rk.whyChanged && saysAChange(&docs[i])) && i != rk.kindNow || f.AsksNewest && noun != 0 && len(qids) > 0 && (i >= len(clauses) || clauses[i]&noun == 0) && !saysReplaced(&docs[i])) || story && c.Identifier == 0 && namesAnObject(&docs[i]) {
			c.Recency *= keep
		}
		if rk.whyChanged && w.Unstated > 0 && !saysAChange(&docs[i]) && !(rk.whyLate && docs[i].count(delayHash) > 0) && changed >= 0 && cands[i].Time.After(cands[changed].Time) {
			c.Recency *= w.Unstated // (why it changed: what came after the change is no cause of it)
		}
		change := f.Change
		if doneAsked && c.Identifier > 0 {
			if !saysStepDone(steps, i, &docs[i], cands[i].Text, money) {
				c.Recency *= w.Unstated // (an event on the object not saying it is done: "is RMA 771204 fixed?")
			} else if steps != nil {
				// (the step asked, said done, counts as a newer value does:
				// "YY-4417 学费 2600 元 已 缴清" for "YY-4417 学费 交 了 吗？")
				c.Change, change = 1, max(change, w.Newer)
				c.Recency = max(c.Recency, newestOn)
			}
		}
		if added != nil && added[i] {
			c.Recency = max(c.Recency, newestOn) // (why it costs more: the sum added is as new as the object's newest word, and the rest is less of an answer)
		} else if added != nil {
			c.Recency *= w.Unstated
		}
		if f.AsksStatus && !story && w.Unstated > 0 && c.Identifier == 0 && c.Thread == 0 {
			c.Recency *= w.Unstated // (outside the object's story: it states nothing of where it stands)
		}
		if f.AsksNewest && f.Change > 0 && (saysChanged(&docs[i]) || f.AsksNow && statesCurrent(&docs[i])) && !(laterIsNoValue && takesEffectLater(&docs[i])) {
			c.Change = 1
		}
		if newer != nil && newer[i] != 0 || stepNow != nil && stepNow[i] {
			c.Change = 1 // (a newer value; a step asked when of, done)
		}
		scores[i] = (1-r)*(1+change*c.Change)*max(rels[i], c.Thread) + r*c.Recency*c.Source + wI*c.Identifier*c.Source
	}
}

var timeHash, reasonHash, delayHash, personHash, nowTermHash = termHash(TimeTerm), termHash(ReasonTerm), termHash(DelayTerm), termHash(PersonTerm), termHash(NowTerm)

var placeHash = termHash(PlaceTerm) // (lacksTimeAsked: a change of place)

// scaleMarked scales by keep the relevance of the events whose analysis
// holds mark.
func scaleMarked(rels []float64, docs []doc, mark uint16, keep float64) {
	for i := range docs {
		if docs[i].marks&mark != 0 {
			rels[i] *= keep
		}
	}
}

// whichCues ask which of a kind a thing is ("which size …?", 哪个 车位).
var whichCues = newCueSet([]string{"which", "哪个", "哪一", "哪间", "哪张"})

// valuesNamed marks the events naming the thing asked (clauses holding
// noun) with an identifier besides the question's object: its value
// ("B2-117 车位"). Nil when none does.
func valuesNamed(qids []ident, clauses []uint64, noun uint64, docs []doc) []bool {
	var out []bool
	for i := range docs {
		if i >= len(clauses) || clauses[i]&noun == 0 {
			continue
		}
		// (an event's own identifiers, amounts aside, hold the object's
		// when it names it: a value is one more)
		n := 0
		for k := range int(docs[i].nOwn) {
			if !docs[i].own(k).amount {
				n++
			}
		}
		if n >= 2 || n == 1 && idMatch(qids, &docs[i]) == 0 {
			if out == nil {
				out = make([]bool, len(docs))
			}
			out[i] = true
		}
	}
	return out
}

// lastHolder scales by keep the relevance of the events naming a person
// (of the question's object, when named) before the newest that does: a
// thing is with whoever it was handed to last.
func lastHolder(rels []float64, comps []Components, cands []Candidate, docs []doc, named bool, keep float64) {
	holds := func(i int) bool { return docs[i].count(personHash) > 0 && (!named || comps[i].Identifier > 0) }
	last := -1
	for i := range docs {
		if holds(i) && (last < 0 || cands[i].Time.After(cands[last].Time)) {
			last = i
		}
	}
	for i := range docs {
		if i != last && holds(i) && cands[i].Time.Before(cands[last].Time) {
			rels[i] *= keep
		}
	}
}

// vaguer scales by keep the relevance of the events stating the answer type
// of term only vaguely, lacking mark, when another event states it so: a
// person by a role and no name, money by a word and no sum.
func vaguer(rels []float64, docs []doc, term uint64, mark uint16, keep float64) {
	if !slices.ContainsFunc(docs, func(d doc) bool { return d.marks&mark != 0 }) {
		return
	}
	for i := range docs {
		if docs[i].marks&mark == 0 && docs[i].count(term) > 0 {
			rels[i] *= keep
		}
	}
}

// problemsOnly marks, for a question asking why or what is wrong that names
// its problem ("why is the sink leaking?", "为什么停水？", "what was
// broken?"), the events whose only reason is that problem, or that report
// it for repair (报修, 报障: "报障：晚上 网速 只有 50M" for "为什么 网速
// 慢？"; "报修：墙面 渗水 发霉" for "为什么 渗水？", a report telling what
// is seen, whatever else it names): "You reported: sink leaking" says what the question says, and the reason or the finding
// it asks for is another ("seal worn"). Not for a question about what
// was said ("why did you warn me about a leak?" asks for the warning). Nil
// when the question names no problem or no event is such.
func problemsOnly(q text, cands []Candidate, docs []doc) []bool {
	problems := problemsOf([]rune(q.norm)) // (questionText: its Chinese joined)
	if whatBroke.in(q) {
		// (asked what broke, 坏 is what is asked, no problem named: "进水 阀
		// 坏 了" answers "SH-50917 什么 坏 了")
		problems = slices.DeleteFunc(problems, func(p string) bool { return p == "坏" })
	}
	high := asksWhyHigh(q)
	if high {
		problems = append(problems, abnormalWords...)
	}
	if len(problems) == 0 {
		return nil
	}
	// the problems' terms, when each is a Latin word's stem: an event holding
	// none of them states a reason of its own, and its text is not read
	// again (nil: some problem is Chinese, whose words' pairs are read)
	var hs []uint64
	for _, p := range problems {
		if strings.IndexFunc(p, isCJK) >= 0 {
			hs = nil
			break
		}
		hs = append(hs, termHash(p))
	}
	var out []bool
	for i := range docs {
		if docs[i].count(reasonHash)+docs[i].count(delayHash) == 0 && !hasAny(&docs[i], repairHashes) || hs != nil && !hasAny(&docs[i], hs) {
			continue
		}
		report := hasAny(&docs[i], repairHashes)
		if another, named := problemsStated(cands[i].Text, problems, report); !another || high && hedged(cands[i].Text) || report && named {
			if out == nil {
				out = make([]bool, len(docs))
			}
			out[i] = true
		}
	}
	return out
}

// reportedOnly is, for a question asking what is wrong with an object, its
// first event when that states a problem and a later event of the object
// states one too: "Appointment VT-6601: Rex (dog), limping front leg" tells
// what was reported, "VT-6601 X-ray: sprained paw" what was found. -1
// when there is no such pair.
func reportedOnly(qids []ident, cands []Candidate, docs []doc) int {
	intro := introOf(qids, cands, docs)
	if intro < 0 || docs[intro].count(reasonHash) == 0 {
		return -1
	}
	for i := range docs {
		if i != intro && docs[i].count(reasonHash) > 0 && idMatch(qids, &docs[i]) > 0 && cands[i].Time.After(cands[intro].Time) {
			return intro
		}
	}
	return -1
}

// aboutSaid reports a question about what someone said or warned of
// (aboutWhatWasSaid), not one only asking to be told (asksToBeTold).
func aboutSaid(q text) bool { return aboutWhatWasSaid.in(q) && !asksToBeTold(q) }

// asksToBeTold reports a question whose only words of saying ask the business
// to tell ("can you tell me where it is?", "tell me when it ships", 请告诉我):
// a request, not a question about what was said ("what did the doctor tell
// me?").
func asksToBeTold(q text) bool {
	at := func(k int) string {
		if k >= 0 && k < len(q.words) {
			return q.words[k]
		}
		return ""
	}
	for k, w := range q.words {
		if !slices.Contains(saidWords, w) {
			continue
		}
		asking := at(k-1) == "you" && requestModals[at(k-2)] || at(k-1) == "please" || (at(k+1) == "me" || at(k+1) == "us") && whWords[at(k+2)]
		if w != "tell" || !asking {
			return false
		}
	}
	for _, c := range saidCJK {
		if strings.Contains(q.norm, c) && (c != "告诉" || !strings.Contains(q.norm, "请告诉") && !strings.Contains(q.norm, "能告诉") && !strings.Contains(q.norm, "可以告诉")) {
			return false
		}
	}
	return true
}

// requestModals ask someone to do something ("can you tell me …"), and
// whWords open what a request asks to be told ("tell me where …").
var requestModals = map[string]bool{"can": true, "could": true, "will": true, "would": true}
var whWords = map[string]bool{"where": true, "when": true, "what": true, "how": true, "if": true, "whether": true, "why": true, "who": true, "which": true}

// aboutWhatWasSaid marks a question about what someone said or warned of:
// one of saidWords (English) or saidCJK.
var aboutWhatWasSaid = newCueSet(append(slices.Clone(saidWords), saidCJK...))

var saidWords = []string{"warn", "warned", "warning", "tell", "told", "say", "said", "mention", "mentioned", "remind", "reminded",
	"notify", "notified", "alert"}

var saidCJK = []string{"说", "提醒", "通知", "告诉"}

// relativeTimes marks, for a question asking when, the events whose only
// time is one counted from the question's thing: "no eating 1 hour after the
// filling" says when not to eat, not when the filling is, and "balance due 14
// days before pick-up" when the balance is due, not the pick-up (nor "尾款
// 请 于 出发 前 7 天 付清" when one sets off). Nil when no event is such.
func relativeTimes(own []string, cands []Candidate, docs []doc) []bool {
	var out []bool
	for i := range docs {
		if docs[i].marks&markRelative == 0 || docs[i].count(timeHash) == 0 {
			continue // (relativeOf, when the event was analysed)
		}
		norm := normalise(cands[i].Text)
		if countedFrom(norm, own) {
			if out == nil {
				out = make([]bool, len(docs))
			}
			out[i] = true
		}
	}
	return out
}

// countedFrom reports a text (normalised) whose only time is a length before
// or after a thing ("2 hours before the filling") that one of words (stems)
// names within four words, and no other time.
// In Chinese the thing comes first, and one of words of two characters or
// more names it ("尾款 请 于 出发 前 7 天 付清": 出发).
func countedFrom(norm string, words []string) bool {
	named := false
	rest := []byte(norm)
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			rest[k] = ' ' // (the length, which the time was)
		}
	}
	for _, m := range relativeTime.FindAllStringSubmatchIndex(norm, -1) {
		after := wordsOf(norm[m[4]:m[5]])
		for _, w := range after[:min(4, len(after))] {
			if slices.Contains(words, stem(w)) {
				named = true
			}
		}
		blank(m[2], m[3])
	}
	for _, m := range cjkRelativeTime.FindAllStringSubmatchIndex(norm, -1) {
		thing := norm[m[2]:m[3]]
		if slices.ContainsFunc(words, func(w string) bool {
			r, _ := utf8.DecodeRuneInString(w)
			return isCJK(r) && utf8.RuneCountInString(w) > 1 && strings.Contains(thing, w)
		}) {
			named = true
		}
		blank(m[4], m[5])
	}
	return named && !statesTime(joinedCJK([]rune(string(rest))))
}

// lacksTimeAsked reports that an event states no clock time (clock) or no
// day (else), nor that the time changed or is late ("列车 晚点 40 分钟", whose
// time is the one before it, later). A change naming a place and no time
// changed the place ("上课 地点 改 到 二楼 205 教室" for "几点 上课？"; +3 −0
// on the development sets).
func lacksTimeAsked(d *doc, clock bool) bool {
	if saysChanged(d) && !(d.count(timeHash) == 0 && d.count(placeHash) > 0) || d.count(delayHash) > 0 {
		return false
	}
	if clock {
		return d.marks&markClock == 0
	}
	return d.count(timeHash) == 0 || d.marks&markClock != 0 && d.marks&markDay == 0
}

// possibleCues ask when one can do a thing ("when can I get Bella?", 什么
// 时候 能 出院): a step said possible ("ready for pick-up") answers it
// without a time.
var possibleCues = newCueSet([]string{"can", "能", "可以"})

// holderCues ask who has a thing now ("who has my keys?", 在谁那里).
var holderCues = newCueSet([]string{"who has", "who have", "who's got", "who got", "who holds", "在谁", "谁拿着", "谁手上", "谁手里"})

// fixedCues ask whether a problem is fixed (inheritance.fixed, solved);
// "working" too, as "working again" ("is the internet working at the new
// place?": +1 −0 on the development sets; "back up", "up again", "back
// online" changed nothing or took "why didn't the computer back up?" down).
var fixedCues = newCueSet([]string{"fixed", "solved", "resolved", "repaired", "sorted", "working again", "normal", "working", "修好", "解决", "正常", "恢复", "好了"})

// clockAsked marks a question asking for a clock time ("what time does it
// leave?", 几点): a date alone does not answer it.
var clockAsked = newCueSet([]string{"what time", "几点"})

// timeLacking marks the events stating a time without what the question
// asks of it, when some event stating a time has it (has, by the event's
// marks): a clock time for "what time" ("claim submitted for the 12 Mar
// journey" beside "moved to 12 Mar 09:00"), a day or a date for "which day"
// ("入住 时间 下午 2 点 以后" beside "入住 日期 改为 12 月 25 日"; nor a month
// alone: markMonthOnly), a length for
// "how long" (statesLength: "moved to Saturday 11:00" beside "upgraded to
// 90 min"). Nil when none is such.
func timeLacking(docs []doc, has func(i int) bool) []bool {
	var out []bool
	some := false
	for i := range docs {
		if docs[i].count(timeHash) == 0 {
			continue
		}
		if has(i) {
			some = true
			continue
		}
		if out == nil {
			out = make([]bool, len(docs))
		}
		out[i] = true
	}
	if !some {
		return nil
	}
	return out
}

// unstateAll unstates the terms hs of the events marked (unstate) and
// returns the events unstated so far with them: the mask the stories read
// (inheritance.unstated; so far is changed).
func (q *lexQuery) unstateAll(sofar, marked []bool, hs ...uint64) []bool {
	q.unstate(marked, hs...)
	switch {
	case sofar == nil:
		return marked
	case marked == nil:
		return sofar
	}
	for i := range sofar {
		sofar[i] = sofar[i] || marked[i]
	}
	return sofar
}

// dayAsked marks a question asking for a day or a date ("which day do we
// check in?", 哪天, 几号): a clock time alone does not answer it.
var dayAsked = newCueSet([]string{"which day", "what day", "which date", "what date", "哪天", "哪一天", "几号", "哪日"})

// asksDay reports a question asking for a day or a date (dayAsked), or which
// weekday (asksWeekday).
func asksDay(q text) bool { return dayAsked.in(q) || asksWeekday(q.norm) }

// asksWeekday reports a Chinese question asking which weekday ("BC6021 周 几
// 上课？", 星期几, 礼拜几; its Chinese joined): not one asking how often or
// how many ("一周几次？", "每周几天", 周几个小时).
func asksWeekday(norm string) bool {
	if !strings.Contains(norm, "几") {
		return false // (most questions: nothing read)
	}
	rs := []rune(norm)
	for k := 1; k < len(rs); k++ {
		if rs[k] != '几' || rs[k-1] != '周' && !(rs[k-1] == '期' && k > 1 && rs[k-2] == '星') && !(rs[k-1] == '拜' && k > 1 && rs[k-2] == '礼') {
			continue
		}
		if k+1 < len(rs) && strings.ContainsRune("次天个小回节趟遍", rs[k+1]) {
			continue // (how often, how many)
		}
		return true
	}
	return false
}

// relativeTime is a length before or after a thing, and what follows (2 hours
// before the filling; 14 days prior to departure).
var relativeTime = regexp.MustCompile(`(\d+\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?))\s+(?:before|after|prior to)\s+([^,;:.]*)`)

// cjkRelativeTime is the Chinese: the thing, then 前 or 后 and the length
// (出发 前 7 天; 手术后2小时).
var cjkRelativeTime = regexp.MustCompile(`(\p{Han}{1,8})\s*(?:之前|之后|以前|以后|前|后)\s*((?:\d+|[一二三四五六七八九十两半]+)\s*(?:个\s*)?(?:分钟|小时|天|周|星期|月|工作日))`)

// namesAnObject reports whether an event names an identifier of a kind
// (INV-1040, 1Z88AA0312; not an amount, nor a bare number, which another
// object's story may carry: a courier's tracking number).
func namesAnObject(d *doc) bool {
	for k := range int(d.nOwn) {
		if d.own(k).family != 0 {
			return true
		}
	}
	return false
}

// strangers reports whether an event neither naming nor linked to the
// question's objects names an identifier of a kind (namesAnObject) or a
// long number (seven digits or more: a phone line, an account): the window
// is then no one object's story.
func strangers(comps []Components, docs []doc, cands []Candidate) bool {
	for i := range docs {
		if comps[i].Identifier == 0 && (namesAnObject(&docs[i]) || longNumber(cands[i].Text)) {
			return true
		}
	}
	return false
}

// longNumber reports whether s holds a run of seven digits or more.
func longNumber(s string) bool {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
			if n >= 7 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

var offerHash, questionHash, moneyHash = termHash(OfferTerm), termHash(QuestionTerm), termHash(MoneyTerm)

// words are the question's terms without its identifiers and their prefix
// words (INV-1040's "inv"): the identifier score matches identifiers, exactly
// and however they are typed. Counted by BM25 too, an identifier that every
// event of a story names gave each a share by its length, so that a short
// event on the object could outrank the one that says what was asked.
func words(a Analysis) []string {
	out := dedupe(a.Terms)
	if len(a.IDs) == 0 {
		return out
	}
	return slices.DeleteFunc(out, func(t string) bool {
		for _, id := range a.IDs {
			if t == id {
				return true
			}
			if prefix, _, ok := prefixed(id); ok && t == stem(prefix) {
				return true // (a prefix is a term as its stem)
			}
		}
		return false
	})
}

// asksWhatAnEventSays reports that a question naming an object asks what one
// of its events says rather than where the object stands: it asks for an
// answer type that an event on the object states ("how much does CI-5520
// cost?", and the renewal states the premium), or one of its words (or their expansions) is in a later event on
// the object and not in the first ("was O-9210 paid?" asks about the payment,
// wherever the story has gone since), or in an event naming no object of its
// own, as a follow-up line does: from a source of the story's, between its
// first and last events ("DY-8801 座位 在 哪？" asks what "已 选 座：8 排 10、11
// 座" says, not what the order's newest event does; another line that
// happens to say 座 is no follow-up). "has O-9210 arrived?" and "is RA-3301
// still booked?" ask where it stands: nothing of theirs is in a later event,
// or it was there from the start (the object's kind, "order", "claim", or how
// the story began).
func asksWhatAnEventSays(terms []string, asked []*answerType, comps []Components, docs []doc, cands []Candidate) bool {
	var story []int // the events naming the question's identifiers, the first one first
	for i := range docs {
		if comps[i].Identifier > 0 {
			story = append(story, i)
			if k := len(story) - 1; cands[i].Time.Before(cands[story[0]].Time) {
				story[0], story[k] = story[k], story[0]
			}
		}
	}
	if len(story) < 2 {
		return false
	}
	last := cands[story[0]].Time // (the story's last event's time)
	for _, i := range story {
		if cands[i].Time.After(last) {
			last = cands[i].Time
		}
	}
	for _, t := range terms {
		if hasDigit(t) {
			continue // a number: a part of an identifier or an amount, not a word
		}
		h := termHash(t)
		if slices.ContainsFunc(asked, func(a *answerType) bool { return a.term == t }) &&
			slices.ContainsFunc(story, func(i int) bool { return docs[i].count(h) > 0 }) {
			return true // an event on the object states what is asked
		}
		if docs[story[0]].count(h) > 0 {
			continue
		}
		if slices.ContainsFunc(story[1:], func(i int) bool { return docs[i].count(h) > 0 }) {
			return true
		}
		for j := range docs {
			if docs[j].count(h) > 0 && !namesAnObject(&docs[j]) && cands[j].Time.After(cands[story[0]].Time) && cands[j].Time.Before(last) &&
				slices.ContainsFunc(story, func(i int) bool { return cands[i].Source == cands[j].Source }) {
				return true // (a line naming no object within the story: "已 选 座 23A" after the ticket order)
			}
		}
	}
	return false
}

// DescriptionTerm is BM25's clause for the event that introduces the
// question's object, when the question asks what the object is or holds:
// "Box WB-118 shipped: 3 Rioja, 3 Grüner Veltliner" answers "what's in
// WB-118?", however far its story has gone since ("WB-118 waiting at the post
// office"). Such a question asks what one of the object's events says, not
// where the object stands: no status share, no threads.
const DescriptionTerm = "§"

// descriptionCues mark a question asking what its object is or holds ("how
// many recipes are in MK-5520?", "what items are in KT-771?", "what does
// HH-55-20931 cover?", "what does the package include?"); so
// does one that ends in "about" ("what was INC-2291 about?"; not "what about
// my order?"), and a "what" question that ends in "for" ("what was PR-2042
// for?": what it was bought or billed for).
var descriptionCues = newCueSet([]string{"what's in", "what is in", "what was in", "are in", "were in", "what's on", "what is on", "what was on",
	"contain", "contains", "included in", "include", "includes", "cover", "covers", "里面有什么", "包括什么", "包含什么", "什么内容",
	"点的什么", "点了什么", "买的什么", "买了什么", "订的什么", "订了什么", "寄的什么", "寄了什么",
	// what was ordered or sent, in English ("what did I order on FN-10482?"; not
	// "what did I buy for …?", which may be an add-on bought since)
	"what did i order", "what did we order", "what have i ordered", "what was ordered",
	"what did you send", "what was sent",
	// what was rented or booked ("what did I rent with CR-4415?")
	"what did i rent", "what did we rent", "what did i hire", "what did we hire", "what did i book", "what did we book", "what have i booked",
	// what it was opened for, what it insures ("第 018324 号 是 办 什么？", "PDAA… 保 什么？"; not "在 办 什么", what is under way)
	"是办什么", "办的什么", "办理什么", "保什么", "保的什么", "保哪些"})

func asksDescription(q text) bool {
	n := len(q.words)
	return descriptionCues.in(q) || n > 2 && q.words[n-1] == "about" || asksWhatFor(q) ||
		strings.Contains(q.norm, "什么") && cjkVerbWhat(cjkOnly(q.norm)) // (most questions: nothing copied)
}

// cjkVerbWhat reports a Chinese question that asks, of the object it names,
// what a deed of it was and nothing more: a verb of one or two characters
// then 什么, 的 and 是 between or not ("880126 买 的 是 什么？", "KS2026181 考
// 什么？", "BX-0457 修 什么？"): the event introducing the object says what
// was bought, examined, repaired. Not what to bring or prepare, nor what is
// missing (要 带 什么, 准备 什么, 缺 什么: an instruction, a problem), nor
// what was done since (换 了 什么, 加 了 什么: a later event), nor what is
// under way (在 办 什么).
func cjkVerbWhat(s string) bool {
	rest, ok := strings.CutSuffix(s, "什么")
	if !ok {
		return false
	}
	rest, done := strings.CutSuffix(strings.TrimSuffix(rest, "是"), "的")
	n := utf8.RuneCountInString(rest)
	return n >= 1 && n <= 2 && !strings.ContainsAny(rest, notDeedWhat) && (done || !strings.ContainsAny(rest, "做干"))
}

// notDeedWhat are the characters of the verbs whose 什么 asks for an
// instruction or a problem, not what the deed was (带, 准备, 缺, 少, 差, 要,
// 需, 注意), and those of a deed since or under way (了, 在). 做 and 干 ask
// what to do, unless 的 says it was done ("MR3350 做 的 什么？").
const notDeedWhat = "带备缺少差要需注意在了"

// asksWhatItIs reports a question that names its objects and asks nothing
// more than what they are ("what was GR-6611?", "what's INV-7731?", "which
// trip is TI-60023?") or mean
// ("what does E21 mean?", "JD-3302 是什么东西？"): the event introducing one says it, where the later
// events of a story it names (the repair that error E21 opened) only name it
// through another identifier (link). own are its terms without its
// identifiers.
func asksWhatItIs(q text, own []string) bool {
	if cjkWhatItIs[cjkOnly(q.norm)] {
		return true // "JD-3302 是什么东西？", "E21 是什么意思": its Chinese is nothing more
	}
	// "which trip is TI-60023?", "which order was 4471?": the kind of thing
	// its object is, and nothing more
	if len(q.words) >= 4 && q.words[0] == "which" && beWords[q.words[2]] && len(own) == 1 && own[0] == stem(q.words[1]) {
		return true
	}
	// the question may name its object first ("RX-40012: what is it?"): the
	// words before its "what" are then the identifier's, none of own
	at := slices.Index(q.words, "what")
	if at < 0 || len(q.words) <= at+2 || slices.ContainsFunc(q.words[:at], func(w string) bool { return slices.Contains(own, stem(w)) }) {
		return false
	}
	words := q.words[at:]
	if words[1] == "does" || words[1] == "do" || words[1] == "did" {
		// "what does E21 mean?", "what does SLA stand for?"
		return len(own) > 0 && !slices.ContainsFunc(own, func(t string) bool { return !meaningStems[t] })
	}
	return beWords[words[1]] && len(own) == 0
}

// asksWhatKind reports a question naming its object that asks what kind of
// thing it is by one noun (own, its terms without its identifiers): "what
// course is 0421?", "what car did I get for rh20417?", "FL-VAN-0719 what van?", "0363 是 什么 药？", "1101 0588
// 3427 是 什么 类型？", or through the deed done with it ("55102 租 的 什么
// 车？": one character and 的 before 什么). The event introducing the object says it, unless the
// object changed since (changedSince).
func asksWhatKind(q text, own []string) bool {
	if nowCues.in(q) {
		return false // (what it is now: "what size is a55120 now?")
	}
	n := len(q.words)
	if len(own) == 1 && n >= 3 {
		if (q.words[0] == "what" || q.words[0] == "which") && stem(q.words[1]) == own[0] && (beWords[q.words[2]] || q.words[2] == "did" || q.words[2] == "do" && n > 4 && (q.words[3] == "i" || q.words[3] == "we") && q.words[4] == "get") ||
			(q.words[n-2] == "what" || q.words[n-2] == "which") && stem(q.words[n-1]) == own[0] && !strings.HasSuffix(q.words[n-1], "ed") {
			return true // (not "ev20260347 what happened?")
		}
	}
	if !strings.Contains(q.norm, "什") {
		return false // (most questions: nothing copied)
	}
	cjk := cjkOnly(q.norm)
	noun, ok := strings.CutPrefix(cjk, "是什么")
	if !ok {
		noun, ok = strings.CutPrefix(cjk, "什么")
	}
	if before, after, found := strings.Cut(cjk, "的什么"); !ok && found && utf8.RuneCountInString(before) == 1 {
		noun, ok = after, true // (a deed's thing: "55102 租 的 什么 车？", "JX4471 学 的 什么 车？")
	}
	k := utf8.RuneCountInString(noun)
	return ok && k >= 1 && k <= 2 && !notAKind[noun] && !strings.ContainsAny(noun, "了过吗呢") && len(own) <= 3
}

// asksPlural reports a question naming the kind it asks in the plural
// (one of its own terms written with an "s": "what extras are on
// CR-3307?"), or in Chinese, which does not say (哪些 does).
func asksPlural(q text, own []string) bool {
	if strings.IndexFunc(q.norm, isCJK) >= 0 {
		return true
	}
	return slices.ContainsFunc(q.words, func(w string) bool {
		return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && slices.Contains(own, stem(w)) && stem(w) != w
	})
}

// notAKind are the nouns after 什么 that ask for no kind of thing: a time, a
// reason, a state, a price or a place.
var notAKind = map[string]bool{"时候": true, "时间": true, "原因": true, "问题": true, "情况": true, "状态": true, "进度": true,
	"结果": true, "价格": true, "价钱": true, "钱": true, "地方": true, "地址": true, "意思": true, "东西": true}

// changedSince is the event that says what kind of thing the object
// introduced at intro is now: intro, unless an event naming the object (qids;
// or any, in a window where no event names another object of its kind:
// "Upgraded to Premium" after ST-3310's start) after it says a thing of it
// changed or is another now, or, when the kind is asked in the plural
// (plural), was added to it ("child seat added to CR-3307" for "what extras
// are on CR-3307?"; not "QX7R9P extra bag added" for "what flight is
// QX7R9P?": a thing added changes no one thing). Then it is the newest of
// those naming the object that say it changed, state no time, and hold the
// kind's word (own: "JD-50318 已 升级 为 江景房" for "50318 是 什么 房？"; not
// "PL-8817 teacher changed to Anton" for "what day is pl8817?"), or that say
// the object itself is another now (changesItself: "LS-2204 switched to
// Spanish B1, same days, 19:00" for "what level is ls2204?", where no event
// says "level"; not for things asked in the plural, itself false: "what
// extras are on rc-55310?" asks for none; nor when it takes effect later:
// "GM-330 upgraded to Premium from next month"); -1 when none does (+3 −2 on the
// development sets; changesItself +1 −0).
func changedSince(intro int, qids []ident, cands []Candidate, docs []doc, plural, itself bool, own []string) int {
	alone := !contested(qids, docs)
	at, changed := intro, false
	for i := range docs {
		d := &docs[i]
		if !cands[i].Time.After(cands[intro].Time) {
			continue
		}
		changes, names := saysChanged(d) || saysReplaced(d), idMatch(qids, d) > 0
		if !(changes || plural && hasAny(d, addedHashes)) || !alone && !names {
			continue
		}
		changed = true
		if changes && names && cands[i].Time.After(cands[at].Time) &&
			(d.count(timeHash) == 0 && slices.ContainsFunc(own, func(t string) bool { return d.count(termHash(t)) > 0 }) || itself && replacesItself(d) && !takesEffectLater(d)) {
			at = i
		}
	}
	if changed && at == intro {
		return -1
	}
	return at
}

// changesItself reports an event (its text normalised) saying that its
// object is another now, the object being its subject: nothing but
// identifiers (and "has been", 已, 免费: cjkBeforeChange) comes before the word saying so ("LS-2204
// switched to Spanish B1", "TJ-8826 升级 为 高级 版", "rc-55310 changed: SUV
// instead of compact"), so no other thing of it changed ("Room for LS-2204
// changed to 2.14", "KS-9012 考点 换 到 三 中"). Read once, when the event is
// analysed (markItself).
func changesItself(n string) bool {
	at := -1
	for _, w := range replacedWords {
		if k := strings.Index(n, w); k >= 0 && (at < 0 || k < at) {
			at = k
		}
	}
	if at < 0 {
		return false
	}
	for _, w := range strings.FieldsFunc(n[:at], func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) && r != '-' && r != '/' }) {
		if !hasDigit(w) && !stopWords[w] && !auxiliaries[w] && !beforeChangeOnly(w) {
			return false
		}
	}
	// what it is now, up to the first comma, is no time ("WX-7702 更换 时间
	// 改 到 周六 上午" moves the replacement's time)
	now := n[at:]
	if k := strings.IndexAny(now, ",，;；"); k >= 0 {
		now = now[:k]
	}
	return !statesTime([]rune(now))
}

// beforeChangeOnly reports Chinese made of cjkBeforeChange's words alone,
// spaced or not ("已", "已免费"), longest first.
func beforeChangeOnly(w string) bool {
	return wordsOnly([]rune(w), 2, func(w string) bool { return cjkBeforeChange[w] }) != nil
}

// cjkBeforeChange are the Chinese words that may stand between an object's
// identifier and the word saying it is another now, naming no thing of their
// own ("已 更换", "已经 升级", "将 改为", "需 更换", "已 免费 升级").
var cjkBeforeChange = map[string]bool{"已": true, "已经": true, "将": true, "被": true, "已于": true, "现": true, "现已": true, "申请": true,
	"需": true, "需要": true, "要": true, "可": true, "可以": true, "免费": true, "为您": true, "您": true}

// asksWhereItIs reports a question asking where its object is and nothing
// more ("where is ph4427?", "where's PS-5092 now?"; own, its words without
// its identifiers).
func asksWhereItIs(q text, own []string) bool {
	return len(own) == 0 && asksWhereStands(q) // (own holds no stop word: "where", "now")
}

// asksWhereStands reports a question asking where a thing of its object
// stands: "where's my refund for EV-66120?", "where is the EV-66120 refund
// at?". Its newest step answers it, not the event first naming the thing.
func asksWhereStands(q text) bool {
	return len(q.words) >= 3 && q.words[0] == "where" && beWords[q.words[1]]
}

// placedHashes are the terms of an object introduced as having a place: a
// happening (happenings: a lesson, a party; a shoot), or a thing installed,
// mounted or located somewhere (安装, 位于).
var placedHashes = stemHashes(append(slices.Collect(maps.Keys(happenings)),
	"installed", "mounted", "located", "安装", "位于")...)

// cjkOnly is the Chinese of s, joined.
func cjkOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if isCJK(r) {
			return r
		}
		return -1
	}, s)
}

// cjkWhatItIs are the Chinese questions asking what a thing is or means, and
// nothing more, once its identifiers are left out.
var cjkWhatItIs = map[string]bool{"是什么": true, "是什么东西": true, "是啥": true, "是啥东西": true, "什么东西": true,
	"是什么来着": true, "是什么意思": true, "什么意思": true, "指什么": true, "代表什么": true}

// meaningStems are the words of a question asking what its object means.
var meaningStems = map[string]bool{stem("mean"): true, stem("meant"): true, stem("stand"): true, stem("signify"): true}

var beWords = map[string]bool{"is": true, "s": true, "was": true, "are": true, "were": true}

// repriced is the event that says what the object introduced at intro
// costs now: the newest of those naming it (or any, in a window where no
// event names another object of its kind: "Plan upgraded to Premium: 17.99
// EUR per month" after ST-3301's start) that state a sum and say it was
// raised, lowered, upgraded or downgraded ("Monthly advance for G-2207-118
// raised to 78 EUR"; not "renewed: 24.99 EUR taken", "return moved, extra
// day 48 EUR", "upgraded free of charge"), or naming it say it changed, no
// time, and a sum intro does not state ("PJ-4406: quantity changed to 1,000
// flyers, 139 EUR"; not "CW-8830 renewed: 24.99 EUR taken": newSum), or the
// newest naming it that states a total (totalHashes: "BY-6610 完工，共 840 元"
// after "保养 预约 BY-6610：…，480 元"; not an add-on's "2 人 共 60 元", which
// names no order) or what the object is now (NowTerm: "BR-66104 extended by
// 1 day, now until 13 Dec, 116 EUR") or adds a sum to it (addedSum: "R-0093 extended by 2 days,
// +80 EUR"), or the first price with the sums added since (storyTotal);
// else intro. What an object costs is what it costs now, whether the
// question says "total" or not ("WM60211 多少 钱？" after "加 一 份 小菜，共 66
// 元"; measured: +6 −1 on the development sets, with the change clause).
func repriced(intro int, qids []ident, cands []Candidate, docs []doc) int {
	at := intro
	alone := !contested(qids, docs)
	var first []int64 // (intro's sums, read once a change needs them: newSum)
	read := false
	for i := range docs {
		d := &docs[i]
		if !cands[i].Time.After(cands[at].Time) || d.count(moneyHash) == 0 {
			continue
		}
		names := idMatch(qids, d) > 0
		raised := (alone || names) && hasAny(d, repricedHashes)
		total := names && (hasAny(d, totalHashes) || d.count(nowTermHash) > 0 || addedSum.MatchString(cands[i].Text))
		changed := false
		if !raised && !total && names && saysChanged(d) && d.count(timeHash) == 0 {
			if !read {
				first, read = sumsStated(cands[intro].Text), true
			}
			changed = newSum(cands[i].Text, first)
		}
		if (raised || total || changed) && bareNumber(cands[i].Text) { // (a sum: not "upgraded free of charge")
			at = i
		}
	}
	if t := storyTotal(intro, qids, cands, docs); t >= 0 && cands[t].Time.After(cands[at].Time) {
		at = t
	}
	return at
}

// newSum reports that text states a sum not among olds, the first event's
// ("quantity changed to 1,000 flyers, 139 EUR" after "…, 89 EUR"; not
// "CW-8830 renewed: 24.99 EUR taken" after "…: 24.99 EUR a month").
func newSum(text string, olds []int64) bool {
	return slices.ContainsFunc(sumsStated(text), func(s int64) bool { return !slices.Contains(olds, s) })
}

// storyTotal is the newest event naming the object (qids) after intro that
// states, of its sums, the object's first price with the sums added to it
// since (addedHashes, addedSum): "BJ-2281 已 付 440 元" after "保洁 订单
// BJ-2281：…，360 元" and "BJ-2281 加 擦 玻璃，加 80 元" says what the whole
// came to, paid or billed, though it names no total. -1: none.
func storyTotal(intro int, qids []ident, cands []Candidate, docs []doc) int {
	first := sumsStated(cands[intro].Text)
	if len(first) == 0 {
		return -1
	}
	var later []int
	for i := range docs {
		if cands[i].Time.After(cands[intro].Time) && docs[i].count(moneyHash) > 0 && idMatch(qids, &docs[i]) > 0 {
			later = append(later, i)
		}
	}
	slices.SortFunc(later, func(a, b int) int { return cands[a].Time.Compare(cands[b].Time) })
	var added int64
	found := -1
	for _, i := range later {
		sums := sumsStated(cands[i].Text)
		if len(sums) == 1 && (hasAny(&docs[i], addedHashes) || addedSum.MatchString(cands[i].Text)) {
			added += sums[0]
			continue
		}
		if added > 0 && slices.ContainsFunc(sums, func(s int64) bool { return slices.Contains(first, s-added) }) {
			found = i
		}
	}
	return found
}

// addedHashes are the terms of the words saying a thing was added to an
// object, with its sum ("KS-5520 加 保价 5 元", "insurance added, 12 EUR").
var addedHashes = stemHashes("added", "extra", "plus", "加", "增加", "另加", "加收")

// raisedHashes are the terms of the words saying a sum was raised
// ("mileage raised to 15,000 km a year, now 342 EUR a month", "月费 上调
// 为 89 元"): for a question asking why a thing costs more, such an event
// with its sum is the sum added (sumsAdded).
var raisedHashes = stemHashes("raised", "increased", "higher", "涨", "上调", "提高", "涨价")

// sumsStated are the sums of money the text states, in hundredths: each
// number with a currency sign or word right before or after it ("€35",
// "612.00 EUR", "1 200 元", "1,250.50 GBP").
func sumsStated(text string) []int64 {
	return numbersIn(text, func(rs []rune, i, j int) bool { return currencyBefore(rs, i) || currencyAfter(rs, j) })
}

// numbersIn are the numbers of text (sumAt, in hundredths) that are no part
// of a code (no Latin letter, "-", "/" or digit right before them: not the
// "210" of "HV-2210") and that keep says to keep, given the text's runes and
// where each number begins and ends.
func numbersIn(text string, keep func(rs []rune, i, j int) bool) []int64 {
	rs := []rune(text)
	var out []int64
	for i := 0; i < len(rs); {
		if !unicode.IsDigit(rs[i]) || i > 0 && (unicode.IsLetter(rs[i-1]) && !isCJK(rs[i-1]) || rs[i-1] == '-' || rs[i-1] == '/' || unicode.IsDigit(rs[i-1])) {
			i++
			continue
		}
		v, j := sumAt(rs, i)
		if keep(rs, i, j) {
			out = append(out, v)
		}
		i = j
	}
	return out
}

// sumAt reads the number at rs[i:] in hundredths, with its thousands set
// apart by commas or spaces ("1,250", "1 200") and up to two decimals, and
// where it ends.
func sumAt(rs []rune, i int) (int64, int) {
	var v int64
	j, group := i, 0 // (group: the digits since the last separator)
	for j < len(rs) {
		switch r := rs[j]; {
		case unicode.IsDigit(r):
			v, j, group = v*10+int64(r-'0'), j+1, group+1
			continue
		case (r == ',' || r == ' ') && group >= 1 && group <= 3 && j+4 <= len(rs) && digits(rs[j+1:j+4]) && (j+4 == len(rs) || !unicode.IsDigit(rs[j+4])):
			j, group = j+1, 0
			continue
		case r == '.' && j+1 < len(rs) && unicode.IsDigit(rs[j+1]):
			cents, k := int64(rs[j+1]-'0')*10, j+2
			if k < len(rs) && unicode.IsDigit(rs[k]) {
				cents, k = cents+int64(rs[k]-'0'), k+1
			}
			return v*100 + cents, k
		}
		break
	}
	return v * 100, j
}

// currencyBefore and currencyAfter report a currency sign or word right
// before rs[i] or from rs[j] on, spaces apart ("€ 35", "EUR 35", "35 元").
func currencyBefore(rs []rune, i int) bool {
	for i > 0 && rs[i-1] == ' ' {
		i--
	}
	k := i
	for k > 0 && unicode.IsLetter(rs[k-1]) && !isCJK(rs[k-1]) {
		k--
	}
	return k < i && currencyCodes[strings.ToLower(string(rs[k:i]))] || i > 0 && strings.ContainsRune(currencySigns, rs[i-1])
}

func currencyAfter(rs []rune, j int) bool {
	for j < len(rs) && rs[j] == ' ' {
		j++
	}
	k := j
	for k < len(rs) && unicode.IsLetter(rs[k]) && !isCJK(rs[k]) {
		k++
	}
	return k > j && currencyCodes[strings.ToLower(string(rs[j:k]))] || j < len(rs) && strings.ContainsRune(currencySigns, rs[j])
}

// bareNumber reports a number in text that is no identifier's part (not the
// 4471 of RC-4471: inIdentifier).
func bareNumber(text string) bool {
	rs := []rune(text)
	for i, r := range rs {
		if unicode.IsDigit(r) && (i == 0 || !unicode.IsDigit(rs[i-1])) && !inIdentifier(rs, i) {
			return true
		}
	}
	return false
}

// addedSum matches a sum added to an object's ("extended by 2 days, +80
// EUR", "加 钢琴 搬运，加 400 元", "升级 为 湖景房，补 200 元", "需 加 特殊 处理
// 30 元": 加 or 补, a few words, then the sum, in one clause): for a
// question asking what it costs, the newest word on it (repriced).
var addedSum = regexp.MustCompile(`(^|[\s(,，：:])\+\s?\d|[加补][^\d，,。；;]{0,12}?\d[\d,.]*\s*[元块]`)

// totalCues mark a question asking for a total ("what's the total for
// RA-40917?", "BY6610 一共 多少 钱？"), and totalHashes are the terms of an
// event stating one ("BY-6610 完工，共 840 元", "Invoice for RA-40917: 217.00
// EUR"): the newest such sum naming the object answers it, not the price it
// was introduced with (repriced).
var (
	totalCues   = newCueSet([]string{"total", "altogether", "in all", "all in", "一共", "总共", "合计", "总计", "总价", "总额"})
	totalHashes = stemHashes("total", "altogether", "invoice", "invoiced", "共", "合计", "总计", "总价", "总额", "一共", "总共")
)

// repricedHashes are the terms of the words saying a sum was raised or
// lowered (valueChangedWords), or a plan upgraded or downgraded.
var repricedHashes = stemHashes(append([]string{"upgraded", "downgraded"}, valueChangedWords...)...)

// asksPrice reports a question that asks how much its object is and nothing
// else ("how much was DC-2210?", "how much did YX-5503 cost?", "WM-2201
// 多少钱", "NET-7710 monthly price"): the price is
// said where the object is introduced (the order, the invoice), and a later
// event of the same amount (its refund) or that costs nothing more answers
// another question. a is the question's analysis.
func asksPrice(a Analysis, asked []*answerType) bool {
	if !slices.ContainsFunc(asked, func(t *answerType) bool { return t.term == MoneyTerm }) {
		return false
	}
	terms := words(a) // (without its identifiers)
	for _, t := range terms {
		if !priceStems[t] {
			return false
		}
	}
	return len(terms) > 0
}

// questionSums are the numbers a question writes apart from any code, in
// hundredths ("why did I only get 130?", "why is the 4415 bill 34.98?",
// "为什么 多 了 4200？"): the sums it may ask the reason of.
func questionSums(text string) []int64 {
	if !strings.ContainsAny(text, "0123456789") {
		return nil
	}
	return numbersIn(text, func(rs []rune, _, j int) bool {
		return j >= len(rs) || !(unicode.IsLetter(rs[j]) && !isCJK(rs[j])) && rs[j] != '-' && rs[j] != '/'
	})
}

// answerAsAdded lets the sums added to a thing (rk.added) match as the best
// match on its object does, and every other event keep Weights.Unstated of
// its relevance: asked why a thing costs more or costs a sum, the sum added
// is the reason, not a damage reported nor the invoice restating the total.
func (rk *ranking) answerAsAdded() {
	best := 0.0 // (the best match on the object)
	for i := range rk.docs {
		if rk.comps[i].Identifier > 0 {
			best = max(best, rk.rels[i])
		}
	}
	for i := range rk.docs {
		if rk.added[i] {
			rk.rels[i] = max(rk.rels[i], best)
		} else {
			rk.rels[i] *= rk.w.Unstated
		}
	}
}

// statesSum reports that an event on the object (comps) states one of the
// sums asked (sums: each event's, sumsStated).
func statesSum(asked []int64, sums [][]int64, comps []Components) bool {
	for i, ss := range sums {
		if comps[i].Identifier > 0 && slices.ContainsFunc(ss, func(x int64) bool { return slices.Contains(asked, x) }) {
			return true
		}
	}
	return false
}

// addsUp: asked why of a sum the question names, of an object it names
// ("why was 98 taken for bl5530?"), a later event on the object stating one
// sum that, added to or taken from one of an earlier event's, makes the sum
// ("insurance added, 9 EUR a month" after "89 EUR a month") explains it
// (restatedBy: over "March 98 EUR collected"). Nothing changes where no
// event explains the sum: an event stating it alone may be the answer
// ("Invoice … 36.00 USD: 3 extra seats added"). sums are the events' sums
// (sumsStated), nil for one stating no money; addsUp returns the events
// explaining it.
func addsUp(asked []int64, sums [][]int64, comps []Components, cands []Candidate, docs []doc) []int {
	var explains []int
	for j := range docs {
		if comps[j].Identifier == 0 || len(sums[j]) != 1 || slices.Contains(asked, sums[j][0]) {
			continue
		}
		for i := range docs {
			if i != j && comps[i].Identifier > 0 && cands[i].Time.Before(cands[j].Time) && slices.ContainsFunc(sums[i], func(x int64) bool {
				return !slices.Contains(asked, x) && make2(x, sums[j][0], asked)
			}) {
				explains = append(explains, j)
				break
			}
		}
	}
	return explains
}

// restatedBy: where events explain a sum a question asks why of (explains),
// the events on its object stating that sum alone and no reason only
// restate the question and keep keep of their relevance; the explaining
// events match as well as the best of them, as the newest is, and name the
// question's identifiers as they do.
func restatedBy(explains []int, asked []int64, sums [][]int64, rels []float64, comps []Components, docs []doc, keep float64) {
	if len(explains) == 0 {
		return
	}
	best, newest, named := 0.0, 0.0, 0.0
	for i := range docs {
		if comps[i].Identifier > 0 && len(sums[i]) == 1 && slices.Contains(asked, sums[i][0]) && docs[i].count(reasonHash) == 0 {
			best, newest, named = max(best, rels[i]), max(newest, comps[i].Recency), max(named, comps[i].Identifier)
			rels[i] *= keep
		}
	}
	for _, j := range explains {
		rels[j] = max(rels[j], best)
		comps[j].Recency = max(comps[j].Recency, newest)
		// (the sum written as a number the question's identifiers hold,
		// "why is LS-4410 219?": the event explaining it names it as the
		// restater does, as makesSum's do)
		comps[j].Identifier = max(comps[j].Identifier, named)
	}
}

// makesSum reports an event's sums (stated) holding two or more besides the
// one asked, two of which make it, one plus or less the other: for "why did I
// only get 130?", "CL-20418 approved: 180.00 EUR minus 50.00 EUR excess"; for
// "why did I get charged 72?", "90 km over limit, 27 EUR; refuel 45 EUR"; for
// "why is EL-8830 165?", "invoice 165 EUR: labour 120 EUR, parts 45 EUR"; or
// three or more of which add up to it, all of them: "invoice 128 EUR: exam 54
// EUR, blood test 40 EUR, food 34 EUR". The event names the asked sum as if
// it wrote it, and matches as well as the object's best event.
func makesSum(stated, asked []int64) bool {
	var total int64
	n := 0
	for _, x := range stated {
		if !slices.Contains(asked, x) {
			total, n = total+x, n+1
		}
	}
	if n >= 3 && slices.Contains(asked, total) {
		return true
	}
	for a, x := range stated {
		for b, y := range stated {
			if a != b && !slices.Contains(asked, x) && !slices.Contains(asked, y) && make2(x, y, asked) {
				return true
			}
		}
	}
	return false
}

// timesSum reports an event stating one sum as a price per unit (每, per,
// each, ×) and a count that, times it, is a sum asked: "AZ-91405 需 加 铜管
// 3 米，每 米 60 元" for "AZ-91405 为什么 收 180？", "2 extra nights at 80 EUR
// each" for "why 160?". The count is a whole number of the text that is no
// sum (numbersIn), from 2 to 999.
func timesSum(text string, stated, asked []int64) bool {
	if len(stated) != 1 || stated[0] <= 0 || !perUnit(text) {
		return false
	}
	for _, n := range numbersIn(text, func(rs []rune, i, j int) bool { return !currencyBefore(rs, i) && !currencyAfter(rs, j) }) {
		if n%100 == 0 && n >= 200 && n <= 99900 && slices.Contains(asked, n/100*stated[0]) {
			return true
		}
	}
	return false
}

// perUnit reports a text pricing by the unit: 每 ("每 米 60 元"), "per",
// "each" or a times sign.
func perUnit(text string) bool {
	return strings.ContainsAny(text, "每×") || saysWord(text, perUnitWords, nil)
}

var perUnitWords = map[string]bool{"per": true, "each": true}

// make2 reports x plus y, or x less y, one of the sums asked.
func make2(x, y int64, asked []int64) bool {
	return slices.Contains(asked, x+y) || slices.Contains(asked, x-y)
}

// costVerb reports a question asking what a thing costs by the verb ("what
// does HR-30917 cost?", "how much will the repair cost?"): the word is its
// cue, as "how much" is, and names nothing an event should match ("upgraded
// at no extra cost" states no price).
func costVerb(words []string) bool {
	for k, w := range words {
		if w != "cost" {
			continue
		}
		for j := max(0, k-4); j < k; j++ {
			if auxiliaries[words[j]] || words[j] == "would" {
				return true
			}
		}
	}
	return false
}

// asksWhatItCosts reports a question asking what a thing costs ("how much is
// the hotel?", "这期账单多少钱？", "what's the price of the course?"), not how
// much money moved ("how much is left to pay?", "how much did I get back?",
// "退了多少钱？"). Where the thing's story goes on, a later amount is a fee, a
// payment or a discount on it, not its price, unless it says the price
// changed: such an event inherits the story's first event's share (wF), not
// all of it, as for a question asking for no type (inherit).
func asksWhatItCosts(q text) bool {
	if slices.ContainsFunc(q.words, func(w string) bool { return moneyMoves[w] }) {
		return false
	}
	if priceCues.in(q) || endsSumHowMuch(q.norm) {
		return true
	}
	if i := strings.Index(q.norm, "多少钱"); i >= 0 {
		before := []rune(q.norm[:i]) // 退多少钱, 付了多少钱: money moving
		return !slices.ContainsFunc(before[max(0, len(before)-2):], func(r rune) bool { return strings.ContainsRune(cjkMoneyMoves, r) })
	}
	return false
}

// asksStandingPrice reports a question asking what a thing costs as it
// stands ("what does cw210 cost now?": asksWhatItCosts; "what do I pay for
// gm7730?": asksPresentPay; "what does NET-77120 cost a month?", "GM-5580
// monthly fee now?": asksPerPeriod, which may name the price by a bill's
// word, periodBills): not what a payment, a bill or one period came to, nor
// what it will cost ("how much was the March invoice?", "这个 月 多少 钱？",
// "what will 7710 cost?": billWords, a month's name, 这, 本, 上, 下), nor
// what it came to in all or in the end (totalCues, finalCues).
func asksStandingPrice(q text) bool {
	perPeriod := asksPerPeriod(q)
	if !asksWhatItCosts(q) && !asksPresentPay(q.words) && !perPeriod {
		return false
	}
	return !slices.ContainsFunc(q.words, func(w string) bool { return billWords[w] && !(perPeriod && periodBills[w]) || months[w] }) &&
		!strings.ContainsAny(q.norm, "这本上下") && !totalCues.in(q) && !finalCues.in(q)
}

// asksLater reports a question about what holds later ("how much will it
// cost next year?", "明年 房租 多少？"): a price said to take effect later
// may answer it.
func asksLater(q text) bool {
	return laterCues.in(q) || laterAsked.in(q)
}

var laterAsked = newCueSet([]string{"will", "going to", "renew", "renewal", "明年", "下个月", "下月", "以后", "今后", "from now on", "续租", "续约", "续费", "续保"})

// asksPerPeriod reports a question asking a price per period ("GM-5580
// monthly fee now?", "what does it cost a month?", "1205 一 个 月 多少？"):
// pricedPerPeriod's words, and 一个月 (a month).
func asksPerPeriod(q text) bool {
	return pricedPerPeriodWords(q.words) || strings.IndexFunc(q.norm, isCJK) >= 0 && (pricedPerPeriod(q.norm) || strings.Contains(q.norm, "一个月"))
}

// asksPresentPay reports "what do I pay", "how much do we pay": what a
// thing costs as it stands, not what was paid ("what did I pay?").
func asksPresentPay(w []string) bool {
	for k := 2; k < len(w); k++ {
		if w[k] == "pay" && (w[k-1] == "i" || w[k-1] == "we") && (w[k-2] == "do" || w[k-2] == "does") {
			return true
		}
	}
	return false
}

// periodBills are the billWords a question asking a price per period may
// say of it ("monthly fee", "monthly payment").
var periodBills = map[string]bool{"fee": true, "fees": true, "charge": true, "payment": true, "payments": true}

// finalCues ask what a thing came to in the end ("ZC-50118 最后 多少 钱？"):
// a sum over its periods, as a total is (totalCues).
var finalCues = newCueSet([]string{"in the end", "final", "finally", "最后", "最终"})

// billWords name a payment, a bill or one period of a thing's price, or ask
// what it came to or will come to (money moved, "paid", "refund", "left",
// asksWhatItCosts leaves out already).
var billWords = map[string]bool{"invoice": true, "invoices": true, "bill": true, "bills": true, "fee": true, "fees": true, "charge": true,
	"payment": true, "payments": true, "deposit": true, "instalment": true, "installment": true, "due": true, "will": true, "next": true,
	"last": true, "this": true, "did": true, "was": true, "were": true}

// standingPriceOnly marks, for a question asking what a thing costs as it
// stands (asksStandingPrice), the events on it stating an amount but no
// price per period, when the event introducing it states one
// (markPerPeriod): "Contract NET-77120: fibre 250 Mbit, 39.99 EUR a month"
// states the price, "First invoice NET-77120: 19.99 EUR (half month)" and
// "Invoice CW-615 March: 260 EUR" what one bill came to. A thing introduced
// with a price for the whole (a rental's 290 EUR) has no such price: its
// later sums ("total now 342 EUR") may be its price. Nor is an event saying
// the thing is another now, with its sum and no time ("SUB-7710 switched
// to 4 meals a week, 72 EUR"): its new price stands, its period said by the
// thing. Nil when none is marked.
func standingPriceOnly(qids []ident, cands []Candidate, docs []doc) []bool {
	intro := introOf(qids, cands, docs)
	if intro < 0 || docs[intro].marks&markPerPeriod == 0 {
		return nil
	}
	return amountsWhere(docs, func(_ int, d *doc) bool {
		return d.marks&markPerPeriod == 0 && idMatch(qids, d) > 0 && (!saysReplaced(d) || d.count(timeHash) > 0)
	})
}

// priceCues ask what a thing costs (as words: "costume" is none).
var priceCues = newCueSet([]string{"how much is", "how much was", "how much are", "how much were", "how much does", "price", "cost",
	// what a thing's sum is ("押金是多少？", a credit line: "额度多少？")
	"是多少", "额度", "限额", "credit limit"})

// asksMoneyBack reports a question asking how much came back or is left (a
// refund, a payout, what remains to pay, a balance): one of moneyBack's
// words, of cjkMoneyBack's characters ("卡里还剩多少钱？", "退了多少？", 赔多少),
// 还有 or 余额.
func asksMoneyBack(q text) bool {
	return slices.ContainsFunc(q.words, func(w string) bool { return moneyBack[w] }) || strings.ContainsAny(q.norm, cjkMoneyBack) ||
		strings.Contains(q.norm, "还有") || strings.Contains(q.norm, "余额")
}

// moneyBack are the words of a question asking how much money came back
// (returnedWords) or is left, and cjkMoneyBack the Chinese characters that
// say it; moneyMoves and cjkMoneyMoves (before 多少钱) those asking how much
// money moved either way: they and the words of money going out (moneyOut).
var (
	moneyBack = func() map[string]bool {
		m := map[string]bool{"left": true, "receive": true, "received": true, "get": true, "got": true, "remaining": true,
			"remain": true, "owe": true}
		maps.Copy(m, returnedWords)
		return m
	}()
	moneyOut   = map[string]bool{"pay": true, "paid": true, "charged": true, "spent": true, "spend": true}
	moneyMoves = func() map[string]bool {
		m := maps.Clone(moneyOut)
		maps.Copy(m, moneyBack)
		return m
	}()
)

// asksMoneyReturned reports an English question asking how much money came
// back (a refund, a payout): "back" (not "the back"), "refund", "refunded",
// "reimbursed" or "compensation"; not one asking what is left or owed. (A
// Chinese one says it more ways than its events: 定损金额 answers 赔多少,
// 押金 已 解冻 what came back of a deposit.)
func asksMoneyReturned(q text) bool {
	for k, w := range q.words {
		if returnedWords[w] && (w != "back" || k == 0 || q.words[k-1] != "the") {
			return true
		}
	}
	return false
}

// depositsOnly marks, for a question asking for a total ("ct 209 total?",
// "一共 多少 钱？"), the events whose sum is a part paid ahead of it and no
// total ("Deposit 300 EUR for CT-209 received", "已 付 定金 100 元"): the
// total is what the order came to, not what was paid first. Nil: none.
func depositsOnly(docs []doc) []bool {
	return amountsWhere(docs, func(_ int, d *doc) bool { return hasAny(d, depositHashes) && !hasAny(d, totalHashes) })
}

// depositHashes are the terms of the words naming a part paid ahead of the
// whole.
var depositHashes = stemHashes("deposit", "downpayment", "定金", "订金", "预付", "首付")

// asksPaid reports a question asking what was paid ("total paid?", "一共 付
// 了 多少？"): a deposit is part of it.
func asksPaid(q text) bool {
	return slices.ContainsFunc(q.words, func(w string) bool { return w == "paid" || w == "pay" || w == "paying" }) ||
		strings.ContainsAny(q.norm, "付缴")
}

// asksPaidPast reports a question asking what was paid ("押金 交 了
// 多少？", "how much did I pay for the deposit?", "what have we paid?"):
// paidPastCues, or "did" with "pay"; not one asking what is still to be
// paid ("what's still to be paid?": toBePaid).
func asksPaidPast(q text) bool {
	return (paidPastCues.in(q) || slices.Contains(q.words, "did") && slices.Contains(q.words, "pay")) && !toBePaid.in(q)
}

// toBePaid says that a sum is still to be paid (toBePaidWords, which ask
// for a sum too: amountWords).
var toBePaid = newCueSet(toBePaidWords)

// paidPastCues say that something was paid (its Chinese joined: "交 了" is 交了).
var paidPastCues = newCueSet([]string{"paid", "交了", "付了", "缴了", "已交", "已付", "已缴"})

// stillToPay marks the events stating a sum still to be paid and none paid:
// one falling due ("due", "payable": paymentHashes), or asked for ("下 期
// 房租 19,500 元 请 于 6月 1日 前 支付"), saying nothing done or paid
// (saysDone, of money; nor, written with spaces, 已 or 收到): what was paid
// is not what is asked to be paid next. Nil: none.
func stillToPay(docs []doc, cands []Candidate) []bool {
	return amountsWhere(docs, func(i int, d *doc) bool {
		text := cands[i].Text
		if saysDone(d, text, true) {
			return false
		}
		if d.marks&scriptCJK == 0 {
			return hasAny(d, paymentHashes) // (no Chinese to copy)
		}
		zh := cjkOnly(text)
		if strings.Contains(zh, "已") || strings.Contains(zh, "收到") {
			return false
		}
		return hasAny(d, paymentHashes) || strings.Contains(zh, "请") && strings.ContainsAny(zh, "付缴交") ||
			strings.Contains(zh, "待付") || strings.Contains(zh, "待缴") || strings.Contains(zh, "应付") || strings.Contains(zh, "应缴")
	})
}

// returnedWords are the words of a question asking how much money came back.
var returnedWords = map[string]bool{"back": true, "refund": true, "refunded": true, "reimbursed": true, "compensation": true, "payout": true}

// returnedHashes are the terms of the words saying money came back. Not
// "returned", whose stem a "late return fee" says; "credited"'s is a credit
// card's too, which then counts as saying so.
var returnedHashes = stemHashes("refund", "refunded", "reimbursed", "reimbursement", "credited", "back", "payout",
	"compensation", "compensated", "cashback", "paid", "退", "赔", "返", "到账")

// notReturned marks the events stating an amount without saying that money
// came back ("Order FD-40117 placed: … 31.50 EUR" for "how much did I get
// back for FD-40117?"): their amount is no answer to it (nil: none).
func notReturned(docs []doc) []bool {
	return amountsWhere(docs, func(_ int, d *doc) bool { return !hasAny(d, returnedHashes) })
}

// amountsWhere marks the events stating an amount of which is says true
// (given each event's index and analysis).
// Nil: none.
func amountsWhere(docs []doc, is func(i int, d *doc) bool) []bool {
	return where(len(docs), func(i int) bool { return docs[i].count(moneyHash) > 0 && is(i, &docs[i]) })
}

// where marks the n candidates of which is says true; nil when none is
// (most questions: nothing made).
func where(n int, is func(i int) bool) []bool {
	var out []bool
	for i := range n {
		if is(i) {
			if out == nil {
				out = make([]bool, n)
			}
			out[i] = true
		}
	}
	return out
}

const (
	cjkMoneyBack  = "剩退赔返补"
	cjkMoneyMoves = cjkMoneyBack + "付扣花还交收欠"
)

var priceStems = map[string]bool{stem("much"): true, stem("cost"): true, stem("price"): true, stem("total"): true,
	stem("monthly"): true, stem("fee"): true, stem("amount"): true,
	// Chinese, as the analysis gives it (characters and their pairs): 多少钱, 价格, 一共, 总价 (not
	// 总共, 合计: a total with what was added since)
	"多": true, "少": true, "钱": true, "多少": true, "少钱": true, "价": true, "格": true, "价格": true, "价钱": true,
	"一": true, "共": true, "一共": true, "总": true, "总价": true}

// changedToCues mark a question asking what its object was changed to or
// replaced with ("what was rx8102 changed to?", "CF60871 换成 什么 药？";
// asksChangedTo): the newest event naming it that says so (newestChange)
// is its description.
var changedToCues = newCueSet([]string{"changed to", "change to", "switched to", "switch to", "replaced with", "replaced by", "replace it with",
	"swapped for", "swapped to", "swap it for", "substituted with", "substituted by", "instead",
	"换成什么", "换成了什么", "换了什么", "改成什么", "改成了什么", "改为什么", "变成什么", "换成啥", "改成啥", "替换成什么"})

// asksChangedTo reports a question asking what its object was changed to
// or replaced with: changedToCues, or a word of changing and the question
// ending in "to", "with" or "for" ("what did they replace RX-8102 with?",
// "what did you change it to?").
func asksChangedTo(q text) bool {
	if changedToCues.in(q) {
		return true
	}
	n := len(q.words)
	return n > 2 && (q.words[n-1] == "to" || q.words[n-1] == "with" || q.words[n-1] == "for") &&
		slices.ContainsFunc(q.words[:n-1], func(w string) bool { return changingVerbs[stem(w)] })
}

// changingVerbs are the stems of the verbs that change a thing into another.
var changingVerbs = map[string]bool{stem("change"): true, stem("replace"): true, stem("swap"): true, stem("switch"): true,
	stem("substitute"): true, stem("exchange"): true}

// newestChange is the newest event naming the object (qids) that says a
// thing of it changed or is another now; -1: none.
func newestChange(qids []ident, cands []Candidate, docs []doc) int {
	at := -1
	for i := range docs {
		if idMatch(qids, &docs[i]) > 0 && (saysChanged(&docs[i]) || saysReplaced(&docs[i])) && (at < 0 || cands[i].Time.After(cands[at].Time)) {
			at = i
		}
	}
	return at
}

// firstNaming is, when the object's first event (intro) names none of the
// question's own words, the first event on the object naming one of them;
// else intro.
func firstNaming(intro int, own []string, qids []ident, cands []Candidate, docs []doc) int {
	var hs []uint64
	for _, t := range own {
		h := termHash(t)
		if docs[intro].count(h) > 0 {
			return intro
		}
		if !stopWords[t] {
			hs = append(hs, h)
		}
	}
	first := intro
	for i := range docs {
		if idMatch(qids, &docs[i]) > 0 && hasAny(&docs[i], hs) && (first == intro || cands[i].Time.Before(cands[first].Time)) {
			first = i
		}
	}
	return first
}

// asksWhatFor reports a question asking what a thing was for: "what …
// for?" ("what was the 3319 claim for?").
func asksWhatFor(q text) bool {
	n := len(q.words)
	return n > 2 && q.words[0] == "what" && q.words[n-1] == "for"
}

// introOf is the candidate that introduces the question's object: the first
// of the window to name one of its identifiers (-1: none does).
func introOf(qids []ident, cands []Candidate, docs []doc) int {
	intro := -1
	for i := range docs {
		if idMatch(qids, &docs[i]) > 0 && (intro < 0 || cands[i].Time.Before(cands[intro].Time)) {
			intro = i
		}
	}
	return intro
}

// scratch holds a ranking's working slices from one request to the next
// (scratches): at 500 candidates they were half of what it allocated.
type scratch struct {
	docs           []doc
	lex, rels, out []float64
	clauses        []uint64
	hits           []hit
	start          []int32
	keys           [][2]uint64 // (analysesOf)
	at             []int
	storyWords     []uint64 // (echo)
	chars          []uint64 // (echo: cjkChars)
	uses           []storyUse
	named          []namedEvent
	questions      []int    // (ranking.questions)
	nounWords      []string // (wordMatch.nounWords)
	qterms         []string // (wordMatch.qterms)
}

// storyUse is an event's use of a story's word (echo).
type storyUse struct{ doc, word int32 }

// namedEvent is an event naming an identifier of its own, by its index and
// time (Unix nanoseconds; echo).
type namedEvent struct {
	i int32
	t int64
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// done returns sc to the pool, without the analyses it points to (a window's
// encoded analyses are views of the bytes it was read in).
func (sc *scratch) done() {
	clear(sc.docs[:cap(sc.docs)]) // (a larger window's before this one too)
	scratches.Put(sc)
}

// grow sets *s to n zero elements, in its own array when it is large enough.
func grow[T any](s *[]T, n int) []T {
	if cap(*s) < n {
		*s = make([]T, n)
	} else {
		*s = (*s)[:n]
		clear(*s)
	}
	return *s
}

// Recency is 2^(−age/halfLife): 1 now, ½ at one half-life (an event from the
// future counts as now).
func Recency(now, t time.Time, halfLife time.Duration) float64 {
	// e^(−ln2·age/halfLife): math.Exp has an assembly version where
	// math.Exp2 has none (19 against 35 ns a call, once per candidate)
	return math.Exp(-math.Ln2 * max(now.Sub(t), 0).Seconds() / halfLife.Seconds())
}

// UniqueTerms are text's analysed terms, each once, in order.
func UniqueTerms(text string) []string { return dedupe(Analyze(text).Terms) }

// asksIfRequired reports a question whether something is required of the
// customer that is no payment owed ("do I have to fast for TJ-5530?", "must I
// bring towels?", "TJ-5530 要 空腹 吗？", "需要 带 证件 吗？"): the event stating
// the requirement answers it, not the later events of its object's story,
// which say nothing of it (inheritance.required). Not a question whether it
// still is (stillAsked), was done (了吗) or is owed (asksIfStillOwed).
func asksIfRequired(q text) bool {
	w := q.words
	if haveTo(w) || len(w) > 2 && (w[0] == "must" || w[0] == "should") && (w[1] == "i" || w[1] == "we") {
		return true
	}
	k := strings.LastIndex(q.norm, "吗")
	if k < 0 || strings.HasSuffix(q.norm[:k], "了") || strings.Contains(q.norm[:k], "还") {
		return false
	}
	r := strings.Index(q.norm[:k], "要")
	return r >= 0 && !strings.HasPrefix(q.norm[r:], "要不要") || strings.Contains(q.norm[:k], "需")
}

// asksIfStillOwed reports a question whether something must still be done
// or paid ("do I have to pay the fine for BLT2208?", "do we need to send
// anything?"): where the thing's story stands answers it, as for "still".
func asksIfStillOwed(q text) bool {
	w := q.words
	return haveTo(w) && w[0] == "do" && (w[1] == "i" || w[1] == "we") && len(w) > 4 && owingVerbs[w[4]]
}

// haveTo reports a question opening "do/does … have to" or "… need to" ("do
// I have to fast …?", "does he need to bring …?"): the verb after it is its
// fifth word.
func haveTo(w []string) bool {
	return len(w) > 3 && (w[0] == "do" || w[0] == "does") && (w[2] == "have" || w[2] == "need") && w[3] == "to"
}

// owingVerbs are what a customer may still owe ("do I have to pay …?", "do
// we need to send anything?"); "do I have to fast for TJ-5530?" asks what is
// required (asksIfRequired).
var owingVerbs = map[string]bool{"pay": true, "send": true, "do": true, "sign": true, "return": true, "settle": true, "give": true, "provide": true, "submit": true, "upload": true}

// cjkWhereItIs reports a Chinese question (its norm, its Chinese joined:
// questionText) asking where a thing is: 在哪 (在哪里, 在哪儿) or 在什么地方,
// not followed by 了, which asks how far it has got ("在 哪 了" as "到 哪
// 了").
func cjkWhereItIs(norm string) bool {
	for _, c := range []string{"在哪", "在什么地方"} {
		if k := strings.Index(norm, c); k >= 0 {
			rest := strings.TrimPrefix(strings.TrimPrefix(norm[k+len(c):], "里"), "儿")
			if !strings.HasPrefix(rest, "了") {
				return true
			}
		}
	}
	return false
}

// asksIfFixed reports a question whether its object is fixed or done
// ("WX-7702 修 好 了 吗？", "补卡 好 了 吗？": fixedCues and 了吗; "is the
// login problem on WS-4410 solved?": fixedCues and asksWhetherDone). Like
// asksIfDone, it asks where the object's story stands, not what one of its
// events says (its 修 is no question about "保修 期 内").
func asksIfFixed(q text) bool { return (happenedCues.in(q) || asksWhetherDone(q)) && fixedCues.in(q) }

// fixedSteps marks, for a question whether its object is fixed
// (asksIfFixed), the events naming the object that say it mended
// (mendedWords) or done (doneMarks), working again (solvedHashes: 正常, 恢复)
// or mended in Chinese (fixedCJK, read joined:
// "已 更换", "已 换 新 电池", "新 电池 已 装好"): the steps it asks about (as
// stepsDone's for English); with comps nil (a question naming no identifier),
// any event. Nil when none says so.
func fixedSteps(cands []Candidate, comps []Components, docs []doc) []bool {
	return where(len(cands), func(i int) bool {
		d := &docs[i]
		return (comps == nil || comps[i].Identifier != 0) && (saysWord(cands[i].Text, mendedWords, nil) || hasAny(d, doneMarks) || hasAny(d, solvedHashes) || d.marks&scriptCJK != 0 && mended(cands[i].Text))
	})
}

// mendedWords say in English that a thing was mended, as written: of
// finishedWords, not one saying another step done ("collected",
// "shipped").
var mendedWords = map[string]bool{"fixed": true, "repaired": true, "replaced": true, "resolved": true, "fitted": true, "restored": true,
	"solved": true, "sorted": true, "completed": true, "done": true, "succeeded": true, "finished": true, "cleared": true, "released": true}

// mended reports a Chinese text saying a thing was mended, its words read
// joined (fixedCJK): not "需要 更换" (to replace), which no 已 begins.
func mended(text string) bool {
	joined := joinedSpaced(normalise(text))
	return slices.ContainsFunc(fixedCJK, func(w string) bool { return strings.Contains(joined, w) })
}

// fixedCJK are the Chinese words saying a thing was mended: replaced
// (已更换, 已换, 换新), repaired (已维修, 修好, 修复), fitted (装好), as
// finishedWords' "replaced", "repaired", "fixed", "fitted"; or its fault
// gone: cleared (故障 排除), eliminated (异响 消除).
var fixedCJK = []string{"已更换", "已换", "已维修", "修好", "修复", "换新", "装好", "消除", "排除"}

// askedEnd is a question's text without the spaces and marks that end it
// ("0448 清关 好 了 吗？" ends with 吗).
func askedEnd(q text) string { return strings.TrimRight(q.norm, " ?？!！") }

// asksIfItHolds reports a question whether a state still holds or holds
// now: one asking whether (whether: "is 731904 still held at customs?", "can
// I log in now?"; in Chinese, ending in 吗 or 没) that says "still" (still:
// stillCues, asksIfStillOwed; in Chinese, 还 as "still": cjkStill) or
// "now" (nowCues).
func asksIfItHolds(q text, still, whether bool) bool {
	if !whether {
		end := askedEnd(q)
		if !strings.HasSuffix(end, "吗") && !strings.HasSuffix(end, "没") && !strings.HasSuffix(end, "没有") {
			return false
		}
		still = still || cjkStill(q.norm)
	}
	return still || nowCues.in(q)
}

// cjkStill reports a Chinese question saying 还 as "still" ("208 还 欠
// 吗？", "还 有效 吗？"): not the 还 of repaying (还款, 还清, 偿还, 归还,
// "账单 还 了 吗？", "这 期 要 还 吗？", "什么 时候 还？": after 要, 该 or 需,
// or ending the question) nor of returning (退还), whether the words are
// spaced or not.
func cjkStill(norm string) bool {
	rs := []rune(norm)
	near := func(i, step int) rune { // the rune beside rs[i], across spaces
		for i += step; i >= 0 && i < len(rs); i += step {
			if rs[i] != ' ' {
				return rs[i]
			}
		}
		return 0
	}
	for i, r := range rs {
		if r != '还' {
			continue
		}
		if next, prev := near(i, 1), near(i, -1); next != 0 && !strings.ContainsRune("款清了?？", next) && !strings.ContainsRune("偿归退要该需", prev) {
			return true
		}
	}
	return false
}

// asksIfDone reports a question whether a step of its object's story is done
// ("is 917 paid?", "is TC-1180 approved?", "was the order cancelled?": a
// whether-done question, asksWhetherDone, naming a done word; or any opened
// by "did": "did the doctor approve 51230?", "did B-TX 4410 pass?"): where the
// story stands answers it, the later "Retry of INV-2026-0917 succeeded", not
// the event that matches its word ("Payment for INV-2026-0917 failed"), so
// it is no question about what one event says. A participle after "been"
// names the step as a done word does ("has SP-4021 been allowed to
// connect?", "has INV-0917 been settled?").
func asksIfDone(q text) bool {
	if outcomeCues.in(q) {
		return true
	}
	if !asksWhetherDone(q) {
		return false
	}
	if terseDone(q) || q.words[0] == "did" {
		return true
	}
	for i, w := range q.words {
		if doneWords[w] || i > 0 && q.words[i-1] == "been" && strings.HasSuffix(w, "ed") {
			return true
		}
	}
	return false
}

// outcomeCues ask in Chinese whether a request or an attempt succeeded
// ("WZ-55120 申诉 成功 了 吗？", "贷款 批 下来 了 吗？"), as "did my appeal
// work?" does: its outcome answers it, not the event naming it.
var outcomeCues = newCueSet([]string{"成功了吗", "成功了没", "通过了吗", "通过了没", "批了吗", "批下来了吗", "批准了吗", "批准了没"})

// echoAnswers gives the events the question's object reaches only by echo
// or link (an identifier score between 0 and 1) Weights.EchoAnswer when one
// matches the question's words (its lexical score) by echoMargin more than
// every event naming the object: for "31120045 退款 到 了 吗？", "质检 通过，退款
// 899 元 已 原路 退回" says the refund the question asks about, and
// "31120045 申请 退货" only names the order. The event naming the object
// keeps the larger identifier score, so the two compete on what they say.
// An event naming one of the question's identifiers itself is no echo: it
// names part of what was asked, and keeps that share ("LK-77310 activation
// fails with error …" for "why did I pay 412.50 on LK-77310?", whose
// "LK-77310 prorated charge 412.50 USD" names both).
func echoAnswers(comps []Components, docs []doc, qids []ident, w Weights) {
	best := 0.0 // the best lexical score of an event naming the object
	for i := range comps {
		if comps[i].Identifier >= 1 {
			best = max(best, comps[i].Lexical)
		}
	}
	for i := range comps {
		if c := &comps[i]; c.Identifier > 0 && c.Identifier < w.EchoAnswer && c.Lexical > best+echoMargin && idMatch(qids, &docs[i]) == 0 {
			c.Identifier = w.EchoAnswer
		}
	}
}

// echoMargin is how much better (of the best lexical score, 1) an echoing
// event matches the question's words than every event naming the object
// for EchoAnswer: a clear difference, not a thesaurus entry's chance match.
const echoMargin = 0.4

// idMatch is the share of the question's identifiers the event names (see
// doc.names).
func idMatch(q []ident, d *doc) float64 {
	if len(q) == 0 {
		return 0
	}
	n := 0
	for _, id := range q {
		if d.names(id) {
			n++
		}
	}
	return float64(n) / float64(len(q))
}

func dedupe(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Cosine assumes both vectors are L2-normalised (the embedders guarantee it) and
// returns 0 when the event has no vector or one of another size.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	return dotFrom(a, b, 0, [4]float32{})
}

// dotFrom is the dot product of a and b, from dimension i on, added to the
// sums s of the dimensions before it. Four sums break the dependency between
// additions (about twice as fast as one): dimension i goes to sum i mod 4,
// and those past the last four to the first; in that order, whatever i, the
// result is the same to the bit (Score sums a sparse question's head only,
// cosineAt, then its dense tail here).
func dotFrom(a, b []float32, i int, s [4]float32) float64 {
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	end := len(a) &^ 3
	for ; i < end && i&3 != 0; i++ { // (up to the next four)
		switch i & 3 {
		case 1:
			s1 += a[i] * b[i]
		case 2:
			s2 += a[i] * b[i]
		case 3:
			s3 += a[i] * b[i]
		}
	}
	for ; i+4 <= len(a); i += 4 {
		x, y := a[i:i+4:i+4], b[i:i+4:i+4]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return float64((s0 + s1) + (s2 + s3))
}

// sparseVec is the shape of a question's vector that cosineAt sums over: the
// non-zero dimensions of its head (the offline embedder's hashed words, ~20
// of 284) and where its dense tail begins (its word vectors' dimensions, the
// last 100, all non-zero; len when there is none).
type sparseVec struct {
	nz   []int32
	tail int
}

// nonZero is v's shape when its head's non-zeros are at most a quarter of
// the head, else nil (a dense vector: Cosine's loop).
func nonZero(v []float32) *sparseVec {
	tail := len(v)
	for tail > 0 && v[tail-1] != 0 {
		tail--
	}
	if len(v)-tail < 16 {
		tail = len(v) // (no dense tail worth a loop of its own)
	}
	n := 0
	for _, x := range v[:tail] {
		if x != 0 {
			n++
		}
	}
	if tail == 0 || n > tail/4 {
		return nil
	}
	nz := make([]int32, 0, n)
	for i, x := range v[:tail] {
		if x != 0 {
			nz = append(nz, int32(i))
		}
	}
	return &sparseVec{nz, tail}
}

// cosineAt is Cosine(a, b), summed only over a's non-zero head dimensions and
// its dense tail when sv is given: the same four sums in the same order, so
// the same result, for a third of the work on the offline embedder's vectors
// with word vectors (a twentieth without).
func cosineAt(a []float32, sv *sparseVec, b []float32) float64 {
	if sv == nil || len(a) != len(b) {
		return Cosine(a, b)
	}
	var s [4]float32
	end := len(a) &^ 3 // (as dotFrom: the dimensions past the last four go to the first sum)
	for _, i := range sv.nz {
		k := i & 3
		if int(i) >= end {
			k = 0
		}
		s[k] += a[i] * b[i]
	}
	return dotFrom(a, b, sv.tail, s)
}

// stepsDone marks, for a question naming an object and asking whether a
// step of its story is done, the events on the object (an identifier score)
// saying the question's own verb as done: its participle ("did B-TX 4410
// pass?": "4410 passed inspection early"; "did RT-118204 arrive?":
// "arrived"). Nil when none does: then any step done says it (saysDone).
// Once one says the step asked, another step done ("4410 new tyres fitted")
// is no answer.
func stepsDone(q text, cands []Candidate, comps []Components) []bool {
	verbs, n := questionVerbs(q, false)
	if n == 0 {
		return nil
	}
	return where(len(cands), func(i int) bool { return comps[i].Identifier != 0 && saysVerbDone(cands[i].Text, verbs[:n], false) })
}

// questionVerbs are a question's words that may name the step it asks
// about (at most eight: Latin letters, longer than two, no stop word but
// collectVerbs' "get", no auxiliary), and how many; with participles false, not one ending in "ed"
// ("did B-TX 4410 pass?": pass; "when was rm208 installed?" keeps
// installed).
func questionVerbs(q text, participles bool) (verbs [8]string, n int) {
	for _, w := range q.words {
		if n < len(verbs) && len(w) > 2 && isLetters(w) && (!stopWords[w] || collectVerbs[w]) && !auxiliaries[w] && (participles || !strings.HasSuffix(w, "ed")) {
			verbs[n] = w
			n++
		}
	}
	return verbs, n
}

// collectVerbs ask when a thing can be had ("when can I get al3307?", "when
// can I pick it up?"): "ready" says that step done.
var collectVerbs = map[string]bool{"get": true, "collect": true, "pick": true, "fetch": true}

// saysVerbDone reports a text saying one of verbs done: its regular
// participle (participleOf: "passed" for pass); with same, also the verb
// itself when it is a participle or "ready" ("installed", "ready for
// collection").
func saysVerbDone(text string, verbs []string, same bool) bool {
	var buf [24]byte
	for k := 0; k < len(text); {
		w, next := latinWord(text, k, &buf)
		if m := len(w); m > 0 && slices.ContainsFunc(verbs, func(v string) bool {
			return same && (v == "ready" || strings.HasSuffix(v, "ed")) && string(w) == v || same && collectVerbs[v] && string(w) == "ready" || m >= 5 && w[m-2] == 'e' && w[m-1] == 'd' && participleOf(w, v) ||
				irregularParticiples[v] == string(w)
		}) {
			return true
		}
		k = next
	}
	return false
}

// participleOf reports that w (lower-case, ending in "ed") is the regular
// past participle of the verb v: passed, approved, stopped, carried.
func participleOf(w []byte, v string) bool {
	m := len(w)
	switch {
	case string(w[:m-2]) == v, string(w[:m-1]) == v: // (passed; approved)
		return true
	case m-3 == len(v) && w[m-3] == w[m-4] && string(w[:m-3]) == v: // (stopped)
		return true
	case m-3 == len(v)-1 && w[m-3] == 'i' && strings.HasSuffix(v, "y") && string(w[:m-3]) == v[:len(v)-1]: // (carried)
		return true
	}
	return false
}

// irregularParticiples are the participles of the irregular verbs a
// question may ask done ("did I pay anything for TT-3091?": "deposit 80 EUR
// paid"; "have you sent the quote?": "quote sent").
var irregularParticiples = map[string]string{"pay": "paid", "send": "sent", "buy": "bought", "bring": "brought", "sell": "sold",
	"build": "built", "take": "taken", "give": "given", "write": "written", "drive": "driven", "fly": "flown", "ring": "rung"}

// saysStepDone reports that the i-th event says the step a question asks
// about is done: its verb (steps: stepsDone), or, when no event says it,
// any step (saysDone).
func saysStepDone(steps []bool, i int, d *doc, text string, money bool) bool {
	if steps != nil {
		return steps[i]
	}
	return saysDone(d, text, money)
}

// asksWhether reports a question whether something is so: it opens with an
// auxiliary ("do I still have to pay PF-88019?", "is H-20913 still on?").
func asksWhether(q text) bool { return len(q.words) > 0 && auxiliaries[q.words[0]] }

// asksWhetherDone reports an English question whether something has been
// done, as happenedCues do a Chinese one: opened by "did", "has" or "have"
// ("did the customs payment go through?", "has the claim paid out?"), or by
// "is"/"are" and ended by a participle ("is 917 paid?", "is the windscreen
// done yet?"; not "is my fixed rate going down?").
func asksWhetherDone(q text) bool {
	if len(q.words) < 2 {
		return false
	}
	if terseDone(q) {
		return true
	}
	switch q.words[0] {
	case "did", "has", "have":
		return true
	case "is", "are", "was", "were":
		last := q.words[len(q.words)-1]
		if (last == "yet" || last == "already" || last == "now") && len(q.words) > 3 {
			last = q.words[len(q.words)-2]
		}
		return doneParticiple(last)
	}
	return false
}

// terseDone reports a terse question whether a step of an object's story is
// done: the object, then a word saying the step done ("0791 serviced?",
// "inc88412 solved?", "r6620 done?"; "HR-5518 fixed?", whose code is two
// words).
func terseDone(q text) bool {
	n := len(q.words)
	if n < 2 || n > 3 {
		return false
	}
	code := q.words[0]
	if n == 3 && isLetters(code) && !auxiliaries[code] && isNumber(q.words[1]) {
		code = q.words[1] // ("hr", "5518")
	}
	return strings.ContainsAny(code, "0123456789") && doneParticiple(q.words[n-1])
}

// doneParticiple reports a word of a question saying a step is done: a participle
// ("approved", "serviced") or paid, done, sent, cut, ready or back ("is the
// camera body back?": returned).
func doneParticiple(w string) bool {
	return strings.HasSuffix(w, "ed") || w == "paid" || w == "done" || w == "sent" || w == "back" || w == "ready" || w == "cut"
}

// aboutMoney reports a question naming money or an amount ("did the customs
// payment go through?", "did I get the 75 back?", "钱 退 了 吗？"): only for
// it does an event saying money was paid say that what it asks is done
// (saysDone).
func aboutMoney(q text) bool {
	return slices.ContainsFunc(q.words, func(w string) bool { return moneyWords[w] || isNumber(w) }) ||
		strings.ContainsAny(q.norm, "钱款费付")
}

// asksOfMoney reports a question naming money, an amount or a price, what is
// owed, or asking how much ("多少", "交 了 吗", "扣 了 没"): a bill may answer it
// (reading.billsAnswer). (aboutMoney's numbers are any number: an
// identifier's too.)
func asksOfMoney(q text) bool {
	return slices.ContainsFunc(q.words, func(w string) bool { return moneyWords[w] || owedWords[w] }) || namesAmount(q.norm) || priceWords.in(q) ||
		strings.ContainsAny(q.norm, "钱款费付交缴扣") || strings.Contains(q.norm, "多少") || strings.Contains(q.norm, "how much")
}

// owedWords ask what is owed or left of a sum, or whether it is settled
// ("what's left on 2026/INV/0042?", "tp2291 what's my share?", "is inv-24018
// settled?").
var owedWords = map[string]bool{"left": true, "share": true, "owe": true, "settled": true}

// billsNoNews keeps, for a question asking nothing of money, a bill or a
// payment (markBill) from being the newest word on its object: it keeps at
// most followsShare of the recency of the newest event before it on its
// object (of the window's events, for a bill naming none) that is no bill.
// "is DC-5531 all ready?" is answered by "DC-5531 coat ready, stain
// removed", not by the "DC-5531 paid 31.50 EUR cash" after it; "what
// happened with JB-7710?" by "JB-7710 done: washer replaced", not the
// invoice after it.
func billsNoNews(cands []Candidate, docs []doc, comps []Components, now time.Time, halfLife time.Duration) {
	for i := range docs {
		if docs[i].marks&markBill == 0 {
			continue
		}
		latest, found := time.Time{}, false
		for j := range docs {
			t := cands[j].Time
			if docs[j].marks&markBill == 0 && !t.After(cands[i].Time) && (!found || t.After(latest)) && (docs[i].nOwn == 0 || sharesAnIdentifier(&docs[i], &docs[j])) {
				latest, found = t, true
			}
		}
		before := 0.0
		if found {
			before = Recency(now, latest, halfLife)
		}
		comps[i].Recency = min(comps[i].Recency, followsShare*before)
	}
}

// namesAmount reports a question (normalised) writing a number that may be an
// amount: "the 75", "1,180", "39.90", not an identifier's number ("BK-7720",
// "4410-2297", "p00419", "0028") nor one of five or more digits ("12346").
func namesAmount(norm string) bool {
	for f := range strings.FieldsSeq(norm) {
		f = strings.TrimFunc(f, notLetterOrDigit)
		if f == "" || strings.IndexFunc(f, func(r rune) bool { return !unicode.IsDigit(r) && r != ',' && r != '.' }) >= 0 {
			continue
		}
		digits, whole := 0, true
		for _, r := range f {
			if r == ',' || r == '.' {
				whole = false
			} else {
				digits++
			}
		}
		if f[0] == '0' && (len(f) == 1 || f[1] != '.') || whole && digits > 4 {
			continue
		}
		return true
	}
	return false
}

// moneyWords name money, or its paying (moneyOut), in a question (not "get"
// or "back", which a parcel's question says as often).
var moneyWords = func() map[string]bool {
	m := map[string]bool{"money": true, "payment": true, "payments": true, "fee": true, "fees": true, "charge": true,
		"refund": true, "refunded": true, "deposit": true, "bill": true, "invoice": true, "transfer": true, "payout": true,
		"salary": true, "rent": true}
	maps.Copy(m, moneyOut)
	return m
}()

// changesLater reports that the i-th event says something changed (a
// change of its own) after an earlier event on the object asked about: a
// time moved after it is more likely another of the object's times ("PX-5521
// 上课 时间 调整 为 周六" then "开课 日期 推迟 到 3 月 15 日").
func changesLater(i int, comps []Components, cands []Candidate, docs []doc) bool {
	if !saysChanged(&docs[i]) {
		return false
	}
	for j := range cands {
		if comps[j].Identifier == 1 && cands[j].Time.Before(cands[i].Time) {
			return true
		}
	}
	return false
}

// paymentHashes say that a sum is to be paid by a time ("invoice 220 EUR,
// due in 14 days", "payable by 1 May", 缴费 截止 3 月 31 日).
var paymentHashes = stemHashes("due", "payable", "截止")

// aboutPaying reports a question about paying, whose time is then what it
// asks ("when is the invoice due?", "when do I pay?", "when does my permit
// need renewing?", 什么时候缴费): a word of money (moneyWords), "due" or
// renewing, or a Chinese character of money or paying (续费 has 费), 续约 or
// 续期 (not 继续, "to go on").
func aboutPaying(q text) bool {
	return slices.ContainsFunc(q.words, func(w string) bool { return moneyWords[w] || w == "due" || strings.HasPrefix(w, "renew") }) ||
		strings.ContainsAny(q.norm, "钱款费付缴交账") || strings.Contains(q.norm, "续约") || strings.Contains(q.norm, "续期")
}

// afterTheMove marks, for a question asking when an object it names (qids)
// is, the events naming it after the newest that moves its time
// (movesATime) which state a time, move none and match none of the
// question's own words (q): the time they state is another thing's ("GT-7712
// extra lesson added on 30 May", "PC-1192 check visit in 2 weeks", "CW-3350
// 手术 顺利，下午 4 点 可 接" after "… moved to Fridays 16:00", "… 改 到 周五
// 上午 10 点"), or the same as the move's, which says it. Nil: none.
func afterTheMove(qids []ident, q *lexQuery, cands []Candidate, docs []doc) []bool {
	move := -1
	for i := range docs {
		if (move < 0 || cands[i].Time.After(cands[move].Time)) && idMatch(qids, &docs[i]) == 1 && movesATime(&docs[i], cands[i].Text) && docs[i].count(timeHash) > 0 {
			move = i // (a move stating no time moved a place: "EV-30771 moved to the studio on Hafenstr. 12")
		}
	}
	if move < 0 {
		return nil
	}
	var own []uint64 // the question's words of weight, no identifier's and no answer type's
	for k := range q.words {
		if h := q.hashes[k]; q.weights[k] > 0 && !isAnswerTerm(h) && !strings.Contains(timeCueChars, q.terms[k]) && !slices.ContainsFunc(qids, func(x ident) bool { return x.full == h || x.prefix == h }) {
			own = append(own, h)
		}
	}
	var out []bool
	for i := range docs {
		if !cands[i].Time.After(cands[move].Time) || docs[i].count(timeHash) == 0 || idMatch(qids, &docs[i]) < 1 ||
			hasAny(&docs[i], own) || movesATime(&docs[i], cands[i].Text) {
			continue
		}
		if out == nil {
			out = make([]bool, len(docs))
		}
		out[i] = true
	}
	return out
}

// timeCueChars are the characters of the Chinese questions asking when (几点,
// 几号, 哪天, 几时, 什么时候, 周几, 星期几, 礼拜几), which an event states a
// time with: no word of the question's own.
const timeCueChars = "点号天日时候周星期礼拜"

// paymentDates marks the events naming an object the question names
// (qids; any event for a question naming none) and stating a sum and when
// it is to be paid (paymentHashes): for a question asking when the thing is
// ("when is gj4417 now?", "when is the electrician coming?"), not how long
// and not about paying, their time is the payment's, not the thing's, and
// the newest of them is no newer time of it ("GJ-4417 invoice 220 EUR, due
// in 14 days" after "GJ-4417 postponed to 21 Nov"; for a question naming
// no identifier, +10 −1 on the development sets). Nil: none.
func paymentDates(docs []doc, qids []ident) []bool {
	return amountsWhere(docs, func(_ int, d *doc) bool {
		return hasAny(d, paymentHashes) && (len(qids) == 0 || slices.ContainsFunc(qids, d.names))
	})
}

// cjkStepsDone marks, for a Chinese question whether a step of its object's
// story has happened (its verb before 了吗 or 了没: "轿车 还 了 吗？", "05 交
// 了 吗？"), the events naming the object that say the step done: 已 before
// the verb, or before one of doneAdverbs and the verb ("已 还车", "已 自动
// 扣款"), read joined; the verbs of paying (交, 缴, 付, 还, 扣) are one. Not
// 好 or 完, which asksIfFixed reads. Nil when none says so. With comps nil
// (a question naming no identifier), any event may say it.
func cjkStepsDone(q text, cands []Candidate, comps []Components, docs []doc) []bool {
	rs := []rune(q.norm)
	var verb rune
	for k := 1; k+1 < len(rs); k++ {
		if rs[k] == '了' && (rs[k+1] == '吗' || rs[k+1] == '没') && isCJK(rs[k-1]) {
			verb = rs[k-1]
			break
		}
	}
	if verb == 0 || strings.ContainsRune("好完", verb) {
		return nil
	}
	verbs, pay := string(verb), strings.ContainsRune(payVerbs, verb)
	if pay {
		verbs = payVerbs
	}
	return where(len(cands), func(i int) bool {
		return (comps == nil || comps[i].Identifier != 0) && docs[i].marks&scriptCJK != 0 &&
			saysCJKStepDone(cands[i].Text, verbs, pay && docs[i].count(moneyHash) > 0)
	})
}

// saysCJKStepDone reports a Chinese text saying one of verbs done: 已
// before it, or before one of doneAdverbs and it, read joined; with
// received, also a sum received (receivedWords: "定金 300 元 已 收到" says
// "定金 付 了 吗？" done, from the side paid).
func saysCJKStepDone(text, verbs string, received bool) bool {
	for rest := joinedSpaced(normalise(text)); ; {
		k := strings.Index(rest, "已")
		if k < 0 {
			return false
		}
		rest = rest[k+len("已"):]
		next := rest
		for _, a := range doneAdverbs {
			next = strings.TrimPrefix(next, a)
		}
		if r, _ := utf8.DecodeRuneInString(next); strings.ContainsRune(verbs, r) {
			return true
		}
		if received && slices.ContainsFunc(receivedWords, func(w string) bool { return strings.HasPrefix(next, w) }) {
			return true
		}
	}
}

// receivedWords say in Chinese that a sum was received or arrived.
var receivedWords = []string{"收到", "收款", "到账"}

// doneAdverbs are the words that may stand between 已 and the verb of a
// step done ("已 自动 扣款", "已 全额 退款").
var doneAdverbs = []string{"自动", "全额", "全部", "按时", "成功"}

// asksIfPaid reports a question whether something was paid: "paid", or a
// Chinese verb of paying ("SD-60213 交 了 吗？").
func asksIfPaid(q text) bool {
	return slices.Contains(q.words, "paid") || strings.ContainsAny(q.norm, payVerbs)
}

// payVerbs are the Chinese verbs of paying.
const payVerbs = "交缴付还扣"

// asksWhyHigh reports a question asking why an amount or a use is high, or
// a thing slow ("why was usage so high?": highWords; in Chinese, ending in
// 高, 多, 贵 or 慢: "667328 为什么 这么 高？", "为什么 用 水 多？"): an event
// saying only that it is (abnormalWords: "用水 异常", "usage exceeded")
// restates its problem, and the finding after it is the reason
// (problemsOnly).
func asksWhyHigh(q text) bool {
	if slices.ContainsFunc(q.words, func(w string) bool { return highWords[w] }) {
		return true
	}
	if strings.IndexFunc(q.norm, isCJK) < 0 {
		return false
	}
	joined := askedEnd(q) // (its Chinese joined: questionText)
	return strings.HasSuffix(joined, "高") || strings.HasSuffix(joined, "多") || strings.HasSuffix(joined, "贵") || strings.HasSuffix(joined, "慢")
}

// highWords say in English that an amount or a use is high, or a thing slow.
var highWords = map[string]bool{"high": true, "higher": true, "slow": true, "slower": true, "expensive": true}

// abnormalWords are the reason words saying an amount or a use is more than
// usual, a problem's restatement when a question asks why it is high.
var abnormalWords = []string{"异常", "超出", "超过", "偏高", "偏多", "exceed", "unusu", "abnorm"}

// hedged reports a text whose reason is only suspected ("可能 漏水", "leak
// suspected"): no finding.
func hedged(text string) bool {
	norm := normalise(text)
	if strings.IndexFunc(norm, isCJK) >= 0 {
		joined := joinedSpaced(norm)
		return strings.Contains(joined, "可能") || strings.Contains(joined, "疑似") || strings.Contains(joined, "怀疑")
	}
	return slices.ContainsFunc(wordsOf(norm), func(w string) bool { return w == "suspected" || w == "possible" || w == "possibly" || w == "likely" })
}

// whenDone marks, for a question asking when a step of its object's story
// happens ("when will 118277 ship?", "when is sv7140 ready?", "when was
// rm208 installed?"), the events on the object that say the step done and
// state no time ("118277 shipped", "SV-7140 ready for collection"): it has
// happened, and the event is when. Each takes the match of the most
// relevant event on the object stating a time before it (the promise,
// "ships in 2 weeks"), and keeps its recency as one stating the time would.
// The step is the question's own verb said as a participle, or its
// participle or "ready" said again (saysVerbDone); asked in Chinese when a
// thing can be collected (collectAsked: "什么时候能取"), an event saying it
// can be (saysCollectable: "已 洗好，可 到 店 取"). Nil when none is such.
func whenDone(q text, rels []float64, cands []Candidate, comps []Components, docs []doc) []bool {
	verbs, n := questionVerbs(q, true)
	collect := n == 0 && collectAsked.in(q) // (in Chinese: "什么时候能取" of "已 洗好，可 到 店 取")
	if n == 0 && !collect {
		return nil
	}
	best := -1
	for j := range docs {
		if comps[j].Identifier == 1 && docs[j].count(timeHash) > 0 && (best < 0 || rels[j] > rels[best]) {
			best = j
		}
	}
	if best < 0 {
		return nil
	}
	return where(len(cands), func(j int) bool {
		if comps[j].Identifier != 1 || docs[j].count(timeHash) > 0 || !cands[j].Time.After(cands[best].Time) || !(collect && saysCollectable(cands[j].Text) || !collect && saysVerbDone(cands[j].Text, verbs[:n], true)) {
			return false
		}
		rels[j] = max(rels[j], rels[best])
		return true
	})
}

// stillAtTime reports a question asking whether a thing still holds at the
// time it states after "still" or 还是 ("is BH-4402 still on Saturday?",
// "is the concert still on the 14th?", "还是 周六 吗？"); not a time naming
// the thing ("is the 20 March night still on?").
func stillAtTime(norm string) bool {
	for _, w := range []string{"still ", "还是"} {
		if i := strings.Index(norm, w); i >= 0 && statesTime([]rune(norm[i+len(w):])) {
			return true
		}
	}
	return false
}

// asksWhatHappened reports a question asking what happened to its object
// ("what happened to 8803?", "ev20260347 what happened?", "what's going on
// with HW-40218?", "LP-2210 怎么样 了？", "FZ-2231 怎么 了？").
func asksWhatHappened(q text) bool {
	for k, w := range q.words {
		if w == "happened" && k > 0 && q.words[k-1] == "what" || w == "going" && k+1 < len(q.words) && q.words[k+1] == "on" {
			return true
		}
	}
	return strings.Contains(q.norm, "怎么了") || strings.Contains(q.norm, "怎么样了") || strings.Contains(q.norm, "出什么事") // (its Chinese joined: questionText)
}

// consequences gives the events on a question's object that give money back
// ("refund 28 EUR paid", "已 退款") after one saying it was cancelled
// ("cancelled by the venue": endedHashes) less recency than that one
// (followedFrom): asked what happened, or whether a thing still holds or
// where it stands ("is the van still booked?": stillCues), the cancellation
// is what happened, and the refund, newer, what followed from it, no newer
// news of the object. A question naming no object (named false) reads the
// pairs of one story: the refund names an identifier the cancellation names
// (its sum too: "Refund 94.00 EUR sent to card ending 2231" after "rv-77311
// cancelled …, refund 94.00 EUR").
func consequences(comps []Components, cands []Candidate, docs []doc, named bool) {
	followedFrom(comps, cands, docs, named,
		func(i int) bool { return hasAny(&docs[i], endedHashes) },
		func(j int) bool { return hasAny(&docs[j], refundHashes) && !hasAny(&docs[j], endedHashes) })
}

// amends gives, for a question asking why (not what happened, of which the
// amends are part), the events making amends for a delay or a fault
// ("超时，补偿 5 元 红包", "voucher of 20.00 EUR for the delay", "漏水 减免":
// amendsHashes) after an event of their story stating a reason less recency
// than that one (followedFrom): the reason is the answer, the amends what
// followed, whether they inherited from their story or match the question's
// words themselves; only those can outrank the reason, and only they are
// read against the events before them (the bound keeps Score500Why's cost:
// p50 160 µs against 180 reading every event with an amends word).
func amends(comps []Components, cands []Candidate, docs []doc, named bool) {
	followedFrom(comps, cands, docs, named,
		func(i int) bool {
			return docs[i].count(reasonHash)+docs[i].count(delayHash) > 0 && !hasAny(&docs[i], amendsHashes)
		},
		func(j int) bool {
			return (comps[j].Thread > 0 || comps[j].Lexical > 0) && hasAny(&docs[j], amendsHashes)
		})
}

// followedFrom gives each event that follows from another (follower) a
// followsShare of the recency of the earliest event before it that caused
// it (cause): both on the question's object (named), or, for a question
// naming none, of one story (sharesAnIdentifier). The followers, few, are
// found first, and each read against the events before it.
func followedFrom(comps []Components, cands []Candidate, docs []doc, named bool, cause, follower func(int) bool) {
	for j := range docs {
		if named && comps[j].Identifier < 1 || !follower(j) {
			continue
		}
		for i := range docs {
			if i == j || !cands[j].Time.After(cands[i].Time) || named && comps[i].Identifier < 1 || !cause(i) {
				continue
			}
			if named || sharesAnIdentifier(&docs[i], &docs[j]) {
				comps[j].Recency = min(comps[j].Recency, followsShare*comps[i].Recency)
			}
		}
	}
}

// sharesAnIdentifier reports that b names an identifier a names: one story.
func sharesAnIdentifier(a, b *doc) bool {
	for k := range int(a.nOwn) {
		if b.names(a.own(k)) {
			return true
		}
	}
	return false
}

// amendsHashes are the terms of the words making amends for a delay or a
// fault.
var amendsHashes = stemHashes("compensation", "voucher", "goodwill", "补偿", "减免", "赔付", "红包", "代金券")

// followsShare is the share of a cause's recency that what followed from it
// keeps (consequences): just below it, so that where nothing else tells the
// two apart the cause ranks first, not level with it and ordered by time (the
// same recency: +2 −0 on the development sets; this share: +2 −0 more).
const followsShare = 0.99

// refundHashes are the terms of the words saying money was given back (not
// returnedHashes, whose "paid" and "back" say no refund of a cancellation).
var refundHashes = append(stemHashes("credited"), givenBackHashes...)

// givenBackHashes are refundHashes but "credited", whose stem a credit
// card's "credit" shares: a refund, a difference refunded (差价), a
// compensation (补偿, 赔偿), a deposit released (解冻).
var givenBackHashes = stemHashes("refund", "refunded", "reimbursed", "退款", "退回", "退还", "已退", "compensation", "compensated", "补偿", "赔偿", "返还", "差价", "解冻")

// asksNoMoneyMoved reports a question asking how much naming no money
// moving either way ("how much was fn77031?", "车费 多少？"; not "how much did
// I pay?", "how much did 5503 bring?", "退 了 多少？", "最近 一次 充 了
// 多少？", "how much is still open on 00312?"): it asks what a thing costs
// or came to, and a sum given back (givenBack) is none of it.
func asksNoMoneyMoved(q text) bool {
	return !slices.ContainsFunc(q.words, func(w string) bool { return moneyMoves[w] || moneyIn[w] }) &&
		!strings.ContainsAny(q.norm, cjkMoneyMoves+"充")
}

// moneyIn are the words of a question asking what money came in or
// stands open.
var moneyIn = map[string]bool{"open": true, "bring": true, "brought": true, "balance": true, "earn": true, "earned": true, "make": true, "made": true}

// givenBack marks the events stating a sum given back, a refund or a
// credit ("FN-77031 we credited 100 EUR for the delay"; "credited" as
// written, not a credit card's statement). Nil: none.
func givenBack(cands []Candidate, docs []doc) []bool {
	return amountsWhere(docs, func(i int, d *doc) bool {
		return hasAny(d, givenBackHashes) || saysWord(cands[i].Text, creditedWord, nil)
	})
}

// creditedWord is "credited" as written (saysWord): a sum put to one's
// account, where the stem would be a credit card's too.
var creditedWord = map[string]bool{"credited": true}

// asksWhyNot reports a question asking why a thing did not happen or does
// not work ("why didn't the install happen on Tuesday?", "why can't I open
// my courses?", "why doesn't my card work anymore?"): "why" and a negated
// auxiliary after it; or "not" within six words of "why" after the
// identifier of the thing it says of ("why is the DC-4471 coat not
// ready?": +1 −0 on the development sets; "not" anywhere in those six words,
// +1 −3: "why does my card not work?" names no object, and an event with no
// cause is an answer as often).
func asksWhyNot(q text) bool {
	if len(q.words) < 2 || q.words[0] != "why" {
		return false
	}
	named := false // (an identifier before the negation: "why is the DC-4471 coat not ready?")
	for k, w := range q.words[1:min(7, len(q.words))] {
		named = named || hasDigit(w)
		if k < 2 && negates(w) || w == "not" && named {
			return true
		}
	}
	return false
}

// negates reports a question's word that negates: "not" or a negated
// auxiliary (negatedAuxiliaries).
func negates(w string) bool { return w == "not" || negatedAuxiliaries[w] }

// denies reports a question saying something did not happen or is not so
// ("why was SW-1180 not charged?", "why no fee?", "为什么 没 扣费？"):
// "not", "no" or a negated auxiliary anywhere, or a Chinese negation
// governing a word (negatedCJK: not one asking A-not-A).
func denies(q text) bool {
	return slices.ContainsFunc(q.words, func(w string) bool { return w == "no" || negates(w) }) || negatedCJK(q.norm) != nil
}

// negatedAuxiliaries are the auxiliaries a question's words hold negated
// ("didn't" as "didn", "can't" as "can" and "t"; "cannot").
var negatedAuxiliaries = map[string]bool{"didn": true, "doesn": true, "don": true, "isn": true, "wasn": true, "aren": true, "weren": true,
	"hasn": true, "haven": true, "hadn": true, "couldn": true, "wouldn": true, "won": true, "cannot": true, "can": true}

// costsMoreCues ask, with "why" of a thing named, why it costs more than it
// did or was quoted ("why is KF-8830 dearer?", "why does CP-1152 cost
// more?", "why was LK-7731 more than 189?", 为什么 贵了).
var costsMoreCues = newCueSet([]string{"more than", "more expensive", "costs more", "cost more", "dearer", "pricier", "higher price",
	"go up", "goes up", "went up", "gone up", "more now", "更贵", "贵了", "这么贵", "涨了", "多了"})

// sumsAdded marks, for a question asking why a thing costs more, the
// events on its object stating a sum added to it ("worktop changed to
// granite, plus 600 EUR", "240 EUR extra") or raised ("now 342 EUR a
// month": raisedHashes; +1 −0 on the development sets). Nil: none.
func (rk *ranking) sumsAdded() []bool {
	var out []bool
	for i := range rk.docs {
		if rk.docs[i].marks&markSum != 0 && (hasAny(&rk.docs[i], addedHashes) || hasAny(&rk.docs[i], raisedHashes) || addedSum.MatchString(rk.cands[i].Text)) && (len(rk.qids) == 0 || rk.comps[i].Identifier > 0) {
			if out == nil {
				out = make([]bool, len(rk.docs))
			}
			out[i] = true
		}
	}
	return out
}

// collectAsked marks a Chinese question asking when a thing can be
// collected ("XY-20318什么时候能取", 哪天 可以 拿): a verb of collecting
// (collectCJK) after 能, 可, 可以.
var collectAsked = newCueSet([]string{"能取", "可取", "可以取", "能拿", "可拿", "可以拿", "能领", "可领", "可以领"})

// collectCJK are the Chinese verbs of collecting a thing.
const collectCJK = "取拿领"

// saysCollectable reports a Chinese text saying a thing can be collected
// ("已 洗好，可 到 店 取", "可 取件", "可以 领取"): 可 and, within the four
// characters after it, a verb of collecting.
func saysCollectable(text string) bool {
	rs := joinedCJK([]rune(normalise(text)))
	for i, r := range rs {
		if r == '可' && slices.ContainsFunc(rs[i+1:min(len(rs), i+5)], func(v rune) bool { return strings.ContainsRune(collectCJK, v) }) {
			return true
		}
	}
	return false
}

// kindWord is the word of a text right before the word holding its first
// digit ("Order" of "Order CT-9914: 2 tickets", "job" of "Print job
// PJ-1190"): the kind of the object its identifier names, as written; ""
// when there is none.
func kindWord(text string) string {
	d := strings.IndexFunc(text, unicode.IsDigit)
	if d < 0 {
		return ""
	}
	start := strings.LastIndexAny(text[:d], " \t") // (the identifier's word begins after it)
	if start < 0 {
		return ""
	}
	end := start
	for end > 0 && (text[end-1] == ' ' || text[end-1] == '\t') {
		end--
	}
	begin := end
	for begin > 0 && (text[begin-1] >= 'a' && text[begin-1] <= 'z' || text[begin-1] >= 'A' && text[begin-1] <= 'Z') {
		begin--
	}
	return text[begin:end]
}

// itemsNamed marks, for a question naming an object and a thing of it
// ("where are my ct9914 tickets?", "what happened to the table on
// FU-30518?", "have the PP-7240 prints left?"), the events on the object
// that name the thing, and the events on no other: a later event on the
// object naming another of its things ("CT-9914 parking pass added",
// "PP-7240 canvas shipped") is no word on the one asked (inherit). The
// thing is a word of the question that the object's first event uses, a
// noun (nounLike; not a participle, "printed", nor a word after "what's" or
// "is", "what's left", nor an identifier's prefix, "FU" of "FU-30518"), not
// the word naming the object's kind right before its identifier in that
// event ("Order CT-9914": kindWord). Nil when no later event on the object
// names it, or every one does (+5 −0 on the development sets). Most
// questions name no such word, and it reads no event's text for them.
func itemsNamed(qwords []string, comps []Components, cands []Candidate, docs []doc) []bool {
	var buf [4]string
	nouns := buf[:0] // (the question's words that may name a thing: most questions, none)
	for k, wd := range qwords {
		if strings.HasSuffix(wd, "ed") || strings.HasSuffix(wd, "ing") || stopWords[wd] || hasDigit(wd) || strings.IndexFunc(wd, isCJK) >= 0 ||
			k > 0 && (qwords[k-1] == "is" || qwords[k-1] == "are" || qwords[k-1] == "s" && k > 1 && !hasDigit(qwords[k-2])) ||
			k+1 < len(qwords) && hasDigit(qwords[k+1]) || !nounLike(wd) {
			continue // (a participle; "what's left"; an identifier's prefix, "FU-30518", "2026/INV/0042")
		}
		nouns = append(nouns, wd)
	}
	if len(nouns) == 0 {
		return nil
	}
	intro := -1 // (the first event naming the object)
	for i := range docs {
		if comps[i].Identifier > 0 && (intro < 0 || cands[i].Time.Before(cands[intro].Time)) {
			intro = i
		}
	}
	if intro < 0 {
		return nil
	}
	var hs []uint64
	kind := kindWord(cands[intro].Text)
	for _, wd := range nouns {
		h := termHash(stem(wd))
		if !isAnswerTerm(h) && docs[intro].count(h) > 0 && !strings.EqualFold(strings.TrimSuffix(wd, "s"), strings.TrimSuffix(kind, "s")) {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return nil
	}
	out := make([]bool, len(docs))
	some, all := false, true
	for i := range docs {
		switch {
		case comps[i].Identifier == 0 || i == intro:
			out[i] = true // (no event on the object after its first: nothing to tell apart)
		case hasAny(&docs[i], hs):
			out[i], some = true, true
		default:
			all = false
		}
	}
	if !some || all {
		return nil
	}
	return out
}
