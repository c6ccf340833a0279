package relevance

import (
	"strings"
)

// A result asked: "体检 结果 怎么样？", "37012026118850 申诉 结果？", "what was the
// test result?". The answer states the outcome ("报告 已 出：血脂 偏高", "申诉
// 成功，罚款 撤销", "result: negative"), not that it is on its way ("体检
// 完成，报告 5 个 工作日 出", "申诉 中", "results within 2 days").

// resultCues ask for a result.
var resultCues = newCueSet([]string{"结果", "result", "results", "outcome", "verdict"})

// outcomeWords state an outcome; pendingWords say it is still to come.
var (
	outcomeWords = []string{"已出", "结果", "成功", "失败", "未通过", "通过", "驳回", "撤销", "正常", "异常", "偏高", "偏低",
		"阳性", "阴性", "合格", "维持原", "批准", "拒绝"}
	outcomeLatin = map[string]bool{"passed": true, "failed": true, "approved": true, "rejected": true, "declined": true,
		"upheld": true, "granted": true, "refused": true, "normal": true, "negative": true, "positive": true,
		"successful": true, "unsuccessful": true, "dismissed": true, "overturned": true}
	pendingWords = []string{"受理", "工作日", "可查", "处理中", "审核中", "申诉中", "审理中", "待出", "预计"}
	pendingLatin = map[string]bool{"pending": true, "within": true, "expected": true, "will": true, "review": true, "progress": true}
)

// statesOutcome reads a text for an outcome stated, and for a result said
// to come.
func statesOutcome(text string) (outcome, pending bool) {
	n := normalise(text)
	joined := cjkOnly(n)
	for _, w := range pendingWords {
		if strings.Contains(joined, w) {
			pending = true
		}
	}
	if strings.HasSuffix(strings.TrimRight(joined, "，,。.！!"), "中") {
		pending = true // ("50 申诉 中")
	}
	for _, w := range outcomeWords {
		if strings.Contains(joined, w) {
			outcome = true
		}
	}
	for _, w := range wordsOf(n) {
		if outcomeLatin[w] {
			outcome = true
		}
		if pendingLatin[w] {
			pending = true
		}
	}
	return outcome && !pending, pending && !outcome
}

// resultNow, for a question asking for a result, is the newest event
// stating an outcome (of the question's object, when it names one:
// onObject; of those the question's words match, when one does:
// newestOfKind), which gets the relevance of the most relevant event of the
// window; the events saying the result is still to come keep Weights.Unstated
// of theirs. -1 when no event states an outcome.
func (rk *ranking) resultNow() int {
	if !resultCues.in(rk.q.normalised()) {
		return -1
	}
	best, newest, pending := rk.newestOfKind(func(text string) (bool, bool) {
		outcome, later := statesOutcome(text)
		return later, outcome
	}, false)
	if newest < 0 {
		return -1
	}
	rk.answersAs(newest, best)
	for i := range pending {
		if pending[i] {
			rk.rels[i] *= rk.w.Unstated
		}
	}
	return newest
}
