package relevance

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
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
	Text     string
	Analysis Analysis
	Vector   []float32 // the question's embedding; nil when it could not be had
	// Intent reports that the question asks for what is newest ("what did I just
	// change?", "latest", "刚才", "最近").
	Intent   bool
	prepared *text // Text normalised and split once (NewQuery) for the analysis, every cue and the thesaurus
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
	q := Query{Text: WithoutCourtesy(spelledOut(question)), Vector: vec}
	q.Analysis, q.Intent = analyze(normalise(q.Text), true, false), recencyIntent(q.normalised())
	return q
}

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
	// window ("what is the latest on CV-33019?"): the window is then the
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
	// Place weighs the events that name a place ("room 4.12", "platform 22",
	// "at the front desk") for a question asking where to go or be (0: off).
	Place float64
	// Linked is the identifier score of an event naming the question's object
	// through another identifier (see link; 0: off).
	Linked float64
	// Echo is the identifier score of an event that repeats a word only the
	// events naming the question's object use (see echo; 0: off).
	Echo float64
	// Respelled weighs BM25 matches of a misspelt question word's near
	// spellings that the candidates contain (respellings; 0: off).
	Respelled float64
	// CJKChar weighs a Chinese character of the question alone, against 1 for
	// its character pairs: a pair is a word more often than a character is
	// ("上次打车" matched "本次行程打了 5 星" by 次 and 打; 0: as 1).
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
	// for the newest gives such an event none).
	Unstated float64
	// Sibling scales the relevance of an event about another object of the
	// kind of the one a question names by its words alone (aboutASibling: "why
	// are the flyers not printed yet?" and "PR-7702 printed and packed", when
	// the flyers are PR-7701; 0: off, as 1).
	Sibling float64
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
}

// DefaultWeights were chosen on the tuning part of the labelled set in
// internal/evalset (never on its held-back part); BENCHMARKS.md has the figures.
var DefaultWeights = Weights{Similarity: 0.2, Lexical: 0.8, SimilarityFloor: 0.1, Identifier: 1, IdentifierAlone: 0.3, IdentifierStory: 0.1, Recency: 0.3, RecencyIntent: 0.5, Status: 0.5, HalfLife: 20 * time.Minute,
	Synonyms: 0.2, Senses: 1, Inflected: 0.5, Thesaurus: 0.5, Bilingual: 0.5, Thread: 0.5, ThreadFirst: 0.8, ThreadAnswer: 1, Amount: 1, Time: 1, Reason: 1, Person: 1, Place: 1, Instruction: 1, Count: 1, Said: 1, Description: 0.5, Linked: 1, Echo: 0.4, Respelled: 1, Acronym: 1, Offer: 0.2, CJKChar: 0.3, Sibling: 0.5, Unstated: 0.7, Changed: 0.1, ChangedNow: 0.5}

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
	// "rebooked", 改到) when the question asks for what is newest, 0 for any
	// other.
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
// now; else 0), r is
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
	// (Weights.ChangedNow when it asks what something is now), else 0.
	Change float64 `json:"change_weight,omitempty"`
	// AsksNow: the question asks what something is now; an event stating a
	// new or current value counts as saying it changed (Weights.ChangedNow).
	AsksNow bool `json:"asks_now,omitempty"`
	// IdentifierAlone: no other object of its identifiers' kind is in the
	// window (wI is Weights.IdentifierAlone of Weights.Identifier;
	// Weights.IdentifierStory of it when the question asks only what is
	// newest on it: "what is the latest on CV-33019?" is then "what is the
	// latest?", naming the object only the surer news of it).
	IdentifierAlone bool `json:"identifier_alone,omitempty"`
	// Asks are the answer types it looks for: amount, time, reason, person,
	// place, instruction, count; description for a question asking what its object
	// is or holds (Weights.Description); deals for one asking for discounts or
	// promotions (lines that only offer keep their whole weight); asked for
	// one asking what someone asked or the customer complained of (lines that
	// only ask, and the customer's lines, keep theirs).
	Asks []string `json:"asks,omitempty"`
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
	comps := make([]Components, len(cands))
	scores := make([]float64, len(cands))
	sc := scratches.Get().(*scratch)
	defer sc.done()
	docs := grow(&sc.docs, len(cands))
	analysesOf(cands, docs, sc)
	lex := grow(&sc.lex, len(cands))
	var clauses []uint64 // which of the question's first 64 BM25 clauses each candidate matches
	qids := identities(q.Analysis.IDs)
	own := words(q.Analysis) // the question's words, without its identifiers
	var qterms []string      // the question's words and their expansions, as BM25 matched them
	var expanded []string    // (Fusion.Expanded)
	describes := false       // the question asks what its object is or holds (DescriptionTerm)
	asked := answerTypesAsked(q.normalised(), w)
	byClause := askedByClause(q.normalised(), asked)
	offer := w.Offer // the scale of a line that only offers
	if dealWords.in(q.normalised()) {
		offer = 0
	}
	asking := w.Offer // the scale of a line that asks (QuestionTerm): as one that offers
	if askWords.in(q.normalised()) {
		asking = 0
	}
	if w.Lexical > 0 {
		qw := own
		if q.Intent {
			qw = withoutCues(qw, q.normalised().norm)
		}
		lq := newLexQuery(qw, w.CJKChar)
		for _, h := range negatedCJK(q.normalised().norm) {
			// "为什么没送到？" asks about a delivery that did not happen: "已送到"
			// says the opposite, and 送到 counts half (negatedShare)
			if k := slices.Index(lq.hashes, h); k >= 0 {
				lq.weights[k] *= negatedShare
			}
		}
		if w.Thesaurus > 0 {
			th := w.Lexicon
			if th == nil {
				th = DefaultThesaurus()
			}
			for _, m := range th.matches(q.normalised()) {
				m.each(func(e expansion) {
					if !q.Intent || !fromCue(e) {
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
				case q.Intent && fromCue(e):
					// what "latest", "newest" or "recently" bring ("late",
					// "new"): the words only ask for the newest (withoutCues)
				case e.inflected && w.Inflected > 0:
					lq.bring(e, w.Inflected, docs)
				case !e.inflected && w.Synonyms > 0:
					lq.bring(e, w.Synonyms, docs)
				}
			})
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
		if k := slices.Index(lq.terms, ReasonTerm); k >= 0 && !slices.Contains(lq.terms, DelayTerm) &&
			!slices.ContainsFunc(asked, func(t *answerType) bool { return t.name == "fault" }) {
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
		if w.Description > 0 && len(qids) > 0 {
			// DescriptionTerm's frequency: 1 for the event introducing the
			// object (for a price, when it states one: "Meal plan KT-318
			// started" leaves the price to the charge)
			price := asksPrice(q.Analysis, asked)
			if price || asksDescription(q.normalised()) || asksWhatItIs(q.normalised(), own) {
				if intro := introOf(qids, cands, docs); intro >= 0 && (!price || docs[intro].count(moneyHash) > 0) {
					tf := make([]int32, len(docs))
					tf[intro] = 1
					lq.synth = append(lq.synth, synthTerm{term: DescriptionTerm, weight: w.Description, of: -1, tf: tf})
					describes = true
				}
			}
		}
		if slices.ContainsFunc(asked, func(t *answerType) bool { return t.term == TimeTerm }) {
			lq.relative = relativeTimes(own, cands, docs)
		}
		lex, clauses = bm25(lq.done(), cands, docs, stats, w.CorpusIDF, sc)
		expanded = lq.expanded()
		qterms = append(lq.terms, lq.phraseWords...) // asksWhatAnEventSays looks at the phrases' words
	}
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
	var questions []int // the lines that only ask (QuestionTerm), when they count less
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
		if x, intro := nthObject(n, noun, rels, docs, cands); intro >= 0 {
			qids = []ident{x}
			for i := range docs {
				comps[i].Identifier = idMatch(qids, &docs[i])
			}
			object = idText(cands[intro].Text, x)
		}
	}
	if len(qids) == 0 && object == "" && w.Sibling > 0 && w.Sibling < 1 {
		siblings, intro, x := aboutASibling(own, rels, comps, docs, cands)
		for _, i := range siblings {
			comps[i].Source *= w.Sibling
			rels[i] *= w.Sibling
		}
		if len(siblings) > 0 {
			object = idText(cands[intro].Text, x)
		}
	}
	if len(questions) > 0 && w.Thread > 0 {
		replies(questions, rels, comps, cands, docs, asking, w.Thread)
	}
	if len(qids) > 0 && w.Linked > 0 {
		link(comps, docs, qids, w.Linked)
	}
	if len(qids) > 0 && w.Echo > 0 {
		echo(comps, docs, cands, rels, w.Echo, sc)
	}
	// A question about what one of an object's events says is no question
	// about where the object stands: neither the status share nor the story's
	// threads apply to it. One asking for what is newest ("when is the
	// drop-off of RV-77 now?") asks where it stands, whatever it asks for.
	still := stillCues.in(q.normalised())
	aboutEvent := len(qids) > 0 && !q.Intent && !notYetCues.in(q.normalised()) && (describes || asksWhatAnEventSays(qterms, asked, comps, docs, cands))
	if (w.Thread > 0 || w.ThreadFirst > 0) && !aboutEvent {
		// the clauses of the thing a "what …"/"which …" question asks for: a
		// later event inherits only when it names the thing or says the thing
		// is another now ("GM-330 upgraded to Premium" for "what plan is GM-330 on?", not
		// "popcorn added to CN-7781" for "what seats do I have for CN-7781?")
		var noun uint64
		if len(asked) == 0 && w.Lexical > 0 {
			noun = askedNoun(q.normalised().words, qterms) | askedCJKNoun(q.normalised().norm, qterms)
		}
		how := inheritance{still: still, newest: q.Intent,
			costs:     !still && len(asked) == 1 && asked[0].term == MoneyTerm && asksWhatItCosts(q.normalised()),
			when:      !still && !q.Intent && len(asked) == 1 && asked[0].term == TimeTerm,
			elsewhere: newAnotherDay(dayMask(daysNamed(q.normalised())), cands)}
		inherit(rels, comps, cands, docs, w, byClause, clauses, noun, how)
	}
	f := Fusion{Similarity: wS, Lexical: wL, Recency: w.Recency, Identifier: w.Identifier, Expanded: expanded, Object: object}
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
		if f.AsksNewest && !slices.ContainsFunc(own, func(t string) bool { return !newsWord(t) }) {
			// "what is the latest on CV-33019?" and nothing else in the window
			// of its kind: the window is the object's story, and its newest
			// event the answer whether it names the object or not, unless it
			// names another object instead (a policy's renewal quote is no
			// news of claim CL-50317); naming it counts IdentifierStory
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
	r, wI := f.Recency, f.Identifier
	// the share of its recency an event keeps when it does not state what is
	// asked: none for a question asking for the newest (as it inherits
	// nothing: inherit), Weights.Unstated for any other asking for a type;
	// none either, in an object's story, for an event naming another object
	// (story holds only for a question asking the newest)
	keep, scaled := 0.0, f.AsksNewest
	if !f.AsksNewest && len(asked) > 0 && w.Unstated > 0 && w.Unstated < 1 {
		keep, scaled = w.Unstated, true
	}
	for i := range cands {
		c := &comps[i]
		if scaled && !statesAsked(&docs[i], byClause) || story && c.Identifier == 0 && namesAnObject(&docs[i]) {
			c.Recency *= keep
		}
		if f.Change > 0 && (saysChanged(&docs[i]) || f.AsksNow && statesCurrent(&docs[i])) {
			c.Change = 1
		}
		scores[i] = (1-r)*(1+f.Change*c.Change)*max(rels[i], c.Thread) + r*c.Recency*c.Source + wI*c.Identifier*c.Source
	}
	return scores, comps, f
}

var timeHash = termHash(TimeTerm)

// relativeTimes marks, for a question asking when, the events whose only
// time is one counted from the question's thing: "no eating 1 hour after the
// filling" says when not to eat, not when the filling is, and "balance due 14
// days before pick-up" when the balance is due, not the pick-up. Nil when no
// event is such.
func relativeTimes(own []string, cands []Candidate, docs []doc) []bool {
	var out []bool
	for i := range docs {
		if docs[i].count(timeHash) == 0 {
			continue
		}
		norm := normalise(cands[i].Text)
		if !strings.Contains(norm, "before") && !strings.Contains(norm, "after") && !strings.Contains(norm, "prior") {
			continue
		}
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
func countedFrom(norm string, words []string) bool {
	ms := relativeTime.FindAllStringSubmatchIndex(norm, -1)
	if len(ms) == 0 {
		return false
	}
	named := false
	rest := []byte(norm)
	for _, m := range ms {
		after := wordsOf(norm[m[4]:m[5]])
		for _, w := range after[:min(4, len(after))] {
			if slices.Contains(words, stem(w)) {
				named = true
			}
		}
		for k := m[2]; k < m[3]; k++ {
			rest[k] = ' ' // (the length, which the time was)
		}
	}
	return named && !statesTime(joinedCJK([]rune(string(rest))))
}

// relativeTime is a length before or after a thing, and what follows (2 hours
// before the filling; 14 days prior to departure).
var relativeTime = regexp.MustCompile(`(\d+\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?))\s+(?:before|after|prior to)\s+([^,;:.]*)`)

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

// newsWord reports a word of a question that asks only for what is new
// ("what is the latest on …?", "any update on …?", "… 最新进展？"): one of
// newsStems, or Chinese characters all of which are news words' (the
// analysis's characters and pairs of 最新进展: 最, 新进, …).
func newsWord(t string) bool {
	if newsStems[t] {
		return true
	}
	return strings.IndexFunc(t, isCJK) >= 0 && !strings.ContainsFunc(t, func(r rune) bool { return !strings.ContainsRune(newsCJK, r) })
}

var newsStems = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"just", "latest", "newest", "recent", "recently", "lately", "current", "currently", "now", "update",
		"updates", "news", "new", "anything", "status"} {
		m[stem(w)] = true
	}
	return m
}()

// newsCJK are the characters of the Chinese news words: 最新, 进展, 现在, 目前, 最近.
const newsCJK = "最新进展现在目前近"

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
// wherever the story has gone since). "has O-9210 arrived?" and "is RA-3301
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
	}
	return false
}

// link gives the events that name the question's object through another
// identifier a share of the identifier score: "Parcel 1Z88AA0312 for order
// O-4410 handed to the carrier" ties the parcel to the order, so "Parcel
// 1Z88AA0312 delivered" is about O-4410 too, and "where is O-4410?" is
// answered by it. One step only, not through an amount, and not through an
// identifier that every candidate names (the customer's own, which names the
// entity).
func link(comps []Components, docs []doc, qids []ident, share float64) {
	var via []ident // the other identifiers of the events naming the object
	for i := range docs {
		if comps[i].Identifier == 0 {
			continue
		}
		for k := range int(docs[i].nOwn) {
			id := docs[i].own(k)
			if id.amount || len(via) == 64 || slices.Contains(via, id) ||
				slices.ContainsFunc(qids, func(q ident) bool { return sameObject(q, id) || q.family != 0 && q.family == id.family }) {
				// (the same amount is no link: two things may cost the same;
				// nor another object of the asked one's kind: "Paid 184.00 EUR
				// for PR-5501 and PR-5502" does not make PR-5501's events PR-5502's)
				continue
			}
			via = append(via, id)
		}
	}
	if len(via) == 0 {
		return
	}
	// One pass: which of them each event names, and how many events name each.
	masks := make([]uint64, len(docs))
	counts := make([]int, len(via))
	for j := range docs {
		for k, id := range via {
			if docs[j].names(id) {
				masks[j] |= 1 << k
				counts[k]++
			}
		}
	}
	var entity uint64 // the identifiers every candidate names
	for k, n := range counts {
		if len(docs) > 2 && n == len(docs) {
			entity |= 1 << k
		}
	}
	for j := range docs {
		if comps[j].Identifier == 0 && masks[j]&^entity != 0 && !namesKin(&docs[j], qids) {
			comps[j].Identifier = share
		}
	}
}

// namesKin reports an event naming another object of an asked one's kind
// (INV-1041 for INV-1040, API key aklive7c1 for aklive9f2): it is that
// object's, whatever else it shares with the asked one's events.
func namesKin(d *doc, qids []ident) bool {
	for k := range int(d.nOwn) {
		id := d.own(k)
		if id.family != 0 && slices.ContainsFunc(qids, func(q ident) bool { return q.family == id.family && !sameObject(q, id) }) {
			return true
		}
	}
	return false
}

// replies gives the reply to a line that only asks (a customer's question in
// a chat, QuestionTerm) the match of the question it answers: "Chat
// (customer): the charger gets very hot, is that normal?" matches "what did you
// say about the hot charger?" by its words, and counts a fifth (asking); "Chat
// (agent): please stop using it, we will send a replacement" after it, of the
// same source within replyWithin, is what was said about it. The reply inherits
// share (Weights.Thread) of the question's match as it would count whole: the
// reply answers what was asked, which may be more than the question asks now.
func replies(questions []int, rels []float64, comps []Components, cands []Candidate, docs []doc, asking, share float64) {
	// the most relevant few questions are followed (O(n) per request, as inherit)
	const followed = 3
	top := make([]int, 0, followed+1)
	for _, i := range questions {
		if rels[i] > 0 {
			top = keepTop(top, i, rels, followed)
		}
	}
	for _, i := range top {
		next := -1
		for j := range cands {
			if j == i || !cands[j].Time.After(cands[i].Time) || cands[j].Time.Sub(cands[i].Time) > replyWithin ||
				next >= 0 && !cands[j].Time.Before(cands[next].Time) || cands[j].Source != cands[i].Source ||
				docs[j].count(questionHash) > 0 {
				continue
			}
			next = j
		}
		if next >= 0 {
			comps[next].Thread = max(comps[next].Thread, share*rels[i]/asking)
		}
	}
}

// replyWithin is how soon after a question a line of its source is its reply.
const replyWithin = 15 * time.Minute

// echo gives an event that names no identifier of its own, but repeats a
// word that only the events naming the question's object use among the
// candidates, a share of the identifier score: "Jazz Night on 15 March
// postponed" is about "Tickets for order EV-4410: 2 x Jazz Night, 15 March"
// when no other event says "jazz". Not a line that only offers. When other
// events use the word too, the event belongs to the story its words come from
// (the earlier event naming an identifier that uses most of them).
func echo(comps []Components, docs []doc, cands []Candidate, rels []float64, share float64, sc *scratch) {
	// the story's words: its events' storyWords (a word given twice is found
	// at its first place: newTermTable)
	storyWords := sc.storyWords[:0]
	defer func() { sc.storyWords = storyWords[:0] }() // (grown by append: kept for the next)
	story := 0
	for i := range docs {
		if comps[i].Identifier < 1 {
			continue
		}
		story++
		d := &docs[i]
		for _, h := range d.terms() {
			if d.storyWord(h) {
				storyWords = append(storyWords, h)
			}
		}
	}
	if story == 0 || story == len(docs) || len(storyWords) == 0 {
		return
	}
	tab := newTermTable(storyWords)
	others := make([]int32, len(storyWords)) // how many events outside the story use each
	uses := sc.uses[:0]                      // the story's words each eligible event uses
	named := sc.named[:0]                    // the events naming an identifier of their own
	defer func() { sc.uses, sc.named = uses[:0], named[:0] }()
	for i := range docs {
		own := namesOwnID(&docs[i])
		if own {
			named = append(named, namedEvent{int32(i), cands[i].Time.UnixNano()})
		}
		if comps[i].Identifier >= 1 {
			continue
		}
		d := &docs[i]
		eligible := comps[i].Identifier == 0 && !own && d.count(offerHash) == 0
		for _, h := range d.terms() {
			if k := tab.find(h); k >= 0 {
				others[k]++
				if eligible {
					uses = append(uses, storyUse{int32(i), k})
				}
			}
		}
	}
	// the most relevant few events using a story word that other events use
	// too (as inherit, a bound on the cost: O(n) per request)
	const followed = 2
	shared := make([]int32, 0, followed+1)
	for _, u := range uses {
		if others[u.word] == 1 {
			comps[u.doc].Identifier = share
			continue
		}
		if !slices.Contains(shared, u.doc) {
			shared = keepTop(shared, u.doc, rels, followed)
		}
	}
	// An event whose story words other events use too belongs to the story
	// its words come from (of the most relevant few such events): of the
	// earlier events naming an identifier, the one using most of those words,
	// the latest of equals (a ride ends after its own start).
	// "Ride ended: 13 minutes, 4.15 EUR" comes after "Ride started: scooter
	// SC-7741" and before "Ride started: scooter SC-7790": it is SC-7741's ride.
	var words []uint64
	for _, j := range shared {
		if comps[j].Identifier > 0 {
			continue
		}
		words = words[:0]
		for _, u := range uses {
			if u.doc == j {
				words = append(words, storyWords[u.word])
			}
		}
		from, most, at := -1, 0, int64(0)
		tj := cands[j].Time.UnixNano()
		for _, e := range named {
			if e.t >= tj {
				continue
			}
			n := 0
			for _, h := range words {
				if docs[e.i].count(h) > 0 {
					n++
				}
			}
			if n > most || n == most && n > 0 && e.t > at {
				from, most, at = int(e.i), n, e.t
			}
		}
		if from >= 0 && comps[from].Identifier >= 1 {
			comps[j].Identifier = share
		}
	}
}

// aboutASibling returns the events about another object of the kind of the
// one a question names by its words alone: "why are the flyers not printed
// yet?" names no identifier, but "flyers" is said where PR-7701 was ordered
// and by no event on PR-7702, so "PR-7702 printed and packed" is about another
// order. A word of the question (terms: its own, not its expansions) names an
// object when one of the most relevant few events introduces the object (it
// is the first naming its identifier, and another object of its kind is in
// the window) and uses the word, and no event on another object of its kind
// does; when the question's words name one object so, the events naming a
// sibling but not it, and none of those words, are about the sibling; they
// are returned with the object and the event introducing it. As inherit,
// only the most relevant few events are followed: O(n) per request.
func aboutASibling(terms []string, rels []float64, comps []Components, docs []doc, cands []Candidate) (siblings []int, intro int, object ident) {
	top := mostRelevant(rels)
	if !slices.ContainsFunc(top, func(i int) bool { return namesOwnID(&docs[i]) }) {
		return nil, -1, ident{}
	}
	var words []uint64 // the question's words that may name an object
	for _, t := range terms {
		// a word (not a number, nor one Chinese character) that is no answer
		// type's term nor a place in an order ("next", "second")
		if h := termHash(t); !isAnswerTerm(h) && !strings.ContainsAny(t, "0123456789") && !positional[t] &&
			(strings.IndexFunc(t, isCJK) < 0 || utf8.RuneCountInString(t) >= 2) {
			words = append(words, h)
		}
	}
	type story struct {
		id    ident
		intro int
	}
	var objects []story // those the top events introduce using a word of the question, each with a sibling in the window
	for _, i := range top {
		if !slices.ContainsFunc(words, func(h uint64) bool { return docs[i].count(h) > 0 }) {
			continue
		}
		for k := range int(docs[i].nOwn) {
			if id := docs[i].own(k); !id.amount && id.family != 0 && kinIn(docs, []ident{id}) && introduces(i, id, docs, cands) {
				objects = append(objects, story{id, i})
			}
		}
	}
	if len(objects) == 0 {
		return nil, -1, ident{}
	}
	var x []ident     // the object the question's words name
	var said []uint64 // those words
	for _, h := range words {
		var by []ident // the objects whose introduction uses the word
		at := -1       // the introduction, when by holds one
		for _, o := range objects {
			if docs[o.intro].count(h) > 0 && !slices.ContainsFunc(by, func(id ident) bool { return id.full == o.id.full }) {
				by, at = append(by, o.id), o.intro
			}
		}
		if len(by) != 1 || saidOfAnother(h, by, docs, comps) {
			continue // said where two objects were introduced, or on a sibling too
		}
		if x != nil && x[0].full != by[0].full {
			return nil, -1, ident{} // the words name two objects
		}
		x, intro = by, at
		said = append(said, h)
	}
	if x == nil {
		return nil, -1, ident{}
	}
	for i := range docs {
		d := &docs[i]
		if !d.names(x[0]) && namesKin(d, x) && !slices.ContainsFunc(said, func(h uint64) bool { return d.count(h) > 0 }) {
			siblings = append(siblings, i)
		}
	}
	return siblings, intro, x[0]
}

// idText is the identifier of text whose hash is x's, as the analysis writes
// it ("pr7701"; "" when none is).
func idText(text string, x ident) string {
	for _, id := range Analyze(text).IDs {
		if identify(id).full == x.full {
			return id
		}
	}
	return ""
}

// kinIn reports an event names another object of x's kind.
func kinIn(docs []doc, x []ident) bool {
	for i := range docs {
		if namesKin(&docs[i], x) {
			return true
		}
	}
	return false
}

// introduces reports that no event before the i-th names id.
func introduces(i int, id ident, docs []doc, cands []Candidate) bool {
	for j := range docs {
		if j != i && cands[j].Time.Before(cands[i].Time) && docs[j].names(id) {
			return false
		}
	}
	return true
}

// saidOfAnother reports an event on another object of x's kind (x: one
// identifier) uses the word of hash h, a word of the question (an event
// using it has a lexical score).
func saidOfAnother(h uint64, x []ident, docs []doc, comps []Components) bool {
	for i := range docs {
		if d := &docs[i]; comps[i].Lexical > 0 && d.count(h) > 0 && !d.names(x[0]) && namesKin(d, x) {
			return true
		}
	}
	return false
}

// contested reports that the question's identifiers tell events apart: an
// event names another object of one of their kinds (INV-1041 for INV-1040:
// the same prefix, another number; for a bare number, the kind of the
// identifiers it matches, O-5001 for "order 5001"), or one of them is of no
// kind (an e-mail address, a plate number, an amount), which is always taken
// as telling apart.
func contested(qids []ident, docs []doc) bool {
	for _, q := range qids {
		if q.amount {
			return true // (an amount is of no kind)
		}
		var kinds [4]uint64
		n := 0
		if q.family != 0 {
			kinds[0], n = q.family, 1
		}
		for i := range docs {
			for k := range int(docs[i].nOwn) {
				id := docs[i].own(k)
				if id.family != 0 && n < len(kinds) && sameObject(q, id) && !slices.Contains(kinds[:n], id.family) {
					kinds[n] = id.family
					n++
				}
			}
		}
		if n == 0 {
			return true
		}
		for i := range docs {
			for k := range int(docs[i].nOwn) {
				id := docs[i].own(k)
				if id.family != 0 && slices.Contains(kinds[:n], id.family) && !sameObject(q, id) {
					return true
				}
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
// many recipes are in MK-5520?", "what items are in KT-771?"); so
// does one that ends in "about" ("what was INC-2291 about?"; not "what about
// my order?"), and a "what" question that ends in "for" ("what was PR-2042
// for?": what it was bought or billed for).
var descriptionCues = newCueSet([]string{"what's in", "what is in", "what was in", "are in", "were in", "what's on", "what is on", "what was on",
	"contain", "contains", "included in", "里面有什么", "包括什么", "什么内容",
	"点的什么", "点了什么", "买的什么", "买了什么", "订的什么", "订了什么", "寄的什么", "寄了什么"})

func asksDescription(q text) bool {
	n := len(q.words)
	return descriptionCues.in(q) || n > 2 && (q.words[n-1] == "about" || q.words[n-1] == "for" && q.words[0] == "what")
}

// asksWhatItIs reports a question that names its objects and asks nothing
// more than what they are ("what was GR-6611?", "what's INV-7731?") or mean
// ("what does E21 mean?", "JD-3302 是什么东西？"): the event introducing one says it, where the later
// events of a story it names (the repair that error E21 opened) only name it
// through another identifier (link). own are its terms without its
// identifiers.
func asksWhatItIs(q text, own []string) bool {
	if cjk := strings.Map(func(r rune) rune {
		if isCJK(r) {
			return r
		}
		return -1
	}, q.norm); cjkWhatItIs[cjk] {
		return true // "JD-3302 是什么东西？", "E21 是什么意思": its Chinese is nothing more
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

// cjkWhatItIs are the Chinese questions asking what a thing is or means, and
// nothing more, once its identifiers are left out.
var cjkWhatItIs = map[string]bool{"是什么": true, "是什么东西": true, "是啥": true, "是啥东西": true, "什么东西": true,
	"是什么来着": true, "是什么意思": true, "什么意思": true, "指什么": true, "代表什么": true}

// meaningStems are the words of a question asking what its object means.
var meaningStems = map[string]bool{stem("mean"): true, stem("meant"): true, stem("stand"): true, stem("signify"): true}

var beWords = map[string]bool{"is": true, "s": true, "was": true, "are": true, "were": true}

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
	if priceCues.in(q) {
		return true
	}
	if i := strings.Index(q.norm, "多少钱"); i >= 0 {
		before := []rune(q.norm[:i]) // 退多少钱, 付了多少钱: money moving
		return !slices.ContainsFunc(before[max(0, len(before)-2):], func(r rune) bool { return strings.ContainsRune(cjkMoneyMoves, r) })
	}
	return false
}

// priceCues ask what a thing costs (as words: "costume" is none).
var priceCues = newCueSet([]string{"how much is", "how much was", "how much are", "how much were", "how much does", "price", "cost",
	// what a thing's sum is ("押金是多少？", a credit line: "额度多少？")
	"是多少", "额度", "限额", "credit limit"})

// moneyMoves are the words of a question asking how much money moved, and
// cjkMoneyMoves the Chinese verbs before 多少钱 that say it.
var moneyMoves = map[string]bool{"left": true, "back": true, "receive": true, "received": true, "refund": true, "refunded": true,
	"owe": true, "pay": true, "paid": true, "charged": true, "get": true, "got": true, "spent": true, "spend": true}

const cjkMoneyMoves = "退付扣花还交赔补返收欠"

var priceStems = map[string]bool{stem("much"): true, stem("cost"): true, stem("price"): true, stem("total"): true,
	stem("monthly"): true, stem("fee"): true, stem("amount"): true,
	// Chinese, as the analysis gives it (characters and their pairs): 多少钱, 价格, 一共
	"多": true, "少": true, "钱": true, "多少": true, "少钱": true, "价": true, "格": true, "价格": true, "价钱": true,
	"一": true, "共": true, "一共": true}

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

// namesOwnID reports an identifier (not an amount) in the event.
func namesOwnID(d *doc) bool {
	for k := range int(d.nOwn) {
		if !d.own(k).amount {
			return true
		}
	}
	return false
}

var currencyHashes = func() map[uint64]bool {
	m := map[uint64]bool{}
	for c := range currencyCodes {
		m[termHash(stem(c))] = true
	}
	return m
}()

// storyWord reports that the term h of d says what d is about, so that two
// events sharing it may tell one story: not an identifier or an amount (an
// identifier tells a story by itself; two prices may be equal), a currency or
// the term of an answer type, an offer or a question.
func (d *doc) storyWord(h uint64) bool {
	return !isAnswerTerm(h) && !d.hasID(h) && !currencyHashes[h]
}

// isAnswerTerm reports the term of an answer type, of an offer or of a line
// that only asks: none says what an event is about.
func isAnswerTerm(h uint64) bool {
	return h == offerHash || h == questionHash || slices.ContainsFunc(answerTypes, func(t *answerType) bool { return t.hash == h })
}

// statesAll reports that the event states what the question asks for: each
// of its answer types (a time for "when", an amount for "how much").
func statesAll(d *doc, asked []*answerType) bool {
	for _, t := range asked {
		if d.count(t.hash) == 0 && (t.alt == 0 || d.count(t.alt) == 0) {
			return false
		}
	}
	return true
}

// statesAsked reports that the event states everything one of the
// question's clauses asks for (askedByClause): "when will I be charged?" asks
// an amount and a time at once; "how many seats do we have and what do we
// pay now?" a count in one clause and an amount in the other, and an event
// stating either answers a part.
func statesAsked(d *doc, byClause [][]*answerType) bool {
	return len(byClause) == 0 || slices.ContainsFunc(byClause, func(asked []*answerType) bool { return statesAll(d, asked) })
}

// askedByClause are the answer types asked, by the question's clauses (its
// parts between commas, semicolons, question marks and "and") when two or
// more of them ask for some; else all of them as one clause.
func askedByClause(q text, asked []*answerType) [][]*answerType {
	if len(asked) == 0 {
		return nil
	}
	if len(asked) == 1 {
		return [][]*answerType{asked}
	}
	var byClause [][]*answerType
	seen := 0
	for _, part := range clauseBreaks.Split(q.norm, -1) {
		pt := textOf(part)
		var in []*answerType
		for k, t := range asked {
			if t.asked(pt) {
				in = append(in, t)
				seen |= 1 << k
			}
		}
		if len(in) > 0 {
			byClause = append(byClause, in)
		}
	}
	if len(byClause) < 2 || seen != 1<<len(asked)-1 {
		return [][]*answerType{asked} // one clause, or a cue across two
	}
	return byClause
}

// clauseBreaks split a question into its clauses (the text is normalised:
// "，" and "？" are "," and "?").
var clauseBreaks = regexp.MustCompile(`[,;?]|\band\b|然后|还有|另外`)

// sameObject reports that two identifiers name one object: the same one, or
// a bare number and the same number behind a prefix.
func sameObject(a, b ident) bool {
	return a.full == b.full || a.bare && a.full == b.num || b.bare && b.full == a.num
}

// inheritance is what a question says of what a story's later events inherit
// (inherit).
type inheritance struct {
	still bool // it asks whether something still holds or where a thing stands (stillCues)
	costs bool // it asks what a thing costs (asksWhatItCosts)
	when  bool // it asks only when or how long, and not for the newest
	// it asks for the newest ("which hall is Northern Lights in now?"): a
	// later event naming the thing asked for (noun) that says it changed
	// ("show moved to Hall 6") inherits all of the first's match, as one
	// saying a price changed does for a price question
	newest bool
	// the events about another day's thing than the days it names
	// (aboutAnotherDay): a later one inherits nothing
	elsewhere *anotherDay
}

// inherit gives each event the relevance it inherits from the earlier events
// of its story. Events that share an identifier tell one story: the first
// introduces the object ("Order O-7001 placed: tent …"), the later ones report
// where it stands ("O-7001 delivered") and supersede each other on recency. A
// question that matches how the story began ("has the tent arrived?") asks
// where it stands, so the first event passes on the larger share (wF). Any
// other earlier event passes on less (wT): a later event that matches by
// itself ("O-7001 paid" for "was O-7001 paid?") is more likely the answer
// than the events after it. A later event that does not state what the
// question asks for (a time for "when", asked) inherits nothing: it cannot
// answer it; one that states it is the story's newer word on it, and inherits
// all of the first's (wA). So does one that matches a word of the question
// (one of its BM25 clauses, clauses) that the first does not: for "热水器修好了吗？"
// the first says 热水器 and "BX-771 已修好" the 修好 asked about; together they
// are the story's answer, and the newer tells where it stands. So does every
// later event when the question asks whether something still holds or has
// happened by now (still): "is the minivan still booked?", "is the heating
// fixed yet?" ask where the story stands, not how it began. But when the
// question asks what a thing costs (costs, asksWhatItCosts), a later amount
// on it is a fee or a payment, not its price: it inherits the first's share
// (wF), unless it says the price changed; and when it asks only when (or how
// long) the thing is, a later amount on a thing introduced with its price is
// a payment on it ("Balance of 880.00 EUR due by 12 April" for "when do we
// arrive in Lisbon?"), whose date is the payment's: it inherits wT, unless it
// says something changed. Nor does a later event about another day's thing
// than the day the question names (aboutAnotherDay): for "when is my
// Thursday room?", "Tuesday booking cancelled: …; moved you to room Boreal".
func inherit(rels []float64, comps []Components, cands []Candidate, docs []doc, w Weights, asked [][]*answerType, clauses []uint64, noun uint64, how inheritance) {
	top := mostRelevant(rels)
	firstShare := w.ThreadFirst // what a later event inherits of the story's first
	if (len(asked) > 0 || how.still) && !how.costs {
		// (with asked types, an event inherits only when it states each of
		// them; a later amount is no price, unless it says the price changed:
		// below)
		firstShare = w.ThreadAnswer
	}
	var story []int // the candidates naming one identifier: the story it tells
	for _, i := range top {
		for k := range int(docs[i].nOwn) {
			q := docs[i].own(k)
			story = story[:0]
			for j := range docs {
				if docs[j].names(q) {
					story = append(story, j)
				}
			}
			// An identifier that every candidate names (the customer's account
			// number, their e-mail address) names the entity, not one story in it.
			if len(docs) > 2 && len(story) == len(docs) {
				continue
			}
			first := i
			for _, j := range story {
				if cands[j].Time.Before(cands[first].Time) {
					first = j
				}
			}
			for _, j := range story {
				if !statesAsked(&docs[j], asked) || noun != 0 && (j >= len(clauses) || clauses[j]&noun == 0) && !saysReplaced(&docs[j]) ||
					how.elsewhere.of(j) {
					continue
				}
				if cands[j].Time.After(cands[first].Time) {
					share := firstShare
					if (how.costs || how.newest && noun != 0) && saysChanged(&docs[j]) {
						share = w.ThreadAnswer
					}
					if how.when && docs[j].count(moneyHash) > 0 && docs[first].count(moneyHash) > 0 && !saysChanged(&docs[j]) {
						share = min(share, w.Thread) // (a payment on the thing: its date is the payment's)
					}
					if j < len(clauses) && clauses[j]&^clauses[first] != 0 {
						share = w.ThreadAnswer
					}
					comps[j].Thread = max(comps[j].Thread, share*rels[first])
				}
				if cands[j].Time.After(cands[i].Time) {
					comps[j].Thread = max(comps[j].Thread, w.Thread*rels[i])
				}
			}
		}
	}
	if (len(asked) > 0 || noun != 0) && len(top) > 0 {
		supersede(top[0], rels, comps, cands, docs, w, asked, clauses, noun, how.elsewhere)
	}
}

// supersede lets a later event change what the most relevant one (i) says
// where no identifier tells their story: one that shares a word with it,
// says it changes something ("moved", "改到") and states what the question
// asks (or names the thing it asks for, noun: "which room …?") is its newer
// word, and inherits all of i's match (wA). For "when is
// Bruno's vaccination?", "Bruno's appointment moved to Saturday 09:00" after
// "Appointment for the dog Bruno: vaccination on Friday 11:00". (inherit does
// the same for a story an identifier tells, with or without such a word.)
func supersede(i int, rels []float64, comps []Components, cands []Candidate, docs []doc, w Weights, asked [][]*answerType, clauses []uint64, noun uint64, elsewhere *anotherDay) {
	names := func(j int) bool { return noun == 0 || j < len(clauses) && clauses[j]&noun != 0 }
	if rels[i] <= 0 || namesOwnID(&docs[i]) || !statesAsked(&docs[i], asked) || !names(i) {
		return
	}
	// asking who, a change is a change of who only when it says the thing is
	// another's now ("changed from Ana to Marek", 换成): "刘师傅 请假，练车 改到
	// 周日" moves the time, not the teacher
	asksWho := slices.ContainsFunc(asked, func(c []*answerType) bool {
		return slices.ContainsFunc(c, func(t *answerType) bool { return t.term == PersonTerm })
	})
	var chars []uint64 // (cjkChars of i, once one is needed)
	for j := range docs {
		d := &docs[j]
		if !cands[j].Time.After(cands[i].Time) || namesOwnID(d) || d.count(offerHash) > 0 || !statesAsked(d, asked) ||
			!saysChanged(d) || !names(j) || elsewhere.of(j) || asksWho && !saysReplaced(d) {
			continue
		}
		if chars == nil {
			chars = cjkChars(cands[i].Text)
		}
		if slices.ContainsFunc(d.terms(), func(h uint64) bool { return d.storyWord(h) && docs[i].count(h) > 0 && !slices.Contains(chars, h) }) {
			comps[j].Thread = max(comps[j].Thread, w.ThreadAnswer*rels[i])
		}
	}
}

// cjkChars are the hashes of a text's Chinese characters as terms of their
// own: a character alone is no word two events share ("下次 加强针" and "复查
// 改到 下周四" tell two stories), its pairs are.
func cjkChars(text string) []uint64 {
	out := []uint64{}
	for _, r := range normalise(text) {
		if isCJK(r) {
			if h := termHash(string(r)); !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// askedNoun is the clauses (bits of the question's first 64 words, terms)
// of the thing a question asks for by naming it after "what" or "which":
// "what seat do I have going back?", "which gate for the outbound flight?".
// An event on the same object that does not name it cannot say which one it
// is, so it inherits nothing (as for an answer type asked), unless it says
// the thing is another now (saysReplaced): "GM-330 upgraded to Premium" for "what
// plan is GM-330 on?", where "popcorn added to CN-7781" says nothing of "what
// seats do I have for CN-7781?". The noun is one or
// two words WordNet knows as a noun, before an auxiliary, a pronoun or a
// preposition, or ending the question ("what happened to …" names none:
// "happened" is no noun).
func askedNoun(words, terms []string) uint64 {
	for k, w := range words {
		if w != "what" && w != "which" {
			continue
		}
		n := k + 1
		if n+1 < len(words) && (words[n] == "kind" || words[n] == "type" || words[n] == "sort") && words[n+1] == "of" {
			n += 2
		}
		var bits uint64
		for m := n; m < len(words) && m < n+3; m++ {
			if nounFollowers[words[m]] {
				if m > n {
					return bits
				}
				break
			}
			if m == n+2 || stopWords[words[m]] || strings.HasSuffix(words[m], "ed") || !knowsAs(words[m], 'n') {
				break
			}
			j := slices.Index(terms, stem(words[m]))
			if j < 0 || j >= 64 {
				break
			}
			bits |= 1 << j
			if m+1 == len(words) {
				return bits // (the question ends with it: "CI-5520 what cover?", "which gate?")
			}
		}
	}
	return 0
}

// askedCJKNoun is askedNoun for a Chinese question: the two characters after
// 哪个 (哪家, 哪间, …) or 什么 name the thing it asks for ("我坐哪个车厢？",
// "是什么车厢？": 车厢), unless they name no thing (什么时候, 出什么事了).
func askedCJKNoun(norm string, terms []string) uint64 {
	rs := []rune(norm)
	for k := 0; k+3 < len(rs); k++ {
		which := rs[k] == '哪' && strings.ContainsRune(cjkWhichMeasures, rs[k+1])
		what := rs[k] == '什' && rs[k+1] == '么' && !strings.Contains(cjkNoNouns, string(rs[k+2:k+4]))
		if !which && !what || !isCJK(rs[k+2]) || !isCJK(rs[k+3]) {
			continue
		}
		if j := slices.Index(terms, string(rs[k+2:k+4])); j >= 0 && j < 64 {
			return 1 << j
		}
	}
	return 0
}

// cjkNoNouns are what follows 什么 and names no thing ("什么时候", "什么意思").
const cjkNoNouns = "时候 时间 意思 原因 情况 问题 事情 事了 事儿 东西 地方 样的"

// cjkWhichMeasures are the measure words after 哪 that make "which …".
const cjkWhichMeasures = "个家间张条趟班位辆座"

// nounFollowers end the noun a "what …" question asks for.
var nounFollowers = map[string]bool{"is": true, "are": true, "was": true, "were": true, "am": true, "did": true, "does": true,
	"do": true, "has": true, "have": true, "had": true, "will": true, "would": true, "can": true, "could": true, "should": true,
	"i": true, "we": true, "you": true, "they": true, "my": true, "for": true, "on": true, "in": true, "at": true, "of": true,
	"to": true, "from": true, "with": true}

// saysChanged reports an event saying that something changed (changeHashes):
// "moved to Thursday", "seat changed to 21C", 改期.
func saysChanged(d *doc) bool { return hasAny(d, changeHashes) }

// saysReplaced reports an event saying that a thing is another now
// (replacedHashes): "upgraded to Premium", "switched to OS499", 换成.
func saysReplaced(d *doc) bool { return hasAny(d, replacedHashes) }

// statesCurrent reports an event stating a thing's new or current value
// ("New installation date: 10 June", "total now 342 EUR": NowTerm) or that
// it is another now (saysReplaced: "replaces INV-66310").
func statesCurrent(d *doc) bool { return saysReplaced(d) || hasAny(d, currentHashes) }

var currentHashes = []uint64{termHash("new"), termHash(NowTerm)}

// hasAny reports that the event has one of the terms hs.
func hasAny(d *doc, hs []uint64) bool {
	return slices.ContainsFunc(hs, func(h uint64) bool { return d.count(h) > 0 })
}

// replacedHashes are the terms of words saying that a thing is another now:
// what a later event says of the thing a question names ("what plan …?")
// without naming it. Not a change of time ("moved", "delayed"), which says
// nothing of which seat or which plan.
var replacedHashes = func() (hs []uint64) {
	for _, w := range []string{"changed", "upgraded", "downgraded", "switched", "replaced", "swapped", "converted", "instead",
		"换成", "改为", "改成", "更换", "升级", "降级"} {
		hs = append(hs, termHash(stem(w)))
	}
	return hs
}()

// changeWords say that something changed, and changeHashes are their terms.
var changeWords = []string{"moved", "changed", "rescheduled", "postponed", "rebooked", "updated", "adjusted", "delayed", "instead", "renewed", "extended",
	"raised", "increased", "reduced", "lowered", "decreased",
	"改期", "改到", "改为", "改成", "换成", "调整", "更改", "修改", "变更", "推迟", "提前", "延期", "续借", "延长"}

var changeHashes = func() (hs []uint64) {
	for _, w := range changeWords {
		hs = append(hs, termHash(stem(w))) // (a Chinese word's pair is its term)
	}
	return hs
}()

// mostRelevant are the few most relevant candidates (followed), most
// relevant first: the ones whose stories inherit and aboutASibling follow.
// Following no more bounds their cost at O(n) per request, and a story the
// question does not reach has little to pass on.
func mostRelevant(rels []float64) []int {
	const followed = 3
	top := make([]int, 0, followed+1)
	for i := range rels {
		if rels[i] > 0 {
			top = keepTop(top, i, rels, followed)
		}
	}
	return top
}

// keepTop inserts candidate i into top, the at most n most relevant so far
// (by rels, the most relevant first; an equal one after those before it).
func keepTop[T int | int32](top []T, i T, rels []float64, n int) []T {
	k := len(top)
	for k > 0 && rels[top[k-1]] < rels[i] {
		k--
	}
	if k >= n {
		return top
	}
	top = append(top, 0)
	copy(top[k+1:], top[k:])
	top[k] = i
	return top[:min(len(top), n)]
}

// lexQuery is BM25's query: the question's words, each a clause of its own,
// and what expansions bring (a thesaurus's terms and phrases, WordNet's
// synonyms). What a word brings is blended into the word's clause, as
// Lucene's SynonymQuery does: its frequency counts, by its weight, as the
// word's, and the clause's IDF is that of the events having either. So an
// event saying "refund" and "money back" gains little over one saying
// "refund" twice, while a rare synonym alone would outweigh the common word
// (by its IDF); what no word of the question brought (a misspelt word's
// respellings, the amount, an acronym) is a clause of its own.
type lexQuery struct {
	terms  []string
	hashes []uint64 // termHash of each term
	// weights are a clause's weight for its own term (of < 0), and a blended
	// term's share of its clause's frequency.
	weights []float64
	of      []int // the clause (a term's index) a term is blended into; -1: its own
	// synth are terms no analysis has (thesaurus phrases, AcronymTerm), with
	// their frequencies per candidate; done puts them last.
	synth       []synthTerm
	phraseWords []string // the words of the phrases brought
	words       int      // the question's own words: terms[:words]
	// relative marks the candidates whose TimeTerm counts for nothing
	// (relativeTimes); nil: none.
	relative []bool
}

type synthTerm struct {
	term   string
	weight float64
	of     int
	tf     []int32
	phrase []string // a thesaurus phrase's terms
}

// newLexQuery makes a clause of each of the question's words, a Chinese
// character alone at weight char (its pairs at 1).
func newLexQuery(words []string, char float64) *lexQuery {
	n := len(words) + 8 // room for a few expansions without growing
	q := &lexQuery{words: len(words), terms: make([]string, 0, n), hashes: make([]uint64, 0, n), weights: make([]float64, 0, n), of: make([]int, 0, n)}
	for _, t := range words {
		wt := 1.0
		if r, size := utf8.DecodeRuneInString(t); size == len(t) && isCJK(r) && char > 0 {
			wt = char
		}
		q.add(t, wt, -1)
	}
	return q
}

func (q *lexQuery) add(term string, weight float64, of int) {
	q.addHashed(term, termHash(term), weight, of)
}

func (q *lexQuery) addHashed(term string, h uint64, weight float64, of int) {
	q.terms = append(q.terms, term)
	q.hashes = append(q.hashes, h)
	q.weights = append(q.weights, weight)
	q.of = append(q.of, of)
}

// bring adds what an expansion brings, blended into the clause of the first
// of the question's own words it came from (or a clause of its own), unless
// the query has it already: a term, or a phrase that some doc has whole.
func (q *lexQuery) bring(e expansion, weight float64, docs []doc) {
	of := -1
	for _, f := range e.from {
		if k := slices.Index(q.terms[:q.words], f); k >= 0 {
			of = k
			break
		}
	}
	if e.phrase == nil {
		h := e.hash
		if h == 0 {
			h = termHash(e.term)
		}
		if !slices.Contains(q.hashes, h) {
			q.addHashed(e.term, h, weight, of)
		}
		return
	}
	if slices.ContainsFunc(q.synth, func(s synthTerm) bool { return slices.Equal(s.phrase, e.phrase) }) {
		return
	}
	if tf := phraseMatches(e.phrase, docs); tf != nil {
		q.phraseWords = append(q.phraseWords, e.phrase...)
		q.synth = append(q.synth, synthTerm{term: PhraseTerm, weight: weight, of: of, tf: tf, phrase: e.phrase})
	}
}

// expanded are the terms and phrases the query holds besides the question's
// own words, its answer types and the synthetic terms (see Fusion.Expanded).
func (q *lexQuery) expanded() []string {
	out := make([]string, 0, len(q.terms)-q.words+len(q.synth))
	for j := q.words; j < len(q.terms); j++ {
		if t := q.terms[j]; !isAnswerTerm(q.hashes[j]) && t != PhraseTerm && t != AcronymTerm && t != DescriptionTerm {
			out = append(out, t)
		}
	}
	for _, st := range q.synth {
		if st.phrase != nil {
			out = append(out, strings.Join(st.phrase, " "))
		}
	}
	return out
}

// done returns the query with its synthetic terms last.
func (q *lexQuery) done() *lexQuery {
	for _, st := range q.synth {
		q.add(st.term, st.weight, st.of)
	}
	return q
}

// bm25 scores every candidate for the query (see lexQuery). IDF mixes two
// views: the candidates' own (what tells this entity's events apart) and,
// where known, the tenant's source statistics (what is rare in what the
// source writes), by corpus share.
func bm25(q *lexQuery, cands []Candidate, docs []doc, stats Stats, corpus float64, sc *scratch) ([]float64, []uint64) {
	out := grow(&sc.out, len(cands))
	clauses := grow(&sc.clauses, len(cands))
	terms := q.terms
	nt := len(terms)
	if nt == 0 {
		return out, clauses
	}
	words := nt - len(q.synth) // the terms looked up in each doc: all but the synthetic ones
	tab := newTermTable(q.hashes[:words])
	// Each doc's non-zero clause frequencies, in clause order: a doc matches a
	// few of the question's terms, and most none (hits[start[i]:start[i+1]]).
	hits := sc.hits[:0]
	defer func() { sc.hits = hits[:0] }() // (grown by append: kept for the next)
	start := grow(&sc.start, len(docs)+1)
	row := make([]float64, nt) // one doc's frequencies per clause, zeroed again at its touched places
	var touched []int32
	local := make([]float64, nt)
	total := 0
	for i := range docs {
		d := &docs[i]
		start[i] = int32(len(hits))
		touched = touched[:0]
		relative := q.relative != nil && q.relative[i]
		for k, h := range d.terms() {
			if relative && h == timeHash {
				continue
			}
			for j := tab.find(h); j >= 0; j = tab.next[j] {
				touched = append(touched, j)
				row[j] = float64(d.tf(k))
			}
		}
		for k, st := range q.synth {
			if st.tf[i] > 0 {
				touched = append(touched, int32(words+k))
				row[words+k] = float64(st.tf[i])
			}
		}
		if len(touched) > 0 {
			// an expansion's frequency counts in the clause of the word it came
			// from, added in clause order
			slices.Sort(touched)
			for _, j := range touched {
				if of := q.of[j]; of >= 0 && row[j] > 0 {
					row[of] += q.weights[j] * row[j]
					row[j] = 0
					touched = append(touched, int32(of))
				}
			}
			slices.Sort(touched)
			touched = slices.Compact(touched)
			for _, j := range touched {
				if row[j] > 0 {
					local[j]++
					hits = append(hits, hit{j, row[j]})
				}
				row[j] = 0
			}
		}
		total += int(d.n)
	}
	start[len(docs)] = int32(len(hits))
	n := float64(len(docs))
	avg := math.Max(float64(total)/math.Max(1, n), 1)
	idf := func(n, df float64) float64 {
		df = math.Min(df, n)
		return math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	localIDF := make([]float64, nt)
	for j := range terms {
		localIDF[j] = q.weights[j] * idf(n, local[j])
	}
	// each source's weights: the candidates' own without the tenant's
	// statistics, else mixed once per source (a window's events mostly come
	// in runs of one source: the last one is tried first)
	var bySource map[string][]float64
	if corpus > 0 && len(stats) > 0 {
		bySource = map[string][]float64{}
	}
	var lastSrc string
	w := localIDF
	for i := range cands {
		if src := cands[i].Source; bySource != nil && (i == 0 || src != lastSrc) {
			var ok bool
			if w, ok = bySource[src]; !ok {
				w = localIDF
				if st, found := stats[src]; found && st.N > 0 {
					w = make([]float64, nt)
					for j, t := range terms {
						w[j] = q.weights[j] * (corpus*idf(st.N, st.DF[t]) + (1-corpus)*idf(n, local[j]))
					}
				}
				bySource[src] = w
			}
			lastSrc = src
		}
		norm := bm25K1 * (1 - bm25B + bm25B*float64(docs[i].n)/avg)
		var score float64
		for _, h := range hits[start[i]:start[i+1]] {
			score += w[h.j] * h.f * (bm25K1 + 1) / (h.f + norm)
			if h.j < 64 {
				clauses[i] |= 1 << h.j
			}
		}
		out[i] = score
	}
	return out, clauses
}

// hit is a doc's frequency of BM25 clause j.
type hit struct {
	j int32
	f float64
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
	uses           []storyUse
	named          []namedEvent
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

// termTable finds the question's terms by hash: each doc's few terms are
// looked up in it (open addressing, a table of a few cache lines), instead of
// every question term being searched for in every doc.
type termTable struct {
	keys  []uint64
	slots []int32 // index into keys, -1: empty
	next  []int32 // the next term with the same hash (a term given twice), -1: none
	mask  uint64
	// bloom has the bit of each key's top byte: most of a doc's terms are
	// none of the question's, and most of those are told by one bit
	bloom [4]uint64
}

func newTermTable(keys []uint64) termTable {
	size := 16
	for size < 2*len(keys) {
		size *= 2
	}
	t := termTable{keys: keys, slots: make([]int32, size), next: make([]int32, len(keys)), mask: uint64(size - 1)}
	for i := range t.slots {
		t.slots[i] = -1
	}
	for j, h := range keys {
		t.next[j] = -1
		t.bloom[h>>62] |= 1 << (h >> 56 & 63)
		for p := slot(h) & t.mask; ; p = (p + 1) & t.mask {
			s := t.slots[p]
			if s < 0 {
				t.slots[p] = int32(j)
				break
			}
			if keys[s] == h { // the same term again: chained after the first
				for t.next[s] >= 0 {
					s = t.next[s]
				}
				t.next[s] = int32(j)
				break
			}
		}
	}
	return t
}

// find returns the index of the first term of hash h (then follow next), or -1.
func (t *termTable) find(h uint64) int32 {
	if t.bloom[h>>62]&(1<<(h>>56&63)) == 0 {
		return -1
	}
	for p := slot(h) & t.mask; ; p = (p + 1) & t.mask {
		s := t.slots[p]
		if s < 0 || t.keys[s] == h {
			return s
		}
	}
}

func slot(h uint64) uint64 { return h ^ h>>29 }

// Recency is 2^(−age/halfLife): 1 now, ½ at one half-life (an event from the
// future counts as now).
func Recency(now, t time.Time, halfLife time.Duration) float64 {
	// e^(−ln2·age/halfLife): math.Exp has an assembly version where
	// math.Exp2 has none (19 against 35 ns a call, once per candidate)
	return math.Exp(-math.Ln2 * max(now.Sub(t), 0).Seconds() / halfLife.Seconds())
}

// UniqueTerms are text's analysed terms, each once, in order.
func UniqueTerms(text string) []string { return dedupe(Analyze(text).Terms) }

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

// recencyWords mark a question about what is newest, in English and Chinese.
var recencyWords = []string{"just", "latest", "newest", "most recent", "recently", "lately", "current", "currently",
	"have left", "got left", "remaining", "moment ago", "moments ago", "minute ago", "minutes ago", "second ago", "seconds ago", "now", "any update", "any updates", "any news", "what's new", "what is new", "anything new", "刚才", "刚刚", "最近", "最新", "刚", "上次", "上一笔", "上一个", "最后一笔", "最后一次", "现在", "目前", "有什么新", "进展"}

var recencyCues = newCueSet(recencyWords)

// stillCues ask whether something still holds or has happened by now ("still",
// "yet", "in the end", 了没), where a thing is ("where's the sushi?", 到哪了)
// or how it is doing ("how is the cat doing?", 进度怎么样了):
// where the thing's story stands, not how it began. Not 还, which also means to
// pay back.
var stillCues = newCueSet([]string{"still", "yet", "already", "anymore", "any more", "in the end", "by now",
	"where is", "where are", "where s", // ("where's": "where", "s")
	"doing", "getting on", "coming along", "怎么样了", // (how it is doing: "how is the cat doing?", 进度怎么样了)
	"到哪了", "到哪里了", "到哪儿了", "已经", "了没", "没有", "最后", "最终"})

// notYetCues say that something has not happened yet ("it still hasn't
// arrived", "还没收到"): the question asks where its object stands, even when
// its words match what one event says ("I ordered a jacket (order O-7712) and
// it still hasn't arrived" matched the order placed).
var notYetCues = newCueSet([]string{"still hasn't", "still haven't", "still isn't", "still aren't", "still not", "still no",
	"still didn't", "still don't", "still doesn't", "still waiting", "not yet", "haven't yet", "hasn't yet", "还没", "仍未", "仍然没", "至今没", "到现在还没"})

// cueStems are the terms of the words that only say a question asks for the
// newest, and cjkCues the Chinese ones: no event is about them ("current" is
// not one: a "current account" is a thing).
var cueStems = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"latest", "newest", "recent", "recently", "lately"} {
		m[stem(w)] = true
	}
	return m
}()

// nowCues mark a question asking what something is now, rather than what
// happened last ("when is the filling now?", not "what did I just buy?").
var nowCues = newCueSet([]string{"now", "currently", "at the moment", "right now", "现在", "目前"})

var cjkCues = []string{"刚才", "刚刚", "最近", "最新", "现在", "目前"}

// withoutCues drops from a question's terms the words that only say it asks
// for the newest, and the characters and pair of a Chinese one: "最近有什么进展？"
// matched "材料审核：缺少近三个月银行流水" by 近.
func withoutCues(terms []string, q string) []string {
	var drop []string
	for _, c := range cjkCues {
		if strings.Contains(q, c) {
			rs := []rune(c)
			drop = append(drop, c, string(rs[0]), string(rs[1]))
		}
	}
	return slices.DeleteFunc(slices.Clone(terms), func(t string) bool { return cueStems[t] || slices.Contains(drop, t) })
}

// fromCue reports an expansion that only the recency cues of cueStems bring.
func fromCue(e expansion) bool {
	return len(e.from) > 0 && !slices.ContainsFunc(e.from, func(f string) bool { return !cueStems[f] })
}

// RecencyIntent reports whether the question asks for what is newest.
func RecencyIntent(q string) bool { return recencyIntent(questionText(spelledOut(q))) }

func recencyIntent(q text) bool { return recencyCues.in(q) || asksLast(q.norm) || asksTheNew(q.words) }

// asksTheNew reports a question about what a thing's date, time, place or
// price changed to ("what's the new moving day?", "when is my new
// appointment time?"): "new" before one of changedTo within two words. Not
// "new" alone, which names another thing ("did the new bag come?").
func asksTheNew(words []string) bool {
	for i, w := range words {
		if w != "new" {
			continue
		}
		for _, n := range words[i+1 : min(len(words), i+3)] {
			if changedTo[n] {
				return true
			}
		}
	}
	return false
}

// asksWhatChanged reports a question asking what was changed ("what did I
// just change?", "我刚才改了什么？", "what was changed on my booking?"): a
// change verb of its own, which the events saying it changed write in their
// own words (moved, rebooked, 变更, 改为).
func asksWhatChanged(q text) bool {
	return changeAsked.in(q)
}

var changeAsked = newCueSet([]string{"change", "changed", "changes", "改了", "变了", "换了", "改了什么", "变更了", "调整了"})

// changedTo are the things whose new value a question may ask for.
var changedTo = map[string]bool{"date": true, "day": true, "time": true, "address": true, "price": true, "total": true,
	"deadline": true, "slot": true, "departure": true, "arrival": true, "amount": true, "balance": true}

// asksLast reports a question about the last of something ("which
// prescription came in last?", "what was my last payment?"), but not about a
// period ("last week", "the last two months", "on the last day"), whose events
// are not the newest, nor "at last".
func asksLast(q string) bool {
	words := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return (r < 'a' || r > 'z') && r != '\'' })
	for i, w := range words {
		if w != "last" || i > 0 && words[i-1] == "at" {
			continue
		}
		next := i + 1
		for next < len(words) && counts[words[next]] {
			next++ // "the last two months", "the last few days"
		}
		if next < len(words) && periods[strings.TrimSuffix(words[next], "s")] {
			continue
		}
		return true
	}
	return false
}

// counts are the words that may stand between "last" and a period.
var counts = map[string]bool{"two": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "nine": true, "ten": true, "twelve": true, "few": true, "couple": true, "several": true, "of": true}

// periods are the words that make "last" a period of time, not the newest.
var periods = map[string]bool{"day": true, "night": true, "week": true, "weekend": true, "month": true, "year": true,
	"quarter": true, "season": true, "term": true, "semester": true, "summer": true, "winter": true, "spring": true,
	"autumn": true, "fall": true, "monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true, "hour": true}

// cueSet is a list of cues: English ones as whole words in order (not
// stemmed: "lately" is no "late"), Chinese ones anywhere.
type cueSet struct{ phraseIndex[struct{}] }

func newCueSet(cues []string) cueSet {
	c := cueSet{newPhraseIndex[struct{}]()}
	for _, w := range cues {
		if strings.IndexFunc(w, isCJK) >= 0 {
			c.add(nil, w, struct{}{})
		} else {
			c.add(plainWords(w), "", struct{}{})
		}
	}
	return c
}

// in reports whether the question holds one of the cues.
func (c cueSet) in(q text) bool {
	found := false
	c.each(q, func(*struct{}, []string) bool { found = true; return false })
	return found
}

// negatedShare is what a Chinese question's word counts when a negation
// governs it (negatedCJK): it still says what the question is about, but an
// event saying it happened says the opposite of what is asked.
const negatedShare = 0.5

// negatedCJK are the hashes of the Chinese pairs right after a negation
// (没, 没有, 未, 不) in a question: "为什么有一次充值没成功？" asks why one
// failed, and "话费充值 50 元 成功" matched it by 成功. Not in a question
// asking A-not-A ("有没有", "是不是": the negation asks, it denies nothing).
// English puts the subject between the negation and what it denies ("why
// didn't the payment go through?"), which words alone do not tell apart.
func negatedCJK(norm string) []uint64 {
	if !strings.ContainsAny(norm, "没未不") {
		return nil // (most questions: no runes made)
	}
	rs := []rune(norm)
	var out []uint64
	for i := 0; i+2 < len(rs); i++ {
		if (rs[i] == '没' || rs[i] == '未' || rs[i] == '不') && isCJK(rs[i+1]) && isCJK(rs[i+2]) && (i == 0 || rs[i-1] != rs[i+1]) {
			j := i + 1
			if rs[i] == '没' && rs[j] == '有' && i+3 < len(rs) && isCJK(rs[i+3]) {
				j++
			}
			out = append(out, termHash(string(rs[j:j+2])))
		}
	}
	return out
}
