package relevance

import "testing"

// A price per period is an amount with its period after "a", "per" or
// "each", a period's word, or Chinese 每 and a period or a period's rent;
// an amount for a whole, or a count per period, is none.
func TestPricedPerPeriod(t *testing.T) {
	for text, want := range map[string]bool{
		"Contract NET-77120: fibre 250 Mbit, 39.99 EUR a month": true,
		"Additional driver: 12 EUR per day":                     true,
		"Cloud backup, billed yearly: 60 USD":                   true,
		"合同 FY-7702：两室一厅，月租 5200 元":                             true,
		"宽带 KD-2291：200M，每 月 99 元":                              true,
		"First invoice NET-77120: 19.99 EUR (half month)":       false,
		"Rental RC-4471: 3 days, 290 EUR":                       false,
		"2 visits per week":                                     false,
		"订单 CY-20418：明前 龙井 250 克，560 元":                         false,
		"YQ-6619 本月 租金 260 元 已 付":                               false,
		"FY-7702 3 月 租金 5200 元 已 收":                             false,
		"KD-30419 首月 费用 99 元 已 扣":                               false, // (the first month's fee, 首月)
		"KD-30419 次月 费用 99 元":                                   false,
	} {
		if got := pricedPerPeriod(normalise(text)); got != want {
			t.Errorf("pricedPerPeriod(%q) = %v, want %v", text, got, want)
		}
	}
}

// A question asks a standing price when it asks what a thing costs, what
// one pays for it now, or its price per period, even by a bill's word
// ("monthly fee"); not a bill, what was paid, or one month's.
func TestAsksStandingPrice(t *testing.T) {
	for q, want := range map[string]bool{
		"what does GY-4410 cost now?":       true,
		"what do I pay for cw615?":          true,
		"GM-5580 monthly fee now?":          true,
		"YQ6619 每 月 多少？":                    true,
		"1205 一 个 月 多少？":                    true,
		"what did I pay for cw615?":         false,
		"how much was the March invoice?":   false,
		"what is the next monthly payment?": false,
		"这个 月 多少 钱？":                        false,
	} {
		if got := asksStandingPrice(questionText(q)); got != want {
			t.Errorf("asksStandingPrice(%q) = %v, want %v", q, got, want)
		}
	}
}

// A bill or a payment that says nothing more is a bill (billOf); a line
// saying what was done, or a sum with no word billing or paying, is none.
func TestBillOf(t *testing.T) {
	for text, want := range map[string]bool{
		"KR-2231 paid 45 EUR by card":                        true,
		"Invoice for TH-5517: swap 45 EUR + storage 80 EUR":  true,
		"LK-7731 invoice 189 EUR: call-out 89, cylinder 100": true,
		"TS-40771 fitting and storage 79 EUR paid":           true,
		"WX-1207 物业费 320 元 已 扣款":                             true,
		"BS-3318 done: valve replaced, 120 EUR":              false,
		"KR-2231 ready for pickup, paid 45 EUR":              false,
		"Total 45 EUR":                                       false,
		"KR-2231 invoice sent":                               false,
		// Chinese written unspaced reads as spaced (billFields)
		"WX-1207物业费320元已扣款":     true,
		"教材费180元已支付":            true,
		"MR-1127 会员卡扣500元":      true,
		"BS-3318维修完成，换了阀门，120元": false,
		"KR-2231可以取车了，已付45元":    false,
	} {
		a := Analyze(text)
		if got := billOf(normalise(text), sumOf(&a, text))&markBill != 0; got != want {
			t.Errorf("billOf(%q) = %v, want %v", text, got, want)
		}
	}
}
