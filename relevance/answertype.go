package relevance

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// An answer type is what a question asks for, as question answering has
// classified questions since TREC: a question asking how much wants an amount,
// one asking when a time or a date, one asking why a cause. An event's
// analysis carries a type's term when its text states such a thing, and a
// question asking for it looks for that term like for a word of its own (its
// IDF comes from the candidates, so where every event states a time it tells
// nothing apart). No text analyses to these terms otherwise: none is a letter.
type answerType struct {
	term   string
	name   string                  // as Fusion.Asks says it
	hash   uint64                  // termHash(term)
	cues   cueSet                  // what marks a question asking for it
	states func([]rune, text) bool // whether a text (normalised; and as words) states it
	weight func(Weights) float64
	// eventOnly: a question that states it does not look for it (its own
	// words name it already)
	eventOnly bool
	gap       gapCue // a cue in two words apart ("what did Marco find?"), if any
	// alt is another term that states it as well for this question, if any
	// (timeOrLength: a length in months or years for "how long")
	alt uint64
}

// gapCue marks a question by a word (first) and, within the next few words,
// one of then: "did … find" asks for a finding, "where … class" for a place.
// A phrase cue would need each word between ("did they find", "did the
// doctor find", …).
type gapCue struct {
	first  string
	then   map[string]bool
	within int
	// unless: the words that, right after then's, make it no cue ("did you
	// find my sweater?" asks about a lost thing, not what was found wrong)
	unless map[string]bool
	// last: the words that are a cue after first, however far, only ending
	// the question ("what did the blood test show?", not "why did the show
	// stop?"), or before a preposition and one word, the thing it is of
	// ("what did the x-ray show for pt8821?")
	last map[string]bool
}

// ofWords name, after a question's last word, the thing it asks about.
var ofWords = map[string]bool{"for": true, "on": true, "of": true, "in": true, "about": true}

func (g gapCue) in(words []string) bool {
	if g.first == "" {
		return false
	}
	for i, w := range words {
		if w != g.first {
			continue
		}
		if k := len(words) - 1; k > i && g.last[words[k]] || k > i+2 && g.last[words[k-2]] && ofWords[words[k-1]] {
			return true
		}
		for k := i + 1; k < min(len(words), i+1+g.within); k++ {
			if g.then[words[k]] && (k+1 == len(words) || !g.unless[words[k+1]]) {
				return true
			}
		}
	}
	return false
}

// placeType is the answer type of a question asking for a place.
var placeType = answerTypes[slices.IndexFunc(answerTypes, func(t *answerType) bool { return t.term == PlaceTerm })]

var answerTypes = []*answerType{
	{MoneyTerm, "amount", 0, newCueSet(amountWords), statesAmount, func(w Weights) float64 { return w.Amount }, false, gapCue{}, 0},
	{QuantityTerm, "quantity", 0, quantityCues, byRunes(statesQuantity), func(w Weights) float64 { return w.Amount }, false, quantityGap, 0},
	{TimeTerm, "time", 0, newCueSet(timeWords), byRunes(statesTime), func(w Weights) float64 { return w.Time }, false, gapCue{}, 0},
	{ReasonTerm, "reason", 0, newCueSet(whyWords), statesReason, func(w Weights) float64 { return w.Reason }, false, gapCue{}, 0},
	{ReasonTerm, "fault", 0, newCueSet(faultCues), never, func(w Weights) float64 { return w.Reason }, false, gapCue{"did", findWords, 3, possessives, showWords}, 0},
	// (never asked: the reason's clause admits it, unless the question asks for a fault)
	{DelayTerm, "delay", 0, newCueSet(nil), never, func(w Weights) float64 { return w.Reason }, false, gapCue{}, 0},
	{PersonTerm, "person", 0, newCueSet(whoWords), byRunes(statesPerson), func(w Weights) float64 { return w.Person }, true, gapCue{"which", personWords, 2, nil, nil}, 0},
	{PlaceTerm, "place", 0, newCueSet(whereToWords), byRunes(statesPlace), func(w Weights) float64 { return w.Place }, true, gapCue{"where", placeAsked, 4, nil, nil}, 0},
	{InstructionTerm, "instruction", 0, newCueSet(instructionCues), byRunes(statesInstruction), func(w Weights) float64 { return w.Instruction }, true, gapCue{}, 0},
	{CountTerm, "count", 0, countCueSet, byRunes(statesCount), func(w Weights) float64 { return w.Count }, true, gapCue{}, 0},
	{FrequencyTerm, "frequency", 0, newCueSet(frequencyCues), statesFrequency, func(w Weights) float64 { return w.Count }, true, gapCue{}, 0},
	{SaidTerm, "said", 0, saidCueSet, byRunes(saidByStaff), func(w Weights) float64 { return w.Said }, true, gapCue{}, 0},
	{PercentTerm, "rate", 0, newCueSet(rateCues), byRunes(statesPercent), func(w Weights) float64 { return w.Amount }, false, gapCue{}, 0},
	{VerdictTerm, "verdict", 0, newCueSet(verdictCues), statesVerdict, func(w Weights) float64 { return w.Said }, true, gapCue{"did", nil, 0, nil, sayWords}, 0},
	{VehicleTerm, "vehicle", 0, newCueSet(vehicleCues), statesVehicle, func(w Weights) float64 { return w.Named }, true, gapCue{}, 0},
	{LevelTerm, "level", 0, newCueSet(levelCues), statesLevel, func(w Weights) float64 { return w.Named }, true, gapCue{}, 0},
	{FlightTerm, "flight", 0, newCueSet(flightCues), statesFlight, func(w Weights) float64 { return w.Named }, true, gapCue{}, 0},
	{TitleTerm, "title", 0, newCueSet(titleCues), byRunes(statesTitle), func(w Weights) float64 { return w.Named }, true, gapCue{}, 0},
	{ConsentTerm, "consent", 0, newCueSet(consentCues), statesConsent, func(w Weights) float64 { return w.Said }, true, gapCue{}, 0},
	// (never asked alone: a question asking how long asks for a time or a length, timeOrLength)
	{DurationTerm, "duration", 0, newCueSet(nil), byRunes(statesDuration), func(w Weights) float64 { return w.Time }, false, gapCue{}, 0},
}

// timeOrLength is the time type as a question asking how long asks for it:
// an event stating a length in months or years states it too ("how long is
// MB-5510?": "Contract MB-5510 started: 24 months").
var timeOrLength *answerType

// SaidTerm is the term of a chat line the business said: its speaker's label
// names an agent, a bot, staff or 客服 ("Chat (agent): skis count as special
// baggage", "客服：已为您申请减免"), the answer to "what did you tell me about
// …?".
const SaidTerm = "✎"

// saidCues mark a question asking what the business said.
var saidCues = []string{"did you say", "did you tell", "did you write", "did you answer", "did you reply", "were you saying",
	"was i told", "have i been told", "did the agent say", "did the agent tell", "did support say", "did support tell",
	"did they say", "did they tell", "did the bot say", "did customer service say", "you told me", "you said",
	"客服说", "客服怎么说", "你们说", "你们怎么说", "你说", "商家说", "客服回复", "怎么回复"}

var saidCueSet = newCueSet(saidCues)

// staffSpeakers and customerSpeakers are the two sides of a chat, as its
// speaker labels name them (speaker).
var staffSpeakers = map[string]bool{"agent": true, "bot": true, "staff": true, "support": true, "assistant": true,
	"operator": true, "host": true, "客服": true, "商家": true, "助手": true, "机器人": true}

var customerSpeakers = map[string]bool{"customer": true, "user": true, "client": true, "guest": true, "patient": true,
	"用户": true, "客户": true, "顾客": true}

// saidByCustomer reports a chat line of the customer's side (speaker).
func saidByCustomer(rs []rune) bool {
	who, _ := speaker(rs)
	return customerSpeakers[who]
}

// saidByStaff reports a chat line of the business's side ("Chat (agent):",
// "客服：").
func saidByStaff(rs []rune) bool {
	who, _ := speaker(rs)
	return staffSpeakers[who]
}

// VerdictTerm is the term of an event that reports what someone who checked
// or decided found ("surveyor report received, repair estimate 3,200 EUR",
// "Assessment: strained calf muscle", "检查 结果：轻度 近视，建议 配镜", "老师
// 评价：…"): the answer to "what did the surveyor say?", "医生 怎么 说？". Not
// what the business said in a chat (SaidTerm: "what did you say?").
const VerdictTerm = "⚖"

// verdictCues mark a Chinese question asking what someone found (怎么说,
// 说什么 of 医生, 报告, 老师, 片子); sayWords an English one ending on "say"
// or "show" after "did" ("what did the inspector say?", "what did the x-ray
// show?"). Not one of saidCues, which ask what the business said.
var (
	verdictCues = []string{"怎么说", "说什么", "说了什么", "怎么讲"}
	sayWords    = map[string]bool{"say": true, "show": true}
)

// verdictWords are the words reporting a finding or a decision.
var verdictWords = statedByWords{words: wordSet(`report reports result results resulted assessment assessed diagnosis diagnosed
	findings verdict opinion recommends recommended recommendation advised advice says`),
	cjk: newCJKWords("结果", "评价", "诊断", "报告", "建议", "认为", "意见", "结论", "医嘱")}

// statesVerdict reports a text (its runes, normalised, and as words) with a
// word of verdictWords, or labelled by who checked ("Engineer: pressure low,
// …", "Tuner's note: …": a word of personWords, and a colon) or by the check
// itself ("blood test: …": checkWords ending the label): a finding or a
// decision reported.
func statesVerdict(rs []rune, t text) bool {
	if verdictWords.in(rs) {
		return true
	}
	i := strings.IndexAny(t.norm, ":：")
	if i <= 0 || i > 30 || strings.HasPrefix(t.norm[i:], ":") && i+1 < len(t.norm) && t.norm[i+1] != ' ' {
		return false // (a label's colon, not a clock's: "visit Monday 10:00")
	}
	label, n := t.norm[:i], 0
	for label != "" {
		var w string
		w, label, _ = strings.Cut(strings.TrimLeft(label, " "), " ")
		if n++; n > 3 {
			return false
		}
		if personWords[strings.TrimSuffix(w, "'s")] || label == "" && checkWords[w] {
			return true // (a check's name ends its label: "blood test:", not "blood test booked:")
		}
	}
	return false
}

// checkWords name a check whose label reports what it found ("blood test:
// kidney values slightly high", "X-ray: no fracture").
var checkWords = map[string]bool{"test": true, "x-ray": true, "xray": true, "scan": true, "check": true, "inspection": true, "exam": true,
	"examination": true, "ultrasound": true, "mri": true, "diagnosis": true, "checkup": true, "check-up": true}

// asksIfTooMuch reports a question whether a thing is too much of
// something ("is my dog too heavy?", "are the trousers too long?"): what
// someone who checked found answers it, a verdict ("Check-up done: weight 38
// kg, overweight, less food advised").
func asksIfTooMuch(q text) bool {
	return len(q.words) > 2 && (q.words[0] == "is" || q.words[0] == "are") && slices.Contains(q.words, "too")
}

// VehicleTerm is the term of an event that names a vehicle by its make or
// kind ("VW Golf", "SUV instead of compact", "别克 GL8", "C2 自动挡"): the
// answer to "what car am I getting?", "which van is vr8812?", "租 的 什么
// 车？", which a line saying "car" alone ("pick-up desk moved to car park
// P3") does not state.
const VehicleTerm = "⛟"

// vehicleCues mark a question asking which vehicle (not "what model": of
// a phone or a laptop as often; nor 什么型号).
var vehicleCues = []string{"what car", "which car", "what vehicle", "which vehicle", "what van", "which van",
	"what make of car", "what kind of car", "什么车", "哪辆车", "哪辆", "什么车型", "车型是"}

// vehicleWords name a vehicle's make, model or kind, in English and
// Chinese (not the models whose name is another word too: Seat, Golf,
// Polo, Focus, Mini, Smart; their make or a word before them says it).
var vehicleWords = statedByWords{words: wordSet(`suv compact estate hatchback convertible saloon sedan minivan minibus coupe
	cabrio roadster vw volkswagen passat tiguan ibiza skoda octavia fabia fiat toyota corolla yaris prius honda bmw audi
	mercedes benz ford fiesta opel astra corsa renault clio peugeot citroen tesla kia hyundai nissan volvo mazda dacia jeep
	porsche lexus subaru mitsubishi suzuki cupra byd sprinter`),
	cjk: newCJKWords("大众", "丰田", "本田", "别克", "宝马", "奥迪", "奔驰", "特斯拉", "比亚迪", "日产", "福特", "现代", "起亚", "雪佛兰",
		"吉利", "长安", "蔚来", "小鹏", "五菱", "红旗", "哈弗", "手动挡", "自动挡", "轿车", "面包车", "商务车", "越野车", "电动车", "新能源车")}

// statesVehicle reports a text (its runes, normalised, and as words) naming
// a vehicle by a word of vehicleWords, or a vehicle's word (vehicleNouns)
// before its plate ("car LK19 XZT", "车牌 粤B·7K219") or with a word saying
// it is another now ("car changed to EF-9012", "upgraded to the
// long-wheelbase van").
func statesVehicle(rs []rune, t text) bool {
	if vehicleWords.in(rs) {
		return true
	}
	if !slices.ContainsFunc(t.words, func(w string) bool { return vehicleNouns[w] }) {
		return strings.Contains(t.norm, "车牌")
	}
	if slices.ContainsFunc(t.words, func(v string) bool { return slices.Contains(replacedWords, v) }) {
		return true
	}
	fs := strings.Fields(t.norm) // (a plate is one field: "AB-1234", not "ab", "1234")
	for k := 0; k+1 < len(fs); k++ {
		if vehicleNouns[strings.TrimFunc(fs[k], notLetterOrDigit)] && hasDigit(fs[k+1]) {
			return true
		}
	}
	return false
}

// vehicleNouns name a vehicle, not which one.
var vehicleNouns = map[string]bool{"car": true, "van": true, "vehicle": true, "plate": true, "registration": true, "truck": true, "bike": true}

// LevelTerm is the term of an event that states a level of skill or a
// course's ("B1", "Spanish A2", "intermediate", "初级", "六级"): the answer to
// "what level am I in?", "几 级？", which a line saying "level" alone does
// not state.
const LevelTerm = "▤"

// levelCues mark a question asking which level.
var levelCues = []string{"what level", "which level", "what grade", "which grade", "几级", "什么级别", "哪个级别", "什么水平", "哪个班"}

// levelWords name a level in words, English or Chinese; cefrLevels are
// the levels a language course names by a code (words of letters and
// digits, which statedByWords does not read).
var (
	levelWords = statedByWords{words: wordSet(`beginner beginners elementary intermediate advanced`),
		cjk: newCJKWords("初级", "中级", "高级", "入门", "进阶", "一级", "二级", "三级", "四级", "六级", "八级")}
	cefrLevels = wordSet(`a1 a2 b1 b2 c1 c2`)
)

// statesLevel reports a text (its runes, and as words) naming a level
// (levelWords, cefrLevels).
func statesLevel(rs []rune, t text) bool {
	return levelWords.in(rs) || slices.ContainsFunc(t.words, func(w string) bool { return cefrLevels[w] })
}

// FlightTerm is the term of an event that names a flight by its number
// ("rebooked to OS 123", "departed on EK147", "航班 MU5405"): the answer
// to "what flight am I on?", "which flight took 44018293?", which a line
// saying "flight" alone does not state.
const FlightTerm = "✈"

// flightCues mark a question asking which flight.
var flightCues = []string{"what flight", "which flight", "什么航班", "哪个航班", "哪班飞机", "航班号"}

// statesFlight reports a text (normalised, and as words) naming a flight
// number: an airline's two-character code, a letter first, and one to four
// digits, joined or apart by a space ("ek147", "os 123"); not a word of
// two letters before a number ("on 14", "to 12"), nor an identifier's
// prefix ("PL-4471").
func statesFlight(_ []rune, t text) bool {
	for k, w := range t.words {
		switch {
		case len(w) >= 3 && len(w) <= 6 && airlineCode(w[:2]) && isNumber(w[2:]):
			return true
		case len(w) == 2 && airlineCode(w) && k+1 < len(t.words) && len(t.words[k+1]) <= 4 && isNumber(t.words[k+1]) && !stopWords[w] && !notAirline[w] &&
			strings.Contains(t.norm, w+" "+t.words[k+1]):
			return true // (apart by a space: "PL-4471", an identifier, is none)
		}
	}
	return false
}

// airlineCode reports two characters that may be an airline's code: a
// letter, then a letter or a digit.
func airlineCode(c string) bool {
	return len(c) == 2 && c[0] >= 'a' && c[0] <= 'z' && (c[1] >= 'a' && c[1] <= 'z' || c[1] >= '0' && c[1] <= '9')
}

// notAirline are two letters before a number that are no airline's code.
var notAirline = map[string]bool{"no": true, "nr": true, "km": true, "kg": true, "gb": true, "mb": true, "am": true, "pm": true, "ok": true,
	"st": true, "nd": true, "rd": true, "th": true, "up": true, "dr": true, "mr": true, "ms": true, "pc": true, "id": true, "pp": true}

// TitleTerm is the term of an event that names a work by its title, in
// quotes ("Textbook 'Aula 4' added", "Loan LB-30415: 'Klara and the Sun'",
// "《流浪 地球 3》"): the answer to "what book do I need?", "which film is
// it?", "什么 电影？".
const TitleTerm = "❝"

// titleCues mark a question asking which work.
var titleCues = []string{"what book", "which book", "what books", "which books", "what film", "which film", "what movie", "which movie",
	"what show", "which show", "what play", "which play", "what album", "which album", "what title", "which title", "what recipe", "which recipe",
	"what workshop", "which workshop", "what talk", "which talk", "what song", "which song", "what exhibition", "which exhibition",
	"什么书", "哪本书", "什么电影", "哪部电影", "什么片", "什么节目", "什么演出", "什么剧"}

// statesTitle reports a text (normalised) holding a title in quotes: '…',
// "…", ‘…’, “…” or 《…》 around at least two characters, not an apostrophe
// ("can't", "Luna's").
func statesTitle(rs []rune) bool {
	for i, r := range rs {
		var end rune
		switch r {
		case '《':
			end = '》'
		case '“':
			end = '”'
		case '‘':
			end = '’'
		case '"':
			end = '"'
		case '\'':
			if i > 0 && unicode.IsLetter(rs[i-1]) {
				continue // (an apostrophe)
			}
			end = '\''
		default:
			continue
		}
		if j := slices.Index(rs[i+1:], end); j >= 2 {
			return true
		}
	}
	return false
}

// ConsentTerm is the term of an event saying what the customer agreed to
// ("You approved the brake pads only", "Customer: ok, replace the pads",
// "Quote for MV-3318 accepted", "您 同意 更换 刹车 片"): the answer to "what did
// I agree to?", "what did I approve?", "我 同意 了 什么？".
const ConsentTerm = "✓"

// consentCues mark a question asking what the customer agreed to.
var consentCues = []string{"did i agree", "did we agree", "did i approve", "did we approve", "did i accept", "did we accept",
	"did i say yes", "did we say yes", "did i sign up for", "我同意了什么", "我确认了什么", "同意了什么", "确认了什么"}

// consentWords say the customer agreed, after "you" or the customer's
// speaker label; acceptedWords say a thing offered was taken.
var (
	consentWords  = map[string]bool{"approved": true, "accepted": true, "agreed": true, "confirmed": true, "chose": true, "selected": true, "okayed": true}
	acceptedWords = map[string]bool{"accepted": true, "approved": true}
)

// statesConsent reports a text (normalised, and as words) saying what the
// customer agreed to: "you" and a word of consentWords, a line of the
// customer's side of a chat (saidByCustomer), a quote or an offer accepted,
// or 您/客户 before 同意, 确认 or 选择.
func statesConsent(rs []rune, t text) bool {
	for k, w := range t.words {
		if w == "you" && k+1 < len(t.words) && consentWords[t.words[k+1]] {
			return true
		}
		if (w == "quote" || w == "offer" || w == "proposal") && slices.ContainsFunc(t.words[k+1:], func(v string) bool { return acceptedWords[v] }) {
			return true
		}
	}
	if saidByCustomer(rs) {
		return true
	}
	return cjkConsent.in(rs)
}

// cjkConsent say in Chinese that the customer agreed (read joined: "您 已
// 确认" is 您已确认).
var cjkConsent = newCJKWords("您同意", "您已同意", "您确认", "您已确认", "您选择", "客户同意", "客户确认")

// PercentTerm is the term of an event that states a percentage ("3.6%
// fixed for 10 years", "20 percent off", "利率 2.1%", "百分之五"): the
// answer to a question asking a rate ("what interest rate did the bank
// offer?", "ML-20931 rate?", "利率多少？").
const PercentTerm = "%"

// rateCues mark a question asking for a rate; so does "rate" as a noun of
// its own (asksRate).
var rateCues = []string{"interest rate", "apr", "percentage", "what percent", "how many percent", "利率", "年化", "费率",
	"税率", "百分比", "百分之几", "几个点"}

// asksRate reports a question's "rate" as a noun of its own: not the price
// a word before it makes of it ("hourly rate", "monthly rate", "unit rate",
// "exchange rate": priceRates), nor the verb ("what did I rate the
// chicken?", "how do I rate …", "rate limit").
func asksRate(words []string) bool {
	for i, w := range words {
		if w == "rate" && i > 0 && (words[i-1] == "what" || words[i-1] == "which") {
			return true // (a noun after "what": "what rate did they offer?")
		}
		if w != "rate" || i+1 < len(words) && (words[i+1] == "limit" || stopWords[words[i+1]] && words[i+1] != "on" && words[i+1] != "for") {
			continue
		}
		if i == 0 || !priceRates[words[i-1]] && !rateVerbs[words[i-1]] {
			return true
		}
	}
	return false
}

var (
	priceRates = map[string]bool{"hourly": true, "daily": true, "weekly": true, "monthly": true, "nightly": true, "yearly": true,
		"annual": true, "unit": true, "exchange": true, "day": true, "night": true, "room": true, "flat": true, "hour": true,
		"base": true, "standard": true, "data": true, "heart": true, "success": true}
	rateVerbs = map[string]bool{"i": true, "you": true, "we": true, "they": true, "to": true, "please": true}
)

// statesPercent reports a percentage: a number and "%" (NFKC makes "％"
// one), or the word "percent", "per cent" or "pct" after it (followedBy), or
// 百分之.
func statesPercent(rs []rune) bool {
	for i, r := range rs {
		switch {
		case r == '%':
			if i > 0 && (unicode.IsDigit(rs[i-1]) || rs[i-1] == ' ' && i > 1 && unicode.IsDigit(rs[i-2])) {
				return true
			}
		case r == '百':
			if i+2 < len(rs) && rs[i+1] == '分' && rs[i+2] == '之' {
				return true
			}
		case r == 'p' && i > 1 && rs[i-1] == ' ' && unicode.IsDigit(rs[i-2]):
			if after := rs[i-1:]; followedBy(after, "percent") || followedBy(after, "pct") || followedBy(after, "per") && followedBy(rs[i+3:], "cent") {
				return true
			}
		}
	}
	return false
}

// DurationTerm is the term of an event that states how long something lasts
// or runs in months or years: "24 months", "a 12-month contract", "valid for
// 1 year", "有效期 一年", "3 个月", or in hours, days or weeks written as one
// word ("a 3-hour session", "2-day pass": hyphenLength). A time (TimeTerm)
// leaves them out, a plan's length more often than a when; a question asking
// how long asks for either (weighed as a time).
const DurationTerm = "⧗"

// durationCues mark a question asking how long something lasts (it asks for a
// time too: timeWords has "how long", 多久).
var durationCues = []string{"how long", "how much longer", "how many months", "how many years", "how many weeks", "多久", "多长时间", "多长", "几个月", "几年", "期限",
	"几天", "多少天", "几周", "几个星期", "几个小时", "几小时"}

var durationCueSet = newCueSet(durationCues)

// durationUnits state a length after a number ("24 months", "12-month"); a
// number of days, hours or weeks states a time already (timeUnits).
var durationUnits = map[string]bool{"month": true, "months": true, "year": true, "years": true, "yr": true, "yrs": true, "mo": true}

// mayStateLength reports whether the text has "mo", "ye", "yr", 年 or 月 at
// all: most texts have none, and are spared statesDuration's words.
func mayStateLength(rs []rune) bool {
	for i, r := range rs {
		switch r {
		case '年', '月':
			return true
		case 'm', 'y':
			if i+1 < len(rs) && (r == 'm' && rs[i+1] == 'o' || r == 'y' && (rs[i+1] == 'e' || rs[i+1] == 'r')) {
				return true
			}
		}
	}
	return false
}

// statesDuration reports that the text (normalised) states a length in months
// or years: a number (in digits or words) before a unit of durationUnits, or
// before 个月 or 年 in Chinese (一年, 3 个月).
func statesDuration(rs []rune) bool {
	return mayStateLength(rs) && lengths.in(rs) || hyphenLength(rs)
}

// hyphenLength reports a length written as one word, a number, a hyphen and
// a unit of time: "3-hour session", "2-day pass", "45-minute call". Such a
// length says how long a thing lasts, not when it is (statesTime: "in 3
// hours" is a time).
func hyphenLength(rs []rune) bool {
	var buf [12]byte
	for i := 1; i+1 < len(rs); i++ {
		if rs[i] != '-' || !unicode.IsDigit(rs[i-1]) || !isLatin(rs[i+1]) {
			continue
		}
		start := i - 1
		for start > 0 && unicode.IsDigit(rs[start-1]) {
			start--
		}
		if start > 0 && (unicode.IsLetter(rs[start-1]) || rs[start-1] == '-' || rs[start-1] == '.') || inIdentifier(rs, start) {
			continue // (INV-2-HOUR, A3-day: part of a code)
		}
		if in(hyphenUnits, asciiWord(rs[i+1:span(rs, i+1, isLatin)], &buf)) {
			return true
		}
	}
	return false
}

var hyphenUnits = map[string]bool{"minute": true, "hour": true, "day": true, "week": true, "night": true}

// lengths are what statesDuration looks for: not a number of four digits or
// more before 年 ("2026 年": a year), nor "a" before a unit ("2.50 EUR a
// month" is a rate).
var lengths = newUnitScan(unitScan{units: durationUnits, cjk: newCJKWords("年", "个月"), words: true, numerals: true, maxRun: 4})

// anyLengths are what statesLength looks for: a number before a unit of
// time's length, in minutes to years ("60 min", "2 hours", "3 days", "24
// months", "20 分钟", "3 个月"); not a year's number before 年.
var anyLengths = newUnitScan(unitScan{units: map[string]bool{"minute": true, "minutes": true, "min": true, "mins": true,
	"hour": true, "hours": true, "hr": true, "hrs": true, "h": true, "day": true, "days": true, "week": true, "weeks": true,
	"night": true, "nights": true, "month": true, "months": true, "year": true, "years": true},
	cjk: newCJKWords("分钟", "小时", "个小时", "天", "周", "个星期", "晚", "个月", "年", "个工作日", "工作日"), words: true, numerals: true, maxRun: 4})

// statesLength reports that the text (normalised) states a length of time
// in minutes, hours, days, weeks, months or years (anyLengths), or as one
// word ("a 3-hour session": hyphenLength), which a question asking how long
// a thing lasts looks for (timeLacking): "moved to Saturday 11:00" states
// a time and no length.
func statesLength(rs []rune) bool {
	return anyLengths.in(rs) || hyphenLength(rs) || untilCues.in(textOf(string(rs)))
}

// untilCues say until when a thing lasts ("late checkout until 13:00"), which
// answers how long it does as a length would.
var untilCues = newCueSet([]string{"until", "till", "untill", "up to"})

// unitScan finds a number followed by a unit: a run of digits (with '.' or
// ','; shorter than maxRun when maxRun > 0), or with words a number word
// ("two", "a few"), then spaces or a hyphen, or nothing ("24 months",
// "12-month", "25GB"), then a Latin word of units, or a Chinese run that
// begins with one of cjk, right after the number or, with numerals, after a
// Chinese numeral ("3 个月", "一年", "两个月").
type unitScan struct {
	units           map[string]bool
	cjk             cjkWords
	words, numerals bool
	maxRun          int
	first           string // the units' first letters and the Chinese units' first characters
}

func newUnitScan(u unitScan) unitScan {
	for w := range u.units {
		if !strings.ContainsRune(u.first, rune(w[0])) {
			u.first += w[:1]
		}
	}
	u.first += u.cjk.first
	return u
}

// mayHold reports whether a digit is followed, after its number and a space
// or a hyphen, by a unit's first letter: most texts have none, and are spared
// the words (only for a scan of digits alone).
func (u unitScan) mayHold(rs []rune) bool {
	for i := 0; i < len(rs); i++ {
		if !unicode.IsDigit(rs[i]) {
			continue
		}
		k := span(rs, i, func(r rune) bool { return unicode.IsDigit(r) || r == '.' || r == ',' })
		if k < len(rs) && (rs[k] == ' ' || rs[k] == '-') {
			k++
		}
		if k < len(rs) && strings.ContainsRune(u.first, unicode.ToLower(rs[k])) {
			return true
		}
		i = k
	}
	return false
}

func (u unitScan) in(rs []rune) bool {
	if !u.words && !u.numerals && !u.mayHold(rs) {
		return false
	}
	prevNumber := false
	var buf, digits [12]byte
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsDigit(r):
			j := span(rs, i, func(r rune) bool { return unicode.IsDigit(r) || r == '.' || r == ',' })
			// (a number, not the digits inside an identifier: the "2m" of
			// QX7P2M, the "5kg" of AB5KG)
			prevNumber = (u.maxRun == 0 || j-i < u.maxRun) && (i == 0 || !isLatin(rs[i-1])) && !ordinalBefore(rs, j)
			if j < len(rs) && rs[j] == '-' {
				j++ // "12-month"
			}
			i = j
		case isLatin(r):
			j := span(rs, i, isLatin)
			w := asciiWord(rs[i:j], &buf)
			if prevNumber && (in(u.units, w) || in(u.units, asciiWord(rs[i:span(rs, j, unicode.IsDigit)], &digits))) { // (a unit with a digit: m3)
				return true
			}
			prevNumber = u.words && (in(numberWords, w) || in(fewWords, w)) // (not "a": "2.50 EUR a month" is a rate)
			i = j
		case isCJK(r):
			j := span(rs, i, isCJK)
			if prevNumber && u.cjk.begin(rs[i:j]) {
				return true
			}
			// a Chinese number and its unit, wherever in the run ("有效期一年")
			for k := i; u.numerals && k < j; {
				n := k
				for n < j && (isNumeral(rs[n]) || rs[n] == '两') {
					n++
				}
				if n > k && n < j && u.cjk.begin(rs[n:j]) && !ordinalBefore(rs, n) {
					return true
				}
				k = n + 1
			}
			prevNumber = false
			i = j
		case unicode.IsSpace(r):
			i++
		default:
			prevNumber = false
			i++
		}
	}
	return false
}

// byRunes is a states function that looks at the text's runes only.
func byRunes(f func([]rune) bool) func([]rune, text) bool {
	return func(rs []rune, _ text) bool { return f(rs) }
}

// CountTerm is the term of an event that states how many of something ("80
// guests", "Crew of 3 movers", "2 x Jazz Night", "two lavender plants", "3 名
// 师傅"): the answer to "how many people are coming?".
const CountTerm = "#"

// countCues mark a question that asks how many: "how many", and 几 or 多少
// before a measure word (几晚, 多少张; not "几点": what time), or before 分
// after a verb taking or scoring points (扣 几 分).
var countCues = func() []string {
	cues := []string{"how many", "number of",
		// points taken or scored (扣 几 分, 考 了 多少 分; not 几点几分, a time)
		"扣几分", "扣了几分", "扣多少分", "扣了多少分", "得几分", "得了几分", "考几分", "考了几分", "考了多少分", "得了多少分", "多少分"}
	for _, m := range cjkMeasures {
		cues = append(cues, "几"+string(m), "多少"+string(m))
	}
	return cues
}()

// numberWords are the counts written as words ("two lavender plants", "twenty
// dollars", "two weeks").
var numberWords = map[string]bool{"two": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true, "dozen": true, "twenty": true, "thirty": true,
	"forty": true, "fifty": true, "sixty": true, "seventy": true, "eighty": true, "ninety": true, "hundred": true, "thousand": true}

// countLabels are the words a number after them labels rather than counts
// ("lesson 7", "row 12", "platform 22").
var countLabels = map[string]bool{"lesson": true, "session": true, "visit": true, "room": true, "seat": true, "row": true,
	"block": true, "platform": true, "gate": true, "terminal": true, "class": true, "chapter": true, "level": true,
	"step": true, "module": true, "part": true, "day": true, "week": true, "floor": true, "unit": true, "station": true,
	"box": true, "locker": true, "door": true, "track": true, "stage": true, "round": true, "version": true, "no": true,
	"number": true, "phase": true, "milestone": true, "test": true, "attempt": true, "episode": true, "season": true,
	"lane": true, "zone": true, "hall": true, "court": true, "bay": true, "desk": true, "table": true, "window": true,
	"counter": true, "line": true, "bus": true, "route": true, "car": true, "coach": true, "group": true, "team": true,
	"ward": true, "bed": true, "page": true, "year": true, "grade": true, "tier": true, "plan": true,
	// a card's or an account's end ("card ending 2210 added")
	"ending": true}

// cjkMeasures are the Chinese measure words that make a number before them a
// count (not 元, 天, 点: money and time).
const cjkMeasures = "个位人名张件箱份台辆间套盒袋只瓶包双对本期晚杯条次桌所颗粒片支把单趟场户门项"

// statesCount reports that the text (normalised) states how many of
// something: a number alone (or a number word) that no label word precedes
// and that is no group of a number written in groups ("0134 5567 8890"),
// before a word that is no unit of time, money or measure ("80 guests", "2 x
// …"), a count changed ("from 60 to 72"), or a number before a Chinese
// measure word.
func statesCount(rs []rune) bool {
	fields := strings.Fields(string(rs))
	skip := -1 // (the total of "2 of 5" when it says which one moved)
	for i, tok := range fields {
		if i == skip || i+1 >= len(fields) || !(isNumber(tok) && len(tok) <= 4 || numberWords[tok] || inThousands(tok)) {
			continue
		}
		if i+3 < len(fields) && fields[i+1] == "of" && isNumber(fields[i+2]) && slices.Contains(timeMoves, strings.TrimRight(fields[i+3], ",.;:")) {
			skip = i + 2
			continue // which one moved, no count reached: "session 2 of 5 moved to Friday"
		}
		if i > 0 && countLabels[strings.Trim(fields[i-1], "(\"'#")] {
			continue
		}
		if len(tok) > 1 && tok[0] == '0' || i > 0 && isNumber(fields[i-1]) {
			continue // a group of a number written in groups ("DPD 0134 5567 8890 delivered"), no count
		}
		next := strings.TrimRight(fields[i+1], ",.;:!?)") // ("80 guests, 6,400.00 EUR", "for 12 seats.")
		if moreWords[next] && i+2 < len(fields) {
			next = strings.TrimRight(fields[i+2], ",.;:!?)") // a count added: "5 more guests", "2 extra chairs"
		}
		if next == "of" && i+2 < len(fields) && isNumber(strings.TrimRight(fields[i+2], ",.;:")) {
			return true // how far through a count: "instalment 4 of 12", "set 7 of 20"
		}
		if next == "to" && i+2 < len(fields) && isNumber(strings.TrimRight(fields[i+2], ",.;")) {
			// a count changed: "from 60 to 72", "from 25 to 30, prorated"; not
			// "14 to 21 March", "9 to 12 am"
			after := ""
			if i+3 < len(fields) {
				after = strings.TrimRight(fields[i+3], ",.;")
			}
			if !unitWord(after) {
				return true
			}
		}
		if strings.IndexFunc(next, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) >= 0 {
			continue // "12," ends a label; "18:30", "3.20" are no count
		}
		if next == "x" || len(next) >= 3 && !stopWords[next] && !unitWord(next) && !timeAlone[next] && strings.IndexFunc(next, isCJK) < 0 {
			return true
		}
	}
	for i := 1; i < len(fields); i++ {
		// a count named, and what it is or became: "Guest count raised to
		// 110", "headcount: 12", "quantity raised to 1,000", "guest count
		// now 52"
		if n := strings.TrimRight(fields[i], ",.;:!?)"); !(isNumber(n) && len(n) <= 4 || inThousands(n)) || fields[i-1] != "to" && fields[i-1] != "now" && !strings.HasSuffix(fields[i-1], ":") {
			continue
		}
		if i+1 < len(fields) && unitWord(strings.TrimRight(fields[i+1], ",.;")) {
			continue // "3 to 5 hours"
		}
		if slices.ContainsFunc(fields[max(0, i-4):i], func(f string) bool {
			f = strings.Trim(f, ":,;")
			return f == "count" || f == "headcount" || f == "quantity" || countedPlural(f)
		}) {
			return true
		}
	}
	for i := 1; i+2 < len(fields); i++ {
		// one more added, by its place: "a fourth mover added", "a third
		// bag added" (the count it makes; not "the second payment")
		if fields[i-1] == "a" && ordinals[fields[i]] != "" && fields[i] != "first" && slices.ContainsFunc(fields[i+2:min(len(fields), i+5)], func(f string) bool { return strings.TrimRight(f, ",.;:") == "added" }) {
			return true
		}
	}
	for i := 2; i < len(fields); i++ {
		// a group's size: "crew of 3", "a party of 6", "table for 4"; not
		// "team of 3 hours"
		n := strings.TrimRight(fields[i], ",.;:!?)")
		if isNumber(n) && len(n) <= 4 && (fields[i-1] == "of" || fields[i-1] == "for") && groupNouns[fields[i-2]] &&
			(i+1 == len(fields) || !unitWord(strings.TrimRight(fields[i+1], ",.;"))) {
			return true
		}
	}
	for i, r := range rs {
		if (strings.ContainsRune(cjkMeasures, r) || pointsAt(rs, i)) && numeralBefore(rs, i) && !ordinalBefore(rs, i) {
			return true
		}
	}
	return false
}

// pointsAt reports 分 at rs[i] counting points ("扣 6 分", "78 分", "剩余 6
// 分"): not minutes (分钟) nor the minutes of a clock time ("10 点 30 分").
func pointsAt(rs []rune, i int) bool {
	if rs[i] != '分' || i+1 < len(rs) && rs[i+1] == '钟' {
		return false
	}
	k := i - 1
	for k >= 0 && rs[k] == ' ' {
		k--
	}
	for k >= 0 && isNumeral(rs[k]) {
		k--
	}
	for k >= 0 && rs[k] == ' ' {
		k--
	}
	return k < 0 || rs[k] != '点' && rs[k] != '时'
}

// moreWords stand between a count and what it counts when it is added to
// ("5 more guests", "2 extra chairs", "3 additional nights").
var moreWords = map[string]bool{"more": true, "extra": true, "additional": true, "further": true}

// groupNouns are the groups whose size a number after "of" or "for" states.
var groupNouns = map[string]bool{"crew": true, "party": true, "group": true, "team": true, "family": true, "table": true,
	"household": true, "squad": true}

// ordinalBefore reports that the number before rs[i] is an ordinal's, after
// 第: "第 二 期" is the second instalment, not two of them; or a weekday's,
// written after 周, 星期 or 礼拜: "周二 晚上" is Tuesday evening, not two
// nights ("每 周 5 次" is a count).
func ordinalBefore(rs []rune, i int) bool {
	k := numeralsFrom(rs, i)
	if k == 0 || k < len(rs) && rs[k] == ' ' && rs[k-1] != '第' {
		return false // (a count after a spaced 周: "每 周 5 次")
	}
	return rs[k-1] == '第' || rs[k-1] == '周' || k > 1 && (string(rs[k-2:k]) == "星期" || string(rs[k-2:k]) == "礼拜")
}

// numeralsFrom is where the numerals before rs[i] begin, with the spaces
// around them ("第 二 期", "一天 两 次"): i when there are none.
func numeralsFrom(rs []rune, i int) int {
	k := i
	for k > 0 && (rs[k-1] == ' ' || isNumeral(rs[k-1])) {
		k--
	}
	return k
}

// FrequencyTerm is the term of an event that states how often something
// happens ("2 visits a day", "twice a day for 7 days", "every second
// Friday", "weekly", "每天 两 次"): the answer to "how often does the sitter
// come?".
const FrequencyTerm = "↻"

// frequencyCues mark a question that asks how often.
var frequencyCues = []string{"how often", "how frequently", "how many times a", "how many times per", "how many times each",
	"多久一次", "多长时间一次", "几天一次", "一天几次", "一周几次", "每天几次", "每周几次", "每月几次"}

// statesFrequency reports a text stating how often: "every" before a period
// or an ordinal ("every day", "every 2 weeks", "every second Friday"), a
// word of a period's rate ("daily", "weekly"), once, twice or a number of
// times or of things done, then "a" or "per" and a period ("3 times a day",
// "2 visits per week"; not an amount: "39.00 EUR a month" is a price), or
// in Chinese 每 before a period (每天, 每周, 每 3 天) or a period before a
// number of times (一天 两 次).
func statesFrequency(rs []rune, t text) bool {
	w := t.words
	for i, x := range w {
		switch {
		case frequencyWords[x]:
			return true
		case x == "every" && i+1 < len(w) && (ratePeriods[w[i+1]] || ratePeriods[strings.TrimSuffix(w[i+1], "s")] || isNumber(w[i+1]) ||
			isOrdinal(w[i+1]) || w[i+1] == "other" || timeAlone[w[i+1]]):
			return true
		case (x == "a" || x == "per" || x == "each") && i+1 < len(w) && ratePeriods[w[i+1]] && i > 0:
			before := w[max(0, i-3):i]
			if slices.ContainsFunc(before, func(b string) bool { return currencyCodes[b] }) {
				continue // a price ("39.00 EUR a month")
			}
			if w[i-1] == "once" || w[i-1] == "twice" || w[i-1] == "times" || w[i-1] == "x" ||
				len(before) >= 2 && (isNumber(before[len(before)-2]) || numberWords[before[len(before)-2]]) && countedPlural(w[i-1]) {
				return true
			}
		}
	}
	return cjkFrequency(rs)
}

// pricedPerPeriod reports a text (normalised) stating a price per period:
// an amount before "a", "per" or "each" and a period ("39.99 EUR a month",
// "12 EUR per day"), a period's word ("monthly", "yearly"), or in Chinese 每
// and a period or a period's rent or fee (每月, 月租, 月费, 年费), spaced or
// not. An object introduced so has a standing price (standingPriceOnly).
func pricedPerPeriod(norm string) bool {
	w := wordsOf(norm)
	for i, x := range w {
		if (x == "a" || x == "per" || x == "each") && i > 0 && i+1 < len(w) && ratePeriods[w[i+1]] &&
			slices.ContainsFunc(w[max(0, i-3):i], func(b string) bool { return currencyCodes[b] }) {
			return true
		}
	}
	if pricedPerPeriodWords(w) {
		return true
	}
	if strings.Contains(norm, "/month") || strings.Contains(norm, "/year") {
		return true
	}
	if strings.IndexFunc(norm, isCJK) < 0 {
		return false
	}
	joined := joinedSpaced(norm)
	return slices.ContainsFunc(periodPrices, func(c string) bool { return pricedPer(joined, c) })
}

// pricedPer reports a text (normalised, its Chinese joined) holding the word
// of a price per period c other than as one period's: 月租 after 本 or a
// month's number ("本月 租金", "3 月 租金": oneMonthBefore) is one month's
// rent; "ZF-7102 月租 4 200 元" is the rent per month.
func pricedPer(joined, c string) bool {
	for rest := joined; ; {
		k := strings.Index(rest, c)
		if k < 0 {
			return false
		}
		if !strings.HasPrefix(c, "月") && !strings.HasPrefix(c, "年") || !oneMonthBefore(rest[:k]) {
			return true
		}
		rest = rest[k+len(c):]
	}
}

// oneMonthBefore reports a text ending in what makes a following 月 (or 年)
// one period's: a month's number of one or two digits (not an identifier's
// end), or one of oneMonth.
func oneMonthBefore(before string) bool {
	before = strings.TrimRight(before, " ")
	r, _ := utf8.DecodeLastRuneInString(before)
	if unicode.IsDigit(r) {
		last := before[strings.LastIndexAny(before, " ：:，,")+1:]
		return isNumber(last) && len(last) <= 2
	}
	return strings.ContainsRune(oneMonth, r)
}

// oneMonth are the characters before 月 (or 年) that make 月租, 月费 or 年费
// one period's ("本月 租金", "上 月 费用", "12 个 月 租期", "3 月 租金", "首月
// 费用", "次月", a month's number, not an identifier's): no price per
// period.
const oneMonth = "本上下这当个一二三四五六七八九十两首次半"

// pricedPerPeriodWords reports words naming a period's price: "monthly",
// "yearly", "annually", "weekly".
func pricedPerPeriodWords(w []string) bool {
	return slices.ContainsFunc(w, func(x string) bool { return x == "monthly" || x == "yearly" || x == "annually" || x == "weekly" })
}

// periodPrices are the Chinese words of a price per period.
var periodPrices = []string{"每月", "每年", "每晚", "每天", "每周", "月租", "月费", "年费", "/月", "/年"}

var (
	frequencyWords = map[string]bool{"daily": true, "weekly": true, "monthly": true, "fortnightly": true, "hourly": true, "nightly": true,
		"biweekly": true, "yearly": true, "annually": true}
	ratePeriods = map[string]bool{"day": true, "week": true, "month": true, "year": true, "night": true, "morning": true, "evening": true, "hour": true, "fortnight": true}
)

// isOrdinal reports an English ordinal, in words or in digits ("second",
// "3rd": ordinalNumber).
func isOrdinal(w string) bool { _, ok := ordinalNumber(w); return ok }

// cjkFrequency reports 每 before a period (每天, 每周, 每 3 天), 天天, or a
// period before a number of times (一天 两 次, 每周 3 次).
func cjkFrequency(rs []rune) bool {
	skip := func(k int, in func(rune) bool) int {
		for k < len(rs) && (rs[k] == ' ' || in(rs[k])) {
			k++
		}
		return k
	}
	for i, r := range rs {
		switch {
		case r == '每':
			k := skip(i+1, isNumeral)
			if k < len(rs) && rs[k] == '个' {
				k = skip(k+1, isNumeral)
			}
			if k < len(rs) && strings.ContainsRune("天日周月晚年时", rs[k]) {
				return true
			}
		case r == '天' && i+1 < len(rs) && rs[i+1] == '天':
			return true
		case r == '次':
			if k := numeralsFrom(rs, i); k < i && k > 0 && strings.ContainsRune("天周月", rs[k-1]) {
				return true
			}
		}
	}
	return false
}

// countedPlural reports a plural noun counted by the number a change gives it
// ("nights reduced to 2", "seats raised to 12"): letters ending in s, not a
// currency's (EUR) nor a verb's ("is", "was", "has").
func countedPlural(w string) bool {
	return len(w) >= 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && isLetters(w) && !currencyCodes[w] && !stopWords[w]
}

// unitWord reports a word that makes the number before it a time, a date,
// an amount or a measure ("hours", "June", "EUR", "kWh"), not a count.
func unitWord(w string) bool {
	return timeUnits[w] || months[w] || currencyCodes[w] || quantityUnits[w]
}

// numeralBefore reports a digit or a Chinese numeral right before rs[i] (a
// space between allowed): "3 名", "两份", "八折", "9 折".
func numeralBefore(rs []rune, i int) bool {
	if i > 1 && rs[i-1] == ' ' {
		i--
	}
	return i > 0 && isNumeral(rs[i-1])
}

// isNumeral reports a digit or a Chinese numeral (一 to 十, 两, 百, 千, 万).
func isNumeral(r rune) bool {
	return unicode.IsDigit(r) || strings.ContainsRune(cjkDigits, r) || strings.ContainsRune("两百千万", r)
}

// InstructionTerm is the term of an event that tells the customer what to do
// ("Bring your passport and a pen", "Please bring your cycling shoes", "must",
// "请勿进食"): the answer to "what do I need to take with me?".
const InstructionTerm = "☞"

// instructionCues mark a question that asks what to bring or do.
var instructionCues = []string{"need to bring", "need to take", "should i bring", "should i take", "do i bring", "do i take",
	"what to bring", "what to take", "take with me", "bring with me", "do i need anything", "need to do", "have to do", "should i do",
	"how do i fix", "how can i fix", "how to fix", "how do i solve", "how can i solve", "怎么解决", "如何解决",
	"any rules", "prepare", "have to send", "need to send", "need to upload", "need to provide", "need to submit",
	"准备什么", "带什么", "需要带", "要带", "注意事项", "注意什么", "要注意", "需要注意",
	"要做什么", "需要做什么", "该做什么", "需要我做", "要我做", "我该怎么做", "需要我提供", "需要我上传",
	// what is still to be handed in (need to provide, submit)
	"要交什么", "交什么材料", "要提供什么", "要上传什么", "要补什么", "补什么材料", "还缺什么", "缺什么材料", "要什么材料", "需要什么材料",
	// what the business asked of the customer ("what did they need me to
	// send?", "what do you want from me?")
	"need me to", "needs me to", "needed me to", "want me to", "wants me to", "wanted me to",
	"what do you need", "what do you still need", "what else do you need", "do you need anything", "what do they need", "what do they still need",
	"need from me", "needs from me", "needed from me", "want from me", "wants from me", "wanted from me", "asked me to", "asked me for", "did they ask for", "did you ask for", "did they request", "did you request",
	// what is left to do
	"what else do i have to", "what else do i need", "what else should i", "what else must i", "anything else i need to", "anything else i have to",
	"still have to do", "still need to do", "left to do", "left to sort", "还要做什么", "还需要做什么", "还要办什么", "还需要办",
	// how to take a medicine
	"how do i take", "how should i take", "how often do i take", "how often should i take", "怎么吃", "怎么服用", "如何服用", "吃几次",
	// and how to use or give one (drops, a cream, a spray)
	"how do i use", "how should i use", "how to use", "how often do i use", "how often do i give", "how often should i give",
	"how do i apply", "how often do i apply", "怎么用", "怎么使用", "如何使用", "怎么涂", "怎么擦", "用法", "一天几次", "每天几次"}

// imperativeVerbs begin a clause that tells what to do ("don": don't, as
// words stop at an apostrophe; "please" before any verb).
var imperativeVerbs = map[string]bool{"bring": true, "take": true, "wear": true, "keep": true, "arrive": true, "remember": true,
	"avoid": true, "pack": true, "prepare": true, "present": true, "show": true, "print": true, "fill": true, "upload": true,
	"call": true, "don": true, "dont": true, "do": true, "make": true, "be": true, "please": true, "note": true, "leave": true,
	"allow": true, "charge": true, "clear": true, "empty": true, "drink": true, "eat": true, "stop": true, "apply": true,
	"collect": true, "send": true, "reply": true, "confirm": true, "contact": true, "approve": true, "choose": true,
	"verify": true, "accept": true}

// instructionWords tell what to do wherever they stand.
var instructionWords = map[string]bool{"must": true, "mustn": true, "needed": true, "required": true}

// cjkInstructionStart are Chinese requests (请勿, 务必, 不要, …).
var cjkInstructionStart = newCJKWords("请勿", "请携带", "请带", "请提前", "请在", "请到", "请按时", "务必", "不要", "禁止", "须", "记得", "请穿", "请保持",
	"需携带", "需要携带", "请出示", "需出示",
	// what to do before an exam or a treatment (fasting, no food or drink)
	"空腹", "禁食", "禁水",
	// what is asked of the customer (需补充 出院小结, 补交 银行流水)
	"需补充", "需要补充", "需提供", "需要提供", "需提交", "需要提交", "需上传", "需要上传", "补交",
	// a dosage (每日两次, 饭后, 连服 5 天)
	"日一次", "日两次", "日二次", "日三次", "天一次", "天两次", "天三次", "饭后", "饭前", "口服", "连服")

// dosage reports a word and what follows it saying how often to take or use
// something ("twice a day", "3 times daily", "once a week").
func dosage(w string, rest []rune) bool {
	if w != "twice" && w != "once" && w != "times" {
		return false
	}
	switch wordAfter(rest, 0) {
	case "daily":
		return true
	case "a":
		a := slices.IndexFunc(rest, func(r rune) bool { return r != ' ' })
		unit := wordAfter(rest, a+1)
		return unit == "day" || unit == "week"
	}
	return false
}

// cjkDosage reports a run saying how often a day to take or use something:
// 每天, 每日, 一天 or 一日, and within four characters a count of times (每天涂两次,
// 一日三次).
func cjkDosage(run []rune) bool {
	s := string(run)
	for _, day := range []string{"每天", "每日", "一天", "一日"} {
		if k := strings.Index(s, day); k >= 0 {
			after := []rune(s[k+len(day):])
			if c := slices.Index(after, '次'); c > 0 && c <= 4 {
				return true
			}
		}
	}
	return false
}

// statesInstruction reports a text that tells the customer what to do: a
// clause that begins with a verb ("Bring your passport", "Please bring …",
// "Don't forget …"), "please" before one wherever it stands ("resolution
// too low, please upload a larger file"), "must", or a Chinese request (请勿,
// 务必, 不要, …).
func statesInstruction(rs []rune) bool {
	var buf [12]byte
	start := true // at a clause's start
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case isCJK(r):
			j := span(rs, i, isCJK)
			if cjkInstructionStart.in(rs[i:j]) || pleaseDo(rs[i:j]) || cjkDosage(rs[i:j]) {
				return true
			}
			start = false
			i = j
		case isLatin(r):
			j := span(rs, i, isLatin)
			w := string(asciiWord(rs[i:j], &buf))
			if instructionWords[w] || start && imperativeVerbs[w] || dosage(w, rs[j:]) || w == "please" && imperativeVerbs[strings.ToLower(wordAfter(rs, j))] {
				return true
			}
			start = false
			i = j
		default:
			if strings.ContainsRune(".:;!?-–()", r) {
				start = true
			}
			i++
		}
	}
	return false
}

// pleaseDo reports 请 ("please") before a verb, as "please" before any verb
// tells what to do ("请安装 Excel", "请及时充值"); not 请问 ("may I ask"),
// 请稍等 (an offer of help), nor 请 in a word of its own (申请 apply, 邀请
// invite, 请假 leave).
func pleaseDo(run []rune) bool {
	for k, r := range run {
		if r == '请' && k+1 < len(run) && !strings.ContainsRune("问稍假客求柬", run[k+1]) &&
			(k == 0 || !strings.ContainsRune("申邀聘宴恳", run[k-1])) {
			return true
		}
	}
	return false
}

func init() {
	for _, t := range answerTypes {
		t.hash = termHash(t.term)
		if t.term == TimeTerm {
			c := *t
			c.alt = termHash(DurationTerm)
			timeOrLength = &c
		}
		if t.name == "reason" {
			t.alt = termHash(DelayTerm) // (a delay is a reason; not a fault)
		}
	}
}

// PlaceTerm is the term of an event that names a place to go to or be at
// ("room 4.12", "platform 22", "block C row 12", "at the front desk", "3 号厅";
// or where a thing is had online: "in the app", "on the portal"):
// the answer to "where do I go?", "where are my seats?".
const PlaceTerm = "⌖"

// whereToWords mark a question that asks where the customer is to go or be,
// not where a thing stands ("where is my parcel?" asks for its status). Not
// "which gate?", "which seat?": the question names the place's kind, which
// its event names too, and the type would add the events naming another
// kind ("which seat do I have now?" found the gate).
var whereToWords = []string{"where do i", "where should i", "where must i", "where can i", "where will i", "where am i",
	"where do we", "where should we", "where can we", "where will we", "where are we", "where is my seat", "where are my seats",
	"where do they", "where does", "where will", "where should", "where can",
	// (asked as a request: "tell me where I pick up the car", "where to collect it?")
	"where i pick", "where i collect", "where i go", "where i should", "where i can", "where i need", "where i have to", "where to",
	"去哪", "在哪里", "在哪儿", "哪里拿", "哪里取", "在哪取", "在哪拿", "在哪领", "哪里领", "在哪办", "哪儿取",
	"在哪考", "哪里考", "在哪上课", "在哪集合", "在哪见面", "在哪坐", "在哪交", "在哪签"}

// endsWhere reports a Chinese question ending with a verb and 哪 ("我们坐哪？",
// "车停哪了？"): it asks where to do it, as 在哪坐 does; not 到哪 ("寄到哪了？"
// asks where a thing has got to, and "SF-66012 在 哪？" where it stands).
func endsWhere(norm string) bool {
	s := questionEnd(norm)
	if !strings.HasSuffix(s, "哪") {
		return false // (most questions: no runes read)
	}
	r, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(s, "哪"))
	return isCJK(r) && r != '到' && r != '在'
}

// endsAskingMoney reports a Chinese question whose end asks for money as
// 多少钱 does: 要多少 ("XJ2219 修 要 多少？": what the repair takes; a
// measure word after it asks for another thing, 要多少天: durationCues), or
// 多少 after a sum's name (endsSumHowMuch), after a verb moving money
// (endsPaidHowMuch), or asking what is left of a card (endsLeftHowMuch).
func endsAskingMoney(norm string) bool {
	return strings.HasSuffix(questionEnd(norm), "要多少") || endsSumHowMuch(norm) || endsPaidHowMuch(norm) || endsLeftHowMuch(norm)
}

// endsLeftHowMuch reports a Chinese question asking how much is left (剩
// 多少, 剩下 多少) of the object it names, or of a thing holding money
// (moneyHolders), and of nothing else: "0442 还 剩 多少？", "钱包 还 剩
// 多少？" ask the balance, where "流量 还 剩 多少？" asks the data left.
func endsLeftHowMuch(norm string) bool {
	if !strings.Contains(norm, "剩") && !strings.Contains(norm, "还有") {
		return false // (most questions: nothing copied)
	}
	zh := cjkOnly(norm)
	for _, left := range []string{"剩多少", "剩下多少", "还有多少"} {
		if rest, ok := strings.CutSuffix(zh, left); ok {
			rest = strings.TrimSuffix(rest, "还")
			rest = strings.TrimPrefix(strings.TrimPrefix(rest, "我的"), "我")
			return rest == "" || moneyHolders[rest]
		}
	}
	return false
}

// moneyHolders hold money: a card (卡里), a wallet, an account.
var moneyHolders = map[string]bool{"卡": true, "卡里": true, "卡上": true, "钱包": true, "钱包里": true, "账户": true, "账户里": true,
	"账上": true, "储值卡": true, "会员卡": true}

// endsPaidHowMuch reports a Chinese question ending with 多少 after a verb
// that moves money (moneyVerbs): "4415 报 了 多少？" (reimbursed), "每月 缴
// 多少？", "充 了 多少？" ask what sum, as 多少钱 does. A measure word after
// 多少 asks for another thing ("领 了 多少 张", "转 了 多少 次").
func endsPaidHowMuch(norm string) bool { return endsHowMuchAfter(norm, moneyVerbs, " 了") }

// moneyVerbs move a sum of money: paid, paid in, spent, refunded,
// compensated, returned, repaid, deducted, charged, owed, reimbursed,
// topped up, deposited, transferred, fined, earned, drawn. Not 贷 nor 借: a
// loan is stated in 万 with no currency ("贷款 审批 通过，40 万").
var moneyVerbs = []string{"付", "交", "缴", "花", "退", "赔", "返", "还", "扣", "收", "欠", "报", "报销", "充", "充值", "存",
	"转", "转账", "罚", "赚", "领"}

// endsSumHowMuch reports a Chinese question ending with 多少 after a word
// naming a sum of money (sumNouns): "3360 账单 多少？", "月供多少？" ask what
// it is, where 多少 alone asks for any number.
func endsSumHowMuch(norm string) bool { return endsHowMuchAfter(norm, sumNouns, " ") }

// endsHowMuchAfter reports a Chinese question ending with 多少 right after
// one of words, with what cutset holds between them.
func endsHowMuchAfter(norm string, words []string, cutset string) bool {
	before, ok := strings.CutSuffix(questionEnd(norm), "多少")
	before = strings.TrimRight(before, cutset)
	return ok && slices.ContainsFunc(words, func(w string) bool { return strings.HasSuffix(before, w) })
}

// sumNouns name a sum of money that a thing has (a bill, a price, a fee).
var sumNouns = []string{"账单", "费用", "价格", "价钱", "租金", "房租", "月租", "运费", "月供", "保费", "押金", "定金", "订金",
	"尾款", "总价", "学费", "电费", "水费", "燃气费", "物业费", "话费", "罚款", "报价", "工资", "年费", "会费", "首付"}

// questionEnd is a question (normalised) without the marks and particles
// that end it ("？", 了, 呢, 啊), for the words that end it to be read.
func questionEnd(norm string) string { return strings.TrimRight(norm, " ?!.。？！了呢啊") }

// placeAsked are the words that, a few after "where", ask for a place: a
// happening's (below), or where a thing was left, ended up or was handled
// ("where did they leave my parcel?", "where did my headphones end up?",
// "where was the lamp delivered?", "where was 402171 loaded?"), where "where
// is my parcel?" asks where it stands.
var placeAsked = func() map[string]bool {
	m := map[string]bool{"leave": true, "left": true, "end": true, "ended": true, "loaded": true, "unloaded": true, "delivered": true, "dropped": true, "parked": true, "stored": true, "found": true, "lost": true}
	for w := range happenings {
		m[w] = true
	}
	return m
}()

// happenings are what happens at a place: "where" before one of them asks
// for the place ("where is my meeting?", "where's the boxing class?"), where
// "where is my parcel?" asks where a thing stands (its status).
var happenings = map[string]bool{"class": true, "lesson": true, "session": true, "meeting": true, "appointment": true,
	"exam": true, "interview": true, "course": true, "event": true, "concert": true, "show": true, "party": true,
	"wedding": true, "ceremony": true, "training": true, "workshop": true, "match": true, "game": true,
	"consultation": true, "checkup": true, "treatment": true, "tour": true, "viewing": true, "screening": true,
	"shoot": true, "photoshoot": true}

// placeWords name a place to go to or be at.
var placeWords = map[string]bool{"room": true, "classroom": true, "gate": true, "platform": true, "track": true,
	"terminal": true, "hall": true, "floor": true, "row": true, "seat": true, "seats": true, "block": true, "desk": true,
	"counter": true, "reception": true, "entrance": true, "door": true, "centre": true, "center": true, "office": true,
	"branch": true, "station": true, "venue": true, "arena": true, "lobby": true, "locker": true, "pitch": true,
	"studio": true, "address": true, "building": true, "street": true, "square": true, "shop": true,
	"store": true, "depot": true, "pharmacy": true, "clinic": true, "hospital": true, "airport": true,
	"lounge": true, "court": true, "pool": true, "parking": true, "kiosk": true, "packstation": true, "mailroom": true,
	"berth": true, "pier": true, "dock": true, "quay": true, "jetty": true, "cabin": true, "bay": true, "campsite": true,
	// where a delivery is left ("left with neighbour at number 12", "on the porch")
	"neighbour": true, "neighbor": true, "doorstep": true, "porch": true, "mailbox": true, "letterbox": true,
	"concierge": true, "dealer": true, "dealership": true,
	// where a thing is had online ("e-tickets in the app", "on our website")
	"app": true, "website": true, "portal": true,
	// a place by that word ("location changed to the botanical garden")
	"location": true,
	// where a shoot, a class or a party takes place outdoors ("moved to the
	// park"; not "garden": "Garden service GS-55" is the service's)
	"park": true, "beach": true,
	// where a thing is taken, parked or left (a garage, a university, a
	// campus; not a warehouse: "received at the warehouse" is the business's)
	"garage": true, "university": true, "campus": true}

var cjkPlaceWords = newCJKWords("号厅", "影厅", "大厅", "楼", "层", "室", "门店", "站台", "中心", "网点", "柜台", "前台", "地址", "座位", "选座", "座号", "靠窗", "靠过道", "排",
	// the English words' Chinese (gate, terminal, desk, entrance, branch, venue, lobby, locker, …)
	"登机口", "检票口", "航站楼", "服务台", "窗口", "接待处", "入口", "门口", "营业厅", "分店", "支行", "分院",
	"场馆", "会场", "体育馆", "大堂", "储物柜", "快递柜", "工作室", "街道",
	// a gate by its side (请 到 北门 取餐)
	"北门", "南门", "东门", "西门", "正门", "侧门", "后门", "大门",
	// a place by its number (3 号窗口, 5 号柜; not the 3rd of a month)
	"号窗", "号柜", "号门", "号楼", "号线", "号口", "号台", "号房",
	// and where a parcel or a prescription is collected (pickup point, parcel station, gatehouse, pharmacy, …)
	"自提点", "驿站", "门卫", "药房", "医院", "机场", "停车场", "丰巢", "代收点", "快递站", "收发室",
	// where an exam is taken
	"考场", "考点", "车管所",
	// where money was spent (a mall, a supermarket, a petrol station)
	"商场", "超市", "商城", "广场", "便利店", "专卖店", "加油站", "电器城",
	// where a vehicle is parked (a parking space, a berth, a garage; not a
	// warehouse: "因 仓库 缺货" says where goods ran out)
	"车位", "泊位", "车库",
	// a station, a pier, and a place by that word (station, pier, location:
	// "取车 地点 改 为 火车站")
	"车站", "火车站", "高铁站", "地铁站", "汽车站", "码头", "地点")

// statesPlace reports that the text (normalised) names a place.
var statesPlace = statedByWords{placeWords, placeAfter, cjkPlaceWords, false, nil, placeNotBefore}.in

// placeNotBefore: a seat for a child in a car is a thing added, no place
// ("CH-55810 child seat added, 35 EUR" for "where do I pick up CH-55810?").
var placeNotBefore = map[string][]string{"seat": {"child", "baby", "booster", "car"}, "seats": {"child", "baby", "booster", "car"}}

// placeAfter are the words that name a place only before one of the words
// listed for them ("access point", "post office"; a loyalty point is none).
var placeAfter = map[string][]string{"access": {"point"}, "pickup": {"point", "location"}, "collection": {"point"},
	"drop": {"point"}, "service": {"point"}, "post": {"office"}, "car": {"park"}, "parcel": {"shop", "locker", "point", "station"}}

// PersonTerm is the term of an event that names a person by their role or
// title ("cleaner changed from Ana to Marek", "Dr. Haines", "骑手"), or by a
// surname after a title or after 小 (王师傅, 小李: namesSomeone): the answer
// to "who". (Names alone are not told from other words: the text is
// analysed in lower case, and a capital starts every sentence.)
const PersonTerm = "☺"

// whoWords mark a question that asks who.
var whoWords = []string{"who", "whom", "whose", "which person", "谁", "哪位",
	// how many people: a count of people, whom a role names ("6 名师傅", "Crew of 3 movers")
	"how many people", "how many persons", "几个人", "多少人", "几人", "几位", "几名"}

// personWords name a person by a role or a title.
var personWords = map[string]bool{"technician": true, "engineer": true, "driver": true, "courier": true, "rider": true,
	"cleaner": true, "agent": true, "advisor": true, "adviser": true, "consultant": true, "doctor": true, "dr": true,
	"nurse": true, "teacher": true, "tutor": true, "coach": true, "trainer": true, "instructor": true, "plumber": true,
	"electrician": true, "mechanic": true, "installer": true, "crew": true, "staff": true, "manager": true,
	"representative": true, "specialist": true, "carer": true, "caregiver": true, "worker": true, "keyworker": true, "childminder": true,
	"therapist": true, "dentist": true, "vet": true, "lawyer": true, "broker": true, "landlord": true, "tenant": true,
	"recipient": true, "sender": true, "neighbour": true, "neighbor": true, "colleague": true, "mr": true, "mrs": true,
	"assigned": true, "invited": true, "covering": true, "covers": true, "member": true, "members": true, "user": true, "users": true,
	"owner": true, "admin": true, "administrator": true, "postman": true, "surveyor": true,
	"inspector": true, "adjuster": true, "assessor": true, "volunteer": true, "nanny": true, "babysitter": true,
	"buyer": true, "seller": true, "customer": true, "client": true, "guest": true, "visitor": true, "patient": true,
	"passenger": true, "applicant": true, "student": true, "chef": true, "cook": true, "stylist": true, "sitter": true,
	"receptionist": true, "pharmacist": true, "optician": true, "officer": true, "clerk": true, "examiner": true,
	"operator": true, "supplier": true, "vendor": true, "caretaker": true, "guard": true, "waiter": true,
	"prof": true, "professor": true, "lecturer": true, "locksmith": true, "handyman": true,
	"repairman": true, "gardener": true, "painter": true, "carpenter": true, "roofer": true, "builder": true,
	"contractor": true, "fitter": true, "tailor": true, "barber": true, "hairdresser": true, "groomer": true,
	"walker": true, "porter": true, "concierge": true, "steward": true, "stewardess": true,
	"pilot": true, "captain": true, "conductor": true, "attendant": true, "cashier": true, "florist": true,
	"photographer": true, "translator": true, "interpreter": true, "notary": true, "accountant": true,
	"auditor": true, "banker": true, "realtor": true, "housekeeper": true, "maid": true, "janitor": true,
	"paramedic": true, "surgeon": true, "physician": true, "midwife": true, "optometrist": true,
	"physiotherapist": true, "physio": true, "psychologist": true, "counsellor": true, "counselor": true,
	"coordinator": true, "planner": true, "dispatcher": true, "mailman": true, "messenger": true,
	"chauffeur": true, "mover": true,
	// a line giving someone's name ("55163 name changed to Priya Nair")
	"name": true,
	// family ("picked up at 13:10 by her father")
	"father": true, "mother": true, "dad": true, "mum": true, "mom": true, "husband": true, "wife": true, "son": true,
	"daughter": true, "brother": true, "sister": true, "grandmother": true, "grandma": true, "grandfather": true,
	"grandpa": true, "aunt": true, "uncle": true, "parent": true, "parents": true, "partner": true,
	// people counted by their part ("guests changed from 4 to 6")
	"guests": true, "passengers": true, "visitors": true}

// asksWhichPerson reports a Chinese question asking which person of a
// role (哪个, 哪一位, 哪名 before cjkPersonWords): "AZ-91405 哪个 师傅 来？",
// as "which fitter is coming?" does in English (the person type's gap).
func asksWhichPerson(norm string) bool {
	for k := 0; ; {
		i := strings.Index(norm[k:], "哪")
		if i < 0 {
			return false
		}
		k += i + len("哪")
		rest := strings.TrimLeft(norm[k:], " ")
		for _, m := range []string{"一", "个", "位", "名"} {
			rest = strings.TrimLeft(strings.TrimPrefix(rest, m), " ")
		}
		if rest != norm[k:] && cjkPersonWords.begin([]rune(rest)) {
			return true
		}
	}
}

// personStems are personWords' terms.
var personStems = func() map[string]bool {
	m := make(map[string]bool, len(personWords))
	for w := range personWords {
		m[stem(w)] = true
	}
	return m
}()

var cjkPersonWords = newCJKWords("师傅", "司机", "骑手", "快递员", "医生", "老师", "客服", "经理", "工程师", "专员", "顾问", "先生", "女士", "教练", "护士",
	"买家", "卖家", "客户", "顾客", "乘客", "患者", "病人", "学生", "房东", "租客", "店员", "厨师",
	// the English roles' Chinese (technician, cleaner, tutor, plumber, staff, …; "assigned": 负责, 指派)
	"技师", "技术员", "配送员", "小哥", "保洁员", "清洁工", "大夫", "医师", "教师", "家教", "助教", "培训师", "教员",
	"水管工", "电工", "修理工", "维修工", "安装工", "工作人员", "员工", "主管", "代表", "专家", "护工", "治疗师",
	"康复师", "理疗师", "牙医", "兽医", "律师", "经纪人", "中介", "房客", "收件人", "收货人", "寄件人", "签收人", "邻居", "同事",
	"太太", "小姐", "阿姨", "负责", "指派", "成员", "用户", "业主", "车主", "店主", "管理员", "邮递员",
	"检查员", "质检员", "理赔员", "评估师", "定损员", "志愿者", "保姆", "客人", "住客", "访客", "申请人", "学员",
	"造型师", "发型师", "理发师", "药师", "药剂师", "验光师", "警官", "柜员", "考官", "供应商", "商家", "保安",
	"服务员", "教授", "讲师", "锁匠", "园丁", "油漆工", "木工", "施工队", "承包商", "裁缝", "美容师", "搬运工",
	"乘务员", "空乘", "机长", "飞行员", "队长", "船长", "列车员", "收银员", "花艺师", "摄影师", "化妆师", "翻译",
	"公证员", "会计", "急救员", "助产士", "咨询师", "协调员", "策划师", "调度员", "老板",
	// family
	"爸爸", "妈妈", "父亲", "母亲", "丈夫", "妻子", "老公", "老婆", "儿子", "女儿", "爷爷", "奶奶", "外公", "外婆", "姥姥",
	"哥哥", "姐姐", "弟弟", "妹妹", "家长")

// AskNames are the names Fusion.Asks may hold, in the order it lists them.
func AskNames() []string {
	var out []string
	for _, t := range answerTypes {
		if t.term != DurationTerm && t.term != DelayTerm { // (asked as a time, timeOrLength; as a reason)
			out = append(out, t.name)
		}
	}
	return append(out, "description", "deals", "asked")
}

// AnswerTypes are the terms of what the question asks for: MoneyTerm,
// QuantityTerm, TimeTerm, ReasonTerm, PersonTerm, PlaceTerm, InstructionTerm,
// CountTerm, SaidTerm, VerdictTerm, VehicleTerm, LevelTerm, FlightTerm,
// TitleTerm, ConsentTerm.
func AnswerTypes(q string) []string {
	var out []string
	text := questionText(spelledOut(q))
	for _, t := range answerTypes {
		if t.asked(text) {
			out = append(out, t.term)
		}
	}
	return out
}

// asked reports that the question asks for it. A time's cue inside a place's
// number is none: "我在几号厅？", "几号登机口？" ask which hall, which gate (as
// "5 号厅" states no date).
func (t *answerType) asked(q text) bool {
	if t.term == VerdictTerm && asksIfTooMuch(q) {
		return true
	}
	if t.term == PercentTerm && asksRate(q.words) || t.term == TimeTerm && (namesADate(q.words) || asksWeekday(q.norm)) || t.term == PersonTerm && asksWhichPerson(q.norm) {
		return true
	}
	if !t.cues.in(q) && !t.gap.in(q.words) && (t.term != PlaceTerm || !endsWhere(q.norm)) && (t.term != MoneyTerm || !endsAskingMoney(q.norm)) {
		return false
	}
	switch {
	case t.term == VerdictTerm && (saidCueSet.in(q) || slices.Contains(q.words, "you") || slices.Contains(q.words, "they") || slices.Contains(q.words, "i")):
		return false // (what the business said: "what did you say?", "客服 怎么 说？")
	case t.term == MoneyTerm && (asksQuantity(q) || howMuchLonger.in(q)) && !moneyBeyondHowMuch.in(q):
		return false // "how much energy …?" asks for a quantity, "how much longer …?" a time
	case t.term == QuantityTerm && (moneyBeyondHowMuch.in(q) || !asksQuantity(q)):
		return false // "how much does the data cost?" asks for money
	case t.term == MoneyTerm && !moneyBeyondTotal.in(q) && (countCueSet.in(q) || durationCueSet.in(q)):
		return false // "一共 几 份？", "总共 多少 人？": a total count, not a sum
	case t.term == InstructionTerm && whatMoney.in(q):
		return false // "要 交 什么 钱？" asks which sum, no papers to hand in
	}
	if t.term != TimeTerm || !strings.Contains(q.norm, "几号") {
		return true
	}
	rs := []rune(q.norm)
	for k := 0; k+1 < len(rs); k++ {
		if rs[k] == '几' && rs[k+1] == '号' && (cjkPlaceWords.begin(rs[k+1:]) || cjkPlaceWords.begin(rs[k+2:]) || asksWhichNumber(rs, k)) {
			rs[k], rs[k+1] = ' ', ' '
		}
	}
	return t.cues.in(textOf(string(rs)))
}

// asksWhichNumber reports that the 几号 at rs[k] asks which number a thing
// has, as "我的柜子是几号？" does: after 是, and a thing before it rather than a
// day ("今天是几号？", "截止日期是几号？", "生日是几号？" ask a date).
func asksWhichNumber(rs []rune, k int) bool {
	j := k - 1
	for j >= 0 && rs[j] == ' ' {
		j--
	}
	if j < 1 || rs[j] != '是' {
		return false
	}
	for j--; j >= 0 && rs[j] == ' '; j-- {
	}
	return j >= 0 && isCJK(rs[j]) && !strings.ContainsRune("天日期号时候间", rs[j])
}

// answerTypesAsked are the answer types the question asks for that w weighs.
func answerTypesAsked(q text, w Weights) []*answerType {
	var out []*answerType
	for _, t := range answerTypes {
		if t.weight(w) > 0 && t.asked(q) {
			if t.term == TimeTerm && durationCueSet.in(q) {
				t = timeOrLength
			}
			out = append(out, t)
		}
	}
	return out
}

// amountWords mark a question that asks for an amount of money.
var amountWords = append([]string{"how much", "cost", "costs", "price", "priced", "fee", "fees", "charge", "charged", "charges",
	"total", "owe", "owed", "owing", "have to pay", "need to pay", "do i pay", "will i pay", "do we pay", "will we pay", "how expensive", "so expensive", "pricey", "要付", "应付", "多少钱", "价格", "费用", "多少元", "几块", "收费",
	"费多少", "花了多少", "付了多少", "花多少", "退了多少", "退多少", "赔了多少", "赔多少", "补了多少", "交了多少", "返了多少", "还多少", "还了多少", "扣多少", "扣了多少", "收多少", "收了多少", "交多少", "付多少", "欠多少", "租多少", "租金多少", "每月多少", "每个月多少", "一个月多少", "每晚多少", "一晚多少", "balance", "余额", "一共", "总共", "合计", "总价", "收钱", "扣钱", "扣费", "扣款",
	// money spent at all ("改签花钱了吗？"), what a payment was for (its event
	// states the amount), and sums of money by their name (a credit line, a
	// deposit)
	"amount", "monthly payment", "monthly payments", "instalment", "installment", "月供", "花钱", "要钱", "付钱", "what did i pay", "what did i just pay", "what have i paid", "what am i paying", "what was i paying", "what did we pay",
	// (asked as a request: "remind me what I paid for FN-77812")
	"what i paid", "what i've paid", "what i have paid", "what i'm paying", "what i am paying", "what we paid", "what i was charged", "credit limit", "spending limit", "额度多少", "额度是多少", "限额多少", "限额是多少", "押金多少", "押金是多少", "定金多少", "定金是多少"},
	append(toBePaidWords, whatMoneyCues...)...)

// whatMoneyCues ask which sum of money ("XX-20419 要 交 什么 钱？", "收 的 什么
// 费？"): a sum, and no papers to hand in, though 要交什么 asks for those
// (instructionCues).
var whatMoneyCues = []string{"什么钱", "什么费", "哪些钱", "哪些费", "哪笔钱", "哪笔费"}

var whatMoney = newCueSet(whatMoneyCues)

// toBePaidWords ask what is still to be paid ("what's left to pay?", "what's
// still to be paid?"): a sum, and none paid (asksPaidPast).
var toBePaidWords = []string{"left to pay", "still to pay", "to be paid"}

// asksQuantity reports a question asking for a quantity (QuantityTerm).
func asksQuantity(q text) bool {
	return quantityCues.in(q) || quantityGap.in(q.words) && !howMuchWasThe(q.words)
}

// howMuchWasThe reports "how much" asked of a thing named after a verb "to
// be": "how much was the electricity in the end?" asks what it cost, where
// "how much electricity did I use?" asks a quantity, and so may "how much
// is roaming data?" (its price is a rate per amount) or "how much is left
// …".
func howMuchWasThe(words []string) bool {
	for i, w := range words {
		if w == "much" && i+2 < len(words) && beWords[words[i+1]] && ownerWords[words[i+2]] {
			return true
		}
	}
	return false
}

// moneyBeyondTotal are amountWords but the words for a total (一共, 总共,
// 合计, "total"): the cues that ask for money even where a total is of a
// count or a length ("一共 几 份？", "总共 几 天？").
var moneyBeyondTotal = amountWordsBut("一共", "总共", "合计", "total")

// countCueSet are the countCues, as a set.
var countCueSet = newCueSet(countCues)

// moneyBeyondHowMuch are amountWords but "how much": the cues that ask for
// money even where "how much" asks for a quantity ("how much does the data
// cost?").
var moneyBeyondHowMuch = amountWordsBut("how much")

// howMuchLonger asks for a time, though its "how much" asks for money
// elsewhere ("how much longer will the repair take?").
var howMuchLonger = newCueSet([]string{"how much longer", "how much later", "how much earlier", "how much sooner"})

// amountWordsBut are the amountWords without these, as a set.
func amountWordsBut(these ...string) cueSet {
	return newCueSet(slices.DeleteFunc(slices.Clone(amountWords), func(w string) bool { return slices.Contains(these, w) }))
}

// MoneyTerm is the term of an event that states an amount of money.
const MoneyTerm = "¤"

// QuantityTerm is the term of an event that states a quantity of something
// measured, a number with its unit ("41 kWh delivered", "18.2 GB of 20 GB",
// "0.041 BTC", "已用 25GB", "用电 210 度"): the answer to "how much energy did
// my car get?", which asks for no amount of money.
const QuantityTerm = "≋"

// quantityGap: one of measurables, within three words after "much", makes
// "how much" ask for a quantity ("how much mobile data is left?"), not money;
// not before a word for what it costs ("how much is the water bill?").
var quantityGap = gapCue{"much", measurables, 3, pricedBy, nil}

// pricedBy are the words after a measurable that make it a price's ("the
// water bill", "the data plan", "the fuel surcharge").
var pricedBy = map[string]bool{"bill": true, "bills": true, "invoice": true, "charge": true, "charges": true, "fee": true,
	"fees": true, "price": true, "prices": true, "cost": true, "costs": true, "tariff": true, "rate": true, "payment": true,
	"deposit": true, "surcharge": true, "plan": true, "bundle": true, "package": true, "subscription": true, "top-up": true}

var measurables = map[string]bool{"data": true, "energy": true, "power": true, "electricity": true, "gas": true,
	"water": true, "fuel": true, "petrol": true, "diesel": true, "space": true, "storage": true, "bitcoin": true,
	"btc": true, "ether": true, "eth": true, "traffic": true, "bandwidth": true, "memory": true, "weight": true,
	"luggage": true, "baggage": true}

// quantityCues are the questions asking for a quantity that quantityGap
// does not find.
var quantityCues = newCueSet(append(cjkUnitCues(), "多少流量", "流量还剩", "剩多少流量", "多少度", "几度电", "多少电", "多少空间", "多少容量", "多重",
	// a volume ("加了多少油？", 几升), a size ("DG7713 多 大？")
	"多少油", "几升", "多少升", "多大",
	// a distance or a weight ("how far did I drive?", not "how far can I go below zero?" nor "how far am I in the queue?")
	"how big is", "how big are", "how large is", "how large are", "what size is", "what size are",
	"how far did", "how far have", "how far was it", "how far is it", "how many miles", "how many kilometres", "how many kilometers",
	"how many km", "what distance", "how heavy", "how much does it weigh", "how much did it weigh", "多远",
	// a line's speed ("how fast is my line?"; not "how fast will the refund come?": a time)
	"how fast is", "how fast are", "what speed", "which speed", "网速多少", "网速是多少", "网速有多少", "多少兆", "几兆", "多少m", "多少 m", "多少g", "多少 g",
	// how much a measure changed ("how much shorter are the trousers?"; not
	// "how much cheaper": money, nor "how much longer": a time)
	"how much shorter", "how much bigger", "how much smaller", "how much heavier", "how much lighter", "how much wider",
	"how much narrower", "how much taller", "how much faster", "how much slower", "how much further", "how much farther"))

// cjkQuantityUnits are the Chinese units of weight, length or area whose number
// statesQuantity reads as a quantity (度 aside: 几度 also asks a
// temperature; 多少度 is in quantityCues).
var cjkQuantityUnits = []string{"公斤", "公里", "千米", "毫升", "克", "吨", "米", "厘米", "寸", "平米", "平方米"}

// cjkUnitCues are the questions asking how many of a Chinese unit: "用 了 多少
// 吨？", "几 公里？", answered by the events stating a quantity in one.
func cjkUnitCues() []string {
	cues := make([]string, 0, 2*len(cjkQuantityUnits))
	for _, u := range cjkQuantityUnits {
		cues = append(cues, "多少"+u, "几"+u)
	}
	return cues
}

// measures are the units that make a number before them a quantity ("41
// kWh", "5GB"): quantityUnits' units of measure, not its counts' ("items",
// "times"), times' or rates' ("nights", "months").
var measures = map[string]bool{"gb": true, "mb": true, "tb": true, "kb": true, "kwh": true, "mwh": true, "kw": true,
	"km": true, "kg": true, "g": true, "l": true, "ml": true, "m2": true, "sqm": true, "litre": true, "litres": true, "liter": true,
	"liters": true, "btc": true, "eth": true, "m3": true, "gigabytes": true, "megabytes": true, "miles": true,
	"kilometres": true, "kilometers": true, "kilos": true, "lb": true, "lbs": true, "tonnes": true,
	"mbit": true, "mbps": true, "gbit": true, "gbps": true, "kbps": true, // (and a line's speed: "500 Mbit")
	"m": true} // (metres, or a line's megabits: "1000M")

// statesQuantity reports that the text (normalised) states a quantity: a
// number and a unit of measures after it, with or without a space ("41 kWh",
// "25GB"), or a number before 度 (kilowatt hours), a Chinese unit of weight,
// length or area (公斤, 克, 吨, 公里, 米, 寸, 平米, …; not 升, which begins 升级,
// an upgrade) or 毫升.
func statesQuantity(rs []rune) bool { return quantities.in(rs) }

var quantities = newUnitScan(unitScan{units: measures, cjk: newCJKWords(append([]string{"度"}, cjkQuantityUnits...)...)})

// currencyCodes are the currency words that make a number next to them money.
var currencyCodes = map[string]bool{"eur": true, "usd": true, "gbp": true, "chf": true, "cny": true, "rmb": true,
	"jpy": true, "cad": true, "aud": true, "sek": true, "nok": true, "dkk": true, "pln": true, "inr": true,
	"hkd": true, "sgd": true, "euro": true, "euros": true, "dollar": true, "dollars": true, "pound": true,
	"pounds": true, "yuan": true, "bucks": true, "quid": true}

// currencySigns are the signs of money written beside a number.
const currencySigns = "€$£¥₹元块円"

// statesAmount reports that the text states an amount of money, or that
// there is none to pay ("not charged to you", "free of charge", 不收费): "will
// I have to pay for the scratch?" is answered by "reviewed: pre-existing, not
// charged to you".
func statesAmount(rs []rune, t text) bool {
	return statesMoney(rs) || nothingToPay.in(t)
}

// nothingToPay say that an amount is none. Not "free" nor 免费 alone: an
// advertisement says them more often ("夏季空调检测免费").
var nothingToPay = newCueSet([]string{"free of charge", "no charge", "not charged", "no cost", "at no cost", "no extra cost",
	"no extra fee", "no additional fee", "no additional cost", "no extra charge", "no additional charge",
	"waived", "no fee", "under warranty", "covered by the warranty", "covered by warranty", "不收费", "免单", "不收取", "保修期内", "免费维修", "免费更换"})

// statesMoney reports that the text states an amount of money: a number with a
// currency sign or word right before or after it (€35, 612.00 EUR, 15 元), or
// a number with two decimals (612.00, 1,250.00; not the date 20.05.2026). It
// looks at each token beside its neighbours, without a regular expression
// (one doubled the cost of analysing an event).
func statesMoney(rs []rune) bool {
	prevNumber, prevCurrency := false, false
	var buf [12]byte
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case strings.ContainsRune(currencySigns, r):
			if prevNumber {
				return true
			}
			prevNumber, prevCurrency = false, true
			i++
		case unicode.IsDigit(r):
			j, seps, dots, last := i, 0, 0, 0
			for j < len(rs) && (unicode.IsDigit(rs[j]) || (rs[j] == '.' || rs[j] == ',') && j+1 < len(rs) && unicode.IsDigit(rs[j+1])) {
				if unicode.IsDigit(rs[j]) {
					last++
				} else {
					seps, last = seps+1, 0
					if rs[j] == '.' {
						dots++
					}
				}
				j++
			}
			// (two decimals: "12.50"; not an address or a version, whose
			// numbers only dots part: "203.0.113.40", "4.12.30")
			if prevCurrency || seps > 0 && last == 2 && (dots < 2 || dots < seps) && (j == len(rs) || !unicode.IsLetter(rs[j])) {
				return true
			}
			prevNumber, prevCurrency = true, false
			i = j
		case isLatin(r):
			j := span(rs, i, isLatin)
			if w := asciiWord(rs[i:j], &buf); in(currencyCodes, w) {
				if prevNumber {
					return true
				}
				prevNumber, prevCurrency = false, true
			} else {
				prevNumber, prevCurrency = in(numberWords, w), false // ("twenty dollars")
			}
			i = j
		case isNumeral(r): // (二十元; a digit is the case above)
			prevNumber, prevCurrency = true, false
			i++
		case unicode.IsSpace(r) || r == ':':
			i++
		default:
			prevNumber, prevCurrency = false, false
			i++
		}
	}
	return false
}

// namesADate reports a question naming the date it asks for, whatever date
// ("FB-6021 install date?", "the dates of my stay"; the compounds of
// timeWords name others' times): not "up to date".
func namesADate(words []string) bool {
	for i, w := range words {
		if (w == "date" || w == "dates") && (i == 0 || words[i-1] != "to") {
			return true
		}
	}
	return false
}

// TimeTerm is the term of an event that states a time or a date ("on Friday
// 11:00", "arriving in 10 minutes", "周日上午 9 点"): the answer to "when" is
// an event that says when.
const TimeTerm = "◷"

// timeWords mark a question that asks when.
var timeWords = []string{"when", "what time", "which day", "what day", "which date", "what date", "how long", "how much longer", "how soon",
	"what times", "which days", "what days", "which dates", "what dates",
	// the part of a day asked names its day ("which evening is PT-614 on?")
	"which morning", "which afternoon", "which evening", "which night", "what morning", "what afternoon", "what evening", "what night",
	"which weekday", "what weekday",
	"eta", "opening hours", "open until", "营业时间", "什么时候", "啥时候", "何时", "几点", "哪天", "哪一天", "几号", "多久", "多长时间",
	// a question that names the time it asks for ("RC-5520 pick-up time?", "delivery date for my sofa")
	"pick up time", "pickup time", "collection time", "delivery time", "delivery date", "arrival time", "departure time",
	"start time", "start date", "end date", "due date", "return date", "check in time", "check out time", "checkout time",
	"appointment time", "opening time", "closing time", "deadline", "expiry date", "renewal date",
	"payment date", "取件时间", "送达时间", "发货时间", "到货时间", "截止日期", "到期日",
	// how many days or hours something lasts (租几天, 要几个小时; a length, durationCues)
	"几天", "多少天", "几周", "几个星期", "几个小时", "几小时"}

// Words that state a time on their own, and those that do beside a number.
var (
	timeAlone = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
		"saturday": true, "sunday": true, "weekend": true, "today": true, "tomorrow": true, "tonight": true,
		"yesterday": true, "noon": true, "midday": true, "midnight": true,
		// a weekday that recurs ("Tuesdays 17:00", "moved to Thursdays")
		"mondays": true, "tuesdays": true, "wednesdays": true, "thursdays": true, "fridays": true, "saturdays": true,
		"sundays": true, "weekends": true}
	// months count beside a number only ("20 May", "May 20"; "may" is also a verb)
	months = map[string]bool{"january": true, "february": true, "march": true, "april": true, "may": true,
		"june": true, "july": true, "august": true, "september": true, "october": true, "november": true,
		"december": true, "jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true,
		"aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true}
	// after a number: a time of day, or how soon ("in 10 minutes", "within 3 days");
	// not months or years, which are a contract's or a plan's length more often
	timeUnits = map[string]bool{"am": true, "pm": true, "minute": true, "minutes": true, "min": true, "mins": true,
		"hour": true, "hours": true, "hr": true, "hrs": true, "h": true, "day": true, "days": true, "week": true, "weeks": true}
	// Chinese words that state a time, and what states one after a number (9 点, 20 分钟, 5 月 3 日)
	cjkTimeWords = newCJKWords("周一", "周二", "周三", "周四", "周五", "周六", "周日", "周天", "周末", "星期", "礼拜",
		"上午", "下午", "晚上", "早上", "中午", "凌晨", "傍晚", "今天", "明天", "后天", "昨天", "今晚", "明早", "下周", "本周", "这周",
		"月底", "月初", "年底", "年初", "下个月", "下月")
	// dayKinds stand between a number and its unit ("3-5 business days", "a couple of days")
	dayKinds = map[string]bool{"business": true, "working": true, "calendar": true, "banking": true, "school": true, "full": true, "of": true}
	// fewWords count as a number before a unit, as numberWords do ("a few days", "two weeks")
	fewWords       = map[string]bool{"one": true, "few": true, "couple": true, "several": true}
	timePreps      = map[string]bool{"in": true, "by": true, "until": true, "till": true, "from": true, "since": true, "before": true, "after": true, "to": true, "during": true, "mid": true, "early": true, "late": true, "of": true}
	cjkAfterNumber = newCJKWords("点", "时", "分钟", "小时", "天", "日", "号", "月", "周", "个小时", "个工作日", "工作日", "个星期")
)

// statesTime reports that the text (normalised: NFKC, lower case) states a
// time or a date: a clock time (11:00, 10am, 9 pm), a weekday, today or
// tomorrow, a day of a month (20 May, 2026-05-20, 20.05.2026), how soon
// (in 10 minutes, 3 days), or their Chinese words (周日, 下午, 9 点, 5 月 3 日).
// Like statesMoney it looks at each token beside its neighbours, without a
// regular expression.
func statesTime(rs []rune) bool {
	if ordinalDay(rs) {
		return true
	}
	prevNumber, prevMonth, prevPrep := false, false, false
	prevValue := -1                // the number before, when of one or two digits
	prevSoon, soon := false, false // the word before was "in", "within" or "after"; the number before came after one
	var buf [12]byte
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsDigit(r):
			j, parts, digits := i, 1, 0
			var lens [4]int // the digits of each of the first parts
			for j < len(rs) && (unicode.IsDigit(rs[j]) || (rs[j] == '.' || rs[j] == '-' || rs[j] == '/') && j+1 < len(rs) && unicode.IsDigit(rs[j+1])) {
				if unicode.IsDigit(rs[j]) {
					digits++
					if parts <= len(lens) {
						lens[parts-1]++
					}
				} else {
					parts++
				}
				j++
			}
			switch {
			case isDateShape(parts, lens): // 2026-05-20, 20.05.2026, 20/05/26
				return true
			case parts == 1 && digits <= 2 && j+2 < len(rs) && rs[j] == ':' && unicode.IsDigit(rs[j+1]) && unicode.IsDigit(rs[j+2]) &&
				(j+3 == len(rs) || !unicode.IsDigit(rs[j+3])): // 11:00
				return true
			case prevMonth && parts == 1 && digits <= 4: // May 20, May 2026
				return true
			}
			// (an identifier's number counts nothing: "NX-30211 点的什么" asks no time)
			prevNumber, prevMonth, prevPrep = parts <= 2 && !inIdentifier(rs, i), false, false
			prevValue = -1
			if parts == 1 && digits <= 2 {
				prevValue = int(rs[i] - '0')
				if digits == 2 {
					prevValue = prevValue*10 + int(rs[i+1]-'0')
				}
			}
			soon, prevSoon = prevSoon, false
			i = j
		case isLatin(r):
			j := span(rs, i, isLatin)
			w := asciiWord(rs[i:j], &buf) // (no time word is longer, nor other than ASCII)
			if in(timeAlone, w) || prevNumber && (in(timeUnits, w) || in(months, w) || soon && in(soonUnits, w)) || prevPrep && in(months, w) ||
				(len(w) == 3 && in(weekdays, w) || in(slotWords, w)) && hoursAfter(rs, j) {
				// (a weekday written short before its hours: "Mon 8-10", "Fri 13-15"; not "sun 5 stars";
				// or a slot's or a window's hours: "new slot 15-17")
				return true
			}
			if in(weekWords, w) && weekAfter(rs, j) {
				return true // (a calendar week: "delivery week 51", "new week 2", "KW 12")
			}
			if prevNumber && in(dayKinds, w) {
				i = j // "3-5 business days", "7 working days", "a couple of days": the unit follows
				continue
			}
			number := in(numberWords, w) || in(fewWords, w)
			soon = number && prevSoon
			prevNumber, prevMonth, prevPrep = number, in(months, w), in(timePreps, w)
			prevSoon = in(soonWords, w)
			i = j
		case isCJK(r):
			j := span(rs, i, isCJK)
			if prevNumber && cjkAfterNumber.begin(rs[i:j]) && !cjkPlaceWords.begin(rs[i:j]) && inCalendar(rs[i], prevValue) || cjkTimeWords.in(rs[i:j]) { // (5 号厅: a hall)
				return true
			}
			prevNumber, prevMonth, prevPrep, prevSoon = false, false, false, false
			i = j
		case unicode.IsSpace(r):
			i++
		default:
			prevNumber, prevMonth, prevPrep, prevSoon = false, false, false, false
			i++
		}
	}
	return false
}

// weekWords name a calendar week by the number written after them
// ("delivery week 51", "new week 2", "calendar week 12", "KW 12").
var weekWords = map[string]bool{"week": true, "wk": true, "kw": true, "cw": true}

// weekAfter reports that the token after rs[j] (past spaces) is a week's
// number, 1-53, and no more: not "week 2026-05" nor "week 3.5".
func weekAfter(rs []rune, j int) bool {
	for j < len(rs) && rs[j] == ' ' {
		j++
	}
	v, k := 0, j
	for ; k < len(rs) && unicode.IsDigit(rs[k]) && k-j < 3; k++ {
		v = v*10 + int(rs[k]-'0')
	}
	return k > j && k-j <= 2 && v >= 1 && v <= 53 && (k == len(rs) || !unicode.IsDigit(rs[k]) && rs[k] != '.' && rs[k] != '-' && rs[k] != '/')
}

// slotWords name a span of hours written after them ("new slot 15-17",
// "delivery window 8-12").
var slotWords = map[string]bool{"slot": true, "window": true, "between": true}

// isDateShape reports that a number of three parts (parted by dots,
// dashes or slashes) of these lengths (in digits) is written as a date:
// a year of four digits first, then a month and a day of one or two
// ("2026-05-20"), or a day and a month of one or two, then a year of two or
// four ("20.05.2026", "20/05/26"). Not an address of four parts
// ("203.0.113.40") nor a version ("15.4.2", "1.22.100").
func isDateShape(parts int, lens [4]int) bool {
	if parts != 3 {
		return false
	}
	short := func(n int) bool { return n == 1 || n == 2 }
	return lens[0] == 4 && short(lens[1]) && short(lens[2]) || short(lens[0]) && short(lens[1]) && (lens[2] == 2 || lens[2] == 4)
}

// inCalendar reports that a number (v, -1 when longer than two digits) can
// be what the Chinese unit after it (r) counts: a day of a month (号, 日) is
// 1-31, a month 1-12, an hour (点, 时) 0-24; "95 号 汽油" is a grade of
// petrol, not a date. Other units (天, 小时, 分钟) take any number.
func inCalendar(r rune, v int) bool {
	switch r {
	case '号', '日':
		return v >= 1 && v <= 31
	case '月':
		return v >= 1 && v <= 12
	case '点', '时':
		return v >= 0 && v <= 24
	}
	return true
}

// hoursAfter reports that the token after rs[j] (past spaces and a comma) is
// a range of hours: one or two digits, a dash, one or two digits ("8-10").
func hoursAfter(rs []rune, j int) bool {
	for j < len(rs) && (rs[j] == ' ' || rs[j] == ',') {
		j++
	}
	digits := func() int {
		n := 0
		for ; j < len(rs) && unicode.IsDigit(rs[j]); j++ {
			n++
		}
		return n
	}
	if n := digits(); n == 0 || n > 2 || j >= len(rs) || rs[j] != '-' && rs[j] != '–' {
		return false
	}
	j++
	n := digits()
	return n > 0 && n <= 2 && (j == len(rs) || !unicode.IsDigit(rs[j]) && rs[j] != '-')
}

// soonWords before a number of months or years (soonUnits) say how soon
// ("check-up due in 6 months", "within 2 years"): a time, where "12 months"
// alone is a plan's length (DurationTerm).
var (
	soonWords = map[string]bool{"in": true, "within": true, "after": true}
	soonUnits = map[string]bool{"month": true, "months": true, "year": true, "years": true}
)

// inIdentifier reports that the number starting at rs[i] is glued to letters
// before it, bare or through the identifier's other parts (NX-30211, B14,
// HT/2026/0118): an identifier's.
func inIdentifier(rs []rune, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch r := rs[j]; {
		case isLatin(r):
			return true
		case unicode.IsDigit(r) || r == '-' || r == '/' || r == '_':
			continue // (the identifier's other parts: HT/2026/0118, INV-2024-1040)
		}
		return false
	}
	return false
}

// ordinalDay reports a day of the month as an ordinal: "the 1st of each
// month", "until the 14th", "on the 3rd" (not "on the 2nd floor", "walk 1"):
// before "of", or after "the" and a preposition of time or "on", ending a
// phrase.
func ordinalDay(rs []rune) bool {
	k := -1 // the first digit before an ordinal's ending (most texts have none)
	for i := 0; i+2 < len(rs); i++ {
		if a, b := rs[i+1], rs[i+2]; unicode.IsDigit(rs[i]) && (a == 's' && b == 't' || a == 'n' && b == 'd' || a == 'r' && b == 'd' || a == 't' && b == 'h') {
			k = i
			break
		}
	}
	if k < 0 {
		return false
	}
	words := strings.Fields(string(rs[max(0, k-24):]))
	for i, raw := range words {
		w := strings.TrimRight(raw, ",.;:!?)")
		n := strings.TrimRight(w, "stndrh")
		if len(n) == 0 || len(n) > 2 || len(w)-len(n) != 2 || !ordinalEnding(n, w[len(n):]) {
			continue
		}
		if day, err := strconv.Atoi(n); err != nil || day < 1 || day > 31 {
			continue
		}
		ends := len(w) < len(raw) || i+1 == len(words) || timePreps[words[i+1]] || words[i+1] == "at" || words[i+1] == "and"
		if i+1 < len(words) && words[i+1] == "of" ||
			ends && i >= 2 && words[i-1] == "the" && (timePreps[words[i-2]] || words[i-2] == "on") {
			return true // (ending there: "on the 2nd floor" names a floor)
		}
	}
	return false
}

// ordinalEnding reports the ending of the ordinal of n (1st, 2nd, 3rd, 11th).
func ordinalEnding(n, end string) bool {
	switch {
	case len(n) == 2 && n[0] == '1':
		return end == "th"
	case strings.HasSuffix(n, "1"):
		return end == "st"
	case strings.HasSuffix(n, "2"):
		return end == "nd"
	case strings.HasSuffix(n, "3"):
		return end == "rd"
	}
	return end == "th"
}

// asciiWord is the word's bytes in buf, or nothing when it is longer than buf
// or not ASCII.
func asciiWord(rs []rune, buf *[12]byte) []byte {
	if len(rs) > len(buf) {
		return nil
	}
	for k, r := range rs {
		if r >= utf8.RuneSelf {
			return nil
		}
		buf[k] = byte(r)
	}
	return buf[:len(rs)]
}

// in looks the word up without allocating a string for it.
func in(m map[string]bool, w []byte) bool { return m[string(w)] }

// span is the end of the run of rs from i whose runes are in.
func span(rs []rune, i int, in func(rune) bool) int {
	for i < len(rs) && in(rs[i]) {
		i++
	}
	return i
}

// isLatin: a letter of a script written with spaces between words.
func isLatin(r rune) bool { return unicode.IsLetter(r) && !isCJK(r) }

// followedBy reports that the next word of rs is w, after spaces, a hyphen,
// an underscore or an apostrophe ("on back-order", "out-of-stock", a status
// "on_hold", "can't").
func followedBy(rs []rune, w string) bool {
	k := 0
	for k < len(rs) && rs[k] == ' ' {
		k++
	}
	if k == 0 && len(rs) > 0 && (rs[0] == '-' || rs[0] == '_' || rs[0] == '\'' || rs[0] == '’') {
		k = 1 // (or a contraction's: "can't" is "can", "t")
	}
	rest := rs[k:]
	if k == 0 || len(rest) < len(w) || len(rest) > len(w) && unicode.IsLetter(rest[len(w)]) {
		return false
	}
	return string(rest[:len(w)]) == w
}

// followedBy is followedBy, unless one of s.notAfter follows w ("cancelled
// by you": "you" after "by", pronounAgents).
func (s statedByWords) followedBy(rs []rune, w string) bool {
	if !followedBy(rs, w) {
		return false
	}
	if s.notAfter == nil {
		return true
	}
	k := 0
	for k < len(rs) && !isLatin(rs[k]) {
		k++ // (to w)
	}
	k += len(w)
	for k < len(rs) && rs[k] == ' ' {
		k++
	}
	var buf [12]byte
	return !in(s.notAfter, asciiWord(rs[k:span(rs, k, isLatin)], &buf))
}

// cjkWords are Chinese words, and the characters they begin with: a run of
// text holding none of those holds none of the words, and is not made into a
// string to look for them.
type cjkWords struct {
	words []string
	first string
}

func newCJKWords(words ...string) cjkWords {
	c := cjkWords{words: words}
	for _, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); !strings.ContainsRune(c.first, r) {
			c.first += string(r)
		}
	}
	return c
}

// in reports whether the run holds one of the words.
func (c cjkWords) in(run []rune) bool {
	if !slices.ContainsFunc(run, func(r rune) bool { return strings.ContainsRune(c.first, r) }) {
		return false
	}
	s := string(run)
	return slices.ContainsFunc(c.words, func(w string) bool { return strings.Contains(s, w) })
}

// begin reports whether the run begins with one of the words.
func (c cjkWords) begin(run []rune) bool {
	if len(run) == 0 || !strings.ContainsRune(c.first, run[0]) {
		return false
	}
	s := string(run)
	return slices.ContainsFunc(c.words, func(w string) bool { return strings.HasPrefix(s, w) })
}

// ReasonTerm is the term of an event that states a cause or a problem
// ("declined: insufficient funds", "failed", "blocked because …", "支付失败"):
// a question asking why is answered by what went wrong.
const ReasonTerm = "∵"

// whyWords mark a question that asks why, or what holds things up ("what are
// you waiting for?", "do you still need anything from me?": a missing
// requirement, which statesReason counts as a problem).
var whyWords = []string{"why", "how come", "what went wrong", "what caused", "what was causing", "what is causing", "what's causing",
	"what causes", "cause of", "what's the problem", "what is the problem", "what was the problem", "为什么", "为啥", "怎么回事", "什么原因", "原因", "怎么还没", "怎么还不", "怎么没", "怎么不", "为何", "什么问题", "啥问题", "怎么了", "咋回事", "卡在", "怎么这么", "为啥这么", "为什么这么", "咋这么", "holding up", "held up", "taking so long", "waiting for", "waiting on", "wait for", "still need", "need from me", "还需要", "还缺", "what's the holdup", "what's the hold-up",
	"keep an eye on", "watch out for"}

// DelayTerm is the term of an event whose only cause or problem is a delay,
// a shortage or the weather ("Parts delayed; car ready Wednesday", "storm
// forecast for Friday", "engineer running 30 minutes late", "only 2 of the 4
// tyres in stock"); ReasonTerm is any other's. A question asking why looks
// for either (the reason type's alt); one asking what is wrong with a thing
// (faultCues) for ReasonTerm alone: "what was wrong with the car?" asks
// about the car, not its repair's schedule. Each event states one of the two
// at most, so an event's length is what it was with one reason term.
const DelayTerm = "⌛"

// faultCues mark a question asking what is wrong with a thing, or what a
// check found.
var faultCues = append([]string{"wrong with", "what's wrong", "what is wrong", "what was wrong", "anything wrong", "something wrong",
	"needs fixing", "need fixing", "needs repair", "need repair", "查出", "发现了什么", "发现什么", "什么问题", "什么毛病", "毛病", "哪里坏",
	// how a thing broke (怎么坏的)
	"怎么坏", "咋坏", "怎么弄坏", "出了什么事", "出什么事", "出了什么问题", "what broke", "what's broken", "what is broken", "what was broken", "what got broken",
	// what a doctor found (a diagnosis)
	"什么病", "得了什么", "得的什么", "得的是什么", "诊断结果", "what's my diagnosis", "what is my diagnosis", "what was i diagnosed with", "diagnosed with what"},
	whatBrokeWords...)

// whatBrokeWords ask what broke (什么坏, 坏了什么), among faultCues: 坏 is then
// what is asked, no problem the question names (problemsOnly).
var whatBrokeWords = []string{"什么坏", "坏了什么"}

var whatBroke = newCueSet(whatBrokeWords)

// delays are the reason words that say why something is late, short or off,
// not what is wrong with a thing (reasonWords, reasonAfter's keys and
// cjkReasonWords): an event stating no other reason states a delay.
var delays = map[string]bool{"delayed": true, "delay": true, "postponed": true, "late": true, "pending": true, "weather": true,
	"storm": true, "gale": true, "hurricane": true, "typhoon": true, "snowstorm": true, "fog": true, "flooding": true,
	"strike": true, "traffic": true, "overbooked": true, "backorder": true, "backordered": true, "unavailable": true,
	"on": true, "waiting": true, "back": true, "held": true, "due": true, "for": true, "nobody": true, "sold": true, "of": true, "short": true,
	"延误": true, "延迟": true, "晚点": true, "推迟": true, "延期": true, "顺延": true, "天气": true, "暴雨": true, "台风": true,
	"大风": true, "暴雪": true, "大雾": true, "罢工": true, "堵车": true, "拥堵": true, "管制": true, "待处理": true, "临时有事": true,
	"因": true, "停运": true, "暂停": true, "停业": true, "缺货": true, "已满": true, "售罄": true, "限行": true, "请假": true, "休假": true,
	"停诊": true, "出差": true, "rain": true, "snow": true, "icy": true, "下雨": true, "下雪": true, "雨天": true, "降雨": true,
	"降雪": true, "需定制": true, "需要定制": true, "定制中": true, "出餐慢": true, "出餐较慢": true, "爆单": true}

// faultStated reports a text (normalised) stating a cause or a problem that
// is no delay.
var faultStated = func() func([]rune) bool {
	words := map[string]bool{}
	for w := range reasonWords {
		if !delays[w] {
			words[w] = true
		}
	}
	after := map[string][]string{}
	for w, then := range reasonAfter {
		if !delays[w] {
			after[w] = then
		}
	}
	cjk := slices.DeleteFunc(slices.Clone(cjkReasonWords.words), func(w string) bool { return delays[w] })
	stated := statedByWords{words, after, newCJKWords(cjk...), true, nil, nil}.in
	return func(rs []rune) bool { return stated(withoutRequests(rs)) }
}()

// withoutRequests is a text (its Chinese joined) without what it asks of the
// customer: a Chinese run from 请 on (not 请假, leave), which tells what to do
// and states no problem ("复诊前请停用药膏一天": 停用 is no account disabled).
func withoutRequests(rs []rune) []rune {
	k := slices.Index(rs, '请')
	for k >= 0 && k+1 < len(rs) && rs[k+1] == '假' {
		n := slices.Index(rs[k+1:], '请')
		if n < 0 {
			return rs
		}
		k += 1 + n
	}
	if k < 0 {
		return rs
	}
	out := slices.Clone(rs)
	for i := k; i < len(out) && isCJK(out[i]); i++ {
		out[i] = ' '
	}
	return withoutRequests(out)
}

// statesCause reports a text stating a reason (statesReason) that is no
// delay alone: ReasonTerm, where an event stating only a delay states
// DelayTerm (the analysis asks it of the events stating a reason).
func statesCause(rs []rune, t text) bool { return faultStated(rs) || statesShortOfDue(t) }

// altTerm is the term whose hash is an answer type's alt.
func altTerm(h uint64) string {
	if h == termHash(DelayTerm) {
		return DelayTerm
	}
	return DurationTerm
}

// never states nothing: the fault type is the reason type's ReasonTerm
// without its delays, asked by other words, and DelayTerm is what the reason
// type states of an event stating only a delay (Analyze).
func never([]rune, text) bool { return false }

// findWords, within three words after "did", ask what someone found ("what
// did Marco find?", "did the vet notice anything?"): a fault, as "what's
// wrong with …" does (statesReason's findings), not a delay or someone away.
var findWords = map[string]bool{"find": true, "discover": true, "notice": true, "spot": true, "detect": true}

// showWords ask what a check found ending a question after "did": "what did
// the scan show?", "what did the test reveal?"
var showWords = map[string]bool{"show": true, "reveal": true}

// possessives after a find word make the question one about a lost thing
// ("did they find my umbrella?").
var possessives = map[string]bool{"my": true, "our": true, "your": true, "his": true, "her": true, "their": true}

// reasonWords state a cause or a problem (and reasonAfter's, before another word).
var reasonWords = map[string]bool{"because": true, "reason": true, "caused": true, "cause": true,
	"failed": true, "failure": true, "failing": true, "error": true,
	"declined": true, "denied": true, "rejected": true, "refused": true, "blocked": true, "suspended": true,
	"expired": true, "insufficient": true, "exceeded": true, "invalid": true,
	"unavailable": true, "outage": true, "downtime": true, "disrupted": true, "interrupted": true,
	"restricted": true, "locked": true, "frozen": true, "overdue": true, "unpaid": true,
	"delayed": true, "delay": true, "problem": true, "issue": true, "unable": true, "bounced": true,
	"flagged": true, "suspicious": true, "incorrect": true, "wrong": true, "damaged": true, "broken": true,
	"lost": true, "missing": true, "dead": true, "flooded": true, "unsupported": true, "incompatible": true, "cannot": true, "couldn": true, // (couldn't)
	"unsuccessful": true, "postponed": true, "late": true, "pending": true, "defect": true, "duplicate": true, "overcharged": true,
	"defective": true, "faulty": true, "shortage": true, "ill": true, "sick": true, "weather": true, "storm": true,
	"rain": true, "snow": true, "icy": true,
	"gale": true, "hurricane": true, "typhoon": true, "snowstorm": true, "fog": true, "flooding": true,
	"strike": true, "traffic": true, "diagnosis": true, "diagnosed": true, "unusual": true,
	"overbooked": true, "unreachable": true, "backorder": true, "backordered": true,
	"needs": true, "needed": true, "required": true, "requires": true, "revoked": true, "deactivated": true, "disabled": true,
	// faults and findings ("what was wrong with my car?": "MOT result: FAIL, worn brake pads")
	"fail": true, "fault": true, "worn": true, "burnt": true, "burned": true, "blown": true, "leak": true, "leaking": true, "cracked": true, "crack": true, "chipped": true, "torn": true, "tear": true,
	"corrosion": true, "corroded": true, "rust": true, "suspected": true, "infection": true, "injury": true, "fever": true,
	"overheating": true, "overheated": true, "slow": true, "weak": true, "stuck": true, "jammed": true, "malfunction": true, "mould": true, "mold": true,
	"unreadable": true, "bug": true, "glitch": true, "illegible": true, "blurry": true, "incomplete": true,
	// a part that sticks, came loose, wore or broke ("two sticking keys found", "brake cable frayed")
	"sticking": true, "sticky": true, "bent": true, "clogged": true, "frayed": true, "seized": true,
	"misaligned": true, "misfiring": true, "snapped": true, "warped": true, "punctured": true, "puncture": true, "leaks": true, "leaky": true,
	// an electrical fault (a short circuit, a breaker tripped) and a mistake
	// made (a meter misread), as 短路, 跳闸 and 抄错 are
	"short-circuit": true, "shorted": true, "tripped": true, "tripping": true, "misread": true, "miscalculated": true, "mistake": true, "typo": true,
	// a service or device stopped (as 暂停, 断网 are)
	"paused": true, "disconnected": true, "disconnects": true, "noisy": true, "dripping": true, "throttled": true,
	// a device's fault heard or seen ("left ear cup crackles", "screen flickers";
	// a hearing aid whistling: +3 −0 on the development sets)
	"crackles": true, "crackling": true, "buzzing": true, "buzzes": true, "rattles": true, "rattling": true, "hissing": true, "whistling": true, "whistles": true,
	"flickers": true, "flickering": true, "squeaks": true, "squeaking": true, "beeping": true,
	// what went wrong with a delivery's goods ("soup spilled in the bag", "melted")
	"spilled": true, "spilt": true, "melted": true, "crushed": true, "squashed": true, "soggy": true,
	// what an inspection finds ("Tom noticed moss in the back lawn", "battery also swollen")
	"detected": true, "noticed": true, "spotted": true, "swollen": true, "rotten": true, "damp": true, "scratch": true,
	"scratched": true, "scratches": true, "dent": true, "dented": true, "stain": true, "stained": true,
	"advised": true, "recommended": true, // (a check's advice: "tread depth 3 mm: replacement advised", "… recommended")
	// and what a doctor, a dentist or a vet finds ("X-ray: small fracture in the
	// left front paw", "check-up: small cavity", "blood sugar elevated")
	"fracture": true, "fractured": true, "sprain": true, "sprained": true, "strain": true, "strained": true, "inflamed": true,
	"inflammation": true, "swelling": true, "bruised": true, "allergic": true, "allergy": true, "limping": true,
	"cavity": true, "cavities": true, "decay": true, "abnormal": true, "elevated": true, "deficiency": true, "cyst": true, "lump": true, "irregular": true,
	"tartar": true, "plaque": true, "gingivitis": true,
	// and someone unwell ("had a temperature of 38.4 at 11:00; please collect her")
	"unwell": true, "temperature": true, "rash": true, "cough": true, "coughing": true,
	"diarrhoea": true, "diarrhea": true, "headache": true, "migraine": true}

var cjkReasonWords = newCJKWords("因为", "由于", "上调", "涨价", "上涨", "提价", // (a price raised: why a bill is higher)
	"原因", "失败", "拒绝", "错误", "超过", "超出", "不足", "过期", "冻结", "暂停", "故障", "异常", "延误", "丢失",
	"延迟", "晚点", "超时", "拦截", "拒单", "拒收", "无法", "未能", "缺货", "需定制", "需要定制", "定制中", "出餐慢", "出餐较慢", "爆单", "管制", "暴雨", "天气", "生病", "台风", "大风", "暴雪", "大雾",
	// the English words' Chinese (caused, declined, invalid, unavailable, outage, overdue, postponed, missing, diagnosis, revoked, …;
	// not 需要, 必须 or 不能, which most questions asking whether one must or can say)
	"导致", "造成", "不成功", "未成功", "出错", "报错", "被拒", "驳回", "拒付", "未通过", "不通过", "封禁", "停用", "失效",
	"无效", "不可用", "已满", "售罄", "停电", "停水", "断网", "中断", "限制", "受限", "锁定", "逾期", "欠费", "未缴", "未付", "未支付", "欠缴", "推迟",
	"延期", "顺延", "问题", "不了", "可疑", "有误", "不正确", "不符", "破损", "遗失", "缺少", "缺失", "缺油", "缺氟", "缺水", "不支持",
	// the faults and findings' Chinese (leak, worn, stuck, cracked, rust, infection, fever, overheating, slow)
	"漏水", "渗水", "磨损", "老化", "堵塞", "卡住", "裂", "生锈", "发炎", "感染", "发烧", "过热", "变慢",
	"不兼容", "待处理", "缺陷", "短缺", "台风", "暴雪", "罢工", "堵车", "拥堵", "诊断", "检查发现", "检测发现", "开药", "开了药", // (a medicine prescribed: a diagnosis made, "就诊 完成：湿疹，开 药膏")
	"撤销", "禁用", "注销",
	// what an inspection finds (scratch, stain, swollen, mould, dent, rotten, damp)
	"划痕", "污渍", "鼓包", "发霉", "霉变", "凹陷", "腐烂", "受潮", "瑕疵", "刮花", "刮伤", "划伤", "磕碰",
	// (an oil or water stain, a card demagnetised, an address unclear; a part loose, warped, snapped, a tyre punctured or losing air)
	"油渍", "水渍", "消磁", "不详", "松动", "变形", "断裂", "扎胎", "爆胎", "漏气",
	// (a noise or a smell that should not be there: 异响, 异味)
	"异响", "异味",
	// (an electrical fault: a short circuit, water got in, a current leaking, a part burnt out, a breaker tripped)
	"短路", "进水", "漏电", "烧坏", "烧毁", "跳闸",
	// (a mistake made: a reading copied, a sum worked out, a form filled in wrong)
	"抄错", "读错", "算错", "填错", "写错", "输错", "录错", "弄错", "搞错", "扣错", "寄错", "发错", "送错",
	// and someone unwell, as the English says it (cough, diarrhoea, vomiting, headache, rash, unwell, inflamed: -炎)
	"咳嗽", "腹泻", "拉肚子", "呕吐", "头疼", "头痛", "皮疹", "不舒服", "发热", "炎",
	// and a part gone (broken, 坏 as in 坏了, 烧坏, 摔坏, 坏点; burnt out, bent,
	// snapped, loose, a bad contact; leaking, 漏 alone as in "水管 漏 了":
	// +6 −1 on the development sets, a spilt drink, "可乐 漏 了 一半", then
	// answering "为什么 送 晚 了？" above the rider's delay; a battery gone
	// flat, 没电, +1 −0, taking it up one place)
	"坏", "烧毁", "弯折", "折断", "断裂", "松动", "接触不良", "漏", "没电",
	// and what went wrong with a delivery's goods (spilled, crushed, melted, gone cold)
	"洒了", "洒出", "撒了", "压扁", "化了", "凉了",
	// and what a doctor or a vet finds (fracture, sprain, strain, allergy, swelling, cavity, elevated, low, cyst, nodule)
	"骨折", "扭伤", "拉伤", "过敏", "肿胀", "红肿", "蛀牙", "龋齿", "偏高", "偏低", "囊肿", "结节",
	// (a reading too high or too low: "光 衰 过高", "水压 过低")
	"过高", "过低",
	// and why something is sent back (too small, too big, does not fit)
	"偏小", "偏大", "太小", "太大", "不合适", "不合身", "不一样", "色差", "质量问题", "发错",
	// and a notice's cause (因节假日, 停运, 临时有事), and someone away (on leave, off sick, not seeing patients)
	"因", "停运", "停业", "临时有事", "限行", "禁行", "禁止通行", "请假", "休假", "病假", "停诊", "出差", "下雨", "下雪", "雨天", "降雨", "降雪",
	// and a device that does not work (no sound, won't open, won't connect, won't charge, no signal, frozen screen)
	"没有声音", "没声音", "没反应", "打不开", "连不上", "充不进", "充不上", "登不上", "关不上", "不出水", "不制冷", "不加热", "不亮", "不启动", "不工作",
	"黑屏", "死机", "花屏", "没信号", "无信号", "卡顿", "不灵", "噪音", "杂音", "模糊", "较慢", "太慢", "很慢",
	// and what ran out or went missing (used up, throttled, short-shipped, reported lost, papers to supply, repair under way)
	"用完", "限速", "少发", "漏发", "挂失", "需要补充", "需补充", "待补充", "抢修")

// reasonAfter are the words that state a problem only before one of the
// words listed for them: "on hold", "due to" (an invoice's due date states none), "limit
// reached" (a limit raised states none), "held for review" (a deposit held on a
// card states none), "could not access" ("do not reply" states none).
var reasonAfter = map[string][]string{"due": {"to"}, "on": {"hold", "holiday", "leave", "vacation", "sick", "a course", "a training", "training", "order", "backorder"}, "need": {"a", "an"}, "waiting": {"for", "on"},
	"at": {"risk", "a training"}, "below": {"limit", "the limit", "minimum", "the minimum"}, "used": {"up"}, "limit": {"reached", "exceeded", "hit"}, "quota": {"reached", "exceeded", "hit", "full"},
	"allowance": {"reached", "exceeded", "used"}, "storage": {"full"}, "held": {"for", "at", "up", "by"}, "signs": {"of"},
	"could": {"not"}, "can": {"not", "t"}, "did": {"not"}, "was": {"not"}, "were": {"not"}, "has": {"not"},
	"have": {"not"}, "had": {"not"}, "is": {"not"}, "are": {"not"},
	// and contracted, as the words split them ("can't", "didn't": "didn", "t")
	"didn": {"t"}, "wasn": {"t"}, "weren": {"t"}, "hasn": {"t"}, "haven": {"t"}, "hadn": {"t"}, "isn": {"t"}, "aren": {"t"},
	// why something could not be done ("nobody at home", "not found", "out of
	// stock", "sold out")
	"nobody": {"at", "home", "available"}, "no": {"one", "stock", "answer", "access", "sound", "signal", "power", "picture", "heating", "connection"}, "for": {"maintenance", "repairs", "repair", "renovation", "refurbishment", "cleaning", "works", "inspection", "holidays"},
	// (and a rule broken: "parked in zone 1 without permit")
	"without": {"a", "an", "valid", "permission", "authorisation", "authorization", "permit", "ticket", "paying", "payment", "insurance", "licence", "license", "approval"},
	"not": {"as", "found", "available", "enough", "home", "reachable", "possible", "eligible", "valid", "working", "responding", "charging", "connecting", "loading",
		"work", "respond", "charge", "connect", "load"},
	"of": {"stock"}, "sold": {"out"}, "back": {"order", "ordered"}, "short": {"picked", "shipped", "delivered", "paid"},
	"please": {"upload", "send", "provide", "submit", "sign", "resend", "complete"},
	"too": {"small", "big", "large", "tight", "loose", "short", "long", "narrow", "wide", "heavy", "expensive", "early", "high",
		"hot", "cold", "weak"},
	// a reading out of range, as a check finds it ("pressure low, topped up", "battery flat")
	"pressure": {"low", "high", "dropped", "drop"}, "battery": {"low", "flat", "dead", "drained"},
	// a part gone flat, a warning lit ("flat rear tyre", "brake warning light on")
	"flat": {"tyre", "tire", "rear", "front", "battery"}, "warning": {"light", "lamp"}, "noise": {"on", "from", "in"},
	"low": {"pressure", "battery", "oil", "coolant", "tyre", "tire", "signal", "fluid"},
	// why a payment came back ("returned by the bank: account closed", "cheque returned unpaid")
	"account": {"closed"}, "returned": {"unpaid"},
	// a charge made twice ("travel billed twice", "charged twice")
	"billed": {"twice"}, "charged": {"twice"}, "paid": {"twice"}, "double": {"charged", "billed", "charge", "booking", "booked", "payment"}}

// statesReason reports that the text (normalised; and as words) states a
// cause or a problem, or what was taken off an amount (statesDeduction,
// takenOffAfter).
func statesReason(rs []rune, t text) bool {
	return reasonStated(rs) || statesShortOfDue(t) || statesShortfall(t.words) || causeAfterColon(t.norm) || takenOffAfter(t.words)
}

// takenOffAfter reports a sum stated after what was taken off it, in a
// text's words: one of takenOff within four words after "after" ("63 EUR
// after excess", "47.90 EUR after credit"): why less is paid, a reason. No
// fault (statesCause): a credit is nothing wrong with a thing ("what was
// wrong with the water?"; as a fault too, +4 −2 on the development sets,
// as a reason only +4 −1: "192 EUR will be paid after the 20% excess" then
// states a reason for "why didn't you pay for the jab?").
func takenOffAfter(w []string) bool {
	for i := range w {
		if offAfter(w, i, takenOff) {
			return true
		}
	}
	return false
}

// offAfter reports the i-th of words "after" and one of off within the four
// words after it ("after the 5% fee", "after excess").
func offAfter(w []string, i int, off map[string]bool) bool {
	return w[i] == "after" && slices.ContainsFunc(w[i+1:min(len(w), i+5)], func(y string) bool { return off[y] })
}

// takenOff are the words for what is taken off a sum due or paid out.
var takenOff = map[string]bool{"excess": true, "deductible": true, "credit": true, "discount": true, "deduction": true}

// causeAfterColon reports a change of plan with its cause after a colon
// ("DR-4470 lesson Thursday cancelled: car in the garage", "RF-3391
// postponed: storm warning"): a word saying the plan did not hold, after
// the text's first word, then a colon and words, not a time, a number or an
// identifier ("Cancelled: order O-7712" labels what was cancelled); in
// Chinese, cjkPlanBroken ("GH-52018 改 为 周三 下午：王 医生 手术").
func causeAfterColon(norm string) bool {
	for k := 0; ; {
		i := strings.IndexByte(norm[k:], ':')
		if i < 0 {
			return false
		}
		i += k
		k = i + 1
		w := i // (the word right before the colon, and a word before it: no allocation for most texts)
		for w > 0 && norm[w-1] >= 'a' && norm[w-1] <= 'z' {
			w--
		}
		if w == i && cjkPlanBroken(norm[:i], norm[k:]) {
			return true
		}
		if w == i || !plansBroken[norm[w:i]] || strings.TrimSpace(norm[:w]) == "" {
			continue
		}
		after := wordsOf(norm[k:min(len(norm), k+60)])
		if len(after) >= 2 && !strings.ContainsFunc(after[0], unicode.IsDigit) && !strings.ContainsFunc(after[1], unicode.IsDigit) && !weekdays[after[0]] && !months[after[0]] {
			return true
		}
	}
}

// cjkPlanBroken reports a Chinese clause before a colon saying a plan did
// not hold (cjkPlansBroken: "GH-52018 改 为 周三 下午", "课程 推迟 一 周"), after
// something it is said of and before what it became, and Chinese words after
// the colon ("王 医生 手术"); not a label ("您 改期：搬家 改 到 …").
func cjkPlanBroken(before, after string) bool {
	after = strings.TrimLeft(after, " ")
	r, _ := utf8.DecodeRuneInString(after)
	if !isCJK(r) {
		return false
	}
	if c := strings.LastIndexAny(before, ",，;；。"); c >= 0 {
		before = before[c+1:]
	}
	if !strings.ContainsAny(before, "改推延取暂停") {
		return false // (most clauses: no copy made)
	}
	before = strings.ReplaceAll(before, " ", "")
	for _, w := range cjkPlansBroken {
		if k := strings.Index(before, w); k > 0 && k+len(w) < len(before) {
			return true
		}
	}
	return false
}

// cjkPlansBroken are the Chinese words saying a plan did not hold as made.
var cjkPlansBroken = []string{"改为", "改到", "改成", "改期", "推迟", "延期", "延后", "取消", "暂停", "停课"}

// plansBroken are the words saying a plan did not hold as made (not
// "closed": "#40-2291 closed: new certificate uploaded" says how it ended;
// with it, +2 −3 on the development sets), and a charge that did not
// ("March fee waived: closure week credited"; refunded, credited).
var plansBroken = map[string]bool{"cancelled": true, "canceled": true, "postponed": true, "delayed": true, "skipped": true,
	"rescheduled": true, "suspended": true, "paused": true, "declined": true, "rejected": true, "refused": true, "failed": true,
	"late": true, "off": true, "moved": true, "stopped": true, "waived": true, "refunded": true, "credited": true}

// statesShortOfDue reports an amount or a reading under what it should be, by
// the text's shape rather than a word: what was taken off (statesDeduction),
// a reading below what was ordered (readsBelow), a share kept as a fee
// (feeShare). Each is a cause, no delay (statesCause); fewer goods than due
// (statesShortfall) is a delay.
func statesShortOfDue(t text) bool {
	return statesDeduction(t.words) || readsBelow(t.words) || feeShare(t.norm)
}

// feeShare reports a share taken as a fee, in a text (normalised): a
// percentage and, within the two words after it, a fee ("270 USD initiated
// (10% service fee)"): why less was paid out.
func feeShare(norm string) bool {
	for k := 0; ; {
		i := strings.IndexByte(norm[k:], '%')
		if i < 0 {
			return false
		}
		k += i + 1
		if k < 2 || !unicode.IsDigit(rune(norm[k-2])) {
			continue
		}
		after := wordsOf(norm[k:min(len(norm), k+40)])
		if slices.ContainsFunc(after[:min(len(after), 2)], func(w string) bool { return fees[w] }) {
			return true
		}
	}
}

// fees are the words for what is taken off a payment.
var fees = map[string]bool{"fee": true, "fees": true, "commission": true}

// readsBelow reports a reading under what it should be, in a text's words:
// "below" before a number, or "the" and a number ("speed 180 Mbit/s, below
// the 500 ordered", "balance below 100 EUR"): a fault.
func readsBelow(w []string) bool {
	for i := 0; i+1 < len(w); i++ {
		if w[i] == "below" && (isNumber(w[i+1]) || w[i+1] == "the" && i+2 < len(w) && isNumber(w[i+2])) {
			return true
		}
	}
	return false
}

// statesShortfall reports fewer than were due, in a text's words: "only" before
// a number "of" another ("only 2 of the 4 tyres in stock", "only 3 of 5 boxes
// delivered").
func statesShortfall(w []string) bool {
	for i := 0; i+3 < len(w); i++ {
		if w[i] == "only" && isNumber(w[i+1]) && w[i+2] == "of" && (isNumber(w[i+3]) || w[i+3] == "the" && i+4 < len(w) && isNumber(w[i+4])) {
			return true
		}
	}
	return false
}

var reasonWordsStated = statedByWords{reasonWords, reasonAfter, cjkReasonWords, true, nil, nil}

// reasonStated reports a text stating a cause or a problem by its words
// (withoutRequests: not what it asks the customer to do).
func reasonStated(rs []rune) bool { return reasonWordsStated.in(withoutRequests(rs)) }

// problemsOf are the reason words a text (normalised, its Chinese joined)
// states (problemWord): the problem a question asking why names ("why is the
// sink leaking?", "为什么停水？").
func problemsOf(rs []rune) []string {
	var out []string
	reasonWordsStated.each(rs, func(w string) bool {
		if w = problemWord(w); !slices.Contains(out, w) {
			out = append(out, w)
		}
		return false
	})
	return out
}

// problemWord is a reason word as problemsOf compares them: a Latin word's
// stem ("leaking" and "leak" name one problem), a Chinese word as written.
func problemWord(w string) string {
	if strings.IndexFunc(w, isCJK) >= 0 {
		return w
	}
	return stem(w)
}

// problemsStated reads an event's text against the question's problems:
// another reports a reason that is not one of them (a reason word of its
// own, or an amount short of what was due), named one of them (read only
// when report asks for it: a report for repair, problemsOnly). One scan.
func problemsStated(event string, problems []string, report bool) (another, named bool) {
	t := newText(event)
	another = statesShortOfDue(t) || statesShortfall(t.words)
	if another && !report {
		return true, false
	}
	reasonWordsStated.each(withoutRequests(joinedCJK([]rune(t.norm))), func(w string) bool {
		if slices.Contains(problems, problemWord(w)) {
			named = true
		} else {
			another = true
		}
		return another && (named || !report)
	})
	return another, named
}

// statesDeduction reports what was taken off an amount, in a text's words:
// "less" or "minus" before a number ("240.00 GBP less 99.00 GBP excess"), or
// a fee within four words after "after" ("payout 70.30 EUR after the 5% fee").
func statesDeduction(w []string) bool {
	for i, x := range w {
		switch x {
		case "less", "minus":
			if i > 0 && i+1 < len(w) && isNumber(w[i+1]) {
				return true
			}
		case "after":
			if offAfter(w, i, fees) {
				return true
			}
		}
	}
	return false
}

// statesPerson reports that the text (normalised) names a person: by a role
// or a title, as the one by whom something was done ("signed by K. Braun",
// "collected by"), or by an e-mail address ("shared with anna.k@example.com").
// A chat line's speaker is no answer to "who": its label ("Chat (staff):",
// "客服：") is left out.
func statesPerson(rs []rune) bool {
	rs = withoutSpeaker(rs)
	return namesPerson(rs) || namesAnAddress(rs) || namesSomeone(rs)
}

// withoutSpeaker is the text after a chat line's speaker label, if it has
// one (speaker).
func withoutSpeaker(rs []rune) []rune {
	_, rest := speaker(rs)
	return rest
}

// speaker reads a chat line's speaker label: a short label naming the speaker
// in brackets ("Chat (customer):", "WhatsApp (agent):"), or a speaker's word
// ("Agent:", "客服："; staffSpeakers, customerSpeakers), and a colon. It
// returns who speaks, in lower case (the word in the brackets), and the text
// after the label; for a line without one, "" and the whole text.
func speaker(rs []rune) (who string, rest []rune) {
	i := slices.IndexFunc(rs, func(r rune) bool { return r == ':' || r == '：' })
	if i < 0 || i > 24 {
		return "", rs
	}
	label := strings.ToLower(strings.TrimSpace(string(rs[:i])))
	if a := strings.IndexByte(label, '('); a >= 0 && strings.HasSuffix(label, ")") {
		return strings.TrimSpace(label[a+1 : len(label)-1]), rs[i+1:]
	}
	if staffSpeakers[label] || customerSpeakers[label] {
		return label, rs[i+1:]
	}
	return "", rs
}

var namesPerson = statedByWords{personWords, agentWords, cjkPersonWords, false, pronounAgents, nil}.in

// pronounAgents after an agent's "by" or "to" name no one a "who" question
// asks for ("cancelled by you", "changed by us": the customer or the
// business; "transferred to your account").
var pronounAgents = map[string]bool{"you": true, "me": true, "us": true, "them": true, "yourself": true, "your": true, "my": true, "our": true}

// agentWords are a word and the word after it that name whoever did it.
var agentWords = map[string][]string{"signed": {"by"}, "received": {"by"}, "collected": {"by"}, "accepted": {"by"},
	"approved": {"by"}, "picked": {"by"}, "opened": {"by"}, "shared": {"with"},
	// what someone did to the account or the case ("Alarm disarmed by Alex"; not
	// "paid by card", "sent by post", "done by 17:00")
	"armed": {"by"}, "disarmed": {"by"}, "cancelled": {"by"}, "canceled": {"by"}, "changed": {"by"}, "updated": {"by"},
	"requested": {"by"}, "submitted": {"by"}, "reported": {"by"}, "handled": {"by"}, "inspected": {"by"},
	"checked": {"by"}, "reviewed": {"by"}, "confirmed": {"by"}, "booked": {"by"}, "created": {"by"}, "added": {"by"},
	"removed": {"by"}, "issued": {"by", "to"}, "unlocked": {"by"}, "locked": {"by"},
	"for":        {"by"},                     // ("signed for by J. Marsh")
	"reassigned": {"to"}, "assigned": {"to"}, // ("Maria is ill, reassigned to Ana")
	// whom a thing was handed to ("TK-44120 transferred to Jana Weiss", "left
	// with the neighbour", "issued to Jonas"): who has it
	"transferred": {"to"}, "handed": {"to"}, "reissued": {"to"}, "given": {"to"}, "lent": {"to"}, "loaned": {"to"}, "left": {"with"}}

// namesAnAddress reports an e-mail address: a token around an "@" that the
// analysis takes for an e-mail-like identifier (isIdentifier).
func namesAnAddress(rs []rune) bool {
	inToken := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || isJoiner(r) }
	for i, r := range rs {
		if r != '@' {
			continue
		}
		j, k := i, i+1
		for j > 0 && inToken(rs[j-1]) {
			j--
		}
		for k < len(rs) && inToken(rs[k]) {
			k++
		}
		if tok := strings.Trim(string(rs[j:k]), "-.@_/,"); strings.Contains(tok, "@") && isIdentifier(tok) {
			return true
		}
	}
	return false
}

// statedByWords is how a text states an answer type by its words: one of
// words, one of after's keys right before one of its words, or one of the
// Chinese words.
type statedByWords struct {
	words map[string]bool
	after map[string][]string
	cjk   cjkWords
	// plurals: a word's plural states it too, as for a reason or a fault
	// ("release problems", "delays"); not for a place ("doors" names no
	// place to go)
	plurals bool
	// notAfter are the words that, following one of after's words, undo it
	// ("cancelled by you" names no agent: pronounAgents; nil: none)
	notAfter map[string]bool
	// notBefore are, for a word of words, the words that right before it
	// undo it ("child seat" names no place: placeNotBefore; nil: none)
	notBefore map[string][]string
}

// undoneBy reports the word w (at i in rs) undone by the Latin word before it
// (rs[prev:prevEnd], spaces alone between them): one of notBefore's for w.
func (s statedByWords) undoneBy(w []byte, rs []rune, prev, prevEnd, i int) bool {
	undo := s.notBefore[string(w)]
	if len(undo) == 0 || prev < 0 || slices.ContainsFunc(rs[prevEnd:i], func(r rune) bool { return !unicode.IsSpace(r) }) {
		return false
	}
	var buf [12]byte
	before := asciiWord(rs[prev:prevEnd], &buf)
	return slices.ContainsFunc(undo, func(u string) bool { return string(before) == u })
}

func (s statedByWords) in(rs []rune) bool {
	return s.each(rs, func(string) bool { return true })
}

// each calls found with each of the words the run holds (a word of after's
// as itself), until found returns true, and reports whether it did.
func (s statedByWords) each(rs []rune, found func(w string) bool) bool {
	var buf [12]byte
	prev, prevEnd := -1, -1 // (the Latin word before, for notBefore)
	for i := 0; i < len(rs); {
		switch r := rs[i]; {
		case isCJK(r):
			j := span(rs, i, isCJK)
			if s.cjk.in(rs[i:j]) {
				run := string(rs[i:j])
				for _, w := range s.cjk.words {
					if strings.Contains(run, w) && found(w) {
						return true
					}
				}
			}
			i = j
		case isLatin(r):
			j := span(rs, i, isLatin)
			if j+1 < len(rs) && (rs[j] == '-' || rs[j] == '/' || rs[j] == '_') && unicode.IsDigit(rs[j+1]) {
				i = j // (an identifier's letters: MR-1127 names no Mr)
				continue
			}
			w := asciiWord(rs[i:j], &buf)
			if (in(s.words, w) && !s.undoneBy(w, rs, prev, prevEnd, i) || slices.ContainsFunc(s.after[string(w)], func(next string) bool { return s.followedBy(rs[j:], next) })) &&
				found(string(w)) {
				return true
			}
			prev, prevEnd = i, j
			// a plural as its singular ("release problems", "delays")
			if n := len(w); s.plurals && n > 3 && w[n-1] == 's' && !in(s.words, w) && in(s.words, w[:n-1]) && found(string(w[:n-1])) {
				return true
			}
			i = j
		default:
			i++
		}
	}
	return false
}

// OfferTerm is the term of an event that only offers: help ("Let me check
// that for you", "I can help you with orders and returns", "请稍等"), as a
// service's own chat line does, which echoes the customer's words; or goods
// and services, as an advertisement does ("You may also like: …, tickets on
// sale Friday", "courses now open for registration", "限时八折"), which
// shares the words of what the customer bought. Neither states a fact of the
// customer's case.
const OfferTerm = "☏"

// offerWords mark such a line: offers of help, then the phrases of
// advertising (not "% off" or "coupon": "20% off applied", "coupon used" are
// facts of an order).
var offerWords = newCueSet([]string{
	"you may also like", "you might also like", "recommended for you", "don't miss", "do not miss", "limited time",
	"special offer", "exclusive offer", "on sale", "now open for", "shop now", "book now", "order now", "buy now",
	"sign up now", "register now", "subscribe now", "upgrade now", "new arrivals", "check out our", "refer a friend",
	"2 for 1", "two for one", "buy one get one", "last chance", "while stocks last",
	"rate your", "how did we do", "how was your", "leave a review", "write a review", "take our survey", "tell us what you think",
	"off this week", "off this weekend", "with code", "use code",
	"promo code", "free delivery on", "free shipping on", "try our", "join our", "discover our", "explore our",
	"registration is open", "registrations are open", "now available", "start today", "coming soon",
	"deals", "half price", "for just", "with our", "as a gift", "perfect gift", "gift a", "try it", "try them", "try the new",
	"for members", "members get", "save up to", "包邮", "送您", "邀请好友", "推荐好友",
	"猜你喜欢", "为你推荐", "为您推荐", "限时", "新店开业", "新品上市", "秒杀", "满减", "抢购", "大促", "特惠",
	"半价", "立减", "专享", "买一送一", "买二送一", "早鸟",
	"let me", "i can help", "i can check", "i can look", "i'll check", "i will check",
	"i'll look", "i will look", "we'll look", "we will look", "look into", "looking into", "anything else i can",
	"how can i help", "how may i help", "happy to help", "glad to help", "sorry to hear", "thanks for your message",
	"thank you for your message", "thanks for reaching out", "thank you for reaching out", "thanks for contacting",
	"thank you for contacting", "one moment", "member of our team", "get back to you",
	"请稍等", "稍等", "我来帮您", "我帮您", "为您查", "帮您查", "很高兴为您", "有什么可以帮", "感谢您的耐心", "感谢您的咨询",
	"还有什么需要", "还有其他需要", "会尽快", "尽快回复", "随时联系",
	"boost your", "bonus points", "bring a friend", "free this weekend", "free this week",
	"thanks for your review", "thank you for your review", "review request", "leave us a review", "thanks for your feedback", "thank you for your feedback", "thanks for your rating"})

// limitedWords hold an offer out for a time ("20% off this week only"),
// unless the line states what was done or changed for that time: "Lesson 6
// moved to Wednesday 17:00 this week only" is a fact of the customer's case.
var limitedWords = newCueSet([]string{"this week only", "this month only", "today only", "this weekend only",
	"only this week", "only this month"})

// doneOrChanged are the words by which a line states what was done or
// changed (doneWords, changeWords).
var doneOrChanged = func() map[string]bool {
	m := maps.Clone(doneWords)
	for _, w := range changeWords {
		m[w] = true
	}
	return m
}()

// offers reports a line that only offers: one of offerWords, a time-limited
// offer (limitedWords), or advertising by its shape (advertises).
func offers(t text) bool {
	return offerWords.in(t) || limitedWords.in(t) && !slices.ContainsFunc(t.words, func(w string) bool { return doneOrChanged[w] }) ||
		advertises(t) || asksForARating(t.norm)
}

// asksForARating reports a Chinese line that only asks the customer to rate
// a service ("BX0912 请 为 本次 服务 评价", "请 为 上 次 服务 打分"), as "rate your
// …" does in English: 请, then 评价, 打分 or 评分, and no word of a thing done
// (已, 完成: "已 完成，请 评价" says the job is done).
func asksForARating(norm string) bool {
	k := strings.Index(norm, "请")
	if k < 0 {
		return false
	}
	rest := cjkOnly(norm[k:])
	if !strings.Contains(rest, "评价") && !strings.Contains(rest, "打分") && !strings.Contains(rest, "评分") {
		return false
	}
	return !strings.Contains(norm, "已") && !strings.Contains(norm, "完成")
}

// advertises reports the shapes of a price or a discount held out rather than
// charged: "up to 30% off", "20% off until Sunday" (not "20% off applied"), a
// price from or only so much that ends the line or is per something ("from
// 79 EUR", "from 6.99 EUR a month"; not "from 30 EUR to 35 EUR", nor "up
// from 540.00 GBP"),
// something free for getting or trying ("get the 4th free", "first visit
// free"), a line announcing what is new or offered ("New: …", "Offer: …"),
// a bundle ("3 for 2"), a line telling the customer to buy more (sellingVerbs),
// a discount to get ("… and get 10% off"), and a Chinese discount ("9 折",
// "八折"), reward ("满 3 次送 5 元券") or coupon to claim ("领 50 元 优惠券").
func advertises(t text) bool {
	w := t.words
	at := func(i int) string {
		if i < len(w) {
			return w[i]
		}
		return ""
	}
	// after returns the index after a number at i (its decimals, "499.00",
	// are a word of their own; "20%" or "20 percent"), or -1
	after := func(i int) int {
		if !isNumber(at(i)) {
			return -1
		}
		if isNumber(at(i + 1)) {
			i++
		}
		if at(i+1) == "percent" {
			i++
		}
		return i + 1
	}
	for i, x := range w {
		switch {
		case x == "up" && at(i+1) == "to" && after(i+2) > 0 && at(after(i+2)) == "off":
			return true
		case after(i) > 0 && at(after(i)) == "off" && discountEnds[at(after(i)+1)] &&
			!slices.ContainsFunc(w[:i], func(v string) bool { return doneWords[v] || v == "charged" || v == "billed" }):
			return true // (not a discount given on what was charged: "Charged 64.50 EUR, 10% off for the stain")
		case (x == "from" || x == "only") && i > 0 && movedFrom[w[i-1]]:
			// a price compared with what it was ("612.00 GBP, up from 540.00
			// GBP"): one charged or quoted, not held out
		case (x == "from" || x == "only") && after(i+1) > 0 && currencyCodes[at(after(i+1))] && priceEnds[at(after(i+1)+1)],
			(x == "from" || x == "only") && currencyCodes[at(i+1)] && after(i+2) > 0 && priceEnds[at(after(i+2))]:
			// (the price right after "only": "Sunday only, 15 EUR" is a day
			// and a price, no price held out)
			if x == "from" || strings.Contains(t.norm, "only "+at(i+1)) {
				return true
			}
		case x == "free" && i > 0 && slices.ContainsFunc(w[max(0, i-3):i], func(v string) bool { return v == "get" || v == "first" }),
			// "… and get 10% off"
			x == "get" && after(i+1) > 0 && at(after(i+1)) == "off",
			// "members save 10% on weekend stays" (not "saved": a fact)
			x == "save" && after(i+1) > 0 && (strings.HasSuffix(at(i+1), "%") || at(after(i+1)) == "percent" || at(after(i+1)) == "on"):
			return true
		case x == "for" && i > 0 && isNumber(w[i-1]) && isNumber(at(i+1)) && len(w[i-1]) == 1 && len(at(i+1)) == 1 && w[i-1] > at(i+1) &&
			(at(i+2) == "" || at(i+2) == "this" || at(i+2) == "only" || discountEnds[at(i+2)]):
			return true // a bundle: "3 for 2 this week" (not "table for 4 for 2 hours")
		}
	}
	if strings.HasPrefix(t.norm, "new:") || strings.HasPrefix(t.norm, "new!") || strings.HasPrefix(t.norm, "offer:") {
		return true
	}
	if len(w) > 1 && sellingVerbs[w[0]] && !slices.ContainsFunc(w, func(v string) bool { return doneWords[v] }) {
		// a line that opens by telling the customer to buy more: to upgrade
		// or switch ("Upgrade to Premium for Europe-wide cover"), or holding
		// out what it costs or saves ("Add glass cover for 2.50 EUR a
		// month", "Book now and save 15%"); not "Upgrade to Premium
		// requested for FM-1180", nor a change dated from a day ("Upgrade
		// to Anytime from 1 June: 34.99 GBP a month")
		if (w[0] == "upgrade" || w[0] == "switch") && w[1] == "to" && !datedFrom(w) {
			return true
		}
		for i, x := range w {
			if x == "for" && after(i+1) > 0 && currencyCodes[at(after(i+1))] || (x == "save" || x == "get") && after(i+1) > 0 {
				return true
			}
		}
	}
	rs := []rune(t.norm)
	for i, r := range rs {
		if r == '折' && numeralBefore(rs, i) || r == '满' && timesThenGet(rs[i+1:]) || r == '领' && claimsACoupon(rs, i) {
			return true
		}
	}
	return false
}

// movedFrom are the words before "from" that compare a price with what it
// was ("up from", "reduced from"), which an offer does not.
var movedFrom = map[string]bool{"up": true, "down": true, "increased": true, "decreased": true, "rose": true, "risen": true,
	"raised": true, "reduced": true, "lowered": true, "fell": true, "dropped": true, "changed": true, "cut": true}

// datedFrom reports "from" (or "starting") before a day of a month ("from 1
// June", "starting June 1"): when a change takes effect, which an offer does
// not say.
func datedFrom(w []string) bool {
	for i := 0; i+2 < len(w); i++ {
		if (w[i] == "from" || w[i] == "starting") && (isNumber(w[i+1]) && months[w[i+2]] || months[w[i+1]] && isNumber(w[i+2])) {
			return true
		}
	}
	return false
}

// claimsACoupon reports 领 (at i) asking the customer to claim a coupon
// ("领 50 元 优惠券", "领券"): 券 within the next few characters, and not 已领
// (a coupon claimed is a fact of the case).
func claimsACoupon(rs []rune, i int) bool {
	return (i == 0 || rs[i-1] != '已') && slices.Contains(rs[i+1:min(len(rs), i+10)], '券')
}

// timesThenGet reports the rest of a Chinese reward held out for doing
// something so many times, after 满: a number, 次 or 单, then 送, 返 or 减
// ("满 3 次送 5 元券", "满 5 单返 10 元"). Not a coupon's own name ("满 50 减 10":
// a coupon issued or used is a fact of the case).
func timesThenGet(rs []rune) bool {
	k := 0
	for k < len(rs) && rs[k] == ' ' {
		k++
	}
	n := k
	for n < len(rs) && isNumeral(rs[n]) {
		n++
	}
	for n < len(rs) && rs[n] == ' ' {
		n++
	}
	if n == k || n+1 >= len(rs) || rs[n] != '次' && rs[n] != '单' {
		return false
	}
	return rs[n+1] == '送' || rs[n+1] == '返' || rs[n+1] == '减'
}

// sellingVerbs open a line that sells more (advertises, with a price held
// out).
var sellingVerbs = map[string]bool{"add": true, "upgrade": true, "switch": true, "book": true, "try": true, "get": true,
	"protect": true, "extend": true, "unlock": true, "treat": true}

// doneWords say that what such a line names was done: it is a fact of the
// case ("Upgrade to Fibre 1000 ordered").
var doneWords = map[string]bool{"requested": true, "ordered": true, "confirmed": true, "booked": true, "added": true,
	"completed": true, "activated": true, "scheduled": true, "processed": true, "applied": true, "approved": true,
	"cancelled": true, "canceled": true, "paid": true, "done": true, "received": true, "failed": true,
	// and the customer's answer to it or purchase ("Upgrade offered at the desk: SUV for 15.00 EUR/day, declined", "Add-on bought")
	"declined": true, "accepted": true, "refused": true, "rejected": true, "bought": true, "purchased": true}

// discountEnds are the words after "N% off" that hold the discount out
// ("until Sunday", "your next order", "all shoes"), not apply it.
var discountEnds = map[string]bool{"until": true, "till": true, "for": true, "all": true, "everything": true,
	"your": true, "selected": true, "when": true, "if": true, "today": true, "now": true, "through": true, "ends": true}

// priceEnds are the words after a price held out ("" for the line's end).
var priceEnds = map[string]bool{"": true, "a": true, "per": true, "each": true, "only": true, "for": true, "with": true}

// isLetters reports a word of lower-case Latin letters only.
func isLetters(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) < 0
}

// inThousands reports a number written in groups of thousands of up to
// seven digits ("1,000", "12,500"): a count as "80" is ("1,000 flyers").
func inThousands(s string) bool {
	head, rest, ok := strings.Cut(s, ",")
	if !ok || head == "" || len(head) > 3 || !isNumber(head) {
		return false
	}
	for _, g := range strings.Split(rest, ",") {
		if len(g) != 3 || !isNumber(g) {
			return false
		}
	}
	return len(s) <= 9
}

func isNumber(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// dealWords mark a question that asks for deals ("any discounts for me?",
// "有优惠吗？", "哪 天 洗车 便宜？", "有新的房子推荐吗？"): advertising answers it, so
// offers keep their weight ("为您推荐海淀另一套一居" is one). Not
// "sale" or 活动: "did my sale go through?" and "活动几点开始？" ask about the
// customer's own sale and event.
var dealWords = newCueSet([]string{"discount", "discounts", "deal", "deals", "promotion", "promotions", "promo",
	"coupon", "coupons", "on sale", "special offer", "special offers", "cheaper",
	"优惠", "折扣", "打折", "促销", "券", "便宜", "特价", "省钱", "划算", "推荐"})

// QuestionTerm is the term of an event that asks rather than states: a
// customer's question in a chat ("Chat (customer): can I use the school car
// for my test?", "用户：可以带孩子一起去吗？"), which repeats the words of a
// question about the same thing while the reply after it answers it; and any
// line of the customer's side of a chat ("Chat (customer): my internet is
// still slow after the top up"), which tells what the customer knows in the
// words they ask with, not where things stand.
const QuestionTerm = "?"

// asksSomething reports a text (normalised) that only asks: after a
// speaker's label if any (withoutSpeaker: "Chat (customer):", "用户："), one
// sentence ending with a question mark. A text that states something first ("Support ticket T-9001
// [pending] Refund not received: I sent the shoes back on Monday. When do I
// get my money back?") states a fact of the case, and so does one whose first
// clause names a numbered thing and asks nothing ("BR-4418 brake pads worn,
// new pads 35 EUR, ok to fit?": a finding, and the OK asked for it).
func asksSomething(normalised string) bool {
	t := strings.TrimRight(normalised, " \t\r\n\"'”)）)")
	if !strings.HasSuffix(t, "?") && !strings.HasSuffix(t, "？") {
		return false
	}
	t = string(withoutSpeaker([]rune(t)))
	t = strings.TrimRight(t, "?？ ")
	if c := strings.Index(t, ", "); c > 0 {
		first := strings.Fields(t[:c])
		if len(first) >= 2 && !whWords[first[0]] && !auxiliaries[first[0]] && strings.ContainsAny(t[:c], "0123456789") {
			return false
		}
	}
	return !strings.ContainsAny(t, "。！？：") && !strings.Contains(t, ": ") && !strings.Contains(t, ". ") &&
		!strings.Contains(t, "! ") && !strings.Contains(t, "? ") // (not "10:30" or "3.5")
}

// askWords mark a question about what someone asked ("what did the guests
// ask?", "他问了什么？") or what the customer said was wrong ("what was I
// unhappy with?", "what did I complain about?"): the lines that ask, and the
// customer's own lines, answer it, so they keep their weight.
var askWords = newCueSet([]string{"ask", "asked", "asking", "question", "questions", "enquiry", "enquiries", "inquiry",
	"问了", "问什么", "问题是", "咨询了", "咨询什么",
	// what the customer said was wrong: their own line says it
	"complain", "complained", "complaint", "unhappy", "what did i report", "what did i say", "我反馈", "我投诉", "我说"})

// namesSomeone reports a person named by surname and title in Chinese (张阿姨,
// 李师傅, 王医生, 小王; 刘姐, 张哥, 王叔, as a customer calls a worker): a
// better answer to "谁来打扫？" than a role alone ("保洁师 自带 工具"), so an
// event naming one states PersonTerm twice.
func namesSomeone(rs []rune) bool {
	for i := 1; i < len(rs); i++ {
		if !isCJK(rs[i]) {
			continue // (a Latin text: no rune looked up)
		}
		// a title after a surname (its first letters looked for first: far
		// fewer than the surnames), or a surname after 小
		if strings.ContainsRune(cjkTitles.first, rs[i]) && strings.ContainsRune(cjkSurnames, rs[i-1]) && cjkTitles.begin(rs[i:]) ||
			rs[i-1] == '小' && strings.ContainsRune(cjkSurnames, rs[i]) {
			return true
		}
	}
	return false
}

const cjkSurnames = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"

var cjkTitles = newCJKWords("师傅", "阿姨", "姐", "哥", "叔", "医生", "老师", "先生", "女士", "经理", "教练", "律师", "护士", "大夫", "队长")
