package api_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/freshctx/freshctx/api"
	teststack "github.com/freshctx/freshctx/internal/stack"
	"github.com/freshctx/freshctx/internal/testenv"
)

const (
	consoleAcmeKey   = "acme-console-key-0123456789"
	consoleGlobexKey = "globex-console-key-0123456789"
)

// The console in a real headless Chromium against the running stack (broker,
// ingest, PostgreSQL, Redis, API): every page loads from its deep link and shows
// what the API says; the refund question shows the refund event first with its
// score's parts drawn; a new event appears in the open timeline without a
// reload; another tenant's key sees none of it. FRESHCTX_SCREENSHOTS=DIR saves a
// screenshot of each page there (the README's pictures).
func TestConsoleInABrowser(t *testing.T) {
	s := teststack.Start(t, 1, []string{"payments.refunds", "support.chat", "support.turns", "freshctx.dlq"}, fmt.Sprintf(`
api:
  budget: 5s   # generous: the test must hold on a loaded machine
  read_latest_topics: [payments.refunds, freshctx.dlq]
  auth:
    mode: keys
    rate_per_second: 1000   # the test polls
    keys:
      - {name: acme-console, tenant: acme, sha256: %s}
      - {name: globex-console, tenant: globex, sha256: %s}
sessions: {source: turns}
sources:
  - name: refunds
    topic: payments.refunds
    format: json
    key: "{{.refund_id}}"
    tenant: "{{.tenant}}"
    entity: "customer:{{.customer_id}}"
    time: ts
    text: "Refund {{.refund_id}} for order {{.order_id}} {{.status}}: {{.amount}} {{.currency}} to {{.method}}."
    attrs: [status]
  - name: chat
    topic: support.chat
    format: json
    key: "{{.message_id}}"
    tenant: "{{.tenant}}"
    entity: "customer:{{.customer_id}}"
    time: ts
    text: "Chat ({{.role}}): {{.text}}"
  - name: turns
    topic: support.turns
    format: json
    key: "{{.message_id}}"
    tenant: "{{.tenant}}"
    entity: "session:{{.session_id}}"
    time: ts
    text: "{{.content}}"
    attrs: [role]
`, sha(consoleAcmeKey), sha(consoleGlobexKey)))
	now := time.Now().UTC()
	ts := func(ago time.Duration) string { return now.Add(-ago).Format(time.RFC3339Nano) }
	chat := func(id, tenant, role, text string, ago time.Duration) {
		s.ProduceJSON("support.chat", id, map[string]any{"message_id": id, "tenant": tenant, "customer_id": 42, "role": role, "text": text, "ts": ts(ago)})
	}
	chat("m1", "acme", "customer", "Hi, I sent the blue jacket back last week.", 9*time.Minute)
	chat("m2", "acme", "bot", "Let me check the status of your return and refund.", 8*time.Minute)
	s.ProduceJSON("payments.refunds", "R-7001", map[string]any{"refund_id": "R-7001", "tenant": "acme", "customer_id": 42, "order_id": "O-1001",
		"status": "approved", "amount": "49.90", "currency": "EUR", "method": "card", "ts": ts(5 * time.Minute)})
	chat("m3", "acme", "customer", "Also, can I change my delivery address?", 3*time.Minute)
	chat("g1", "globex", "customer", "GLOBEX-ONLY: my invoice is wrong", 4*time.Minute)
	// A record that cannot be stored: its time is not a time. It is dead-lettered,
	// and it names its tenant, so acme's sources page shows it.
	s.ProduceJSON("payments.refunds", "R-7002", map[string]any{"refund_id": "R-7002", "tenant": "acme", "customer_id": 42, "order_id": "O-1002",
		"status": "pending", "amount": "5", "currency": "EUR", "method": "card", "ts": "not a time"})
	for i, turn := range []struct{ role, content string }{
		{"user", "Where is my refund for the blue jacket?"},
		{"assistant", "Refund R-7001 was approved and is on its way to your card."},
	} {
		s.ProduceJSON("support.turns", fmt.Sprintf("t%d", i), map[string]any{"message_id": fmt.Sprintf("t%d", i), "tenant": "acme", "session_id": "s-1",
			"role": turn.role, "content": turn.content, "ts": ts(time.Duration(2-i) * time.Minute)})
	}
	// Ingest has written all of it once the timeline shows the last chat line and
	// the status shows the dead letter.
	var tl api.TimelineResponse
	var st api.StatusResponse
	testenv.Eventually(t, "ingest to write the feed", 30*time.Second, func() bool {
		tl, st = api.TimelineResponse{}, api.StatusResponse{}
		if s.GetJSON("/v1/entities/customer:42/events", consoleAcmeKey, &tl) != 200 || s.GetJSON("/v1/status", consoleAcmeKey, &st) != 200 {
			return false
		}
		dead := int64(0)
		for _, p := range st.Sources {
			dead += p.DeadLettered
		}
		return len(tl.Events) == 4 && dead == 1
	}, func() string { return fmt.Sprintf("timeline %+v\nstatus %+v\n%s", tl, st, s.Logs.String()) })

	ctx := testenv.Browser(t)
	shots := os.Getenv("FRESHCTX_SCREENSHOTS")
	b := &browser{t: t, ctx: ctx, base: s.API.URL}
	b.open("/console/")
	b.run(`sessionStorage.setItem("freshctx.key", ` + fmt.Sprintf("%q", consoleAcmeKey) + `); true`)

	// The timeline, live.
	b.open("/console/entities/customer:42")
	b.waitText("#timeline-rows", "Refund R-7001 for order O-1001 approved")
	b.waitText("#timeline-rows", "payments.refunds[0]@0") // provenance
	if txt := b.text("#timeline-rows"); strings.Contains(txt, "GLOBEX") {
		t.Errorf("acme's timeline shows globex's event:\n%s", txt)
	}
	b.run(`window.__sameDocument = true; true`)
	chat("m4", "acme", "customer", "Thanks, I see the refund now.", 0)
	b.waitText("#timeline-rows", "Thanks, I see the refund now.")
	if !b.run(`window.__sameDocument === true && document.querySelector("#timeline-rows tr.new") !== null`) {
		t.Error("the new event came with a reload, or was not marked new")
	}
	b.shot(shots, "console-timeline.png")

	// Ask as the bot: the ranked answer exactly as the API gives it, with each
	// event's score parts drawn.
	var want api.ContextResponse
	s.GetJSON("/v1/context?entity=customer:42&q=where%20is%20my%20refund%3F&window=60m&explain=true", consoleAcmeKey, &want)
	b.open("/console/ask?entity=customer:42&q=where%20is%20my%20refund%3F&window=60m")
	b.waitText("#ranked", "Refund R-7001")
	for i, e := range want.Events {
		li := fmt.Sprintf("#ranked > li:nth-child(%d)", i+1)
		if got := b.text(li + " .event-text"); got != e.Text {
			t.Errorf("rank %d: the console shows %q, the API answered %q", i+1, got, e.Text)
		}
		for _, c := range []struct {
			name string
			v    float64
		}{{"similarity", e.Explain.Similarity}, {"lexical", e.Explain.Lexical}, {"identifier", e.Explain.Identifier}, {"recency", e.Explain.Recency}, {"source", e.Explain.Source},
			{"thread", e.Explain.Thread}} {
			if math.Abs(c.v*1e4-math.Round(c.v*1e4)) > 1e-6 {
				t.Errorf("rank %d: the API's %s %v has more than 4 decimals", i+1, c.name, c.v)
			}
			// Recency moves with the clock between the two requests.
			got, _ := strconv.ParseFloat(b.text(li+" [data-component="+c.name+"]"), 64)
			if math.Abs(got-c.v) > 0.0011 && (c.name != "recency" || math.Abs(got-c.v) > 0.01) {
				t.Errorf("rank %d: %s drawn as %.3f, the API says %.3f", i+1, c.name, got, c.v)
			}
			if !b.run(fmt.Sprintf(`!!document.querySelector(%q)`, li+" .meter."+c.name+" > span")) {
				t.Errorf("rank %d: no %s bar", i+1, c.name)
			}
		}
	}
	if f := b.text("#fusion"); want.Meta.Fusion == nil || !strings.Contains(f, "score = (1 − ") || !strings.Contains(f, "·identifier") ||
		len(want.Meta.Fusion.Expanded) == 0 || !strings.Contains(f, "also matches "+want.Meta.Fusion.Expanded[0]) {
		t.Errorf("the fusion line is %q (meta.fusion %+v)", f, want.Meta.Fusion)
	}
	if prompt := b.text("#prompt"); !strings.Contains(prompt, "R-7001") {
		t.Errorf("prompt text lacks the refund:\n%s", prompt)
	}
	b.waitText("main", "tokens")
	b.waitText("table.stages", "total")
	if txt := b.text("main"); strings.Contains(txt, "null") || strings.Contains(txt, "undefined") {
		t.Errorf("the answer shows a null or undefined:\n%s", txt)
	}
	b.shot(shots, "console-ask.png")
	if b.run(`!!document.querySelector("#ranked .meter.change")`) {
		t.Error("a change meter for a question that does not ask for the newest")
	}
	// A question asking for the newest: an event saying something changed
	// counts change_weight more, and the console draws each event's change.
	var newest api.ContextResponse
	s.GetJSON("/v1/context?entity=customer:42&q=what%20did%20I%20just%20change%3F&window=60m&explain=true", consoleAcmeKey, &newest)
	b.open("/console/ask?entity=customer:42&q=what%20did%20I%20just%20change%3F&window=60m")
	b.waitText("#fusion", "·change)")
	for i, e := range newest.Events {
		got, _ := strconv.ParseFloat(b.text(fmt.Sprintf("#ranked > li:nth-child(%d) [data-component=change]", i+1)), 64)
		if got != e.Explain.Change {
			t.Errorf("rank %d: change drawn as %v, the API says %v", i+1, got, e.Explain.Change)
		}
	}

	// Sources: watermarks and the dead letter with its error.
	b.open("/console/sources?topic=freshctx.dlq")
	b.waitText("#partitions", "payments.refunds")
	b.waitText("#latest", "R-7002")
	b.waitText("#latest", "stage ")
	b.shot(shots, "console-sources.png")

	// Session memory.
	b.open("/console/sessions/s-1")
	b.waitText("#turns", "Where is my refund for the blue jacket?")
	b.waitText("#turns", "on its way to your card")
	b.shot(shots, "console-session.png")

	// Another tenant's key: the same links show none of acme's data.
	b.run(`sessionStorage.setItem("freshctx.key", ` + fmt.Sprintf("%q", consoleGlobexKey) + `); true`)
	for _, page := range []struct{ path, sel, want string }{
		{"/console/entities/customer:42", "#timeline-rows", "GLOBEX-ONLY"},
		{"/console/ask?entity=customer:42&q=where%20is%20my%20refund%3F&window=60m", "#ranked", "GLOBEX-ONLY"},
		{"/console/sources", "#deadletters", "No record of your tenant"},
		{"/console/sessions/s-1", "main", "No summary yet"},
	} {
		b.open(page.path)
		b.waitText(page.sel, page.want)
		if txt := b.text("main"); strings.Contains(txt, "R-7001") || strings.Contains(txt, "blue jacket") {
			t.Errorf("globex's key sees acme's data on %s:\n%s", page.path, txt)
		}
	}
	// Without a key the API's 401 is shown, with what to do.
	b.run(`sessionStorage.removeItem("freshctx.key"); true`)
	b.open("/console/entities/customer:42")
	b.waitText("main", "Paste an API key above")
}

// browser drives one Chromium tab; every wait is on a condition, bounded by
// testenv.Patience.
type browser struct {
	t    *testing.T
	ctx  context.Context
	base string
}

func (b *browser) open(path string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, testenv.Patience(30*time.Second))
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(b.base+path)); err != nil {
		b.t.Fatalf("open %s: %v", path, err)
	}
}

// run evaluates a JavaScript expression whose value is a boolean.
func (b *browser) run(js string) bool {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, testenv.Patience(10*time.Second))
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// text is the rendered text of the first element matching sel ("" when none).
func (b *browser) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, testenv.Patience(10*time.Second))
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {innerText: ""}).innerText`, sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return v
}

func (b *browser) waitText(sel, want string) {
	b.t.Helper()
	testenv.Eventually(b.t, fmt.Sprintf("%q in %s", want, sel), 30*time.Second, func() bool {
		return strings.Contains(b.text(sel), want)
	}, func() string { return "page text:\n" + b.text("body") })
}

// shot saves a screenshot of the page as dir/name (nothing when dir is empty).
func (b *browser) shot(dir, name string) {
	b.t.Helper()
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, testenv.Patience(10*time.Second))
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}
