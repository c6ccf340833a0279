package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/internal/stack"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/session"
)

// fakeModel is an OpenAI-compatible chat-completions server that records every
// prompt and answers with a numbered reply.
type fakeModel struct {
	mu      sync.Mutex
	prompts [][]session.Message
	fail    bool
}

func (f *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string            `json:"model"`
		Messages []session.Message `json:"messages"`
	}
	if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "test-model" {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail {
		http.Error(w, `{"error":{"message":"model overloaded"}}`, http.StatusInternalServerError)
		return
	}
	f.prompts = append(f.prompts, req.Messages)
	fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":"Reply %d: refund R-7001 was approved."}}]}`, len(f.prompts))
}

func (f *fakeModel) prompt(i int) []session.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prompts[i]
}

// The whole loop through a real broker, ingest and API: the customer's message
// sent to /chat is in the prompt the model received (as the newest turn, beside
// the customer's events), the reply becomes a turn in session memory, and the
// next question's prompt carries both.
func TestChatLoopEndToEnd(t *testing.T) {
	s := stack.Start(t, 2, []string{"payments.refunds", "support.turns"}, `
api: {tenant: acme, auth: {mode: none}, budget: 5s}
sessions: {source: turns, turns: 6, persona: "You are the support assistant of a shop."}
sources:
  - name: refunds
    topic: payments.refunds
    format: json
    key: "{{.refund_id}}"
    tenant: "{{.tenant}}"
    entity: "customer:{{.customer_id}}"
    time: ts
    text: "Refund {{.refund_id}} for order {{.order_id}} {{.status}}: {{.amount}} EUR."
  - name: turns
    topic: support.turns
    format: json
    key: "{{.message_id}}"
    tenant: "{{.tenant}}"
    entity: "session:{{.session_id}}"
    time: ts
    text: "{{.content}}"
    attrs: [role]
`)
	s.ProduceJSON("payments.refunds", "R-7001", map[string]any{"refund_id": "R-7001", "tenant": "acme", "customer_id": "42",
		"order_id": "O-1001", "status": "approved", "amount": "49.90", "ts": time.Now().Add(-5 * time.Minute).Format(time.RFC3339)})
	testenv.Eventually(t, "the refund to be stored", 30*time.Second, func() bool {
		var tl api.TimelineResponse
		return s.GetJSON("/v1/entities/customer:42/events", "", &tl) == http.StatusOK && len(tl.Events) == 1
	}, s.Logs.String)
	model := &fakeModel{}
	ms := httptest.NewServer(model)
	t.Cleanup(ms.Close)

	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	var logs testenv.LockedBuffer
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-brokers", s.Brokers, "-freshctx", s.API.URL,
			"-model-url", ms.URL + "/v1", "-model", "test-model", "-budget", testenv.Patience(5 * time.Second).String()},
			func(string) string { return "" }, &logs, ready)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("supportbot: %v", err)
		}
	})
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("supportbot did not start: %v\n%s", err, logs.String())
	}
	chat := func(body string) (int, ChatResponse, string) {
		t.Helper()
		res, err := http.Post("http://"+addr+"/chat", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var out ChatResponse
		_ = json.Unmarshal(b, &out)
		return res.StatusCode, out, string(b)
	}

	// 1. The first message: its text reaches the model as the newest turn, with
	// the customer's refund in the system message.
	code, first, raw := chat(`{"tenant": "acme", "customer": "42", "session": "s-9", "text": "Where is my refund for order O-1001?"}`)
	if code != http.StatusOK {
		t.Fatalf("chat: %d %s\n%s", code, raw, logs.String())
	}
	if first.Reply != "Reply 1: refund R-7001 was approved." || first.Model != "test-model" {
		t.Errorf("reply = %q from %q", first.Reply, first.Model)
	}
	p := model.prompt(0)
	if last := p[len(p)-1]; last.Role != "user" || last.Content != "Where is my refund for order O-1001?" {
		t.Errorf("the model's newest message = %+v; want the customer's turn", last)
	}
	if p[0].Role != "system" || !strings.Contains(p[0].Content, "You are the support assistant of a shop.") ||
		!strings.Contains(p[0].Content, "Refund R-7001 for order O-1001 approved") {
		t.Errorf("system message lacks the persona or the refund:\n%s", p[0].Content)
	}
	if first.Turns.Customer == "" || first.Turns.Bot == "" || first.Context == nil || len(first.Context.Meta.Degraded) != 0 {
		t.Errorf("turns %+v, degraded %+v", first.Turns, first.Context.Meta.Degraded)
	}

	// 2. The reply is a turn of the session: memory that includes its record has it.
	var mem api.MemoryResponse
	if code := s.GetJSON("/v1/sessions/s-9/memory?after="+first.Turns.Bot, "", &mem); code != http.StatusOK || len(mem.Meta.Degraded) != 0 {
		t.Fatalf("memory: %d %+v", code, mem.Meta)
	}
	var roles []string
	for _, turn := range mem.Turns {
		roles = append(roles, turn.Role+": "+turn.Content)
	}
	if want := []string{"customer: Where is my refund for order O-1001?", "bot: Reply 1: refund R-7001 was approved."}; strings.Join(roles, "|") != strings.Join(want, "|") {
		t.Errorf("session memory turns = %q; want %q", roles, want)
	}

	// 3. The next message's prompt carries the conversation so far, once each.
	if code, _, raw := chat(`{"customer": "42", "session": "s-9", "text": "Thanks! When will it reach my card?"}`); code != http.StatusOK {
		t.Fatalf("second chat: %d %s", code, raw)
	}
	var convo []string
	for _, m := range model.prompt(1)[1:] {
		convo = append(convo, m.Role+": "+m.Content)
	}
	if want := []string{"user: Where is my refund for order O-1001?", "assistant: Reply 1: refund R-7001 was approved.", "user: Thanks! When will it reach my card?"}; strings.Join(convo, "|") != strings.Join(want, "|") {
		t.Errorf("second prompt's conversation = %q; want %q", convo, want)
	}

	// 4. Bad input names the field; a failing model is a 502 that says why.
	for body, field := range map[string]string{
		`{"customer": "42", "session": "s-9", "text": ""}`:                      "text:",
		`{"customer": "42", "text": "hi"}`:                                      "session:",
		`{"tenant": "globex", "customer": "42", "session": "s-9", "text": "x"}`: "tenant:",
		`{"customer": "42", "session": "s-9", "text": "x", "extra": 1}`:         "body:",
	} {
		if code, _, raw := chat(body); code != http.StatusBadRequest || !strings.Contains(raw, field) {
			t.Errorf("%s: %d %s; want 400 naming %s", body, code, raw, field)
		}
	}
	model.mu.Lock()
	model.fail = true
	model.mu.Unlock()
	if code, _, raw := chat(`{"customer": "42", "session": "s-9", "text": "hello?"}`); code != http.StatusBadGateway || !strings.Contains(raw, "model overloaded") {
		t.Errorf("failing model: %d %s", code, raw)
	}
}

// The offline responder quotes what freshctx ranked first and the best passage.
func TestOfflineResponder(t *testing.T) {
	ans := &api.ContextResponse{Events: []api.EventOut{{Text: "Refund R-1 approved."}}}
	got, _ := Offline{}.Reply(context.Background(), nil, ans)
	if got != "Here is what I can see: Refund R-1 approved." {
		t.Errorf("reply = %q", got)
	}
	got, _ = Offline{}.Reply(context.Background(), nil, &api.ContextResponse{})
	if !bytes.Contains([]byte(got), []byte("cannot see anything recent")) {
		t.Errorf("reply without events = %q", got)
	}
}
