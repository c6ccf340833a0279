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
		"Crew arrival changed to 07:30 on 14 June":      {false, false},
		"MV-9001 booked for 15 Dec, crew of 3":          {true, false},
		"MV-6610 crew increased to 4 for the piano":     {true, true},
		"Team budget raised to 500 EUR":                 {false, false},
	} {
		if stated, changed := headcountOf(text); stated != want[0] || changed != want[1] {
			t.Errorf("%q: stated %v, changed %v; want %v", text, stated, changed, want)
		}
	}
}

func TestAsksHeadcount(t *testing.T) {
	for q, want := range map[string]bool{"how many movers are coming for mv6610?": true, "how many people is it for?": true,
		"CT-2081 几 位？": true, "how many boxes did I order?": false, "how many mover hours?": false} {
		if got := asksHeadcount(questionText(q)); got != want {
			t.Errorf("%q: asks a headcount %v, want %v", q, got, want)
		}
	}
}
