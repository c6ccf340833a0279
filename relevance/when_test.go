package relevance_test

import (
	"slices"
	"testing"

	"github.com/freshctx/freshctx/relevance"
)

// An event that states a time or a date carries TimeTerm; a number that is
// neither does not.
func TestStatesTime(t *testing.T) {
	for text, want := range map[string]bool{
		"Appointment on Friday 11:00":                             true,
		"Technician visit booked for 8:30":                        true,
		"Pick-up from 10am":                                       true,
		"Call back at 9 pm":                                       true,
		"Delivery on 20.05.2026":                                  true,
		"Renewal due 2026-05-20":                                  true,
		"Tickets bought: 1 x football match, 20 May":              true,
		"Tariff switched from December 1":                         true,
		"Driver on the way, arriving in 10 minutes":               true,
		"Out of stock, expected back in 10 days":                  true,
		"Repair done within 1.5 hours":                            true,
		"Your parcel arrives tomorrow":                            true,
		"周六班调整为周日上午 9 点":                                          true,
		"骑手已取餐，预计 20 分钟送达":                                        true,
		"入住时间 5 月 3 日":                                            true,
		"Tariff switched to Green Fix 24 months":                  false, // a plan's length
		"Storage add-on: plus 500 GB for 10.00 USD per month":     false,
		"Webhook deliveries failing with HTTP 502":                false,
		"Support 24/7 by chat":                                    false,
		"You may cancel at any time":                              false, // "may" is a month only beside a number
		"Refund of €35 approved":                                  false,
		"Order O-7001 placed, ratio 3:1":                          false,
		"会员优惠券已发放：满 50 减 10":                                      false,
		"外卖订单 D-30021 已下单：宫保鸡丁和米饭，共 42 元":                         false,
		"Card payment of 12.50 EUR for express shipping declined": false,
	} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.TimeTerm); got != want {
			t.Errorf("%q states a time: %v, want %v", text, got, want)
		}
	}
}

func TestAsksTime(t *testing.T) {
	for q, want := range map[string]bool{
		"when is the technician coming?":  true,
		"what time does the shop open?":   true,
		"which day is my class on?":       true,
		"how long until my parcel comes?": true,
		"what's the ETA of my driver?":    true,
		"英语课改到什么时候了？":                     true,
		"我几点可以入住？":                        true,
		"哪天送到？":                           true,
		"where is my refund?":             false,
		"is the time slot still free?":    false,
		"退款到了吗？":                          false,
	} {
		if got := relevance.AsksTime(q); got != want {
			t.Errorf("%q asks when: %v, want %v", q, got, want)
		}
	}
}

// A question asking when looks for the events that say when: of two events
// about one appointment, the one stating the new time becomes the best lexical
// match (without Time, the one sharing more of the question's words is).
func TestAWhenQuestionLooksForATime(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "service", Time: ago(50), Text: "Fibre installation appointment requested"},
		{Source: "service", Time: ago(30), Text: "Appointment moved to Thursday between 13 and 17"},
		{Source: "web", Time: ago(20), Text: "Signed in from the mobile app"},
	}
	q := "when is the fibre installation appointment?"
	w := relevance.DefaultWeights
	_, with := relevance.Score(relevance.NewQuery(q, nil), cands, w, nil, testNow)
	w.Time = 0
	_, without := relevance.Score(relevance.NewQuery(q, nil), cands, w, nil, testNow)
	if with[1].Lexical <= with[0].Lexical*0.5 || with[1].Lexical <= without[1].Lexical {
		t.Errorf("the event stating the time should gain: with %+v, without %+v", with, without)
	}
	if with[2].Lexical != 0 {
		t.Errorf("an event stating no time gains nothing: %+v", with[2])
	}
}
