package relevance_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/freshctx/freshctx/internal/evalset"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/relevance"
)

// prefixed is an identifier with a letter prefix: INV-1040, O-5001, RA-3301.
var prefixed = regexp.MustCompile(`\b([A-Za-z]{1,6})([-_/]?)([0-9]{3,})\b`)

// respell writes a prefixed identifier as customers also type it: without its
// separator when it has one (INV-1040 → inv1040), with one when it has none
// (INV1040 → inv-1040), in lower case.
func respell(id string) string {
	m := prefixed.FindStringSubmatch(id)
	if m[2] == "" {
		return strings.ToLower(m[1]) + "-" + m[3]
	}
	return strings.ToLower(m[1]) + m[3]
}

// Customers name an order by its number alone ("order 5001") as often as by the
// form the events use (O-5001). The labelled identifier questions that name a
// prefixed identifier, asked with the number alone, must rank about as well
// as asked as written.
//
// And an identifier typed another way (INV1040, inv-1040 for INV-1040) is the
// same identifier: those questions rank exactly as written.
func TestIdentifiersByTheirNumberAlone(t *testing.T) {
	only := func(rewrite func(string) string) func([]evalset.Case) []evalset.Case {
		return func(cases []evalset.Case) []evalset.Case {
			var out []evalset.Case
			for _, c := range cases {
				var qs []evalset.Question
				for _, q := range c.Questions {
					if q.Kind == "identifier" && prefixed.MatchString(q.Q) {
						if rewrite != nil {
							q.Q = prefixed.ReplaceAllStringFunc(q.Q, rewrite)
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
	emb := testenv.LocalEmbedder(t, 384)
	asWritten := evaluateCases(t, relevance.DefaultWeights, emb, only(nil)).Get("all", "identifier")
	byNumber := evaluateCases(t, relevance.DefaultWeights, emb, only(func(id string) string { return prefixed.FindStringSubmatch(id)[3] })).Get("all", "identifier")
	respelled := evaluateCases(t, relevance.DefaultWeights, emb, only(respell)).Get("all", "identifier")
	t.Logf("%d identifier questions naming a prefixed identifier: MRR %.3f as written, %.3f by the number alone, %.3f typed another way", asWritten.N, asWritten.MRR, byNumber.MRR, respelled.MRR)
	if asWritten.N < 10 || byNumber.MRR < asWritten.MRR-0.05 {
		t.Errorf("by the number alone MRR %.3f against %.3f as written (%d questions)", byNumber.MRR, asWritten.MRR, asWritten.N)
	}
	if respelled.MRR < asWritten.MRR-0.05 {
		t.Errorf("typed another way MRR %.3f against %.3f as written", respelled.MRR, asWritten.MRR)
	}
}

// A long number is named by its end as well ("the parcel ending 23871", "尾号
// 0301"): the last four, five or six digits of an identifier's number of
// seven or more name it, and not its sibling's; so do its last three when it
// has seven or more ("033 办完了吗？" for SB20261105033), but only as a
// question's number alone: the question naming SF1460023871 does not name
// the event whose 871 is a sum. A number with leading zeros is named without
// them ("8820" for GH-08820). A line opening with its last three as a label
// ("118 多 缴 200 元") is named by the long number too, by a number with
// leading zeros when they leave three ("894 locker" for MC-00894), and by a
// prefixed number of three digits ("361 moved" for FL/361/OPO).
func TestALongNumberByItsEnd(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "shipping", Time: ago(58), Text: "Parcel SF1460023871 picked up: to Berlin"},
		{Source: "shipping", Time: ago(49), Text: "Parcel SF1460023888 picked up: to Hamburg"},
		{Source: "shipping", Time: ago(22), Text: "SF1460023871 delivered, signed for by reception"},
		{Source: "orders", Time: ago(10), Text: "Order DD20260301 shipped"},
		{Source: "bookings", Time: ago(5), Text: "Appointment GH-08820 moved to Monday"},
		{Source: "billing", Time: ago(3), Text: "Customs fee 871 paid"},
		{Source: "billing", Time: ago(2), Text: "Account 4400218: bill 92.40 EUR"},
	}
	namedBy(t, cands, map[string][]bool{
		"who signed for 23871?":         {true, false, true, false, false, false, false},
		"where is the one ending 3888?": {false, true, false, false, false, false, false},
		"0301 发货 了 吗？":                  {false, false, false, true, false, false, false},
		"has 871 arrived?":              {true, false, true, false, false, true, false},   // (the last three of seven digits or more; and the 871 written)
		"has SF1460023871 arrived?":     {true, false, true, false, false, false, false},  // (not the sum 871)
		"when is 8820 now?":             {false, false, false, false, true, false, false}, // (without its leading zero)
		"218 三月 多少？":                    {false, false, false, false, false, false, true},
	})
	// a number of seven digits is named by its last four, five and six too:
	// "20433" for CLM-55-20433 (written together, 5520433), not its sibling
	claims := []relevance.Candidate{
		{Source: "claims", Time: ago(40), Text: "Claim CLM-55-20418: water damage in the kitchen"},
		{Source: "claims", Time: ago(30), Text: "Claim CLM-55-20433: stolen bicycle"},
	}
	namedBy(t, claims, map[string][]bool{"what do you need for 20433?": {false, true}, "0418 有 进展 吗？": {true, false}})
	// and a line opening with a long number's last three, as its label, is
	// named by the long number; not a sum opening a line
	fees := []relevance.Candidate{
		{Source: "fees", Time: ago(50), Text: "学费 缴费 单 XF2026-0901-118：6 800 元"},
		{Source: "fees", Time: ago(40), Text: "住宿 费 缴费 单 XF2026-0901-131：1 200 元"},
		{Source: "fees", Time: ago(30), Text: "118 多 缴 200 元，将 原路 退回"},
		{Source: "fees", Time: ago(20), Text: "131 已 缴"},
		{Source: "fees", Time: ago(10), Text: "200 元 已 退回"},
	}
	namedBy(t, fees, map[string][]bool{"XF20260901118 退 多少？": {true, false, true, false, false}, "XF20260901200 呢？": {false, false, false, false, false}})
	// so is a number with leading zeros by the three digits they leave
	cards := []relevance.Candidate{
		{Source: "members", Time: ago(40), Text: "Member card MC-00871: hot desk"},
		{Source: "members", Time: ago(30), Text: "Member card MC-00894: fixed desk"},
		{Source: "members", Time: ago(20), Text: "894 locker 22 assigned"},
		{Source: "members", Time: ago(10), Text: "871 meeting room credits: 4 hours left"},
	}
	namedBy(t, cards, map[string][]bool{"MC-00894 locker?": {false, true, true, false}})
	// and a prefixed number of three digits, also before letters, by the three
	flights := []relevance.Candidate{
		{Source: "flights", Time: ago(40), Text: "Charter FL/316/OPO booked: Porto, 12 seats"},
		{Source: "flights", Time: ago(30), Text: "Charter FL/361/OPO booked: Porto, 8 seats"},
		{Source: "flights", Time: ago(20), Text: "316 catering: fish menu"},
		{Source: "flights", Time: ago(10), Text: "361 moved to 9 Dec"},
	}
	namedBy(t, flights, map[string][]bool{"when is fl361opo?": {false, true, false, true}, "FL/316/OPO catering?": {true, false, true, false}})
	// and a line opening with the last group of two digits of a question's
	// identifier, as its label; not a count, a date or a clock's hour
	// opening a line
	work := []relevance.Candidate{
		{Source: "tickets", Time: ago(50), Text: "维修 工单 WX-20261130-04：水管 漏水"},
		{Source: "tickets", Time: ago(40), Text: "维修 工单 WX-20261130-14：门锁 坏 了"},
		{Source: "tickets", Time: ago(30), Text: "04 师傅 已 更换 阀门"},
		{Source: "tickets", Time: ago(25), Text: "14 已 换 新 锁芯"},
		{Source: "tickets", Time: ago(20), Text: "04 分钟 后 到"},
		{Source: "tickets", Time: ago(10), Text: "04:30 停水"},
	}
	namedBy(t, work, map[string][]bool{"WX-20261130-04 修 好 了 吗？": {true, false, true, false, false, false},
		"WX2026113014 换 了 吗？": {false, true, false, true, false, false}}) // (typed whole: its last two)
}

// A question's prefixed identifier names the event writing its prefix and
// number apart, as flights are written ("ba982" is "BA 982"), though a short
// number alone names nothing; not the sibling flight's.
func TestAPrefixWrittenApartNamesItsIdentifier(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "flights", Time: ago(56), Text: "Flight BA 982 to Berlin, 14:25, gate A12"},
		{Source: "flights", Time: ago(48), Text: "Flight BA 983 to London, 19:10, gate B7"},
		{Source: "flights", Time: ago(40), Text: "BA 982 gate changed to A18"},
		{Source: "flights", Time: ago(16), Text: "BA 983 gate changed from B7 to B11"},
	}
	namedBy(t, cands, map[string][]bool{"what gate for ba982?": {true, false, true, false}})
}

// Events writing a code apart from its number ("LISTP 48817", as airlines
// write a missing-bag report) tell the question's joined "listp48822" from
// its sibling: the identifier counts in full, as between two codes written
// together, and the sibling's event saying "found" does not outrank the
// question's bag.
func TestACodeWrittenApartInEventsHasSiblings(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "claims", Time: ago(58), Text: "Missing bag report LISTP 48817 opened: black suitcase"},
		{Source: "claims", Time: ago(48), Text: "Missing bag report LISTP 48822 opened: blue backpack"},
		{Source: "claims", Time: ago(38), Text: "LISTP 48817: bag found in Frankfurt, on its way to Lisbon"},
		{Source: "claims", Time: ago(28), Text: "LISTP 48822: still searching; you can claim 50 EUR a day for essentials"},
	}
	_, _, f := fused("listp48822 found yet?", cands)
	if f.IdentifierAlone {
		t.Errorf("listp48822 counted as the only one of its kind beside LISTP 48817: %+v", f)
	}
	scores, _ := relevance.Score(relevance.NewQuery("listp48822 found yet?", nil), cands, relevance.DefaultWeights, nil, testNow)
	if scores[2] >= scores[3] || scores[2] >= scores[1] {
		t.Errorf("the sibling's \"found\" %.3f ranks above the question's bag's events %.3f, %.3f", scores[2], scores[1], scores[3])
	}
}

// And a question writing a code's letters apart from its number ("what is
// VC 4410?") names it as written together: the question's "vc" is the
// identifier's prefix, not a word of its own. Not a word WordNet knows
// ("order 5001", "room 204", "br 220"), unless written in capitals ("BR
// 220"), nor a currency ("EUR 4410") or a unit.
func TestACodeWrittenApartInAQuestion(t *testing.T) {
	for q, want := range map[string][]string{"what is VC 4410?": {"vc4410"}, "inv 60215 paid?": {"inv60215"},
		"what did BR 220 cost?": {"br220"}, "did EX 5502 get paid?": {"ex5502"}, // (capitals: a code, though WordNet knows "br" and "ex")
		"is INV: 1040 paid?": {"inv1040"}, "is INV #1040 paid?": {"inv1040"}, "Order: 12345": {"12345"}, // (after a colon or " #" too)
		"order 5001 status": {"5001"}, "how much is EUR 4410?": {"4410"}, "is room 204 free?": {"204"}, "did br 220 come?": {"220"}} {
		if got := relevance.NewQuery(q, nil).Analysis.IDs; !slices.Equal(got, want) {
			t.Errorf("%q: identifiers %q, want %q", q, got, want)
		}
	}
	cands := []relevance.Candidate{
		{Source: "cards", Time: ago(55), Text: "Virtual card VC-4410 created for online shopping, limit 500.00 EUR"},
		{Source: "cards", Time: ago(41), Text: "VC-4410 payment of 89.99 EUR to GADGETWORLD declined: limit reached"},
		{Source: "cards", Time: ago(40), Text: "VC-4410 limit raised to 1,000.00 EUR"},
		{Source: "cards", Time: ago(38), Text: "VC-4410 payment of 89.99 EUR to GADGETWORLD approved"},
	}
	firstFor(t, cands, map[string]int{"what is VC 4410?": 0, "what is VC-4410?": 0})
}

// A label before a question's identifier ("number 4410", "ref 4410") only
// says that an identifier follows: it is no word of the question, which
// asks what 4410 is as "what is 4410?" does. "what is my tracking number?"
// keeps its word.
func TestALabelBeforeAnIdentifierIsNoWord(t *testing.T) {
	for q, want := range map[string]bool{"what is number 4410?": false, "ref 4410 status": false, "what is my tracking number?": true} {
		terms := relevance.NewQuery(q, nil).Analysis.Terms
		if got := slices.Contains(terms, "number") || slices.Contains(terms, "ref"); got != want {
			t.Errorf("%q: terms %q, want the label among them: %v", q, terms, want)
		}
	}
	cands := []relevance.Candidate{
		{Source: "cards", Time: ago(55), Text: "Virtual card VC-4410 created for online shopping, limit 500.00 EUR"},
		{Source: "cards", Time: ago(41), Text: "VC-4410 payment of 89.99 EUR to GADGETWORLD declined: limit reached"},
		{Source: "cards", Time: ago(40), Text: "VC-4410 limit raised to 1,000.00 EUR"},
		{Source: "cards", Time: ago(38), Text: "VC-4410 payment of 89.99 EUR to GADGETWORLD approved"},
	}
	firstFor(t, cands, map[string]int{"what is number 4410?": 0, "what is 4410?": 0})
}

// And the other way: an event naming a long number by its end ("...3390
// delivered", as carriers shorten it) names the question's whole identifier,
// not its sibling's. An identifier of other parts ("2026/INV/0042", a year,
// a kind, a number) is named by the number it ends in, and its year names
// nothing: the sibling invoice of the same year is no answer. A serial
// number's last five digits name it too ("99812" for SN 4C2-99812).
func TestAnEventNamingTheEndOfAnIdentifier(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "shipping", Time: ago(58), Text: "Parcel JD014600003312 from Anna's Shop: dispatched"},
		{Source: "shipping", Time: ago(51), Text: "Parcel JD014600003390 from Birkenhof: dispatched"},
		{Source: "shipping", Time: ago(34), Text: "...3390 delayed: address label unreadable"},
		{Source: "shipping", Time: ago(25), Text: "...3312 delivered to your neighbour"},
		{Source: "billing", Time: ago(20), Text: "Invoice 2026/INV/0042 issued: hosting, 180.00 EUR"},
		{Source: "billing", Time: ago(15), Text: "Payment received for 2026/INV/0043"},
		{Source: "billing", Time: ago(10), Text: "Payment plan agreed for 0042: 3 x 60.00 EUR"},
		{Source: "repairs", Time: ago(8), Text: "Warranty claim for serial SN 4C2-99870 registered"},
		{Source: "repairs", Time: ago(4), Text: "99812 repaired free of charge and shipped back"},
	}
	namedBy(t, cands, map[string][]bool{
		"JD014600003390 status?":             {false, true, true, false, false, false, false, false, false},
		"what's left on 2026/INV/0042?":      {false, false, false, false, true, false, true, false, false},
		"is 0043 paid?":                      {false, false, false, false, false, true, false, false, false},
		"what was billed in 2026?":           {false, false, false, false, false, false, false, false, false}, // (a year alone is no invoice's number)
		"do I have to pay for SN 4C2-99812?": {false, false, false, false, false, false, false, false, true},
	})
}

// A domain name is an identifier (shop-birke.de, acme.io): the question naming
// one finds its events, and not its sibling's under another top-level domain.
// An abbreviation ("e.g.", "a.m.") or a file's name (report.pdf) is none.
func TestADomainIsAnIdentifier(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "domains", Time: ago(50), Text: "Domain example-shop.com renewed for 1 year: 14.99 USD"},
		{Source: "domains", Time: ago(40), Text: "Domain example-shop.net renewal failed: card declined"},
		{Source: "domains", Time: ago(20), Text: "example-shop.net expires in 3 days; renew to keep it"},
	}
	namedBy(t, cands, map[string][]bool{"is example-shop.net renewed?": {false, true, true}})
	identifiersAre(t, map[string][]string{
		"Site shop-birke.de down":                         {"shop-birke.de"},
		"SSO enabled for acme.io by admin j.ortiz":        {"acme.io"},
		"see the attached report.pdf, e.g. its last page": nil,
		"open from 9 a.m. to 5 p.m.":                      nil,
		"Sending domain mail.kleinbau.de added":           {"mail.kleinbau.de"},
	})
}

// An event naming the end of another identifier of the question's object
// is about the object: the question names a car by its plate, the policy
// event holds the plate and the policy's long number, and "4588 已 续保"
// names the policy by its end. Not the sibling policy's "4512".
func TestAnEventNamingTheEndOfALinkedIdentifier(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "policies", Time: ago(57), Text: "车险 保单 PDAA2026330100004512：沪A·D7721，保费 4 120 元"},
		{Source: "policies", Time: ago(49), Text: "车险 保单 PDAA2026330100004588：沪B·K3309，保费 3 380 元"},
		{Source: "claims", Time: ago(31), Text: "4512 定损 2 300 元"},
		{Source: "policies", Time: ago(5), Text: "4588 已 续保，保费 3 210 元"},
	}
	_, comps, _ := fused("沪B·K3309 保费 现在 多少？", cands)
	for i, linked := range []bool{false, true, false, true} {
		if (comps[i].Identifier > 0) != linked {
			t.Errorf("%q: identifier %v, want linked %v", cands[i].Text, comps[i].Identifier, linked)
		}
	}
}

// A question naming an order asks what a follow-up line naming no object
// says when its word is there and not in the order's first event ("已 选
// 座" for 座位): the seat line ranks first, not the order's newest event
// (a question about where the order stands would be answered by that one).
func TestAQuestionAboutAFollowUpLine(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "orders", Time: ago(56), Text: "电影 票 订单 DY-8801：《流浪 地球 3》，周五 19:30，7 号 厅，2 张"},
		{Source: "orders", Time: ago(46), Text: "已 选 座：8 排 10、11 座"},
		{Source: "orders", Time: ago(35), Text: "加购 爆米花 套餐 39 元"},
		{Source: "orders", Time: ago(14), Text: "DY-8801 取票码 552901"},
		{Source: "notices", Time: ago(4), Text: "影院 停车 凭 票 免费 3 小时"},
	}
	firstFor(t, cands, map[string]int{"DY-8801 座位 在 哪？": 1, "DY-8801 取票码 多少？": 3})
	if _, _, f := fused("DY-8801 座位 在 哪？", cands); f.AsksStatus {
		t.Errorf("asks where DY-8801 stands; want what its seat line says")
	}
}

// A prefixed identifier typed without its number's zero padding is the
// padded one ("INC12345" for INC0012345, "GH-8820" for GH-08820), and not
// its sibling.
func TestAPaddedNumberTypedWithoutItsZeros(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "it", Time: ago(50), Text: "INC0012345 opened: VPN down"},
		{Source: "it", Time: ago(40), Text: "INC0012346 opened: printer jam"},
		{Source: "it", Time: ago(10), Text: "INC0012345 resolved"},
		{Source: "bookings", Time: ago(5), Text: "Appointment GH-08820 moved to Monday"},
	}
	namedBy(t, cands, map[string][]bool{
		"is INC12345 done?":   {true, false, true, false},
		"is inc-12346 fixed?": {false, true, false, false},
		"when is GH-8820?":    {false, false, false, true},
	})
}

// namedBy checks, for each question, which candidates name its identifier
// (an identifier score of 1).
func namedBy(t *testing.T, cands []relevance.Candidate, want map[string][]bool) {
	t.Helper()
	for q, named := range want {
		_, comps, _ := fused(q, cands)
		for i, w := range named {
			if (comps[i].Identifier == 1) != w {
				t.Errorf("%q: %q identifier %v, want named %v", q, cands[i].Text, comps[i].Identifier, w)
			}
		}
	}
}

// An identifier written in groups is named by its last group, with or
// without its zeros ("00312" and "312" for RE-24-00312, which reads
// re2400312), not its sibling; a licence key by its last group of letters
// and digits ("1AB6" for 7F3K-92QL-XM4P-1AB6), and the key asked whole names
// a line writing that group alone.
func TestAnIdentifierByItsLastGroup(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "billing", Time: ago(50), Text: "Invoice RE-24-00312: consulting October, 3,600.00 EUR"},
		{Source: "billing", Time: ago(40), Text: "Invoice RE-24-00329: consulting November, 2,880.00 EUR"},
		{Source: "billing", Time: ago(10), Text: "RE-24-00312 settled in full"},
	}
	namedBy(t, cands, map[string][]bool{
		"how much is still open on 00312?": {true, false, true},
		"is 329 paid?":                     {false, true, false},
	})
	// a last group of letters and digits names its identifier too (a
	// licence key's), not another's
	keys := []relevance.Candidate{
		{Source: "licences", Time: ago(57), Text: "Licence key 7F3K-92QL-XM4P-0ZD8 issued for Studio Pro, 2 seats"},
		{Source: "licences", Time: ago(47), Text: "Licence key 7F3K-92QL-XM4P-1AB6 issued for Studio Lite, 1 seat"},
		{Source: "activations", Time: ago(37), Text: "7F3K-92QL-XM4P-0ZD8 activated on LAPTOP-ANNA"},
	}
	namedBy(t, keys, map[string][]bool{"what is key 1AB6 for?": {false, true, false}, "where is 0ZD8 activated?": {true, false, true}})
	// and the key asked by its groups names a line writing its last alone
	// ("0ZD8 activation failed"), not its sibling's
	keys = append(keys, relevance.Candidate{Source: "activations", Time: ago(27), Text: "0ZD8 activation failed: key in use"},
		relevance.Candidate{Source: "activations", Time: ago(17), Text: "1AB6 reset by support"})
	namedBy(t, keys, map[string][]bool{"why did 7F3K-92QL-XM4P-0ZD8 fail?": {true, false, true, true, false}})
	// a last group of digits the same way ("1090 parking fine" for
	// T-88-1090, whose number 881090 is too short to have parts)
	trips := []relevance.Candidate{
		{Source: "trips", Time: ago(48), Text: "Trip T-88-1090: Fiat 500, 18 min, 6.30 EUR"},
		{Source: "trips", Time: ago(38), Text: "Trip T-88-1042: VW ID.3, 42 min, 14.70 EUR"},
		{Source: "trips", Time: ago(28), Text: "1090 parking fine forwarded: 25 EUR"},
		{Source: "trips", Time: ago(18), Text: "1042 damage already recorded"},
	}
	namedBy(t, trips, map[string][]bool{"why is there a fine on T-88-1090?": {true, false, true, false}})
}

// A prefixed identifier whose number has six digits is named by its last
// four, typed whole or not ("mu881907" and "1907" for MU-88-1907), not its
// sibling's.
func TestASixDigitNumberByItsLastFour(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "tickets", Time: ago(57), Text: "Ticket order MU-88-1907: 2 adults, timed entry 10:30"},
		{Source: "tickets", Time: ago(47), Text: "Ticket order MU-88-1944: 1 adult + audio guide"},
		{Source: "tickets", Time: ago(37), Text: "1907 entry time changed to 11:00"},
	}
	namedBy(t, cands, map[string][]bool{"when can we enter on mu881907?": {true, false, true}, "is 1907 paid?": {true, false, true}})
	// and by its last five, which a code of letters and a digit before it
	// ("TR3-") leaves when typed whole: vchtr351207 reads vchtr and 351207
	vouchers := []relevance.Candidate{
		{Source: "vouchers", Time: ago(57), Text: "Gift voucher VCH-TR3-51207: 50 EUR, valid until 31 March"},
		{Source: "vouchers", Time: ago(47), Text: "Gift voucher VCH-TR3-51270: 25 EUR, valid until 30 June"},
		{Source: "vouchers", Time: ago(37), Text: "51207 used at checkout, 12 EUR left"},
		{Source: "vouchers", Time: ago(27), Text: "51270 extended to 31 December"},
	}
	namedBy(t, vouchers, map[string][]bool{"vchtr351207 used?": {true, false, true, false}})
}

// An identifier ending in letters after its number is named by its head,
// without them ("KT-5512" and "5512" for KT-5512-SW, a line writing a
// rental's code without its branch's letters; "0562" for TC/0562/A, by a
// customer; "3309-RD", its last four and its letters, for SKU 52-3309-RD),
// not its sibling's.
func TestAnIdentifierByItsHead(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "rentals", Time: ago(57), Text: "Rental KT-5512-SW: camping stove, 2 days, 18 EUR"},
		{Source: "rentals", Time: ago(47), Text: "Rental KT-5521-SW: two-person tent, 4 days, 60 EUR"},
		{Source: "rentals", Time: ago(37), Text: "KT-5512 returned, all parts present"},
		{Source: "rentals", Time: ago(27), Text: "5512 deposit refunded"},
		{Source: "rentals", Time: ago(17), Text: "KT-5521 pole broken, 12 EUR charged"},
	}
	namedBy(t, cands, map[string][]bool{
		"kt5512sw returned?":     {true, false, true, true, false},
		"what about KT-5521-SW?": {false, true, false, false, true},
	})
	// and a customer names it by the head's number ("0562" for TC/0562/A)
	members := []relevance.Candidate{
		{Source: "club", Time: ago(57), Text: "Member no. TC/0562/A: tennis, renews 1 April"},
		{Source: "club", Time: ago(47), Text: "Member no. TC/0526/A: tennis, renews 1 June"},
	}
	namedBy(t, members, map[string][]bool{"when does 0562 renew?": {true, false}})
	// and, when its number is long, by its last four and the letters
	// ("3309-RD" for SKU 52-3309-RD)
	caps := []relevance.Candidate{
		{Source: "stock", Time: ago(57), Text: "Item SKU 52-3309-RD: red cap, 30 in stock"},
		{Source: "stock", Time: ago(47), Text: "Item SKU 52-3309-BK: black cap, 4 in stock"},
		{Source: "stock", Time: ago(37), Text: "3309-RD reorder placed, 100 units"},
		{Source: "stock", Time: ago(27), Text: "3309-BK sold out"},
	}
	namedBy(t, caps, map[string][]bool{"sku523309rd reorder?": {true, false, true, false}, "is 3309-BK sold out?": {false, true, false, true}})
}

// An event naming a question's object only in part (one group of "7730
// 0421", which a sibling shares) is no way to the object's other events:
// the other identifiers it names ("0412") are its sibling's, not the
// question's object's.
func TestNoLinkThroughAnEventNamingTheObjectInPart(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "customs", Time: ago(57), Text: "Customs entry CE 31 NL 7730 0412: 2 crates, held"},
		{Source: "customs", Time: ago(47), Text: "Customs entry CE 31 NL 7730 0421: 5 crates, released"},
		{Source: "customs", Time: ago(37), Text: "0412 duty paid"},
		{Source: "customs", Time: ago(27), Text: "0412 released, out for delivery"},
	}
	_, comps, _ := fused("is 7730 0421 released?", cands)
	if comps[1].Identifier != 1 {
		t.Errorf("%q: identifier %v, want 1", cands[1].Text, comps[1].Identifier)
	}
	for _, i := range []int{2, 3} {
		if comps[i].Identifier != 0 {
			t.Errorf("%q: identifier %v, want 0 (its sibling's)", cands[i].Text, comps[i].Identifier)
		}
	}
}

// An identifier of letters and digits is named without the letters it opens
// with, by a customer and by a line, typed with its separators or without
// ("6C-09" and "6c09" for TRIP-6C-09, "2211-A" for AW-2211-A), not its
// sibling's; a prefixed one keeps its own rule (its number).
func TestAnIdentifierWithoutItsLeadingLetters(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "school", Time: ago(57), Text: "Trip form TRIP-6C-09: museum visit 14 Nov, 12 EUR"},
		{Source: "school", Time: ago(47), Text: "Trip form TRIP-6C-14: ski week 2-7 Feb, 420 EUR"},
		{Source: "school", Time: ago(37), Text: "6C-09 payment received"},
		{Source: "school", Time: ago(27), Text: "6C-14 first instalment 210 EUR due 1 Dec"},
	}
	namedBy(t, cands, map[string][]bool{
		"when is 6c09's visit?":     {true, false, true, false},
		"trip6c14 how much is due?": {false, true, false, true},
		"TRIP-6C-14 paid?":          {false, true, false, true},
	})
	art := []relevance.Candidate{
		{Source: "sales", Time: ago(58), Text: "Artwork AW-2211-A: 'Blue Harbour', oil on canvas, 2,400 EUR"},
		{Source: "sales", Time: ago(48), Text: "Artwork AW-2211-C: 'Morning Fields', watercolour, 650 EUR"},
		{Source: "sales", Time: ago(38), Text: "2211-A framing done"},
	}
	namedBy(t, art, map[string][]bool{"what did 2211-A cost?": {true, false, true}, "aw2211c price?": {false, true, false}})
}

// A serial number of letters and digits is named by its end from its last
// letters ("KQ7" for 5CG2231KQ7), or by its last four when it ends in a
// letter ("Z52B" for QR7MZ52B), by a customer and by a line, not its
// sibling's; a short identifier has no such end ("AB12CD3").
func TestASerialNumberByItsEnd(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "it", Time: ago(56), Text: "Laptop serial 8HX4410TM5: warranty until 2027-06-30"},
		{Source: "it", Time: ago(46), Text: "Laptop serial 8HX4410TN5: warranty until 2026-11-30"},
		{Source: "it", Time: ago(36), Text: "TM5 keyboard replaced"},
		{Source: "it", Time: ago(26), Text: "TN5 fan noise reported"},
	}
	namedBy(t, cands, map[string][]bool{
		"until when is tm5 covered?":   {true, false, true, false},
		"what happened to 8HX4410TN5?": {false, true, false, true},
	})
	namedBy(t, []relevance.Candidate{
		{Source: "it", Time: ago(20), Text: "Locker AB12CD3 opened"},
		{Source: "it", Time: ago(10), Text: "CD3 cable missing"},
	}, map[string][]bool{"AB12CD3 status?": {true, false}})
	// one ending in a letter by its last four, from a letter
	namedBy(t, []relevance.Candidate{
		{Source: "it", Time: ago(56), Text: "Tablet S/N QR7MZ52B enrolled"},
		{Source: "it", Time: ago(46), Text: "Tablet S/N QR7MZ25B enrolled"},
		{Source: "it", Time: ago(36), Text: "Z52B screen replaced"},
		{Source: "it", Time: ago(26), Text: "Z25B lost"},
	}, map[string][]bool{"qr7mz52b repaired?": {true, false, true, false}, "was Z25B found?": {false, true, false, true}})
}

// A host's name is named by its first label when that holds letters and
// digits ("web-07" for web-07.eu-central, both ways), not its sibling's; a
// domain of words keeps its own rule (bakery-mueller.de).
func TestAHostByItsFirstLabel(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "infra", Time: ago(57), Text: "Host web-07.eu-central: 8 GB, nginx"},
		{Source: "infra", Time: ago(47), Text: "Host web-70.eu-central: 16 GB, nginx"},
		{Source: "infra", Time: ago(37), Text: "web-07 restarted after the kernel update"},
		{Source: "infra", Time: ago(27), Text: "web-70 certificate renewed"},
	}
	namedBy(t, cands, map[string][]bool{
		"how much memory does web-07 have?": {true, false, true, false},
		"web-70.eu-central certificate?":    {false, true, false, true},
	})
}

// A number written with its unit of measure is a quantity, no identifier
// ("1000M", a line's megabits; "300ml"; "10g").
func TestANumberWithItsUnitIsNoIdentifier(t *testing.T) {
	identifiersAre(t, map[string][]string{"KD-9920 升级 为 1000M": {"kd9920"}, "300ml bottle": nil, "流量 包 10G": nil,
		"Order 4410Q": {"4410q"}}) // (no unit: an identifier)
}

// A hardware (MAC) address written with colons is one identifier, as with
// dashes, and is named by its last four ("7E:A1", by a line and by a
// customer), not its sibling's; a clock ("20:30") is none. A later line
// naming it so tells its story: for "is the kitchen access point up?", the
// line saying it came back inherits the match of the one installing it.
func TestAHardwareAddressByItsEnd(t *testing.T) {
	identifiersAre(t, map[string][]string{"AP 5C:0B:91:44:7E:A1 installed": {"5c0b91447ea1"},
		"7E:A1 rebooted": {"7ea1"}, "meeting at 20:30": nil})
	cands := []relevance.Candidate{
		{Source: "network", Time: ago(56), Text: "Access point 5C:0B:91:44:7E:A1 installed in the kitchen"},
		{Source: "network", Time: ago(46), Text: "Access point 5C:0B:91:44:A1:7E installed in the garage"},
		{Source: "network", Time: ago(36), Text: "7E:A1 lost power at 09:12"},
		{Source: "network", Time: ago(26), Text: "A1:7E channel changed to 11"},
		{Source: "network", Time: ago(16), Text: "7E:A1 back up after a new adapter"},
	}
	namedBy(t, cands, map[string][]bool{
		"where is 5c0b91447ea1?":     {true, false, true, false, true},
		"what channel is A1:7E on?":  {false, true, false, true, false},
		"5C:0B:91:44:A1:7E channel?": {false, true, false, true, false},
	})
	if _, comps, _ := fused("is the kitchen access point up?", cands); comps[4].Thread == 0 {
		t.Errorf("the line naming the access point by its end inherits nothing: %+v", comps[4])
	}
}

// A number written in groups is one identifier before a colon too ("Mobile
// number 0176 4410 2290: Flex 20 GB"; a clock's colon is followed by its
// minutes, after an hour of one or two digits), and a question pasting a long number whole names the events
// that name it by its end ("5577 加 购 流量 包" for 13811225577); its groups
// are no words of the question.
func TestALongNumberPastedWhole(t *testing.T) {
	identifiersAre(t, map[string][]string{"Mobile number 0176 4410 2290: Flex 20 GB": {"017644102290"},
		"电费 户号 3302 1187 6604：11 月 312 元": {"330211876604"}, // (a colon after four digits: no clock)
		"电费 户号 3302 1187 6604 11 月 312 元": {"330211876604"}, // (nor the month after it a group)
		"电费 户号 0300 4417 26：11 月 312 元":   {"0300441726"},   // (nor after two digits no hour has)
		"Line 0176 4410 2290 12 months":   {"017644102290"}})
	cands := []relevance.Candidate{
		{Source: "contracts", Time: ago(56), Text: "手机 号 138 1122 5501：套餐 59 元"},
		{Source: "contracts", Time: ago(47), Text: "手机 号 138 1122 5577：套餐 19 元"},
		{Source: "contracts", Time: ago(29), Text: "5577 加 购 流量 包 10G，10 元"},
		{Source: "contracts", Time: ago(20), Text: "5501 申请 携号转网"},
	}
	namedBy(t, cands, map[string][]bool{"13811225577 加 了 什么？": {false, true, true, false}})
	// a question pasting it in its groups: they are no words of the
	// question's, which would hold the line introducing it above the answer
	firstFor(t, []relevance.Candidate{
		{Source: "stock", Time: ago(48), Text: "Barcode 4006 3810 1234 5: oat milk 1 l, stock 80"},
		{Source: "stock", Time: ago(38), Text: "12345 best-before soon: 20 units removed from the shelf"},
		{Source: "stock", Time: ago(28), Text: "12345 on offer: 3 for 2"},
	}, map[string]int{"4006 3810 1234 5 how many removed?": 1})
}

// identifiersAre checks the identifiers Analyze finds in each text.
func identifiersAre(t *testing.T, want map[string][]string) {
	t.Helper()
	for text, ids := range want {
		if got := relevance.Analyze(text).IDs; !slices.Equal(got, ids) {
			t.Errorf("%q: identifiers %q, want %q", text, got, ids)
		}
	}
}

// A phone number written with its country code names the one written with
// its trunk prefix or without either, and the reverse (+49 151 2345 6789 and
// 0151 2345 6789; +49 30 1234567 and 030 1234567, a number of two groups
// after its trunk prefix; +86 138 0013 8000 and 13800138000; +1 415 555 0100
// and 415 555 0100). Another line's is not.
func TestAPhoneNumberInItsOtherForm(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "lines", Time: ago(58), Text: "Line +49 151 2345 6789 activated on plan M"},
		{Source: "lines", Time: ago(48), Text: "Line +49 151 2345 6790 activated on plan S"},
		{Source: "lines", Time: ago(8), Text: "015123456789 upgraded to plan L"},
		{Source: "lines", Time: ago(4), Text: "客服 回访：+86 138 0013 8000"},
		{Source: "lines", Time: ago(2), Text: "Callback booked for 415 555 0100"},
	}
	identifiersAre(t, map[string][]string{"Call us on 030 1234567": {"0301234567"}, "Line 0151 23456789": {"015123456789"},
		"+49 30 1234567": {"49301234567"}, "seats 012 14 16 18": nil})
	cands = append(cands, relevance.Candidate{Source: "lines", Time: ago(1), Text: "Landline 030 1234567 moved to fibre"})
	namedBy(t, cands, map[string][]bool{
		"+49 30 1234567": {false, false, false, false, false, true},
	})
	cands = cands[:5]
	namedBy(t, cands, map[string][]bool{
		"what plan is +4915123456789 on?": {true, false, true, false, false},
		"0151 2345 6789":                  {true, false, true, false, false},
		"13800138000 谁 打 的？":              {false, false, false, true, false},
		"+1 415 555 0100":                 {false, false, false, false, true},
	})
}

// A year is a date two objects share, not an identifier tying them: flat
// 1705's bill naming 2026 is not about flat 1702, whose bill names 2026 too.
func TestAYearTiesNoObjects(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "property", Time: ago(56), Text: "房号 3-2-1702 物业费 2026 年 3 360 元"},
		{Source: "property", Time: ago(46), Text: "房号 3-2-1705 物业费 2026 年 2 980 元"},
		{Source: "property", Time: ago(36), Text: "1702 卫生间 漏水 报修"},
		{Source: "property", Time: ago(26), Text: "1705 已 缴 物业费"},
	}
	namedBy(t, cands, map[string][]bool{"1702 物业费 多少？": {true, false, true, false}})
}

// An identifier written in three groups or more is named by the groups after
// its first ("PD-012" for SH-PD-012; "4401 27" for "3301 4401 27") and by a
// group between others ("4410" of "3301 4410 27"), by a question and through
// the event naming it; not by a group its sibling shares ("3301"), nor an
// invoice's "1140" of HC-1140-03 (the number after a kind's letters names
// HC-1140), nor a phone's area code ("7700" of +44 7700 900456).
func TestAnIdentifierByItsInnerGroups(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "library", Time: ago(56), Text: "Member card 3301 4410 27 issued: adult, main branch"},
		{Source: "library", Time: ago(46), Text: "Member card 3301 4401 27 issued: child, east branch"},
		{Source: "library", Time: ago(36), Text: "4410 borrowed 3 books"},
		{Source: "library", Time: ago(26), Text: "4401 has one book overdue"},
		{Source: "library", Time: ago(16), Text: "3301 cards get a new design in spring"},
	}
	namedBy(t, cands, map[string][]bool{
		"what did 3301441027 borrow?": {true, false, true, false, false},
		"is 3301440127 overdue?":      {false, true, false, true, false},
	})
	namedBy(t, []relevance.Candidate{ // ("4410" is both cards': it names neither)
		{Source: "library", Time: ago(56), Text: "Member card 3301 4410 27 issued: adult, main branch"},
		{Source: "library", Time: ago(46), Text: "Member card 3301 4410 72 issued: child, east branch"},
		{Source: "library", Time: ago(36), Text: "4410 renewal letter sent"},
	}, map[string][]bool{"what did 3301441027 borrow?": {true, false, false}})
	namedBy(t, []relevance.Candidate{ // (a group of letters and digits, after a kind's letters too)
		{Source: "licences", Time: ago(56), Text: "Licence key LK-9Q2C-41: 10 seats"},
		{Source: "licences", Time: ago(46), Text: "Licence key LK-9Q2D-41: 5 seats"},
		{Source: "licences", Time: ago(36), Text: "9Q2C seats increased to 15"},
		{Source: "licences", Time: ago(26), Text: "9Q2D renewal approved"},
	}, map[string][]bool{"how many seats on lk9q2c41 now?": {true, false, true, false}})
	// a line opening with the last two groups of an account names it, not
	// its sibling; not a month, a sum or a count after a number
	identifiersAre(t, map[string][]string{"5518 27 loan approved": {"5518", "551827"}, "…5518 27 card sent": {"5518", "551827"},
		"5518 11 月 扣款": {"5518"}, "5518 12 元 退回": {"5518"}, "5518 2 boxes": {"5518"}})
	namedBy(t, []relevance.Candidate{
		{Source: "fund", Time: ago(56), Text: "Housing fund account 4410 5518 27: 2,400 EUR a month"},
		{Source: "fund", Time: ago(46), Text: "Housing fund account 4410 5518 72: 1,800 EUR a month"},
		{Source: "fund", Time: ago(36), Text: "5518 27 withdrawal 1,500 EUR"},
		{Source: "fund", Time: ago(26), Text: "5518 72 loan approved"},
	}, map[string][]bool{"was 4410551872's loan approved?": {false, true, false, true}, "4410 5518 27 withdrawal?": {true, false, true, false}})
	// a shipping container's number written apart is one identifier, named
	// with its check digit and by its serial before it
	identifiersAre(t, map[string][]string{"Container TGHU 551203 8 loaded": {"tghu5512038"}, "TGHU-551203-8 gated out": {"tghu5512038"}})
	namedBy(t, []relevance.Candidate{
		{Source: "freight", Time: ago(56), Text: "Container TGHU 551203 8 loaded at Hamburg"},
		{Source: "freight", Time: ago(46), Text: "Container TGHU 551230 1 loaded at Bremen"},
		{Source: "freight", Time: ago(36), Text: "5512038 held by customs"},
		{Source: "freight", Time: ago(26), Text: "551230 departed"},
	}, map[string][]bool{"why is TGHU 551203 8 late?": {true, false, true, false}, "tghu5512301 eta?": {false, true, false, true}})
	stores := []relevance.Candidate{
		{Source: "stores", Time: ago(56), Text: "Store SH-PD-012 opens until 21:00"},
		{Source: "stores", Time: ago(46), Text: "Store SH-PD-021 opens until 22:00"},
		{Source: "stores", Time: ago(36), Text: "PD-021 closed for a week: refit"},
		{Source: "stores", Time: ago(26), Text: "PD-012 now opens until 23:00"},
	}
	namedBy(t, stores, map[string][]bool{
		"why is SH-PD-021 closed?":    {false, true, true, false},
		"until when is shpd012 open?": {true, false, false, true},
	})
	identifiersAre(t, map[string][]string{"Invoice HC-1140-03: 101.00 EUR": {"hc114003", "101.00"}})
	namedBy(t, []relevance.Candidate{
		{Source: "cleaning", Time: ago(56), Text: "Home cleaning HC-1140 booked: every Friday, 66.00 EUR"},
		{Source: "cleaning", Time: ago(16), Text: "Invoice HC-1140-03: 101.00 EUR"},
	}, map[string][]bool{"what do I pay for HC-1140 each week?": {true, false}})
	namedBy(t, []relevance.Candidate{
		{Source: "telecom", Time: ago(56), Text: "Number port from +44 7700 900456 scheduled for 3 Dec"},
		{Source: "telecom", Time: ago(36), Text: "7700 900123: new SIM activated"},
	}, map[string][]bool{"is the port of 900456 done?": {true, false}})
}
