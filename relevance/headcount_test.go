package relevance

import "testing"

// A headcount is digits before a word for people; changed, after a word of a
// new value or a noun naming the count. A number in words, a currency, a rank
// or a time is none.
func TestHeadcountOf(t *testing.T) {
	for text, want := range map[string][2]bool{
		"Headcount for CT-209 raised to 45: 967.50 EUR": {true, true},
		"SC-8812 changed to 1 person, 470 EUR":          {true, true},
		"CT-9902 guests raised to 48, 1,344 EUR":        {true, true},
		"您 修改 人数 为 6 位":                                 {true, true},
		"您改成10人":                                        {true, true},
		"Surf camp SC-8812: 5 days, 2 people, 890 EUR":  {true, false},
		"Catering CT-5518: breakfast for 25, Wednesday": {true, false},
		"Flat FL-20: for 3 nights, 240 EUR":             {false, false},
		"Voucher for 120 EUR":                           {false, false},
		"Table for 4":                                   {true, false},
		"一 位 客人 对 花生 过敏":                                {false, false},
		"已 支付 100 人民币":                                  {false, false},
		"比赛 第 1 名":                                      {false, false},
		"SC-8812 moved to 10:00":                        {false, false},
	} {
		if stated, changed := headcountOf(text); stated != want[0] || changed != want[1] {
			t.Errorf("%q: stated %v, changed %v; want %v", text, stated, changed, want)
		}
	}
}
