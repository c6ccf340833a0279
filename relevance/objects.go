package relevance

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Objects: an event tied to the question's object through another
// identifier (link) or a word only its events use (echo), replies to a
// customer's question (replies), and another object of the kind the question
// names by its words (aboutASibling).

// link gives the events that name the question's object through another
// identifier a share of the identifier score: "Parcel 1Z88AA0312 for order
// O-4410 handed to the carrier" ties the parcel to the order, so "Parcel
// 1Z88AA0312 delivered" is about O-4410 too, and "where is O-4410?" is
// answered by it. One step only, from the events naming the object best
// (not from one naming only the group "5521" of "5521 0770", which its
// sibling "5521 0077" shares), not through an amount, and not through an
// identifier that every candidate names (the customer's own, which names the
// entity). Not from a question naming only an amount either: "86.50 是 什么 钱？"
// names one charge on card 8821, not every event of the card.
func link(comps []Components, docs []doc, cands []Candidate, qids []ident, share float64) {
	if !slices.ContainsFunc(qids, func(q ident) bool { return !q.amount }) {
		return // (an amount names a charge, not an object whose other events are about it)
	}
	qids = ofTheirKind(qids, docs)
	var first time.Time // when the first event naming the object came
	best := 0.0
	for i := range docs {
		if comps[i].Identifier > 0 && (first.IsZero() || cands[i].Time.Before(first)) {
			first = cands[i].Time
		}
		best = max(best, comps[i].Identifier)
	}
	var via []ident // the other identifiers of the events naming the object
	for i := range docs {
		if comps[i].Identifier == 0 || comps[i].Identifier < best {
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
	// nor a number that is a group of the object's own identifier, as an
	// event naming it holds it ("6633" of "6633 71 提取 …", which names
	// "1208 6633 71" by its last two groups: the sibling "1208 6633 17"
	// shares it)
	via = slices.DeleteFunc(via, func(id ident) bool { return id.bare && partOfNamed(id.full, comps, docs, best) })
	// One pass: which of them each event names, how many events name each,
	// and which an event before the object's first names.
	// (None without them: only parts then tie an event to the object.)
	var masks []uint64
	counts := make([]int, len(via))
	var earlier uint64
	if len(via) > 0 {
		masks = make([]uint64, len(docs))
		for j := range docs {
			for k, id := range via {
				if docs[j].names(id) {
					masks[j] |= 1 << k
					counts[k]++
					if cands[j].Time.Before(first) {
						earlier |= 1 << k
					}
				}
			}
		}
		if earlier == 1<<len(via)-1 {
			return
		}
	}
	// not through the identifiers every candidate names (the entity's), nor
	// an object named before the question's was (the course an invoice is
	// for: "Invoice INV-60215 for DS-202" does not make DS-202's start date
	// news of the invoice)
	not := earlier
	for k, n := range counts {
		if len(docs) > 2 && n == len(docs) {
			not |= 1 << k
		}
	}
	var parts []uint64 // the parts of the identifiers the events naming the object hold (made when first needed)
	for j := range docs {
		if comps[j].Identifier != 0 {
			continue
		}
		if (masks == nil || masks[j]&^not == 0) && (docs[j].nOwn == 0 || !namesAPart(&docs[j], &parts, comps, docs, masks)) {
			continue // (an event naming no identifier names no part)
		}
		if namesKin(&docs[j], qids) {
			continue
		}
		comps[j].Identifier = share
	}
}

// partOfNamed reports that an event naming the question's object best holds
// h among the parts of its identifiers (nums).
func partOfNamed(h uint64, comps []Components, docs []doc, best float64) bool {
	for i := range docs {
		if comps[i].Identifier > 0 && comps[i].Identifier >= best {
			if _, ok := slices.BinarySearch(docs[i].nums(), h); ok {
				return true
			}
		}
	}
	return false
}

// namesAPart reports that an event names, by a bare number, a part of an
// identifier that an event naming the question's object holds
// (partHashes, innerParts): "4588 已 续保" is about policy
// PDAA2026330100004588, which the event naming plate 沪B·K3309 holds; "0371
// 休学 一 年" about student 2024-0371-08. Not a part that an event naming
// another object holds too (masks: which of link's identifiers each event
// names; siblingParts): "2024" of 2024-0317-08. *parts holds those parts,
// sorted, made when first needed.
func namesAPart(d *doc, parts *[]uint64, comps []Components, docs []doc, masks []uint64) bool {
	if *parts == nil {
		n := 0
		for i := range docs {
			if comps[i].Identifier >= 1 {
				n += int(docs[i].nNum)
			}
		}
		*parts = make([]uint64, 0, n) // (one allocation: this runs for most questions naming an object)
		for i := range docs {
			if comps[i].Identifier >= 1 {
				*parts = append(*parts, docs[i].nums()...)
			}
		}
		slices.Sort(*parts)
		if shared := siblingParts(*parts, comps, docs, masks); len(shared) > 0 {
			*parts = slices.DeleteFunc(*parts, func(h uint64) bool { return slices.Contains(shared, h) })
		}
	}
	return namesOneOf(d, *parts)
}

// siblingParts are the parts (of parts, sorted) that an event holds which
// names neither the question's object nor an identifier linked to it
// (masks) but an identifier of its own that is no part: a sibling's
// ("2024-0317-08" beside 2024-0371-08), whose parts shared with the
// object's ("2024") name neither.
func siblingParts(parts []uint64, comps []Components, docs []doc, masks []uint64) []uint64 {
	var shared []uint64
	for i := range docs {
		if comps[i].Identifier != 0 || masks != nil && masks[i] != 0 {
			continue
		}
		at := len(shared)
		for _, h := range docs[i].nums() {
			if _, ok := slices.BinarySearch(parts, h); ok {
				shared = append(shared, h)
			}
		}
		if len(shared) > at && !ownsAnother(&docs[i], parts) {
			shared = shared[:at] // (the parts of no identifier of its own: it refers to the object)
		}
	}
	return shared
}

// ownsAnother reports that d names an identifier, no amount, that is not
// one of parts.
func ownsAnother(d *doc, parts []uint64) bool {
	for k := range int(d.nOwn) {
		if id := d.own(k); !id.amount {
			if _, ok := slices.BinarySearch(parts, id.full); !ok {
				return true
			}
		}
	}
	return false
}

// ofTheirKind is qids with each bare number given the kind of the prefixed
// identifier it names ("660121" names YK-660121: of kind YK), so that
// another of that kind is not linked to it: "YK-660121 余额 500 元 转入
// YK-660120" ties the two cards, and YK-660120's events say nothing of
// 660121's money.
func ofTheirKind(qids []ident, docs []doc) []ident {
	var out []ident
	for k, q := range qids {
		if !q.bare || q.family != 0 {
			continue
		}
		for i := range docs {
			for j := range int(docs[i].nOwn) {
				if id := docs[i].own(j); id.family != 0 && sameObject(q, id) {
					if out == nil {
						out = slices.Clone(qids)
					}
					out[k].family = id.family
				}
			}
		}
	}
	if out == nil {
		return qids
	}
	return out
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
		if id.bare && slices.ContainsFunc(qids, func(q ident) bool {
			return q.prefix != 0 && d.count(q.prefix) > 0 && !d.names(q) && id.full != q.num
		}) {
			return true // ("AF 1226" for "AF 1219": the prefix written apart, another number)
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
		sc.chars = cjkChars(sc.chars[:0], cands[i].Text) // (a Chinese character alone is no word two events share: "区" of "朝阳 区" and of "小区")
		for _, h := range d.terms() {
			if d.storyWord(h) && !slices.Contains(sc.chars, h) {
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
// one a question names by its words alone (not of a kind it asks which one
// of, answers: "which room is Monday's class in?"): "why are the flyers not
// printed yet?" names no identifier, but "flyers" is said where PR-7701 was
// ordered and by no event on PR-7702, so "PR-7702 printed and packed" is
// about another order. A word of the question (terms: its own, not its
// expansions) names an object when one of the most relevant few events
// introduces the object (it is the first naming its identifier, and another
// object of its kind is in the window) and uses the word, and no event on
// another object of its kind does; when the question's words name one
// object so, the events naming a sibling but not it, and none of those
// words, are about the sibling; they are returned with the object and the
// event introducing it. As inherit, only the most relevant few events are
// followed: O(n) per request.
func aboutASibling(terms, qwords []string, rels []float64, comps []Components, docs []doc, cands []Candidate) (siblings []int, intro int, object ident) {
	top := mostRelevant(rels)
	if !slices.ContainsFunc(top, func(i int) bool { return namesOwnID(&docs[i]) }) {
		return nil, -1, ident{}
	}
	var words []uint64 // the question's words that may name an object
	for _, t := range terms {
		// a word (not a number, nor one Chinese character) that is no answer
		// type's term nor a place in an order ("next", "second"), nor says
		// that a thing is done (成功: "候补 成功 了 吗？" names no object by
		// it, though the rebooking that succeeded introduced G1376)
		if h := termHash(t); !isAnswerTerm(h) && !strings.ContainsAny(t, "0123456789") && !positional[t] && !slices.Contains(doneMarks, h) &&
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
			if id := docs[i].own(k); !id.amount && id.family != 0 && !asksWhichOf(qwords, id.family) && kinIn(docs, []ident{id}) && introduces(i, id, docs, cands) {
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

// asksWhichOf reports a question (its words) asking which one of a kind of
// identifier ("which room …?", "what gate …?": room 3, gate B12): the word
// after "which" or "what" as the kind's prefix (INV-1040) or its leading
// letters before up to four digits (room3; letterLed).
func asksWhichOf(words []string, family uint64) bool {
	for k := 0; k+1 < len(words); k++ {
		w := words[k+1]
		if words[k] != "which" && words[k] != "what" || len(w) < 2 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			continue
		}
		if familyOf(w) == family {
			return true
		}
		for n := 1; n <= 4; n++ {
			if familyOf(w+"/"+strconv.Itoa(len(w)+n)) == family {
				return true
			}
		}
	}
	return false
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

// writesApart reports an event writing the prefix of the question's
// identifier q apart from another number than q's ("LISTP 48817" for
// "listp48822"): another object of its kind, as an event's own identifier
// of its family would be (an event's code written apart from its number is
// no identifier of its own: ADR 0009).
func writesApart(d *doc, q ident) bool {
	if q.prefix == 0 || d.count(q.prefix) == 0 || d.names(q) {
		return false
	}
	for k := range int(d.nOwn) {
		if id := d.own(k); id.bare {
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
			if writesApart(&docs[i], q) {
				return true
			}
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

// cjkChars appends to out the hashes of a text's Chinese (or other CJK) characters as
// terms of their own, but a unit counted after a number ("4 位", "2 盒", "10
// 节": what a count of the story counts), unless money's or a date's or a
// time's (notCounted: "300 元", "12 月", "9 点" tell no one story).
func cjkChars(out []uint64, text string) []uint64 {
	if strings.IndexFunc(text, isCJK) < 0 {
		return out
	}
	text = normalise(text) // (as the analysis reads it: "區" is the term "区")
	from := len(out)
	each := func(f func(h uint64, unit bool)) {
		var before rune // (the rune before, across spaces)
		for _, r := range text {
			if r == ' ' {
				continue
			}
			if isCJK(r) {
				var buf [4]byte
				f(termHash(string(buf[:utf8.EncodeRune(buf[:], r)])), unicode.IsDigit(before) && !strings.ContainsRune(notCounted, r))
			}
			before = r
		}
	}
	each(func(h uint64, unit bool) {
		if !unit && !slices.Contains(out[from:], h) {
			out = append(out, h)
		}
	})
	each(func(h uint64, unit bool) { // (a unit anywhere in the text is one: "桌位 … 5 位")
		if k := slices.Index(out[from:], h); unit && k >= 0 {
			out = slices.Delete(out, from+k, from+k+1)
		}
	})
	return out
}

// notCounted are the Chinese units after a number that count money, a date
// or a time, not a thing of a story.
const notCounted = "元块角分毛月日号点时天年周"
