package relevance

import (
	"slices"
	"strings"
)

// Cues: the words that say what a question asks for beyond its terms (the
// newest, where a story stands, what something is now), and the Chinese
// negations that turn a word around.

// newsWord reports a word of a question that asks only for what is new
// ("what is the latest on …?", "any update on …?", "… 最新进展？") or where
// a thing stands ("what's the status of …?", "… 现在 什么 情况？", "… 怎么样
// 了？", 进度, 状态): one of newsStems, or Chinese characters all of which are
// news words' (the analysis's characters and pairs of 最新进展: 最, 新进, …).
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
const newsCJK = "最新进展现在目前近怎么样了状态情况度"

// recencyWords mark a question about what is newest, in English and Chinese.
var recencyWords = []string{"just", "latest", "newest", "most recent", "recently", "lately", "current", "currently",
	"have left", "got left", "remaining", "moment ago", "moments ago", "minute ago", "minutes ago", "second ago", "seconds ago", "now", "any update", "any updates", "any news", "what's new", "what is new", "anything new", "刚才", "刚刚", "最近", "最新", "刚", "上次", "上一笔", "上一个", "最后一笔", "最后一次", "现在", "目前", "有什么新", "进展", "以后", "今后", "from now on", "going forward", "明年", "next year"}

var recencyCues = newCueSet(recencyWords)

// stillCues ask whether something still holds or has happened by now ("still",
// "yet", "in the end", 了没), where a thing is ("where's the sushi?", 到哪了)
// or how it is doing ("how is the cat doing?", "what's happening with the
// claim?", "what happened to my flight home?", "any news on the order?",
// 进度怎么样了):
// where the thing's story stands, not how it began. Not 还, which also means to
// pay back.
var stillCues = newCueSet([]string{"still", "yet", "already", "anymore", "any more", "in the end", "by now",
	"where is", "where are", "where s", // ("where's": "where", "s")
	"getting on", "coming along", "happening with", "going on with", "news on", "update on", "happened to", "怎么样了",
	"到哪了", "到哪里了", "到哪儿了", "已经", "了没", "没有", "最后", "最终"})

// stillAsked reports a question of stillCues, or one asking how a thing is
// doing ("how is the cat doing?", "how's the claim doing now?"): "doing"
// after "how", the question's last word or before "now" or "today"; not
// "what are you doing to the dress?", which asks what the job is.
func stillAsked(q text) bool {
	if stillCues.in(q) {
		return true
	}
	k := slices.Index(q.words, "doing")
	return k > 0 && slices.Contains(q.words[:k], "how") && (k == len(q.words)-1 || q.words[k+1] == "now" || q.words[k+1] == "today")
}

// happenedCues ask whether something has happened by now ("牛奶送到了吗？",
// "物业费交了吗？"): the story's later event saying it is done answers it
// (saysDone; an English question: asksWhetherDone).
var happenedCues = newCueSet([]string{"了吗"})

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
var nowCues = newCueSet([]string{"now", "currently", "at the moment", "现在", "目前"})

// cjkCues (cueStems) include 消息, 进展 and 动态 (news, progress, what is
// going on): asked for the newest, they ask only what is new, and their
// characters matched other words ("最近 一 条 消息？" matched "HT9902316 已
// 取消" by 消).
var cjkCues = []string{"刚才", "刚刚", "最近", "最新", "现在", "目前", "以后", "今后", "消息", "进展", "动态", "上次"}

// withoutCues drops from a question's terms the words that only say it asks
// for the newest, and the characters and pair of a Chinese one: "最近有什么进展？"
// matched "材料审核：缺少近三个月银行流水" by 近. q is the question's
// normalised text, its Chinese joined (questionText: "上 次" is 上次).
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

// idioms are phrases of the still cues whose words name nothing the question
// is about: "did the payment go through in the end?" asks whether it did at
// last, not about an end ("Card ending 4471 unblocked" matched it).
var idioms = newCueSet([]string{"in the end"})

// idiomStems are the stems of the words that idioms' phrases hold.
var idiomStems = map[string]bool{stem("end"): true}

// withoutIdiom is the question's words without the words of an idiom it says
// (idioms), and whether it says one.
func withoutIdiom(terms []string, q text) ([]string, bool) {
	if !idioms.in(q) {
		return terms, false
	}
	return slices.DeleteFunc(slices.Clone(terms), func(t string) bool { return idiomStems[t] }), true
}

// fromOnly reports an expansion that only the words of stems bring: the
// recency cues' (cueStems: "late" for "latest") or an idiom's (idiomStems:
// "finish" for the "end" of "in the end").
func fromOnly(e expansion, stems map[string]bool) bool {
	return len(e.from) > 0 && !slices.ContainsFunc(e.from, func(f string) bool { return !stems[f] })
}

// RecencyIntent reports whether the question asks for what is newest.
func RecencyIntent(q string) bool { return recencyIntent(questionText(spelledOut(q))) }

// recencyIntent: not for a question whether a problem is fixed
// (asksIfFixed): "is the pressure problem fixed now?", "现在 好 了 吗？" ask
// where the problem stands, which the event saying it works again answers,
// not the newest change (+2 −0 on the development sets).
func recencyIntent(q text) bool {
	return (recencyCues.in(q) || asksLast(q.norm) || asksTheNew(q.words) || asksWhatIsComing(q.words)) && !asksIfFixed(q)
}

// asksWhatIsComing reports a question asking which thing the customer gets
// ("which van do I get for VN-3318?", "what size am I getting for
// WS-90412?", "what worktop is KT-44120 getting?"): what they get now,
// after any change, is the newest word on it. Not one asking how much (a
// payout, a refund).
func asksWhatIsComing(words []string) bool {
	if len(words) < 4 || words[0] != "what" && words[0] != "which" || slices.Contains(words, "did") || slices.Contains(words, "when") {
		return false
	}
	for i := 3; i < len(words); i++ {
		aux, who := words[i-2], words[i-1]
		switch words[i] {
		case "get":
			if (aux == "do" || aux == "will") && (who == "i" || who == "we") && (i+1 == len(words) || words[i+1] != "back" && words[i+1] != "paid") {
				return true
			}
		case "getting":
			if aux == "am" && who == "i" || aux == "are" && who == "we" || words[1] != "is" && slices.Contains(words[:i], "is") {
				return true
			}
		}
	}
	return false
}

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
// own words (moved, rebooked, 变更, 改为). Not one asking to change something
// ("can I change the delivery address?").
func asksWhatChanged(q text) bool {
	return changeAsked.in(q) && !changeRequests.in(q)
}

var changeAsked = newCueSet([]string{"change", "changed", "changes", "改了", "变了", "换了", "改了什么", "变更了", "调整了"})

// asksWhyChanged reports a question asking why a thing changed ("why was my
// flight moved?", "why is my bread coming later?", "为什么 课 改 到 周三？",
// "教练为什么换时间？"): the reason is the one given with the change, and the
// events saying no change (saysAChange) are less of an answer
// (lessOfAnAnswer, fuse); and late, when it asks why a thing is late ("沙发
// 为什么 晚 了？"), whose answer may be a delay stated with no change
// ("椅子 需 定制，预计 20 天"). Not "why was the fine cancelled?" (an end, not
// a change), nor "what is holding up the domain move?" (a move by name), nor
// 为什么 换 鞋 (an exchange), nor "why couldn't I upload files earlier?"
// (before now).
func asksWhyChanged(q text, byClause [][]*answerType) (changed, late bool) {
	if !asksFor(byClause, ReasonTerm) {
		return false, false
	}
	late = lateCues.in(q)
	return late || whyChangedCues.in(q) || slices.Contains(q.words, "move") && slices.Contains(q.words, "did"), late
}

var (
	whyChangedCues = newCueSet([]string{"moved", "changed", "change", "later", "switch", "switched", "postponed", "rescheduled",
		"改", "换时间", "换日期", "推迟", "延期"})
	lateCues = newCueSet([]string{"late", "delayed", "so long", "longer", "这么久", "那么久", "晚到", "晚了", "晚点", "迟到"})
)

// changeRequests ask to change something, not what changed ("can I change
// the delivery address?", "我想改地址").
var changeRequests = newCueSet([]string{"can i change", "could i change", "can we change", "how do i change", "how can i change",
	"how to change", "want to change", "like to change", "need to change", "is it possible to change", "能改", "可以改", "想改", "要改", "怎么改"})

// originalCues ask for a thing's first value, not its newest ("how many
// guests did we book originally?", 原来订了几位？), or the value it usually has
// ("平时 几 点 上课？": one lesson moved is no newer time of the class): no
// later change answers it better (newerValues).
var originalCues = newCueSet([]string{"originally", "original", "at first", "in the beginning", "to begin with", "first booked",
	"原来", "原本", "本来", "最初", "一开始", "起初", "usually", "normally", "平时", "平常", "通常", "一般"})

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

// speakerShare is what a word naming who said something counts in a
// question asking what was said about a thing (speakerWords).
const speakerShare = 0.5

// speakerWords are the stems of the words naming who said something in a
// question asking what was said about a thing ("what did the vet say about
// her weight?": vet; "what did Marta tell you about the oven?"): the words
// between did (does, do) and the verb of saying, when "about" follows it.
// The thing said about is what the question asks; who said it is named by
// few of the events saying it.
func speakerWords(words []string) []string {
	for i, w := range words {
		if !sayingVerbs[w] || i < 2 || !slices.Contains(words[i+1:], "about") {
			continue
		}
		for k := i - 1; k >= 0; k-- {
			if words[k] == "did" || words[k] == "does" || words[k] == "do" {
				var out []string
				for _, s := range words[k+1 : i] {
					if !stopWords[s] {
						out = append(out, stem(s))
					}
				}
				return out
			}
		}
		return nil
	}
	return nil
}

var sayingVerbs = map[string]bool{"say": true, "tell": true, "mention": true, "write": true, "note": true, "explain": true}
