package session

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/freshctx/freshctx/store"
)

func words(s string) int { return len(strings.Fields(s)) } // a simple, exact token count for tests

func turnsOf(n int) []Turn {
	base := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	out := make([]Turn, n)
	for i := range out {
		role := "customer"
		if i%2 == 1 {
			role = "bot"
		}
		out[i] = Turn{ID: fmt.Sprintf("m%d", i), Role: role, Content: fmt.Sprintf("turn number %d says something", i), Time: base.Add(time.Duration(i) * time.Minute), Version: int64(i + 1)}
	}
	return out
}

// Order: persona and summary (one system message), the turns oldest first, then
// the question; the text follows the same order.
func TestAssembleOrder(t *testing.T) {
	sum := &store.Summary{Text: "The customer returned shoes. Refund R-7001 was approved.", Turns: 12}
	m := Assemble("s-1", "You are the shop's support assistant.", sum, turnsOf(3), "where is my refund?", 1000, words)
	var roles []string
	for _, msg := range m.Messages {
		roles = append(roles, msg.Role)
	}
	if got := strings.Join(roles, ","); got != "system,user,assistant,user,user" {
		t.Fatalf("roles %s", got)
	}
	if !strings.HasPrefix(m.Messages[0].Content, "You are the shop's support assistant.") || !strings.Contains(m.Messages[0].Content, "(12 earlier turns)") ||
		!strings.Contains(m.Messages[0].Content, "R-7001") {
		t.Fatalf("system message %q", m.Messages[0].Content)
	}
	if m.Messages[1].Content != "turn number 0 says something" || m.Messages[4].Content != "where is my refund?" {
		t.Fatalf("messages %+v", m.Messages)
	}
	iP, iS, iT, iQ := strings.Index(m.Text, "You are"), strings.Index(m.Text, "Refund R-7001"), strings.Index(m.Text, "turn number 2"), strings.Index(m.Text, "Question: where")
	if !(0 <= iP && iP < iS && iS < iT && iT < iQ) {
		t.Fatalf("text out of order:\n%s", m.Text)
	}
	if m.OmittedTurns != 0 || m.SummaryTrimmed || m.Tokens != words(m.Text) {
		t.Fatalf("meta: omitted %d trimmed %v tokens %d", m.OmittedTurns, m.SummaryTrimmed, m.Tokens)
	}
}

// The budget keeps persona and question, gives the summary at most half of the
// rest, and fills the remainder with the newest turns; older ones are counted as
// omitted.
func TestAssembleBudget(t *testing.T) {
	persona := "Be brief."                                                           // 2 words
	sum := &store.Summary{Text: strings.Repeat("Fact one is here. ", 20), Turns: 40} // 80 words
	turns := turnsOf(10)                                                             // each line: [hh:mm:ss] role: 5 words = 7 words
	m := Assemble("s", persona, sum, turns, "and now?", 60, words)
	if !m.SummaryTrimmed || words(m.Summary.Text) != 80 {
		t.Fatalf("summary trimmed %v; the returned summary object keeps the whole text", m.SummaryTrimmed)
	}
	if len(m.Turns) < 2 {
		t.Fatalf("%d turns kept; the summary may take only half of the room", len(m.Turns))
	}
	if m.Turns[len(m.Turns)-1].ID != "m9" || m.OmittedTurns != 10-len(m.Turns) {
		t.Fatalf("kept %v, omitted %d: the newest turns must be kept", m.Turns, m.OmittedTurns)
	}
	if m.Tokens > 60 {
		t.Fatalf("%d tokens for a budget of 60:\n%s", m.Tokens, m.Text)
	}
	// With no room, persona and question still stand.
	m = Assemble("s", persona, sum, turns, "and now?", 3, words)
	if len(m.Turns) != 0 || m.OmittedTurns != 10 || len(m.Messages) != 2 || m.Messages[1].Content != "and now?" {
		t.Fatalf("tiny budget: %+v", m.Messages)
	}
}

func TestExtractiveKeepsWhatMatters(t *testing.T) {
	turns := []Turn{
		{Role: "customer", Content: "Hi there! I returned my trail shoes last week. Where is my refund for order 5001?"},
		{Role: "bot", Content: "Thanks. Refund R-7001 of 129.90 EUR was approved on Monday."},
		{Role: "customer", Content: "Ok thanks."},
		{Role: "bot", Content: "It reaches your card in 3-5 business days."},
	}
	s, err := Extractive{}.Summarise(context.Background(), "", turns, 40)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"order 5001", "R-7001", "129.90"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "Ok thanks") || approxTokens(s) > 40 {
		t.Errorf("summary keeps small talk or exceeds 40 tokens (%d):\n%s", approxTokens(s), s)
	}
	// Rolling: the previous summary competes with new turns within the budget.
	next, _ := Extractive{}.Summarise(context.Background(), s, []Turn{{Role: "customer", Content: "It is now day 12 and refund R-7001 still has not arrived."},
		{Role: "bot", Content: "Refund R-7001 of 129.90 EUR was approved on Monday."}}, 40) // said again: kept once
	if !strings.Contains(next, "day 12") || approxTokens(next) > 40 || strings.Count(next, "R-7001 of") > 1 {
		t.Errorf("rolled summary:\n%s", next)
	}
}

// The openai summariser speaks the chat-completions API: model, a system
// instruction and the turns; it retries a 429 after Retry-After and names the
// setting to fix on 401.
func TestChatCompletionsSummariser(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k-1" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"bad key"}}`)
			return
		}
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		var req struct {
			Model     string    `json:"model"`
			Messages  []Message `json:"messages"`
			MaxTokens int       `json:"max_tokens"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "summ-1" || len(req.Messages) != 2 ||
			req.Messages[0].Role != "system" || req.Messages[1].Role != "user" || req.MaxTokens != 50 {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		n := strings.Count(req.Messages[1].Content, "\n") - 1
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Summary of %d lines; previous: %v"},"finish_reason":"stop"}]}`,
			n, strings.Contains(req.Messages[1].Content, "Summary so far:\nearlier"))
	}))
	defer srv.Close()
	s, err := NewSummariser(SummaryConfig{Summariser: "openai", BaseURL: srv.URL + "/v1", Model: "summ-1", APIKeyEnv: "K", APIKey: "k-1", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := s.Summarise(context.Background(), "earlier", turnsOf(3), 50)
	if err != nil || !strings.HasPrefix(out, "Summary of") || !strings.HasSuffix(out, "previous: true") {
		t.Fatalf("%q, %v", out, err)
	}
	if time.Since(start) < 900*time.Millisecond || calls.Load() != 2 {
		t.Fatalf("429 with Retry-After 1 was not waited for: %v, %d calls", time.Since(start), calls.Load())
	}
	bad, _ := NewSummariser(SummaryConfig{Summariser: "openai", BaseURL: srv.URL + "/v1", Model: "summ-1", APIKeyEnv: "K", APIKey: "wrong"})
	if _, err := bad.Summarise(context.Background(), "", turnsOf(1), 50); err == nil || !strings.Contains(err.Error(), "summary.api_key_env") {
		t.Fatalf("401: %v", err)
	}
}

func TestConfigErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{}, "source: required"},
		{Config{Source: "chat", Turns: 500}, "turns"},
		{Config{Source: "chat", Summary: &SummaryConfig{Summariser: "gpt"}}, "summary.summariser"},
		{Config{Source: "chat", Summary: &SummaryConfig{Summariser: "openai"}}, "summary.base_url"},
		{Config{Source: "chat", Summary: &SummaryConfig{Idle: time.Millisecond}}, "summary.idle"},
	} {
		if err := tc.c.WithDefaults().Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.c, err, tc.want)
		}
	}
	c := Config{Source: "chat"}.WithDefaults()
	if err := c.CheckSource("customer:{{.customer_id}}", []string{"role"}); err == nil || !strings.Contains(err.Error(), "session:{{.session_id}}") {
		t.Errorf("entity check: %v", err)
	}
	if err := c.CheckSource("session:{{.session_id}}", nil); err == nil || !strings.Contains(err.Error(), `"role"`) {
		t.Errorf("attrs check: %v", err)
	}
}

// A summary and the turns shown never overlap: turns the summary covers (version
// at most its Through) are left out, and "earlier" means earlier.
func TestAssembleNeverRepeatsSummarisedTurns(t *testing.T) {
	turns := turnsOf(7)
	for i := range turns {
		turns[i].Version = int64(i + 1)
	}
	sum := &store.Summary{Text: "The customer returned shoes.", Turns: 4, Through: 4}
	m := Assemble("s", "", sum, turns, "q", 1000, words)
	var ids []string
	for _, tu := range m.Turns {
		ids = append(ids, tu.ID)
	}
	if got := strings.Join(ids, ","); got != "m4,m5,m6" || m.OmittedTurns != 0 {
		t.Fatalf("turns %s (omitted %d); want m4,m5,m6: the summary covers versions 1-4", got, m.OmittedTurns)
	}
	if strings.Contains(m.Text, "turn number 3 ") || !strings.Contains(m.Text, "(4 earlier turns)") {
		t.Fatalf("text repeats a summarised turn:\n%s", m.Text)
	}
}

// Whatever it leaves out, a summary keeps every id and amount of the turns it
// folds, on generated conversations where most sentences carry one.
func TestExtractiveKeepsEveryIdAndAmount(t *testing.T) {
	for seed := range 20 {
		var turns []Turn
		var want []string
		for i := range 3 + seed%6 {
			id := fmt.Sprintf("R-%d", 7000+seed*10+i)
			amt := fmt.Sprintf("%d.%02d", 10+seed*3+i, (seed*7+i)%100)
			want = append(want, id, amt)
			turns = append(turns, Turn{Role: "bot", Content: fmt.Sprintf("Refund %s of %s EUR was approved after the warehouse checked the returned parcel carefully.", id, amt)},
				Turn{Role: "customer", Content: "Thanks a lot, that is great news for me and my family."})
		}
		s, err := Extractive{}.Summarise(context.Background(), "", turns, 40)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, f := range facts(s) {
			got[f] = true
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("seed %d: summary lacks %s:\n%s", seed, w, s)
			}
		}
	}
}

// A rolled summary keeps the previous summary's ids and amounts too.
func TestExtractiveRollsFactsForward(t *testing.T) {
	first, _ := Extractive{}.Summarise(context.Background(), "", []Turn{
		{Role: "bot", Content: "The warehouse received order O-5001 and refund R-7001 of 129.90 EUR was approved."},
		{Role: "customer", Content: "Great, thank you very much for the help with all of this."}}, 40)
	var turns []Turn
	for i := range 6 {
		turns = append(turns, Turn{Role: "customer", Content: fmt.Sprintf("I keep asking about the card and the bank and the money, message %d says the same again.", i)})
	}
	next, _ := Extractive{}.Summarise(context.Background(), first, turns, 40)
	for _, f := range []string{"O-5001", "R-7001", "129.90"} {
		if !strings.Contains(next, f) {
			t.Errorf("rolled summary lost %s:\n%s", f, next)
		}
	}
}
