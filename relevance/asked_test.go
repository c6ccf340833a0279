package relevance_test

import (
	"testing"

	"github.com/freshctx/freshctx/relevance"
)

// A message is read as the sentences (or clauses) that ask, with the
// identifiers and sums the others name; the others are its context. A
// message all question, or all statement, is all question; so is one whose
// question names nothing of its own ("还 剩 多少？", "what happened?") or
// refers back by a pronoun ("can I send it back?").
func TestAskedSplitsAMessageIntoQuestionAndContext(t *testing.T) {
	for _, c := range []struct{ in, question, context string }{
		{"where is my refund?", "where is my refund?", ""},
		{"Hi, I contacted you last week and I'm still worried. Where is my refund?", "Where is my refund?", "I contacted you last week and I'm still worried."},
		{"I have a question. where is my refund?", "where is my refund?", ""}, // (a courtesy)
		{"我有个问题。退款 到 了 吗？", "退款 到 了 吗？", ""},
		{"My order is O-5001. Has the order shipped?", "Has the order shipped? O-5001", "My order is O-5001."},
		{"I sent 1,200 to my landlord on Monday. Why is the transfer stuck?", "Why is the transfer stuck? 1,200", "I sent 1,200 to my landlord on Monday."},
		{"My order is O-5001. Has it shipped?", "My order is O-5001. Has it shipped?", ""}, // (it: the order)
		{"I'm at work right now, where is my refund?", "where is my refund?", "I'm at work right now"},
		{"我 上周 联系 过 你们，退款 到 了 吗？", "退款 到 了 吗？", "我 上周 联系 过 你们"},
		{"the bed is too hard, can I send it back?", "the bed is too hard, can I send it back?", ""},
		{"my integration stopped working, what happened?", "my integration stopped working, what happened?", ""},
		{"I paid 1,200 EUR, 3 payments of 400", "I paid 1,200 EUR, 3 payments of 400", ""},
		{"is there a lesson tonight? it's Monday", "is there a lesson tonight?", "it's Monday"},
		{"我 上周 联系 过 你们。退款 到 了 吗？", "退款 到 了 吗？", "我 上周 联系 过 你们。"},
		{"为什么还没修好？什么时候修？", "为什么还没修好？什么时候修？", ""},                                                   // (all asking)
		{"my parcel is late. I need it for Friday", "my parcel is late. I need it for Friday", ""}, // (none asking)
		{"我 手机 流量 快 用 完 了。还 剩 多少？", "我 手机 流量 快 用 完 了。还 剩 多少？", ""},                                 // (the question names nothing)
		{"do I still have to pay the Schillerstr. fine?", "do I still have to pay the Schillerstr. fine?", ""},
		{"did I pay J. Smith twice?", "did I pay J. Smith twice?", ""},
		{"The total was 12.50 EUR. Why was I charged twice?", "Why was I charged twice? 12.50", "The total was 12.50 EUR."},
		{"I log in as anna.berg@example.com. Why is my account locked?", "Why is my account locked? anna.berg@example.com", "I log in as anna.berg@example.com."},
		{"thanks! and where is the parent evening?", "and where is the parent evening?", ""},
	} {
		q, ctx := relevance.Asked(c.in)
		if q != c.question || ctx != c.context {
			t.Errorf("Asked(%q) = %q, %q; want %q, %q", c.in, q, ctx, c.question, c.context)
		}
	}
}

// What a message says before its question is context: its "still", "last
// week" or "now" ask for nothing, and the question ranks as it does alone.
func TestAMessagesContextAsksNothing(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "orders", Time: ago(40), Text: "Refund R-7001 of 49.90 EUR approved, back on your card in 3-5 days"},
		{Source: "orders", Time: ago(30), Text: "Order O-7105 placed: phone case, 19.90 EUR"},
		{Source: "support", Time: ago(20), Text: "You contacted us last week about your address change: done"},
		{Source: "orders", Time: ago(10), Text: "O-7105 still with the courier, a bit later than planned"},
	}
	firstFor(t, cands, map[string]int{
		"where is my refund?": 0,
		"Hi, I contacted you last week and I'm still a bit worried about this. Where is my refund?": 0,
	})
}
