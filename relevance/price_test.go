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
	} {
		if got := pricedPerPeriod(normalise(text)); got != want {
			t.Errorf("pricedPerPeriod(%q) = %v, want %v", text, got, want)
		}
	}
}
