package relevance

import "testing"

// An outcome stated, or a result said to come: not both.
func TestStatesOutcome(t *testing.T) {
	for text, want := range map[string][2]bool{
		"报告 已 出：血脂 偏高，建议 复查": {true, false},
		"50 申诉 中":                        {false, true},
		"50 申诉 成功，罚款 撤销":                 {true, false},
		"体检 完成，报告 5 个 工作日 出":             {false, true},
		"WZ3381申诉已受理":                    {false, true},
		"CV-2210 result: negative":       {true, false},
		"Results expected within 2 days": {false, true},
		"Invoice 120 EUR sent":           {false, false},
	} {
		if o, p := statesOutcome(text); o != want[0] || p != want[1] {
			t.Errorf("%q: outcome %v, pending %v; want %v", text, o, p, want)
		}
	}
}
