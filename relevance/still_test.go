package relevance

import "testing"

// 还 says "still" before what still holds, and "repay" in 还款, 还清, after
// 要, 该 or 需, and at a question's end: only the first asks whether a state
// still holds (asksIfItHolds).
func TestCJKStillTellsStillFromRepaying(t *testing.T) {
	for q, want := range map[string]bool{
		"208 还 欠 吗？":     true,
		"还有效吗？":          true,
		"6621 还 能 用 吗？":  true,
		"8821 账单 还 了 吗？": false,
		"这 期 要 还 吗？":     false,
		"信用卡 什么 时候 还？":   false,
		"还款 成功 了 吗？":     false,
		"押金 退还 了 吗？":     false,
	} {
		if got := cjkStill(questionText(q).norm); got != want {
			t.Errorf("cjkStill(%q) = %v, want %v", q, got, want)
		}
	}
}

// 在 哪 asks where a thing is; 在 哪 了 and 到 哪 了, how far it has got.
func TestCJKWhereItIs(t *testing.T) {
	for q, want := range map[string]bool{
		"CD6613 在 哪？":   true,
		"61204 装 在 哪？":  true,
		"车位 在哪里？":       true,
		"7790 在 哪 了？":   false,
		"9981 到 哪 了？":   false,
		"JJ6618 寄 到 哪？": false,
	} {
		if got := cjkWhereItIs(questionText(q).norm); got != want {
			t.Errorf("cjkWhereItIs(%q) = %v, want %v", q, got, want)
		}
	}
}

// A question asking why a thing changed asks for the change's reason
// (asksWhyChanged); one asking why it is late, for a delay too.
func TestAsksWhyChanged(t *testing.T) {
	for q, want := range map[string][2]bool{
		"why was my flight moved?": {true, false}, "为什么 课 改 到 周三？": {true, false}, "教练为什么换时间？": {true, false},
		"why did the museum trip move?": {true, false}, "why is the sofa late?": {true, true}, "衣柜 为什么 晚 了？": {true, true},
		"why is it taking so long?": {true, true}, "why was the fine cancelled?": {false, false}, "为什么要换鞋？": {false, false},
		"what is holding up the domain move?": {false, false}, "when was my flight moved?": {false, false},
		"why couldn't I upload files earlier?": {false, false}, // (earlier: before now, no change)
	} {
		qt := questionText(q)
		changed, late := asksWhyChanged(qt, askedByClause(qt, answerTypesAsked(qt, DefaultWeights)))
		if [2]bool{changed, late} != want {
			t.Errorf("%q: asks why changed, late %v %v, want %v", q, changed, late, want)
		}
	}
}

// A question whether something is required of the customer (asksIfRequired),
// not whether it still is, was done, or is owed.
func TestAsksIfRequired(t *testing.T) {
	for q, want := range map[string]bool{
		"do I have to fast for LB-3310?": true,
		"do we need to bring helmets?":   true,
		"must I bring ID?":               true,
		"HY-2210 要 空腹 吗？":                true,
		"需要带证件吗":                         true,
		"what do I need to bring?":       false,
		"停车 要不要 钱？":                      false,
		"HY-2210 要 多久？":                  false,
		"报告 出 了 吗？":                      false,
		"还 要 交 钱 吗？":                     false,
		"when is the test?":              false,
	} {
		if got := asksIfRequired(questionText(q)); got != want {
			t.Errorf("asksIfRequired(%q) = %v, want %v", q, got, want)
		}
	}
	// (a payment still owed is asked whether it still is: asksIfStillOwed)
	for q, want := range map[string]bool{"do I have to pay the fine for BLT2208?": true, "do I have to fast for LB-3310?": false} {
		if got := asksIfStillOwed(questionText(q)); got != want {
			t.Errorf("asksIfStillOwed(%q) = %v, want %v", q, got, want)
		}
	}
}

// A question asking which thing the customer gets asks for the newest word
// on it (asksWhatIsComing: recencyIntent); one asking what they got, how
// much they get back, or what to bring when they get it does not.
func TestWhatIsComingAsksForTheNewest(t *testing.T) {
	for q, want := range map[string]bool{
		"which car do I get for RC-4410?":       true,
		"what size am I getting for WS-90412?":  true,
		"what worktop is KT-44120 getting?":     true,
		"which boat do we get?":                 true,
		"what did I get on my homework?":        false,
		"what car did I get on cr7712":          false,
		"what do I get back for the jacket?":    false,
		"what should we bring when we get her?": false,
		"how much will I get for HC-55310?":     false,
	} {
		if got := recencyIntent(questionText(q)); got != want {
			t.Errorf("recencyIntent(%q) = %v, want %v", q, got, want)
		}
	}
}
