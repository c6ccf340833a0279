package relevance

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Stories: what a later event inherits from the earlier events on the same
// object (inherit), or from the event it changes where no identifier tells
// the story (supersede), and what a question asks for by clause or noun.

// namesOwnID reports an identifier (not an amount) in the event.
func namesOwnID(d *doc) bool {
	for k := range int(d.nOwn) {
		if !d.own(k).amount {
			return true
		}
	}
	return false
}

// unitHashes are the terms of currencies and units of measure (measures):
// two events stating "18 GB" and "40 GB", or two prices in EUR, share a
// unit, not a story.
var unitHashes = func() map[uint64]bool {
	m := map[uint64]bool{}
	for c := range currencyCodes {
		m[termHash(stem(c))] = true
	}
	for u := range measures {
		m[termHash(stem(u))] = true
	}
	return m
}()

// storyWord reports that the term h of d says what d is about, so that two
// events sharing it may tell one story: not an identifier or an amount (an
// identifier tells a story by itself; two prices may be equal), a currency,
// a unit of measure or the term of an answer type, an offer or a question.
func (d *doc) storyWord(h uint64) bool {
	return !isAnswerTerm(h) && !d.hasID(h) && !unitHashes[h] && !changeWord(h)
}

// changeWord reports the term of a word saying that something changed or is
// another or new now: two events saying "changed" ("SIM PIN changed", "Plan
// changed from Basic to Plus") tell no one story by it.
func changeWord(h uint64) bool { return changeWordHashes[h] }

var changeWordHashes = func() map[uint64]bool {
	m := map[uint64]bool{}
	for _, hs := range [][]uint64{changeHashes, replacedHashes, currentHashes} {
		for _, h := range hs {
			m[h] = true
		}
	}
	return m
}()

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
	// it asks whether a problem is fixed (fixedCues: "is the pressure
	// problem solved?", 修好了吗)
	fixed bool
	// it asks whether (asksWhether: "do you still need anything from me?",
	// not "what do you still need?", which asks what an event says)
	whether bool
	// it asks whether something has happened ("物业费交了吗？", happenedCues;
	// "did the lights come?", asksWhetherDone): a later event saying it is
	// done (saysDone: 已缴, 还款 成功, 送达, "delivered"), and stating no time
	// (not "明天 上午 送达", a promise), inherits all of the first's match, as
	// for still; one that does not the usual share
	happened bool
	// it asks whether something has happened and names money or an amount
	// (aboutMoney): an event saying money was paid says it is done
	aboutMoney bool
	// the kinds of sum a question whether something has happened names
	// (sumKindsIn: "did they get my deposit for LS-2024-118?", "罚款 交 了
	// 吗？"): a later event naming other kinds of sum and none of these is a
	// payment of another kind ("LS-2024-118 rent for July received, 950
	// EUR"), no step asked done and no newer word on it: it inherits no more
	// than the share wT
	sumKinds uint32
	// it asks whether something is required (asksIfRequired: "TJ-5530 要
	// 空腹 吗？"): a later event matching none of its words and saying
	// nothing changed says nothing of the requirement the first states
	// ("TJ-5530 体检 报告 已 生成"), and inherits no more than the share wT
	required bool
	// it asks whether a thing still holds at a time it states after "still"
	// or 还是 (stillAtTime: "is BH-4402 still on Saturday?"): a later
	// event stating no time and saying nothing changed or ended is no news of it
	// ("BH-4402 deposit 500 EUR blocked on your card"), and inherits no
	// more than the first's usual share (wF)
	stillAt bool
	// for happened, the events saying the question's own step done, when
	// one does (stepsDone): another step done is no answer then
	steps []bool
	costs bool // it asks what a thing costs (asksWhatItCosts)
	// it asks no answer type and about no money, nor where a thing stands,
	// nor for the newest: a later amount of the story (a payment on a
	// booking) is no newer word on what it asks, and inherits the share wT
	noMoney bool
	// a bill or a payment (markBill) passes on no more than Weights.Thread
	// (reading.billsAnswer: a question not asking for the newest nor of money)
	noBill bool
	// it asks how much, and not what came back or is left (asksMoneyBack),
	// nor whether it still holds or has happened: a later amount of the
	// story other than the first's is another sum ("信用卡 尾号 8821 消费 1,280
	// 元" after the card's bill, a deposit of 500 after a quote of 1 800),
	// which inherits the share wT, not all of the first's, unless it says
	// something changed
	sum  bool
	when bool // it asks only when or how long, and not for the newest
	// it asks for the newest ("which hall is Northern Lights in now?"): a
	// later event naming the thing asked for (noun) that says it changed
	// ("show moved to Hall 6") inherits all of the first's match, as one
	// saying a price changed does for a price question
	newest bool
	// the events about another day's thing than the days it names
	// (aboutAnotherDay): a later one inherits nothing
	elsewhere *anotherDay
	// items: the events naming the thing of the object a question names
	// (itemsNamed); the others inherit no more than the share wT
	items []bool
	// it asks what was done (asksDeed: "what did you do to the laptop?"): a
	// later event saying a deed done ("INC-30077: hard disk replaced") is the
	// story's answer, one saying only that the case is closed or ready is not
	deed bool
	// it asks what was changed (asksWhatChanged: "what did I just change on
	// my contract?"): a later event saying nothing changed is no newer word
	// on it ("Bill for October: 29.98 EUR"), and inherits nothing
	changes bool
	// the identifiers of a question asking whether a state of the object
	// they name still holds ("is 731904 still held at customs?", "can I log
	// in now?", "208 还 欠 吗？": asksIfItHolds): a later event on it saying
	// the state ended answers it (ended)
	holds []ident
	// the events that state what is asked only as the question does not
	// count it: as a reason, only the problem a question asking why or what
	// is wrong names (problemsOnly); as a time, one counted from another
	// thing (relativeTimes), or no clock time or no day when the question
	// asks for one (timeLacking). They inherit nothing, and supersede
	// nothing.
	unstated []bool
}

// only reports that the j-th event states what is asked only as the
// question does not count it (unstated).
func (how inheritance) only(j int) bool { return how.unstated != nil && how.unstated[j] }

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
// fixed yet?" ask where the story stands, not how it began. So does one
// saying the object is another thing now (saysReplaced, naming no other
// thing before its word (markItself: changesItself), or naming the thing asked) when
// the question asks which or what thing (noun): "HT-30912 已 免费 升级 为 江景
// 套房" for "上海 住 什么 房间？", "Seat for TP 1234 changed to 2A" for "what's
// my seat …?" (+6 −0 on the development sets). But when the
// question asks what a thing costs (costs, asksWhatItCosts), a later amount
// on it is a fee or a payment, not its price: it inherits the first's share
// (wF), unless it says the price changed; and when it asks only when (or how
// long) the thing is, a later amount on a thing introduced with its price is
// a payment on it ("Balance of 880.00 EUR due by 12 April" for "when do we
// arrive in Lisbon?"), whose date is the payment's: it inherits wT, unless it
// says something changed. When it asks how much and not what came back or
// is left (sum), a later event stating other amounts than the first's is
// another sum (a purchase on the card after its bill): it inherits wT,
// unless it says something changed. When it asks no answer type and
// nothing of money, nor where the story stands or what is newest (noMoney),
// a later amount on the thing is a payment on it ("Final amount for
// GR-44120: 83.10 EUR charged" for "what did you swap in my order?", "Direct
// debit of 59.00 EUR failed" for "is the sauna included?"): it inherits wT,
// unless it says something changed or the step asked done (+19 −0 on the
// development sets; for whether something happened too, +10 −5 more, the
// five downs lesser answers reordered below a first that stays). Nor does a later event about another day's thing
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
	var storyBuf [16]int  // (most stories are short: no allocation)
	story := storyBuf[:0] // the candidates naming one identifier: the story it tells
	for _, i := range top {
		var buf [8]uint64
		ends := endsOf(&docs[i], buf[:0])
		for k := range int(docs[i].nOwn) {
			q := docs[i].own(k)
			story = story[:0]
			for j := range docs {
				if docs[j].names(q) || len(ends) > 0 && namesOneOf(&docs[j], ends) {
					story = append(story, j)
				}
			}
			// An identifier that every candidate names (the customer's account
			// number, their e-mail address) names the entity, not one story in it;
			// unless a question asking for the newest names it ("how many flyers
			// is pr5512 now?"): the window is then its story (+3 −1 on the
			// development sets)
			if len(docs) > 2 && len(story) == len(docs) && !(how.newest && comps[i].Identifier > 0) {
				continue
			}
			first := i
			for _, j := range story {
				if cands[j].Time.Before(cands[first].Time) {
					first = j
				}
			}
			story = handedOn(story, q, ends, first, cands, docs)
			for _, j := range story {
				// (a line not naming the noun asked inherits when it says the
				// object itself is another now, not when it names another thing
				// changed: "班主任 更换 为 王 老师" for "几 年级？", "00421 bank
				// account changed" for "E-00421 salary?". Chinese lines were read
				// so first; English ones too since stop 88, +5 −2 on the
				// development sets then (it went +5 −3 at stop 72), losing "Recipe
				// switched back to chicken" for "what food is coming next time?"
				// and "Mara in repair, you get 'Selma' instead" for "which boat
				// …?", whose recipe and Selma are the thing asked by other words)
				if !statesAsked(&docs[j], asked) && !(how.still && hasAny(&docs[j], standingHashes)) || noun != 0 && (j >= len(clauses) || clauses[j]&noun == 0) && !(saysReplaced(&docs[j]) && replacesItself(&docs[j])) ||
					how.elsewhere.of(j) || how.only(j) || how.changes && !saysChanged(&docs[j]) && !saysReplaced(&docs[j]) {
					continue
				}
				if !cands[j].Time.After(cands[first].Time) {
					continue // (nor after i, which is no earlier than the story's first)
				}
				// (the step asked done: not a payment of another sum than i's,
				// "GX-30118 行程 费用 486 元 已 扣款" after the fine of 200 元 for
				// "罚款 交 了 吗？", nor of another kind than the question names,
				// "LS-2024-118 rent for July received, 950 EUR" for "did they get
				// my deposit …?", whose lease named the rent's sum too)
				otherKind := how.sumKinds != 0 && anotherKind(cands[j].Text, how.sumKinds)
				otherSum := docs[j].count(moneyHash) > 0 && anotherSum(j, i, cands, docs) || otherKind
				done := how.happened && saysStepDone(how.steps, j, &docs[j], cands[j].Text, how.aboutMoney) && docs[j].count(timeHash) == 0 && !otherSum
				share := firstShare
				if (how.costs || how.newest && noun != 0) && saysChanged(&docs[j]) || done ||
					noun != 0 && saysReplaced(&docs[j]) && (j < len(clauses) && clauses[j]&noun != 0 || replacesItself(&docs[j])) {
					share = w.ThreadAnswer
				}
				if how.when && docs[j].count(moneyHash) > 0 && docs[first].count(moneyHash) > 0 && !saysChanged(&docs[j]) {
					share = min(share, w.Thread) // (a payment on the thing: its date is the payment's)
				}
				if how.sum && docs[j].count(moneyHash) > 0 && docs[first].count(moneyHash) > 0 && !saysChanged(&docs[j]) && (!sameSums(&docs[j], &docs[first], q) || !how.newest && newSum(cands[j].Text, sumsStated(cands[first].Text))) {
					// (another sum: a purchase on the card after its bill, a deposit on a quote;
					// or after another purchase, "消费 19 元：美团" after "消费 2,380 元：京东",
					// whose sums no identifier holds; not for the newest: "how much now?")
					share = min(share, w.Thread)
				}
				if how.noMoney && !done && docs[j].count(moneyHash) > 0 && !saysChanged(&docs[j]) {
					share = min(share, w.Thread) // (a payment on the thing: "HG-1101 prepaid: 350.00 EUR" for "what's the Lisbon room like?")
				}
				if j < len(clauses) && clauses[j]&^clauses[first] != 0 {
					share = w.ThreadAnswer
				}
				if how.required && (j >= len(clauses) || clauses[j] == 0) && !saysAChange(&docs[j]) {
					share = min(share, w.Thread)
				}
				if how.stillAt && docs[j].count(timeHash) == 0 && !saysAChange(&docs[j]) && !hasAny(&docs[j], endedHashes) {
					share = min(share, w.ThreadFirst)
				}
				if otherKind && !saysChanged(&docs[j]) {
					share = min(share, w.Thread) // (a payment of another kind: "LS-2024-118 rent for July received, 950 EUR" for "did they get my deposit …?")
				}
				if how.deed {
					if saysDeed(cands[j].Text) {
						share = w.ThreadAnswer
					} else {
						share = min(share, w.Thread)
					}
				}
				if how.items != nil && !how.items[j] {
					share = min(share, w.Thread)
				}
				if how.noBill && docs[j].marks&markBill != 0 {
					share = min(share, w.Thread) // ("TS-40771 fitting and storage 79 EUR paid" for "where are my winter tyres?")
				}
				comps[j].Thread = max(comps[j].Thread, share*rels[first])
				if cands[j].Time.After(cands[i].Time) {
					after := w.Thread // (its share of the match of i, the event matching best)
					if done && how.steps != nil {
						// (the step asked, done after the event matching best: "WS-4410
						// SSO fixed" after "WS-4410 SSO login failing")
						after = w.ThreadAnswer
					}
					if noun != 0 && (saysReplaced(&docs[j]) || saysChanged(&docs[j])) && j < len(clauses) && clauses[j]&noun != 0 {
						// (the thing asked, another now: "MU5405 登机口 变更 为 B15" after
						// "MU5405 登机口 B12", when the story's first line matches little)
						after = w.ThreadAnswer
					}
					comps[j].Thread = max(comps[j].Thread, after*rels[i])
				}
			}
		}
	}
	if (len(asked) > 0 || noun != 0) && len(top) > 0 {
		supersede(top[0], rels, comps, cands, docs, w, asked, clauses, noun, how)
	}
	if how.still && how.whether && len(top) > 0 {
		supplied(top[0], rels, comps, cands, docs, w, false)
	} else if how.happened && len(top) > 0 {
		supplied(top[0], rels, comps, cands, docs, w, true)
	}
	if how.fixed && len(top) > 0 {
		solved(top[0], rels, comps, cands, docs, w)
	}
	if how.happened && len(top) > 0 {
		decided(top[0], rels, comps, cands, docs, w)
	}
	if how.holds != nil {
		ended(how.holds, rels, comps, cands, docs, w)
	}
}

// ended lets the newest later event on the object a question names, saying
// that the state its most relevant event (i) reports has ended, answer a
// question whether that state still holds: "731904 released after documents
// sent" after "731904 customs hold: missing invoice copy" for "is 731904
// still held at customs?", "jonas.berg@example.com unlocked by the account
// owner" after "Login blocked for jonas.berg@example.com" for "can
// jonas.berg@example.com log in now?", "208 已 补交 552 元" after "房号
// 6-1-208：…欠 2 个 月" for "208 还 欠 吗？". i is the event naming the
// object (qids) that matches best, with what it inherited; the later event
// names the object as fully as i does (not through another object linked to
// it: a repair of room 1202 is no news of its fee), and says the state ended
// (endsAState); it inherits all of i's match (wA), as a later step done does
// in inherit: i matches the question's words, the later event is where the
// story stands. Not when i itself says its state ended or a step is done
// ("83321955 cancelled free of charge" answers "is 83321955 still on?"; the
// refund after it is no newer state of the booking).
func ended(qids []ident, rels []float64, comps []Components, cands []Candidate, docs []doc, w Weights) {
	i := -1
	for j := range docs {
		if idMatch(qids, &docs[j]) > 0 && (i < 0 || max(rels[j], comps[j].Thread) > max(rels[i], comps[i].Thread)) {
			i = j
		}
	}
	if i < 0 || hasAny(&docs[i], endedHashes) || saysDone(&docs[i], cands[i].Text, false) {
		return
	}
	named, n := idMatch(qids, &docs[i]), -1
	moves := docs[i].count(moneyHash) == 0 // (a sum owed: moving a thing ends no debt)
	for j := range docs {
		if cands[j].Time.After(cands[i].Time) && (n < 0 || cands[j].Time.After(cands[n].Time)) && idMatch(qids, &docs[j]) >= named && endsAState(&docs[j], cands[j].Text, moves) {
			n = j
		}
	}
	if n >= 0 {
		comps[n].Thread = max(comps[n].Thread, w.ThreadAnswer*max(rels[i], comps[i].Thread))
	}
}

// endsAState reports an event saying that a state may have ended: that the
// thing no longer holds (endedHashes) or what held it was lifted
// (liftedHashes), that a time moved (movedHashes; only when moves: a sum
// owed is ended by no move, "SU-118 moving to a 9 m2 unit SU-131 from 1 Jan"
// after "SU-118 November rent 79 EUR overdue"), that something was decided
// (saysDecided) or done (saysDone, money paid included).
func endsAState(d *doc, text string, moves bool) bool {
	return hasAny(d, endedHashes) || hasAny(d, liftedHashes) || moves && hasAny(d, movedHashes) || saysDone(d, text, true) || saysDecided(d, text) || backAgain(text)
}

// backAgain reports a text saying a thing works again ("SV-30918 active
// again", "AP-03-17 back online", "恢复 正常" is liftedHashes'): a state that
// held it up has ended. Not "failed again", "delayed again".
func backAgain(text string) bool {
	ws := plainWords(text)
	for k := 1; k < len(ws); k++ {
		if ws[k] == "again" && workingWords[ws[k-1]] || ws[k-1] == "back" && workingWords[ws[k]] {
			return true
		}
	}
	return false
}

// workingWords say that a thing works or can be used.
var workingWords = map[string]bool{"active": true, "online": true, "available": true, "open": true, "working": true, "running": true,
	"enabled": true, "live": true, "operational": true, "reachable": true}

// decided lets a later event deciding what the most relevant one (i) asked
// for or left pending answer a question whether it has happened: "Refund for
// TK-90022 refused" after "You requested a refund for TK-90022" for "did I
// get my money back for TK-90022?", "leave.approved id=LV-2201" after
// "leave.requested id=LV-2201" for "is my holiday ok?". i says a request, a
// report or a step awaited (requestHashes); the later event says a decision
// (decisionHashes) or that something is done (saysDone), and tells i's story:
// it names one of i's identifiers, or, when i names none, shares a word of
// i's (storyWord). It inherits all of i's match (wA), as a later step done
// does in inherit: the request matches the question's words, its answer is
// what the question asks. When a later event decides, a step done after it
// ("RX-40019 ready for pick-up" after "approved") inherits nothing here. A
// fault reported for repair (报修, 报障: repairHashes) is answered by the
// repair done ("KD-77120检修完成：…已重新熔接" for "77120断线修好了吗？"), never by a
// decision on something else of the object ("房东 同意 续租").
func decided(i int, rels []float64, comps []Components, cands []Candidate, docs []doc, w Weights) {
	repair := hasAny(&docs[i], repairHashes) // (a fault reported: a repair done answers it, nothing decides it)
	if rels[i] == 0 || !repair && !hasAny(&docs[i], requestHashes) && !saysWord(cands[i].Text, reportedWords, nil) || saysDecided(&docs[i], cands[i].Text) {
		return
	}
	// the later events that decide, and those that say something done: the
	// decisions answer what was asked for, a step done only when none decides
	var decBuf, doneBuf [8]int
	decisions, dones := decBuf[:0], doneBuf[:0]
	for j := range docs {
		if !cands[j].Time.After(cands[i].Time) {
			continue
		}
		if !repair && saysDecided(&docs[j], cands[j].Text) {
			decisions = append(decisions, j)
		} else if len(decisions) == 0 && saysDone(&docs[j], cands[j].Text, true) {
			dones = append(dones, j)
		}
	}
	answers := decisions
	if len(answers) == 0 {
		answers = dones
	}
	var chars []uint64
	ids := namesOwnID(&docs[i]) // (its story is its identifier's, as for solved)
	for _, j := range answers {
		d := &docs[j]
		same := false
		for k := 0; k < int(docs[i].nOwn) && !same; k++ {
			id := docs[i].own(k)
			same = !id.amount && d.names(id)
		}
		if !same && !ids {
			if chars == nil {
				chars = noStoryTerms(cands[i].Text)
			}
			same = sharesStoryWord(d, &docs[i], chars, requestHashes)
		}
		if same {
			comps[j].Thread = max(comps[j].Thread, w.ThreadAnswer*rels[i])
		}
	}
}

// saysDecided reports an event saying how something asked for was decided
// (decisionHashes, decidedWords).
func saysDecided(d *doc, text string) bool {
	return hasAny(d, decisionHashes) || d.marks&scriptLatin != 0 && saysWord(text, decidedWords, nil)
}

// requestHashes are the terms of words saying that something was asked for,
// reported or is awaited, and decisionHashes (Chinese) and decidedWords
// (English) those saying how it was decided (decided). reportedWords and
// decidedWords are participles, read as written: a stem would take "Guard
// report" for something reported and "You requested a refund" for something
// refunded.
var (
	reportedWords = map[string]bool{"reported": true, "claimed": true, "complained": true}
	requestHashes = stemHashes("requested", "request", "disputed", "dispute", "complaint", "applied", "application",
		"waiting", "awaiting", "pending", "appeal", "appealed", "申请", "投诉", "申诉", "报案", "待审核", "审核中", "等待")
	repairHashes   = stemHashes("报修", "报障")
	decisionHashes = stemHashes("通过", "驳回", "拒绝", "批准", "同意", "已退", "维持", "撤销")
	decidedWords   = map[string]bool{"approved": true, "refused": true, "rejected": true, "declined": true, "denied": true, "accepted": true,
		"granted": true, "refunded": true, "credited": true, "waived": true, "upheld": true, "overturned": true}
)

// solved lets a later event saying that the problem the most relevant one
// (i) states is solved answer a question whether it is fixed: "Valve
// replaced, pressure stable at 1.5 bar" after "Follow-up: pressure dropped
// again, valve to replace" for "is the pressure problem solved?". The later
// event shares a word of i (storyWord, as for supersede) and says it is done
// (saysDone) or works (solvedHashes); it inherits all of i's match (wA).
// Not when i names an identifier: its story tells it (inherit).
func solved(i int, rels []float64, comps []Components, cands []Candidate, docs []doc, w Weights) {
	if rels[i] > 0 && !namesOwnID(&docs[i]) && docs[i].count(reasonHash) > 0 {
		answeredLater(i, solvedHashes, nil, rels, comps, cands, docs, w)
	}
}

// solvedHashes are the terms of words saying that a thing works again.
var solvedHashes = stemHashes("stable", "normal", "works", "working", "fine", "solved", "resolved", "正常", "解决", "恢复", "好了")

// supplied lets a later event saying that what the most relevant one (i)
// found missing or needed came in answer a question whether it still holds:
// "Vaccination record received" after "Mia: vaccination record still
// missing" for "is anything still missing for Mia?", "Receipts uploaded"
// after "Missing: receipts for home office costs" for "do you still need
// anything from me?". The later event shares a word of what i says is
// missing (storyWord, as for supersede) and says it is done (saysDone) or
// was handed in (suppliedHashes); it inherits all of i's match (wA). Not
// when i names an identifier: the events naming it tell its story
// (inherit); but asked whether it has happened (happened: "did you get the
// doctor's note?"), what i says is missing (missingHashes: "HI-40771
// prescription from your doctor missing", not "coat needs one more day") is
// answered by the later event handing it in ("HI-40771 prescription
// received"), whatever identifier i names.
func supplied(i int, rels []float64, comps []Components, cands []Candidate, docs []doc, w Weights, happened bool) {
	lacking := lackingHashes
	if happened {
		lacking = missingHashes
	}
	if rels[i] > 0 && (happened || !namesOwnID(&docs[i])) && hasAny(&docs[i], lacking) {
		answeredLater(i, suppliedHashes, lackingHashes, rels, comps, cands, docs, w)
	}
}

// answeredLater gives each event after the i-th that says it is done
// (saysDone) or one of says, and shares a word of i's (a storyWord, not a
// short number's nor one of skip), all of i's match (wA): it answers what i
// left open (supplied, solved).
func answeredLater(i int, says, skip []uint64, rels []float64, comps []Components, cands []Candidate, docs []doc, w Weights) {
	var chars []uint64
	for j := range docs {
		d := &docs[j]
		if !cands[j].Time.After(cands[i].Time) || !hasAny(d, says) && !saysDone(d, cands[j].Text, false) {
			continue
		}
		if chars == nil {
			chars = noStoryTerms(cands[i].Text)
		}
		if sharesStoryWord(d, &docs[i], chars, skip) {
			comps[j].Thread = max(comps[j].Thread, w.ThreadAnswer*rels[i])
		}
	}
}

// sharesStoryWord reports that d shares with the event e a word that says
// what e is about (storyWord), none of e's short numbers or characters
// (chars: noStoryTerms) nor of skip: the two may tell one story (supersede,
// answeredLater).
func sharesStoryWord(d, e *doc, chars, skip []uint64) bool {
	return slices.ContainsFunc(d.terms(), func(h uint64) bool {
		return e.count(h) > 0 && d.storyWord(h) && !slices.Contains(chars, h) && !slices.Contains(skip, h)
	})
}

// lackingHashes are the terms of words saying that something is missing or
// still needed from the customer, missingHashes those saying it is missing,
// and suppliedHashes those saying that it was handed in (supplied).
var missingWords = []string{"missing", "缺少", "缺失", "待补充", "需补充", "需要补充", "未提交"}

var (
	lackingHashes  = stemHashes(append([]string{"needed", "required"}, missingWords...)...)
	missingHashes  = stemHashes(missingWords...) // (what is missing, not only needed: "needs one more day")
	suppliedHashes = stemHashes("uploaded", "submitted", "provided", "supplied", "handed", "已提交", "已上传", "补交", "已补充", "收到")
)

// sameSums reports that the event j states no number of its own besides the
// story's identifier q and prefixed identifiers, or one that the story's
// first event states too (98.60 paid of a bill of 98.60).
func sameSums(j, first *doc, q ident) bool {
	some := false
	for k := range int(j.nOwn) {
		x := j.own(k)
		if x.num != 0 || sameObject(x, q) {
			continue
		}
		some = true
		if first.names(x) {
			return true
		}
	}
	return !some
}

// endsOf are the ends of the long numbers e names that a customer names
// one by alone (partHashes, lastThree: "41890" of 24312000000041890), not
// its identifiers' own numbers (the 1040 of INV-1040 names it as such),
// appended to hs: sorted, as e's numbers are (namesOneOf).
func endsOf(e *doc, hs []uint64) []uint64 {
	for _, h := range e.nums() {
		if e.hasID(h) {
			continue
		}
		own := false
		for k := range int(e.nOwn) {
			own = own || e.own(k).num == h
		}
		if !own {
			hs = append(hs, h)
		}
	}
	return hs
}

// namesOneOf reports that d names one of hs (sorted) by an identifier of
// its own, no amount: a part of an identifier that an event naming the
// question's object holds (namesAPart: a number alone, a hardware
// address's end "7E:A1", the "PD-012" of SH-PD-012), or the end of a long
// number the story's event names (endsOf: "41890 已 发送" after "发票 号码
// 24312000000041890：会议 费").
func namesOneOf(d *doc, hs []uint64) bool {
	for k := range int(d.nOwn) {
		if id := d.own(k); !id.amount {
			if _, ok := slices.BinarySearch(hs, id.full); ok {
				return true
			}
		}
	}
	return false
}

// handedOn is a story with the events of the objects it hands on to. A
// later event of the story (after its first) introducing another
// identifier after the story's own, which no earlier event names
// ("2026112700418 已 发货：中通 78830012655" after the order), hands the story
// on: the events after it naming that identifier ("78830012655 已 放 菜鸟
// 驿站") tell the same story; for "羽绒服 到 哪 了？", where the parcel is.
// The story's identifier may be named by its end (ends: endsOf), and the
// identifier handed on by its end or a part of it (namesItsEnd).
// Not an identifier named before the story's own ("报修 BX-7730：1202 卫生间
// 漏水" opens a repair's story, not flat 1202's), nor an amount, nor one of
// the kind the story's first names after its identifier (kindAfter: a
// sibling's); one hand-off, not a chain of them.
func handedOn(story []int, q ident, ends []uint64, first int, cands []Candidate, docs []doc) []int {
	for _, j := range story[:len(story):len(story)] {
		if !cands[j].Time.After(cands[first].Time) {
			continue
		}
		afterOwn := false // (past the story's identifier in j's text)
		for k := range int(docs[j].nOwn) {
			h := docs[j].own(k)
			if _, end := slices.BinarySearch(ends, h.full); sameObject(h, q) || end && !h.amount {
				// (or its end, as the customer and the later events name it:
				// "3381-77 已 发货，京东 快递 JDV 0188 2231 990" for the order
				// 250601-3381-77)
				afterOwn = true
				continue
			}
			if !afterOwn || h.amount || namedEarlier(j, h, cands, docs) || kindAfter(&docs[first], q, h) {
				continue // (no hand-off: named before the story's, an amount, no new object, or a sibling)
			}
			for m := range docs {
				if cands[m].Time.After(cands[j].Time) && (docs[m].names(h) && !namesAnother(m, h, cands, docs) || namesItsEnd(&docs[m], &docs[j], &docs[first])) && !slices.Contains(story, m) {
					story = append(story, m)
				}
			}
		}
	}
	return story
}

// kindAfter reports that d (a story's first event) names, after the story's
// identifier q, one of h's kind (both numbers alone, or of one prefix):
// q qualifies the identifier after it, as a court's code does a case's
// number ("京0105民初 1288 号"), and a later event naming q with another of
// that kind ("京0105民初 1828 号") is a sibling's, which hands nothing on.
func kindAfter(d *doc, q, h ident) bool {
	after := false
	for k := range int(d.nOwn) {
		x := d.own(k)
		if sameObject(x, q) {
			after = true
		} else if after && !x.amount && (x.bare && h.bare && x.family == 0 && h.family == 0 || x.family != 0 && x.family == h.family) {
			return true
		}
	}
	return false
}

// namesAnother reports that the m-th event names, besides h, an identifier
// an earlier event names: it tells that object's story ("TL-40211 closed
// with credit note CN-880" is the invoice's, though CN-880 came with the
// complaint's).
func namesAnother(m int, h ident, cands []Candidate, docs []doc) bool {
	for k := range int(docs[m].nOwn) {
		if o := docs[m].own(k); !o.amount && !sameObject(o, h) && namedEarlier(m, o, cands, docs) {
			return true
		}
	}
	return false
}

// namedEarlier reports that another event than the m-th, not after it,
// names the identifier id.
func namedEarlier(m int, id ident, cands []Candidate, docs []doc) bool {
	for e := range docs {
		if e != m && !cands[e].Time.After(cands[m].Time) && docs[e].names(id) {
			return true
		}
	}
	return false
}

// supersede lets a later event change what the most relevant one (i) says
// where no identifier tells their story. A later event that shares a word
// with it (a word saying that something changed is none: storyWord), says
// it changes something ("moved", "改到") and states what the question asks
// is its newer word, and inherits all of i's match (wA): for "when is
// Bruno's vaccination?", "Bruno's appointment moved to Saturday 09:00" after
// "Appointment for the dog Bruno: vaccination on Friday 11:00". Instead of
// what the question asks, it may name the thing it asks for (noun: "which
// room …?") or say the thing is another now (saysReplaced, as in inherit:
// "Booked instead: Yoga Wed 19:00" after "Booked: Spin class Tue 18:30" for
// "what class am I going to?").
//
// For a question asking for the newest, one stating a new value says it
// changed ("16 June cancelled …; new date 18 June 10:00" after "Filling
// booked: 16 June 10:00" for "when is my filling now?"); not one saying what
// is so now ("filling now with Dr Brandt, same time" need not change what is
// asked), nor for other questions (among other customers' events, a "new"
// line sharing a word had taken answers' places:
// TestRankingHoldsAmongOtherCustomersEvents). When i names an identifier,
// its later events tell its story (inherit), and no other supersedes it
// while another object is in the window (anotherObject): for "which day is
// The Tempest now?", "Friday's 'Hamlet' starts at 20:00 instead of 19:30"
// shares no more than the 00 of a time with "Tickets TH-6631: 'The
// Tempest', … Saturday 14:00" when Hamlet's tickets are there too. As the
// window's only object, a question asking for the newest lets a later
// change naming none supersede it: "Delivery moved to Saturday" after
// "Grocery delivery DL-5501 booked: Friday" (without the window's other
// objects, the rule went +1 −1 on the development sets and the 122nd set;
// with them, +1 −0).
func supersede(i int, rels []float64, comps []Components, cands []Candidate, docs []doc, w Weights, asked [][]*answerType, clauses []uint64, noun uint64, how inheritance) {
	names := func(j int) bool { return noun == 0 || j < len(clauses) && clauses[j]&noun != 0 }
	if rels[i] <= 0 || namesOwnID(&docs[i]) && (!how.newest || anotherObject(i, docs)) || !statesAsked(&docs[i], asked) || !names(i) || asksFor(asked, ReasonTerm) {
		// (asking why, a later change is no newer reason: "因 行程 变更，退还
		// 差价" refunds because of the change that "因 台风，航班 改为 …" gave
		// the reason for; a later event stating a reason of its own matches by it)
		return
	}
	// asking who, a change is a change of who only when it says the thing is
	// another's now ("changed from Ana to Marek", 换成): "刘师傅 请假，练车 改到
	// 周日" moves the time, not the teacher
	asksWho := asksFor(asked, PersonTerm)
	var chars []uint64 // (noStoryTerms of i, once one is needed)
	for j := range docs {
		d := &docs[j]
		changes := saysChanged(d) || how.newest && d.count(newHash) > 0
		if !cands[j].Time.After(cands[i].Time) || namesOwnID(d) || d.count(offerHash) > 0 || !statesAsked(d, asked) || !changes ||
			!names(j) && !saysReplaced(d) || how.elsewhere.of(j) || how.only(j) || asksWho && !saysReplaced(d) {
			continue
		}
		if chars == nil {
			chars = noStoryTerms(cands[i].Text)
		}
		if sharesStoryWord(d, &docs[i], chars, nil) {
			comps[j].Thread = max(comps[j].Thread, w.ThreadAnswer*rels[i])
		}
	}
}

// newerValues are the events that state a newer value of what a question
// naming an object asks for (one of its answer types, or the thing it names:
// askedNoun): of the object's events stating it, the most relevant is the
// value the ranking would give (best); a later one that says it changed or
// is new or another now (saysChanged, statesCurrent: "guest count raised to
// 95", "调整 为 1 120 元", "new estimate 80 EUR"; or, for a question asking
// how many, adds to it: "a fourth mover added", "增加 1 所 学校，共 4 所")
// and states a number the
// best does not state, or another word after the thing a "which …"
// question names ("moved to row C" after "row F": newAfterNoun, nounWords
// being the noun's terms), or says the thing is another, is the object's
// newer word on it. It names the object too, or names no object while the
// window holds no other, and
// shares a word with the best that says what it is about (storyWord, as for
// supersede): the object's name alone makes no story, as one object has many
// values ("13800138821 这个 月 多少 钱？": the plan changing from next month
// shares no such word with the month's bill that answers). Nil when none
// does. Not a later event restating the value ("CW-8830 renewed: 24.99 EUR
// taken" after "… 24.99 EUR a month"). An event naming the object and
// saying that the time asked moved (movesATime: "0412 moved to Tuesdays"
// for "which day is ENR/2026/0412?") is its newer word on it without a new
// number or a shared word: a time moved is the time asked (moves: the
// question asks when, not how long). A later event stating a balance the
// best states too ("CD-4471 余额 276 元" after "…：余额 200 元") is its newer
// value with no word of a change (balanceHashes: a balance changes with every
// use, and names the money type asked, typeNames; +2 −0 on the development
// sets). Asked how many of a thing (counted, its
// stem: countedNoun), an event writing a number right before the thing
// states what is asked though it states no count ("5 nights" is a length:
// countsNoun; +1 −0 on the development sets; any event matching the thing
// and writing a digit, +2 −2). Each newer event is marked newerValue,
// or newerTime when it says the time moved. best is the best's index.
func newerValues(rels []float64, comps []Components, cands []Candidate, docs []doc, asked [][]*answerType, clauses []uint64, noun uint64, counted string, nounWords []string, moves bool) (newer []uint8, best int) {
	stated := func(j int) bool {
		if counted != "" && rels[j] > 0 && countsNoun(cands[j].Text, counted) {
			return true
		}
		return rels[j] > 0 && statesAsked(&docs[j], asked) && (noun == 0 || j < len(clauses) && clauses[j]&noun != 0)
	}
	best = -1
	for j := range docs {
		if comps[j].Identifier == 1 && stated(j) && (best < 0 || rels[j] > rels[best]) {
			best = j
		}
	}
	if best < 0 {
		return nil, best
	}
	// (whether the best introduces the object: only what it was introduced
	// as, the object's kind, is another when the object itself is)
	intro := true
	for j := range docs {
		if comps[j].Identifier == 1 && cands[j].Time.Before(cands[best].Time) {
			intro = false
			break
		}
	}
	counting := asksFor(asked, CountTerm)
	// (money asked and the best states a sum: an event naming money by a
	// word alone, "upgraded at no extra cost", states no newer sum: markSum)
	sum := asksFor(asked, MoneyTerm) && docs[best].marks&markSum != 0
	bestBalance := hasAny(&docs[best], balanceHashes) // (a balance stated again is newer)
	var chars []uint64                                // (the best's noStoryTerms and numbers, once one is needed)
	others := 0                                       // whether the window holds another object (anotherObject), once needed: 1 no, 2 yes
	for j := range docs {
		d := &docs[j]
		// (or, naming the object, says it is another now and names no
		// other thing, nor a time: "SUB-0093 upgraded to Business" after
		// "…: Pro plan" for "what plan is sub0093eu?"; not "FR-A2-11
		// switched to Wednesdays 19:00" for "which room …?"; and only
		// when the best introduces the object: "RS-88107 upgraded to a
		// junior suite" is no newer "safe box code 4471")
		if !cands[j].Time.After(cands[best].Time) {
			continue
		}
		balance := bestBalance && hasAny(d, balanceHashes)
		if !saysChanged(d) && !statesCurrent(d) && !(counting && hasAny(d, addedHashes)) && !balance ||
			!stated(j) && !(noun != 0 && intro && saysReplaced(d) && d.count(timeHash) == 0 && replacesItself(d)) {
			continue
		}
		if sum && (d.marks&markSum == 0 || hasAny(d, refundHashes)) {
			continue // (money back is no newer sum: "replacement leg sent, 40 EUR credit")
		}
		if comps[j].Identifier < 1 {
			if others == 0 {
				others = 1
				if anotherObject(best, docs) {
					others = 2
				}
			}
			if namesOwnID(d) || others == 2 {
				continue
			}
		}
		moved := moves && comps[j].Identifier == 1 && movesATime(d, cands[j].Text)
		if !moved && !saysReplaced(d) && !newNumber(cands[j].Text, cands[best].Text) && !newAfterNoun(cands[j].Text, cands[best].Text, nounWords) {
			continue
		}
		if chars == nil {
			chars = numberTerms(cands[best].Text, noStoryTerms(cands[best].Text))
		}
		if !slices.ContainsFunc(d.terms(), func(h uint64) bool {
			return docs[best].count(h) > 0 && d.storyWord(h) && !slices.Contains(chars, h)
		}) && !namesTypeAsked(d, asked) && !moved {
			// (a number is a value, and the object's name tells no story of
			// one of them; the type's name does: "quantity raised to 1,000"
			// for "500 business cards")
			continue
		}
		if newer == nil {
			newer = make([]uint8, len(docs))
		}
		newer[j] = newerValue
		if moved {
			newer[j] = newerTime
		}
	}
	return newer, best
}

// countsNoun reports a text writing a number right before a word of the stem
// counted ("KN-6120 extended to 5 nights" counts nights): a number of its
// own, not an identifier's digits ("PH-2208 session 4 moved" counts no
// sessions).
func countsNoun(text, counted string) bool {
	ws := strings.Fields(normalise(text))
	for k := 1; k < len(ws); k++ {
		if isNumber(strings.TrimLeft(ws[k-1], "(")) && stem(strings.Trim(ws[k], ",.;:!?)")) == counted {
			return true
		}
	}
	return false
}

// balanceHashes are the terms of words naming a balance, a value that
// changes with every use: a later event stating one is its newer value
// (newerValues), and names the money type (typeNames).
var balanceHashes = stemHashes("balance", "余额")

// The kinds of newer event newerValues marks.
const (
	newerValue uint8 = 1 + iota // a newer value of what is asked
	newerTime                   // a time asked, moved (movesATime)
)

// newNumber reports that text states a number (a run of digits) that old
// does not.
func newNumber(text, old string) bool {
	olds := strings.FieldsFunc(old, notDigit)
	return slices.ContainsFunc(strings.FieldsFunc(text, notDigit), func(n string) bool { return !slices.Contains(olds, n) })
}

// numberTerms appends to hs the hashes of the numbers (runs of digits) in
// text.
func numberTerms(text string, hs []uint64) []uint64 {
	for _, n := range strings.FieldsFunc(text, notDigit) {
		hs = append(hs, termHash(n))
	}
	return hs
}

func notDigit(r rune) bool { return r < '0' || r > '9' }

// asksFor reports that one of a question's clauses asks for the answer type
// of the term.
func asksFor(asked [][]*answerType, term string) bool {
	return slices.ContainsFunc(asked, func(c []*answerType) bool {
		return slices.ContainsFunc(c, func(t *answerType) bool { return t.term == term })
	})
}

// noStoryTerms are the hashes of a text's terms that tell no story when
// another event shares them: its Chinese characters as terms of their own
// (a character alone is no word two events share: "下次 加强针" and "复查
// 改到 下周四" tell two stories; its pairs are), and its numbers of one or
// two digits, a time's or a date's ("3月 2日", "9:30"), which a change of
// another thing shares by chance ("第 2 周 周六 课 … 改 到 线上").
func noStoryTerms(text string) []uint64 {
	out := []uint64{}
	add := func(t string) {
		if h := termHash(t); !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	norm := normalise(text)
	for _, r := range norm {
		if isCJK(r) {
			add(string(r))
		}
	}
	for _, w := range strings.FieldsFunc(norm, func(r rune) bool { return r < '0' || r > '9' }) {
		if len(w) <= 2 {
			add(w)
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
// two words WordNet knows as a noun (or does not know at all, as a trade's
// word: "what worktop is KF-3306 getting?"), before an auxiliary, a pronoun or a
// preposition, or ending the question ("what happened to …" names none:
// "happened" is no noun), or after "what is the", "what's my" ("what's the
// excess on 88120?": excess) or "what is the latest …" ("what's the
// latest bill?": bill). A word saying something changed names no thing
// ("what's the newest update on my rental?" asks for any), nor does the
// status asked ("what is the status of claim A?"). A question whether its
// object has a thing names it too, after "have a", "has an", "got any"
// ("does HS-4410 have a certificate yet?": certificate).
func askedNoun(words, terms []string) uint64 {
	for k, w := range words {
		n, end := 0, len(words) // (the noun's words begin at n; the question's end)
		switch {
		case w == "what" || w == "which":
			var ok bool
			if n, ok = nounAfter(words, k); !ok {
				return 0
			}
		case (w == "have" || w == "has" || w == "got") && k > 0 && k+2 < len(words) && (words[k+1] == "a" || words[k+1] == "an" || words[k+1] == "any"):
			n = k + 2 // (whether the object has the thing: "does HS-4410 have a certificate yet?", its "yet" no part of it)
			if last := words[end-1]; last == "yet" || last == "already" || last == "now" {
				end--
			}
		default:
			continue
		}
		var bits uint64
		for m := n; m < end && m < n+3; m++ {
			if nounFollowers[words[m]] {
				if m > n {
					return bits
				}
				break
			}
			if m == n+2 || stopWords[words[m]] || strings.HasSuffix(words[m], "ed") || !nounLike(words[m]) || changeWord(termHash(stem(words[m]))) {
				break
			}
			j := slices.Index(terms, stem(words[m]))
			if j < 0 || j >= 64 {
				break
			}
			bits |= 1 << j
			if m+1 == end {
				return bits // (the question ends with it: "CI-5520 what cover?", "which gate?")
			}
		}
	}
	return 0
}

// nounAfter is where the words naming the thing a "what …" or "which …"
// question (its "what" at k) asks for begin: after "is my" ("what's the
// excess on 88120?", "what is my plan?") and a word of the newest ("what's
// the latest bill?"), and after "kind of" ("what kind of car?"); not ok for
// one asking where its object stands ("what is the status of claim A?").
func nounAfter(words []string, k int) (n int, ok bool) {
	n = k + 1
	if n+2 < len(words) && beWords[words[n]] && ownerWords[words[n+1]] {
		if !newestWords[words[n+2]] && newsWord(stem(words[n+2])) {
			return 0, false
		}
		n += 2
		if newestWords[words[n]] {
			n++
		}
	}
	if n+1 < len(words) && (words[n] == "kind" || words[n] == "type" || words[n] == "sort") && words[n+1] == "of" {
		n += 2
	}
	return n, true
}

// terseNoun is the clauses (as askedNoun's) of the thing a terse question
// about an object asks for by naming it alone after the object: "JX-6032
// 学费？", "RF-2025 original quote?", "lc20260039 comments?". Its words are
// the object's (ids, the letters after an id's number, and a word before a
// number labelling it: "room 204") and one or two nouns, or one after a
// word saying which of it ("TL-7718 next fitting?"): nounLike, not a news
// word ("AP-6612 status?" asks where it stands), nor one saying a change;
// or its Chinese, two to four characters after it, with no question word.
// The thing named is what is asked, and an event of the object's story not
// naming it says nothing of it, as for a "what …" question.
func terseNoun(q text, ids, terms []string) uint64 {
	var bits uint64
	n := 0
	for k, w := range q.words {
		if strings.ContainsAny(w, "0123456789") || slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(id, w) || strings.HasSuffix(id, w) }) ||
			k+1 < len(q.words) && strings.ContainsAny(q.words[k+1], "0123456789") {
			continue // (the object's, its letters after the number ("RJ/7718/S"), and the word labelling it: "order 5001", "br 905")
		}
		n++
		if n == 1 && k+2 == len(q.words) && !nounLike(w) && knowsAs(w, 'a') && !newsWord(stem(w)) && !stopWords[w] {
			continue // (a word saying which of the thing: "TL-7718 next fitting?")
		}
		j := slices.Index(terms, stem(w))
		if n > 2 || j < 0 || j >= 64 || stopWords[w] || strings.HasSuffix(w, "ed") || !nounLike(w) || newsWord(stem(w)) || changeWord(termHash(stem(w))) {
			return 0
		}
		bits |= 1 << j
	}
	var run []rune // (the question's Chinese characters: one noun after the object)
	for _, r := range q.norm {
		if isCJK(r) {
			run = append(run, r)
		}
	}
	if len(run) > 0 {
		if n > 0 || len(run) < 2 || len(run) > 4 || strings.ContainsAny(string(run), cjkQuestionChars) || newsWord(string(run)) {
			return 0
		}
		for k := 0; k+1 < len(run); k++ {
			if j := slices.Index(terms, string(run[k:k+2])); j >= 0 && j < 64 {
				bits |= 1 << j
			}
		}
	}
	return bits
}

// cjkQuestionChars are the characters of Chinese question words (什么, 哪,
// 几, 多少, 怎么, 吗, 呢, 谁): a question holding one asks by them, not by
// the thing it names alone.
const cjkQuestionChars = "什么哪几多少怎吗呢谁"

// nounLike reports a word WordNet knows as a noun, or does not know at all
// and is letters (a trade's word: "worktop"), as the thing a question names.
func nounLike(w string) bool { return knowsAs(w, 'n') || !knows(w) && isLetters(w) }

var (
	ownerWords  = map[string]bool{"the": true, "my": true, "our": true, "your": true}
	newestWords = map[string]bool{"latest": true, "newest": true, "current": true, "last": true}
)

// cjkCounted are the measure words that make 几 ask how many, not which.
const cjkCounted = "节个次天位件张份本盒瓶岁点分块元周名人间台辆只条把斤"

// askedCJKNoun is askedNoun for a Chinese question: the two characters after
// 哪个 (哪家, 哪间, …) or 什么 name the thing it asks for ("我坐哪个车厢？",
// "是什么车厢？": 车厢), and so do the two before 怎么样 or 如何 ("结果怎么样？"
// asks for the result, as "what is the result?" does), and so do the two
// before 多少 ("套餐是多少？"), unless they name no thing (什么时候,
// 出什么事了, 情况怎么样).
func askedCJKNoun(norm string, terms []string) uint64 {
	rs := []rune(norm)
	for k := 2; k+1 < len(rs); k++ {
		how := rs[k] == '怎' && rs[k+1] == '么' && k+2 < len(rs) && rs[k+2] == '样' || rs[k] == '如' && rs[k+1] == '何'
		if !how || !nounPair(rs[k-2:k]) {
			continue
		}
		if j := slices.Index(terms, string(rs[k-2:k])); j >= 0 && j < 64 {
			return 1 << j
		}
	}
	for k := 2; k+1 < len(rs); k++ {
		// the two before 多少 (or 是多少) name the thing whose number is asked
		// ("5501 的 套餐 是 多少？", "月租多少？"), as "what's the plan of …?"
		// does; not a deed's (充了多少: 了) nor a time's (这个月多少: no
		// pair of the question's terms)
		if rs[k] != '多' || rs[k+1] != '少' {
			continue
		}
		e := k
		if rs[e-1] == '是' {
			e--
		}
		if e < 2 || rs[e-1] == '过' || !nounPair(rs[e-2:e]) {
			continue
		}
		if j := slices.Index(terms, string(rs[e-2:e])); j >= 0 && j < 64 {
			return 1 << j
		}
	}
	for k := 0; k+2 < len(rs); k++ {
		// the two after 几 name the thing whose number is asked ("几 年级？",
		// "几 号楼？"), as "which grade?" does; not a count's, whose measure
		// word follows 几 (几 节 课, 几 个 人: cjkCounted), nor a time's (几点,
		// 几号: no pair of the question's terms)
		if rs[k] != '几' || k > 0 && rs[k-1] == '茶' || strings.ContainsRune(cjkCounted, rs[k+1]) || !nounPair(rs[k+1:k+3]) {
			continue // (茶几 is a table; "几 节 课" counts lessons)
		}
		if j := slices.Index(terms, string(rs[k+1:k+3])); j >= 0 && j < 64 {
			return 1 << j
		}
	}
	for k := 0; k+3 < len(rs); k++ {
		which := rs[k] == '哪' && strings.ContainsRune(cjkWhichMeasures, rs[k+1])
		what := rs[k] == '什' && rs[k+1] == '么' && (k == 0 || rs[k-1] != '为')
		if !which && !what || !nounPair(rs[k+2:k+4]) {
			continue
		}
		if j := slices.Index(terms, string(rs[k+2:k+4])); j >= 0 && j < 64 {
			return 1 << j
		}
	}
	return 0
}

// askedCJKHead is the one character that ends a Chinese question after 什么,
// 哪个 (哪间, 哪张, …) or 几 and names the thing it asks for ("KJ-8830 什么
// 房？", "0839 哪 个 科？", "XL-6614 在 几 营？"), 0 for any other: not after 为 (为什么), nor one asking
// what happened or how (什么事, 什么样: cjkNoNounChars). An event names it
// only as the end of one of its words (namesHead).
func askedCJKHead(norm string) rune {
	rs := []rune(strings.TrimRight(norm, "?？!！。 "))
	n := len(rs)
	if n < 3 || !isCJK(rs[n-1]) || strings.ContainsRune(cjkNoNounChars, rs[n-1]) {
		return 0
	}
	what := rs[n-3] == '什' && rs[n-2] == '么' && (n < 4 || rs[n-4] != '为')
	which := rs[n-3] == '哪' && strings.ContainsRune(cjkWhichMeasures, rs[n-2])
	// (几 before a thing of numbers, "在 几 营？", "几 床？": which of them; not 几
	// before a unit of time or a measure, 几点, 几天, 几个, 几节: a time or a
	// count)
	number := rs[n-2] == '几' && !strings.ContainsRune(cjkMeasures+cjkUnits+"节", rs[n-1])
	if !what && !which && !number {
		return 0
	}
	return rs[n-1]
}

// cjkNoNounChars are the characters that, alone after 什么 or 哪个 at the
// end of a question, name no thing ("出什么事？", "什么样？").
const cjkNoNounChars = "事样时的呀啊呢吗了吧"

// namesHead reports that text writes the character r as the end of a word
// (before a character that is no Chinese one, or at its end): the head of a
// Chinese compound names a kind of it (景观 房, 一等座, 骨科), its first
// character does not (房型, 车票).
func namesHead(text string, r rune) bool {
	rs := []rune(text)
	for i, c := range rs {
		if c == r && (i+1 == len(rs) || !isCJK(rs[i+1])) {
			return true
		}
	}
	return false
}

// nounPair reports two characters of a question that may name the thing it
// asks about (askedCJKNoun): both Chinese, neither a particle (cjkParticles:
// "护照用什么寄的？" names no 寄的, "为什么不是靠窗？" no 不是, pairs its words
// make only when it is written unspaced), and no pair of cjkNoNouns.
func nounPair(p []rune) bool {
	return isCJK(p[0]) && isCJK(p[1]) && !cjkParticles[p[0]] && !cjkParticles[p[1]] && !strings.Contains(cjkNoNouns, string(p))
}

// cjkNoNouns are what follows 什么, or comes before 怎么样, and names no thing
// ("什么时候", "什么意思", "进度怎么样": where a thing stands).
const cjkNoNouns = "时候 时间 意思 原因 情况 问题 事情 事了 事儿 东西 地方 样的 变化 变动 改变 进度 进展 状态"

// cjkWhichMeasures are the measure words after 哪 that make "which …" (哪台
// of a machine, 哪部 of a phone, 哪件 of a thing).
const cjkWhichMeasures = "个家间张条趟班位辆座台部件套本份只"

// nounFollowers end the noun a "what …" question asks for.
var nounFollowers = map[string]bool{"is": true, "are": true, "was": true, "were": true, "am": true, "did": true, "does": true,
	"do": true, "has": true, "have": true, "had": true, "will": true, "would": true, "can": true, "could": true, "should": true,
	"i": true, "we": true, "you": true, "they": true, "my": true, "for": true, "on": true, "in": true, "at": true, "of": true,
	"to": true, "from": true, "with": true}

// saysChanged reports an event saying that something changed (changeHashes):
// "moved to Thursday", "seat changed to 21C", 改期.
func saysChanged(d *doc) bool { return d.marks&markChanged != 0 }

// saysAChange reports an event saying something changed, is another now or
// has a new value ("moved to Friday", "replaced by", "new date 18 June").
func saysAChange(d *doc) bool { return d.marks&(markChanged|markReplaced|markCurrent) != 0 }

// saysReplaced reports an event saying that a thing is another now
// (replacedHashes): "upgraded to Premium", "switched to OS499", 换成.
func saysReplaced(d *doc) bool { return d.marks&markReplaced != 0 }

// replacesItself reports an event saying that its object itself is another
// now, naming no other thing of it before the word saying so (markItself:
// changesItself): "GM-330 upgraded to Premium", not "0719 tyre replaced".
func replacesItself(d *doc) bool { return d.marks&markItself != 0 }

// statesCurrent reports an event stating a thing's new or current value
// ("New installation date: 10 June", "total now 342 EUR": NowTerm; a sum
// "in total": "wall tiles added, 1,240 EUR in total"; the actual one:
// "复核：读数 抄 错，实际 12 吨", "actually 12 tons") or that
// it is another now (saysReplaced: "replaces INV-66310").
func statesCurrent(d *doc) bool { return d.marks&(markReplaced|markCurrent) != 0 }

// withChangeMarks is d with the marks of the words saying that something
// changed (saysChanged, saysReplaced, statesCurrent), found once when the
// event is analysed: a question asking for the newest checks every
// candidate for them.
// A line that only asks ("can I change the colour to blue?") says nothing
// changed, nor does a word asking the customer to change something ("update
// your card within 7 days", "please replace the filter").
func (d doc) withChangeMarks(norm string) doc {
	if d.count(questionHash) > 0 {
		return d
	}
	var joined string // (Chinese written with spaces, joined: spacedSaid)
	if d.marks&scriptCJK != 0 {
		joined = string(joinedCJK([]rune(norm)))
	}
	if (hasAny(&d, changeHashes) && !attributiveOnly(&d, norm) || spacedSaid(norm, joined, changeWords)) && !onlyAsked(norm, changeHashes) && !(joined != "" && onlySuggestedCJK(joined, changeWords)) {
		d.marks |= markChanged
	}
	if (hasAny(&d, replacedHashes) || spacedSaid(norm, joined, replacedWords)) && !onlyAsked(norm, replacedHashes) && !(joined != "" && onlySuggestedCJK(joined, replacedWords)) {
		d.marks |= markReplaced
		if changesItself(cmp.Or(joined, norm)) { // (read joined: "改 为" says 改为)
			d.marks |= markItself
		}
	}
	if hasAny(&d, currentHashes) && !newCounted(&d, norm) {
		d.marks |= markCurrent
	}
	if d.marks&(markChanged|markReplaced|markCurrent) != 0 && (laterCues.in(textOf(norm)) || joined != "" && joined != norm && laterCues.in(textOf(joined))) {
		d.marks |= markLater // (Chinese spaced as a segmenter leaves it, "下 月 起", read joined)
	}
	return d
}

// takesEffectLater reports an event saying a change takes effect later
// ("rises to 5,500 from next month", "下月 起 改 为 88 元", "合同 到期 后 涨 到
// 5500 元"): for a question asking what something is now (not when), it
// states no new value yet.
func takesEffectLater(d *doc) bool { return d.marks&markLater != 0 }

// laterCues mark the words of a change taking effect later.
var laterCues = newCueSet([]string{"from next month", "from next year", "from next week", "next month", "next year",
	"下月起", "下个月起", "下月", "下个月", "次月起", "明年起", "到期后", "续约后", "下期起"})

// newCounted reports a text whose only word of a current value is "new"
// after a count: "6 new sockets", "2 new tyres fitted" count new things, and
// say no value is new.
func newCounted(d *doc, norm string) bool {
	if slices.ContainsFunc(currentHashes, func(h uint64) bool { return h != newHash && d.count(h) > 0 }) {
		return false
	}
	words := strings.Fields(norm) // (not an identifier's digits: "PR-5502 new file", "20455 new student ID")
	for k, w := range words {
		if strings.Trim(w, ",.;:!?()") == "new" && (k == 0 || !(isNumber(words[k-1]) && len(words[k-1]) <= 3) && !numberWords[words[k-1]]) {
			return false
		}
	}
	return true
}

// attributiveOnly reports a text whose only word of a change is "extended"
// before a noun, a kind of thing and no change ("extended warranty 3 years,
// 79 EUR"; not "extended to 31 March", "extended by 2 nights").
func attributiveOnly(d *doc, norm string) bool {
	if d.count(extendHash) == 0 || slices.ContainsFunc(changeHashes, func(h uint64) bool { return h != extendHash && d.count(h) > 0 }) {
		return false
	}
	words := wordsOf(norm)
	for k, w := range words {
		if termHash(stem(w)) == extendHash && (k+1 == len(words) || extendedThen[words[k+1]]) {
			return false
		}
	}
	return true
}

var extendHash = termHash(stem("extended"))

// extendedThen are the words after "extended" that make it a change: "to",
// "by", "until" a new value.
var extendedThen = map[string]bool{"to": true, "by": true, "until": true, "till": true, "into": true, "for": true, "through": true, "from": true}

// spacedSaid reports one of the Chinese words said across a space ("调 到
// 650 元" says 调到): a word's characters, spaced as a segmenter leaves
// them, are no pair of the analysis; nor, spaced or not, are a word's of
// three characters or more ("增加到35份" says 增加到). joined is norm with
// the spaces between its Chinese characters taken out ("" when it has
// none).
func spacedSaid(norm, joined string, words []string) bool {
	if joined == "" {
		return false
	}
	spaced := joined != norm
	return slices.ContainsFunc(words, func(w string) bool {
		return strings.IndexFunc(w, isCJK) >= 0 && (spaced || utf8.RuneCountInString(w) >= 3) && strings.Contains(joined, w)
	})
}

// onlyAsked reports that each of a text's words (norm: the text
// normalised) whose terms are hs asks the customer to do it ("update your
// card", "please replace the filter": the word in its plain form, not "-ed",
// before whose thing it is to change), only suggests it ("we suggest
// moving up a level": suggesting), or, in its plain form before a number,
// names its price ("upgrade 60 EUR charged": a noun, no change said).
func onlyAsked(norm string, hs []uint64) bool {
	words := wordsOf(norm)
	asked := false
	for k, w := range words {
		if !slices.Contains(hs, termHash(stem(w))) {
			continue
		}
		before := ""
		if k > 0 {
			before = words[k-1]
		}
		if before == "to" && k > 1 {
			before = words[k-2]
		}
		if !suggesting[before] && (strings.HasSuffix(w, "ed") || k+1 == len(words) || !requestObjects[words[k+1]] && !isNumber(words[k+1])) {
			return false // (a change the text states)
		}
		asked = true
	}
	return asked
}

// suggesting are the words before a change word that only suggest it: "we
// suggest moving up a level", "we recommend switching", "you might want to
// change".
var suggesting = map[string]bool{"suggest": true, "suggests": true, "recommend": true, "recommends": true, "advise": true,
	"advises": true, "propose": true, "proposes": true, "consider": true, "want": true, "like": true, "can": true, "could": true,
	"might": true, "should": true, "offered": true, "proposed": true, "suggested": true} // (not "may": "3 May moved to 5 May"; "offered instead": an offer)

// onlySuggestedCJK reports a text (its Chinese joined) whose every Chinese
// word of words comes right after a word only suggesting it ("建议 更换": a
// replacement advised, none made), and that has one.
func onlySuggestedCJK(text string, words []string) bool {
	found := false
	for _, w := range words {
		if strings.IndexFunc(w, isCJK) < 0 {
			continue
		}
		for from := 0; ; {
			k := strings.Index(text[from:], w)
			if k < 0 {
				break
			}
			if !slices.ContainsFunc(suggestingCJK, func(s string) bool { return strings.HasSuffix(text[:from+k], s) }) {
				return false
			}
			found = true
			from += k + len(w)
		}
	}
	return found
}

// suggestingCJK are the Chinese words before a change word that only
// suggest it: 建议 (advise), 推荐 (recommend), 可以 (could).
var suggestingCJK = []string{"建议", "推荐", "可以"}

// requestObjects follow a change word that asks for the change: "update
// your card", "change the address".
var requestObjects = map[string]bool{"your": true, "the": true, "my": true, "our": true, "it": true, "them": true, "this": true, "that": true}

var (
	newHash       = termHash("new")
	currentHashes = []uint64{newHash, nowTermHash, termHash("新"), termHash(stem("total")), termHash("实际"), termHash(stem("actually"))}
)

// hasAny reports that the event has one of the terms hs.
func hasAny(d *doc, hs []uint64) bool {
	return slices.ContainsFunc(hs, func(h uint64) bool { return d.count(h) > 0 })
}

// hasAll reports that the event has each of the terms hs.
func hasAll(d *doc, hs []uint64) bool {
	return !slices.ContainsFunc(hs, func(h uint64) bool { return d.count(h) == 0 })
}

// replacedHashes are the terms of words saying that a thing is another now:
// what a later event says of the thing a question names ("what plan …?")
// without naming it. Not a change of time ("moved", "delayed"), which says
// nothing of which seat or which plan.
var replacedHashes = stemHashes(replacedWords...)

var replacedWords = []string{"changed", "upgraded", "downgraded", "switched", "replaced", "swapped", "converted", "instead", "exchanged", "exchange",
	"换成", "改为", "改成", "更换", "升级", "降级", "升舱", "升房", "reassigned", "改派", "改由"}

// doneMarks are the terms of the words saying that something is done
// (成功, 完成, 送达, 签收, 到账, 缴纳, 已付 …; 发货 too, as "shipped" is in
// finishedWords; not 已 alone: "已 申请 换货" is a request under way): what
// a question asking whether it has happened looks for.
var doneMarks = stemHashes("发货", "成功", "完成", "送达", "签收", "到账", "缴纳", "已缴", "已付", "已还", "已退", "退回", "已处理", "缴清", "付清", "还清", "结清")

// saysDone reports an event saying that something is done: one of
// doneMarks, or of finishedWords as written (a stem would take "delivery" for
// "delivered", "refund issued" for "refunded"), or, for a question about
// money (money), of paidWords: "Planetarium trip 8.00 EUR paid" is no answer
// to "did they get the form?". (Not sellingVerbs' doneWords, which hold
// "requested", "ordered", "booked": a thing under way.)
func saysDone(d *doc, text string, money bool) bool {
	if hasAny(d, doneMarks) {
		return true
	}
	if d.marks&scriptLatin == 0 {
		return false
	}
	paid := paidWords
	if !money {
		paid = nil
	}
	return saysWord(text, finishedWords, paid)
}

// saysWord reports that text holds an English word of a or b (lower-cased),
// as written: a word a stem would confuse with another ("reported" with a
// report). (Two sets, not a func: a map indexed by the word's bytes converts
// them without allocating.)
func saysWord(text string, a, b map[string]bool) bool {
	var buf [24]byte
	for i := 0; i < len(text); {
		w, next := latinWord(text, i, &buf)
		if len(w) > 0 && (a[string(w)] || b[string(w)]) {
			return true
		}
		i = next
	}
	return false
}

// latinWord is the run of ASCII letters at text[i:], lower-cased in buf
// (nil when it is longer than buf, or none starts there), and where the next
// one may start.
func latinWord(text string, i int, buf *[24]byte) (w []byte, next int) {
	j, n := i, 0
	for ; j < len(text) && ('a' <= text[j] && text[j] <= 'z' || 'A' <= text[j] && text[j] <= 'Z'); j++ {
		if n < len(buf) {
			buf[n] = text[j] | 0x20 // (lower case)
		}
		n++
	}
	if n > len(buf) {
		n = 0
	}
	return buf[:n], j + 1
}

// finishedWords are the English words saying that something is done
// ("shipped" and "dispatched" too: a thing on its way is done for whether it
// has left, and a step of whether it has come, whose "delivered" is newer;
// "replaced": a part replaced is a repair done),
// and paidWords those saying that money was paid.
var (
	finishedWords = map[string]bool{"succeeded": true, "completed": true, "done": true, "resolved": true, "fixed": true,
		"delivered": true, "received": true, "approved": true, "processed": true, "activated": true, "repaired": true,
		"cleared": true, "collected": true, "executed": true, "shipped": true, "dispatched": true, "replaced": true,
		"returned": true, "fitted": true, "finished": true, "ready": true, "released": true, "transferred": true}
	paidWords = map[string]bool{"paid": true, "prepaid": true, "refunded": true, "credited": true, "settled": true, "reimbursed": true}
)

// standingHashes are the terms of words saying whether a thing still holds:
// that it no longer does ("cancelled", "waived", "closed") or that it still does
// ("unpaid", "overdue"). A later event saying so answers whether it still
// holds, whatever the question asks for: "Appeal accepted; PF-88120
// cancelled" for "do I still have to pay the parking fine?".
var standingHashes = slices.Concat(endedHashes, stemHashes("unpaid", "outstanding", "overdue", "未付", "未缴", "逾期"))

// endedHashes are the terms of words saying that a thing no longer holds
// ("cancelled", "waived", "revoked"), and liftedHashes those saying that
// what held it up was lifted ("released", "unlocked", "reset", 解除, 补缴:
// arrears paid, 还款: a bill repaid): with a time moved, a decision or a
// step done, what may end a state (ended).
var (
	endedHashes = stemHashes("cancelled", "canceled", "waived", "withdrawn", "voided", "annulled", "revoked", "expired", "closed", "settled", "resolved",
		"取消", "撤销", "作废", "免除", "过期")
	liftedHashes = stemHashes("released", "unlocked", "unblocked", "lifted", "freed", "reset", "reinstated", "restored", "reactivated", "resumed", "enabled",
		"dropped", "dismissed", "解除", "解封", "解冻", "恢复", "放行", "撤回", "注销", "补缴", "补交", "还款")
)

// changeWords say that something changed, and changeHashes are their terms:
// a time moved (timeMoves), a value raised or lowered (valueChangedWords), or
// any other thing.
var changeWords = slices.Concat(timeMoves, []string{"changed", "updated", "instead", "renewed", "resized", "expanded", "enlarged", "shortened",
	"改为", "改成", "换成", "更换", "更改", "修改", "变更", "reassigned", "改派", "改由",
	"corrected", "recalculated", "revised", "amended", "更正", "修正", "重新计算",
	"chose", "opted"}, valueChangedWords)

// timeMoves are the changes whose new value is a time ("rescheduled",
// "extended to 10 Dec", 推迟, 改到, 续期; and, stating a time, "adjusted" and
// 调整: "航班 时间 调整 为 09:40" after "改签 到 5 月 2 日 08:10" is the
// flight's time, +1 −0 on the development sets); movedWords are they and "brought"
// ("brought forward", which says nothing changed by itself), and movedHashes
// their terms.
var (
	timeMoves   = []string{"moved", "rescheduled", "postponed", "rebooked", "delayed", "extended", "改期", "改到", "改至", "换到", "推迟", "提前", "延期", "延长", "改签", "续借", "续租", "续约", "续期", "调整", "adjusted"}
	movedWords  = append(slices.Clip(timeMoves), "brought")
	movedHashes = stemHashes(movedWords...)
)

// movesATime reports an event (d, of text) saying that a time moved
// (movedWords, in Chinese across a space too: "改 到 12 月 12 日",
// spacedSaid): a later one on the object asked about, stating a time, is
// its newer time whatever thing's time it names ("55-A extended to 10 Dec"
// for "BR-55-A until when?").
func movesATime(d *doc, text string) bool {
	if hasAny(d, movedHashes) {
		return true
	}
	if d.count(renewHash) > 0 && slices.Contains(plainWords(text), "renewed") {
		return true // ("PP-5521 renewed until 31 May"; as written: a "renewal offer" moves nothing)
	}
	if d.marks&scriptCJK == 0 {
		return false
	}
	norm := normalise(text)
	return spacedSaid(norm, string(joinedCJK([]rune(norm))), movedWords)
}

// renewHash is the term of "renewed" (and of "renewal", which movesATime
// tells apart by the word as written).
var renewHash = termHash(stem("renewed"))

// valueChangedWords say that a value was raised or lowered to another
// ("raised to 78 EUR", 调到 650 元, 上调, 降价): changes (changeWords), and
// what a price question looks for (repriced).
var valueChangedWords = []string{"raised", "increased", "reduced", "lowered", "decreased",
	"调到", "调为", "调至", "上调", "下调", "涨到", "涨至", "涨价", "降到", "降至", "降价", "增加到", "增至", "减少到", "减至"}

var changeHashes = stemHashes(changeWords...)

// stemHashes are the terms of words, each as the analysis gives it: its stem
// (a Chinese word's pair is its term).
func stemHashes(words ...string) []uint64 {
	hs := make([]uint64, len(words))
	for i, w := range words {
		hs[i] = termHash(stem(w))
	}
	return hs
}

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

// anotherObject reports an event naming an identifier (not an amount) that
// the i-th does not name.
func anotherObject(i int, docs []doc) bool {
	for j := range docs {
		for k := range int(docs[j].nOwn) {
			if x := docs[j].own(k); !x.amount && !docs[i].names(x) {
				return true
			}
		}
	}
	return false
}

// typeNames are the words that name an answer type's value in an event
// ("quantity raised to 1,000", "guest count now 52", "new estimate 80
// EUR"): a later event naming the type asked with a new value tells of what
// the question asks as the event stating it does, in other words than its.
// A count's and a sum's only (a price, a total, a balance): a time's
// ("date", 日期) names one of many an object has ("开课 日期 推迟" is not
// the lessons' weekday that "哪 天 上课？" asks for).
var typeNames = map[string][]uint64{
	CountTerm: stemHashes("count", "quantity", "headcount", "number", "数量", "人数"),
	MoneyTerm: slices.Concat(stemHashes("price", "cost", "fee", "total", "amount", "estimate", "quote", "价格", "费用", "金额", "总价", "报价"), balanceHashes),
}

// namesTypeAsked reports that an event names an answer type asked by its
// word (typeNames), or, asked who, a person by name (markNamed: "sitter
// changed to Jonas" names who now).
func namesTypeAsked(d *doc, asked [][]*answerType) bool {
	for _, c := range asked {
		for _, t := range c {
			if t.term == PersonTerm && d.marks&markNamed != 0 || slices.ContainsFunc(typeNames[t.term], func(h uint64) bool { return d.count(h) > 0 }) {
				return true
			}
		}
	}
	return false
}

// countedNoun is the clause bit of the thing "how many …" counts ("how many
// seats on SUB-EU-00417?": seats), and its term; 0 and "" when none: a newer
// value naming it ("00417 seats increased to 8") matches the question as the
// best event stating the count does (newerValues). The last of its words
// ("how many ACME shares …": shares), nounLike as for askedNoun.
func countedNoun(words, terms []string) (uint64, string) {
	for k := 0; k+2 < len(words); k++ {
		if words[k] != "how" || words[k+1] != "many" {
			continue
		}
		// the last of up to three words before an auxiliary, a pronoun, a
		// preposition or the end ("how many ACME shares do I own?": shares)
		m := k + 2
		for m+1 < len(words) && m+1 < k+5 && !nounFollowers[words[m+1]] && !stopWords[words[m+1]] {
			m++
		}
		w := words[m]
		if stopWords[w] || nounFollowers[w] || !nounLike(w) {
			return 0, ""
		}
		if j := slices.Index(terms, stem(w)); j >= 0 && j < 64 {
			return 1 << j, terms[j]
		}
		return 0, ""
	}
	return 0, ""
}

// newAfterNoun reports that text writes a word after one of the nouns (their
// stems) that old writes another after ("moved to row C" after "row F"),
// each read at the noun's first place in it.
func newAfterNoun(text, old string, nouns []string) bool {
	if len(nouns) == 0 {
		return false
	}
	a, b := wordsOf(normalise(text)), wordsOf(normalise(old))
	return slices.ContainsFunc(nouns, func(n string) bool {
		x, y := wordAfterStem(a, n), wordAfterStem(b, n)
		return x != "" && y != "" && x != y
	})
}

// wordAfterStem is the word after the first of words whose stem is n, "" when
// none is or it ends them.
func wordAfterStem(words []string, n string) string {
	for i := 0; i+1 < len(words); i++ {
		if stem(words[i]) == n {
			return words[i+1]
		}
	}
	return ""
}

// asksDeed reports a question asking what was done about a thing ("what did
// you do to the laptop?", "what did IT do about the VPN?", "what was done
// about the scanner?", "做 了 什么？"): "what", then did/have/has/was, then
// do or done and what it was done to (not "what did my money do?").
func asksDeed(q text) bool {
	w := q.words
	for k := 0; k+2 < len(w); k++ {
		if w[k] != "what" || w[k+1] != "did" && w[k+1] != "have" && w[k+1] != "has" && w[k+1] != "was" && w[k+1] != "were" {
			continue
		}
		for m := k + 2; m < len(w) && m <= k+4; m++ {
			if (w[m] == "do" || w[m] == "done") && m+1 < len(w) && deedObjects[w[m+1]] {
				return true
			}
		}
	}
	return deedCues.in(q)
}

// deedObjects are the words after "do" that name what the deed was done to
// (or where: "what did they do in the last lesson?").
var deedObjects = map[string]bool{"to": true, "about": true, "with": true, "for": true, "on": true, "in": true}

var deedCues = newCueSet([]string{"做了什么", "干了什么", "处理了什么", "怎么处理的", "做了哪些"})

// saysDeed reports a line saying a deed done: an English past participle
// (a word ending in "ed", or an irregular one) other than those saying only
// where a case stands (closedWords: "resolved", "completed", "ready" is none),
// or a Chinese 已 before a verb other than those ("已 更换", not "已 完成").
func saysDeed(text string) bool {
	norm := normalise(text)
	for _, f := range strings.Fields(norm) {
		w := strings.Trim(f, ",.:;!?()'\"，：；")
		if w == "" || closedWords[w] {
			continue
		}
		if strings.HasSuffix(w, "ed") && len(w) > 4 || irregularDone[w] || w == "reset" {
			return true
		}
	}
	joined := joinedSpaced(norm)
	if k := strings.Index(joined, "已"); k >= 0 {
		rest := joined[k+len("已"):]
		return rest != "" && !strings.HasPrefix(rest, "完成") && !strings.HasPrefix(rest, "关闭") && !strings.HasPrefix(rest, "解决") && !strings.HasPrefix(rest, "处理")
	}
	return false
}

// closedWords say only where a case stands, no deed done on it.
var closedWords = map[string]bool{"resolved": true, "completed": true, "closed": true, "finished": true, "done": true, "opened": true, "reopened": true,
	"received": true, "requested": true, "booked": true, "scheduled": true, "confirmed": true, "approved": true, "processed": true,
	"charged": true, "paid": true, "delayed": true, "reported": true, "needed": true, "required": true, "expected": true}

// namesItsEnd reports that m names by a number alone the end or a part of
// an identifier j introduces, which the story's first event does not name:
// "9910 held at UPS Access Point" after "OR-66120 shipped, tracking 1Z 88A 77
// 21 0443 9910" (the parts of j's identifiers are its nums: partHashes).
func namesItsEnd(m, j, first *doc) bool {
	for k := range int(m.nOwn) {
		x := m.own(k)
		if !x.bare || x.amount {
			continue
		}
		if _, ok := slices.BinarySearch(j.nums(), x.full); ok && !first.names(x) {
			return true
		}
	}
	return false
}

// anotherSum reports that the j-th event states a sum the k-th, which states
// sums, does not: a payment of another sum than it.
func anotherSum(j, k int, cands []Candidate, docs []doc) bool {
	return docs[k].count(moneyHash) > 0 && newSum(cands[j].Text, sumsStated(cands[k].Text))
}

// sumKinds are kinds of sum a payment is of: a deposit is not the rent, nor
// a fine the fee it was fined for (English words, Chinese ones in a text).
var sumKinds = []string{"deposit", "rent", "balance", "fee", "fees", "salary", "refund", "payout", "premium", "fine", "tuition", "excess", "instalment", "installment",
	"押金", "定金", "订金", "租金", "房租", "尾款", "余款", "罚款", "工资", "退款", "学费", "保费"}

// sumKindBits are the English sumKinds' bits (sumKindsIn).
var sumKindBits = func() map[string]uint32 {
	m := map[string]uint32{}
	for k, kind := range sumKinds {
		if kind[0] < utf8.RuneSelf {
			m[kind] = 1 << k
		}
	}
	return m
}()

// anotherKind reports that text names kinds of sum (sumKindsIn) and none of
// kinds.
func anotherKind(text string, kinds uint32) bool {
	in := sumKindsIn(text)
	return in != 0 && in&kinds == 0
}

// sumKindsIn is the set of sumKinds text names, as bits in sumKinds' order.
func sumKindsIn(text string) uint32 {
	var set uint32
	var buf [24]byte
	for i := 0; i < len(text); {
		w, next := latinWord(text, i, &buf)
		set |= sumKindBits[string(w)]
		i = next
	}
	for k, kind := range sumKinds {
		if kind[0] >= utf8.RuneSelf && strings.Contains(text, kind) {
			set |= 1 << k
		}
	}
	return set
}

// remedyCues ask what is being done about a problem ("what are you doing
// about the scratched chair?", "what's happening about the scratch?", "what
// about the broken eggs?", "划痕 怎么 处理？").
var remedyCues = newCueSet([]string{"doing about", "done about", "happening about", "what about", "do about", "怎么处理", "如何处理", "怎么解决", "怎么办",
	"get anything for", "got anything for", "get anything back for", "got anything back for", "money back for", "compensation for"})

// remedyHashes are the terms of the words naming a remedy: amends made
// (amendsHashes), money given back (refundHashes: a credit, a compensation),
// a replacement, a repair again.
var remedyHashes = slices.Concat(amendsHashes, refundHashes, stemHashes("replacement", "redo", "补发", "更换", "返工", "重做"))

// remedied lets the later events on what the most relevant event reports
// ("Complaint: one chair leg scratched (FN-77124)") answer a question asking
// what is being done about it, or what one got for it: the newest word on it
// is what was done ("Replacement leg for
// FN-77124 sent"). A later event saying a deed done (saysDeed) or naming a
// remedy (remedyHashes), and naming the report's identifier, or, naming none
// of its own, sharing a word of what it is about (storyWord, as
// answeredLater), inherits all of its match (wA), and its recency decides
// among them.
func remedied(rels []float64, comps []Components, cands []Candidate, docs []doc, w Weights) {
	top := mostRelevant(rels)
	if len(top) == 0 || hasAny(&docs[top[0]], remedyHashes) {
		return // (the report names its remedy: "Complaint: chicken … spoiled; 12.00 EUR credit added")
	}
	i := top[0]
	var chars []uint64
	for j := range docs {
		if !cands[j].Time.After(cands[i].Time) {
			continue
		}
		if !saysDeed(cands[j].Text) && !hasAny(&docs[j], remedyHashes) {
			continue // (a deed done, or a remedy: not "LD-3390 ready for pickup")
		}
		tied := sharesAnIdentifier(&docs[i], &docs[j])
		if !tied && !namesOwnID(&docs[j]) && !namesOwnID(&docs[i]) {
			// (by a word, where neither names an object of its own: "Refund
			// 3.10 EUR for eggs approved" after "2 eggs broken reported")
			if chars == nil {
				chars = noStoryTerms(cands[i].Text)
			}
			tied = sharesStoryWord(&docs[j], &docs[i], chars, nil)
		}
		if tied {
			comps[j].Thread = max(comps[j].Thread, w.ThreadAnswer*rels[i])
		}
	}
}
