package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// demoRecord is one record of the demo feed.
type demoRecord struct {
	topic string
	key   []byte
	value []byte // nil: tombstone
}

// feed builds the demo feed relative to now. Debezium versions (source.lsn) grow
// with the wall clock, so a re-run supersedes the previous run's rows.
type feed struct {
	now     time.Time
	session string // this run's conversation: a session of its own, so runs never mix
	lsnBase int64
	seq     int64
	records []demoRecord
}

func (f *feed) debezium(table string, op string, id int, row map[string]any, at time.Duration) {
	f.seq++
	ts := f.now.Add(-at)
	env := map[string]any{
		"before": nil, "after": row, "op": op, "ts_ms": ts.UnixMilli(),
		"source": map[string]any{"version": "3.0.0.Final", "connector": "postgresql", "name": "shop", "db": "shop",
			"schema": "public", "table": table, "ts_ms": ts.UnixMilli(), "lsn": f.lsnBase + f.seq*8, "txId": 1000 + f.seq, "snapshot": "false"},
		"transaction": nil,
	}
	if op == "d" {
		env["before"], env["after"] = row, nil
	}
	v, _ := json.Marshal(env)
	f.records = append(f.records, demoRecord{topic: "shop.public." + table, key: []byte(fmt.Sprintf(`{"id":%d}`, id)), value: v})
}

func (f *feed) tombstone(table string, id int) {
	f.records = append(f.records, demoRecord{topic: "shop.public." + table, key: []byte(fmt.Sprintf(`{"id":%d}`, id))})
}

func (f *feed) json(topic string, key string, ev map[string]any, at time.Duration) {
	ev["ts"] = f.now.Add(-at).UTC().Format(time.RFC3339Nano)
	v, _ := json.Marshal(ev)
	f.records = append(f.records, demoRecord{topic: topic, key: []byte(key), value: v})
}

func micros(now time.Time, at time.Duration) int64 { return now.Add(-at).UnixMicro() }

func buildFeed(now time.Time) *feed {
	f := &feed{now: now, lsnBase: now.UnixMicro() * 16, session: "web-1001-" + now.UTC().Format("150405")}
	m := time.Minute
	ticket := func(id, customer int, status, prio, subject, body string, order int, at time.Duration) map[string]any {
		return map[string]any{"id": id, "tenant_id": "acme", "customer_id": customer, "status": status, "priority": prio,
			"subject": subject, "body": body, "order_id": order, "updated_at": micros(now, at)}
	}
	order := func(id, customer int, status, items string, total string, at time.Duration, warehouse string) map[string]any {
		return map[string]any{"id": id, "tenant_id": "acme", "customer_id": customer, "status": status, "items": items,
			"total": total, "currency": "EUR", "warehouse": warehouse, "updated_at": micros(now, at)}
	}
	chat := func(id string, customer int, role, text string, at time.Duration) {
		f.json("support.chat", id, map[string]any{"message_id": id, "tenant": "acme", "customer_id": customer, "role": role,
			"channel": "app", "text": text}, at)
	}

	// Customer 1001: returned shoes, refund approved, now asking where the money is.
	f.debezium("orders", "c", 5001, order(5001, 1001, "placed", "Trail running shoes (size 42)", "129.90", 40*m, "Berlin"), 40*m)
	f.debezium("orders", "u", 5001, order(5001, 1001, "returned", "Trail running shoes (size 42)", "129.90", 12*m, "Berlin"), 12*m)
	// Only the warehouse column changes: the rendered text is unchanged, so no new embedding.
	f.debezium("orders", "u", 5001, order(5001, 1001, "returned", "Trail running shoes (size 42)", "129.90", 11*m, "Leipzig"), 11*m)
	f.debezium("tickets", "c", 9001, ticket(9001, 1001, "open", "high", "Refund not received",
		"I sent the shoes back on Monday and tracking says your warehouse received them. When do I get my money back?", 5001, 9*m), 9*m)
	f.json("payments.refunds", "R-7001", map[string]any{"refund_id": "R-7001", "tenant": "acme", "customer_id": 1001, "order_id": 5001,
		"status": "approved", "amount": "129.90", "currency": "EUR", "method": "Visa ending 4242",
		"note": "The refund reaches the card in 3-5 business days."}, 6*m)
	// Status changes while the long body is unchanged: Debezium sends the TOAST placeholder.
	t := ticket(9001, 1001, "pending", "high", "Refund not received", "__debezium_unavailable_value", 5001, 5*m)
	f.debezium("tickets", "u", 9001, t, 5*m)
	chat("m-1001-1", 1001, "customer", "Hi, I returned my trail shoes last week. Where is my refund?", 2*m)
	chat("m-1001-2", 1001, "bot", "Let me check the status of your return and refund.", 1*m)
	// The same customer's conversation with the bot, as session memory.
	for i, tu := range [][2]string{
		{"customer", "Hello, I need help with a return."},
		{"bot", "Of course. Which order is it about?"},
		{"customer", "Order O-5001, the trail running shoes in size 42. They were too small, so I sent them back on Monday."},
		{"bot", "Thanks. The warehouse received order O-5001 on Wednesday and refund R-7001 of 129.90 EUR was approved."},
		{"customer", "Great, thank you. How long until the money is back on my Visa card?"},
		{"bot", "Refunds reach a card in 3 to 5 business days."},
		{"customer", "It has been 6 days now and I still see nothing on my card."},
		{"bot", "I am sorry about that. Let me check refund R-7001 with the payment team."},
		{"customer", "Thank you. It should be 129.90 EUR."},
		{"bot", "Refund R-7001 left us on Thursday; some banks take up to 10 business days to show it."},
	} {
		f.json("support.turns", f.session, map[string]any{"session_id": f.session, "message_id": fmt.Sprintf("%s-%d", f.session, i+1),
			"tenant": "acme", "role": tu[0], "content": tu[1], "channel": "web"}, time.Duration(21-2*i)*m)
	}

	// Customer 1002: a late parcel.
	f.debezium("orders", "c", 5002, order(5002, 1002, "placed", "Rain jacket (M)", "89.00", 30*m, "Berlin"), 30*m)
	f.debezium("orders", "u", 5002, order(5002, 1002, "shipped", "Rain jacket (M)", "89.00", 8*m, "Berlin"), 8*m)
	f.debezium("tickets", "c", 9002, ticket(9002, 1002, "open", "normal", "Parcel late",
		"Tracking has not moved for four days. Has my jacket been lost?", 5002, 4*m), 4*m)
	chat("m-1002-1", 1002, "customer", "My rain jacket still has not arrived.", 3*m)

	// Customer 1003: a ticket opened by mistake and deleted; an order cancelled.
	f.debezium("tickets", "c", 9003, ticket(9003, 1003, "open", "low", "Wrong size", "Ordered M, need L.", 5003, 7*m), 7*m)
	f.debezium("orders", "c", 5003, order(5003, 1003, "placed", "Fleece (M)", "59.00", 6*m, "Berlin"), 6*m)
	f.debezium("tickets", "d", 9003, map[string]any{"id": 9003}, 3*m)
	f.tombstone("tickets", 9003)
	f.debezium("orders", "u", 5003, order(5003, 1003, "cancelled", "Fleece (M)", "59.00", 2*m, "Berlin"), 2*m)

	// Knowledge articles, kept in sync by CDC like any table.
	article := func(id int, category, title, body string) {
		f.seq++
		row := map[string]any{"id": id, "tenant_id": "acme", "category": category, "lang": "en", "title": title, "body": body}
		env := map[string]any{"op": "c", "after": row, "source": map[string]any{"connector": "postgresql", "name": "shop",
			"table": "articles", "lsn": f.lsnBase + f.seq*8, "ts_ms": now.UnixMilli()}}
		v, _ := json.Marshal(env)
		f.records = append(f.records, demoRecord{topic: "kb.public.articles", key: []byte(fmt.Sprintf(`{"id":%d}`, id)), value: v})
	}
	article(1, "refunds", "Refund policy",
		"Refunds go back to the original payment method. Once the warehouse has received and checked a return, the refund is approved within one business day.\n\n"+
			"An approved refund reaches a card in three to five business days, depending on the bank. If it has not arrived after ten business days, "+
			"support can trace the payment with the bank using the refund number.\n\nStore credit is issued at once and never expires.")
	article(2, "shipping", "Delivery times",
		"Parcels ship within one business day. Delivery takes two to four business days in Germany and up to seven days elsewhere in the EU. "+
			"If tracking has not changed for five days, we open an investigation with the carrier and can send a replacement.")
	article(3, "returns", "How to return an item",
		"You can return unworn items within 30 days. Print the prepaid label from your account, pack the item and drop it at any parcel shop. "+
			"The refund starts once the warehouse has checked the item.")

	// A record that can never be decoded: it goes to the DLQ, its neighbours flow on.
	f.records = append(f.records, demoRecord{topic: "shop.public.tickets", key: []byte(`{"id":9999}`), value: []byte(`{"op":"c","after":{"id":9999,`)})
	return f
}

// expectation is what the API must show once the feed is ingested. The event
// time ties it to this run: a previous run left the same ids with older times.
type expectation struct {
	entity, id string
	at         time.Duration // event time = feed time - at
	contains   string
	absent     bool // the event must not be there
}

func expectations(now time.Time) []expectation {
	m := time.Minute
	return []expectation{
		{entity: "customer:1001", id: "T-9001", at: 5 * m, contains: "[pending, high priority] Refund not received: I sent the shoes back"},
		{entity: "customer:1001", id: "m-1001-1", at: 2 * m, contains: "Where is my refund?"},
		{entity: "customer:1001", id: "m-1001-2", at: 1 * m, contains: "Let me check"},
		{entity: "customer:1001", id: "R-7001", at: 6 * m, contains: "approved"},
		{entity: "customer:1001", id: "O-5001", at: 11 * m, contains: "returned"},
		{entity: "customer:1002", id: "m-1002-1", at: 3 * m, contains: "rain jacket"},
		{entity: "customer:1002", id: "T-9002", at: 4 * m, contains: "Parcel late"},
		{entity: "customer:1003", id: "O-5003", at: 2 * m, contains: "cancelled"},
		{entity: "customer:1003", id: "T-9003", absent: true},
	}
}

func demo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	brokers := fs.String("brokers", "127.0.0.1:19092", "Kafka bootstrap servers")
	apiURL := fs.String("api", "http://127.0.0.1:8080", "context API base URL")
	entity := fs.String("entity", "customer:1001", "entity to ask about at the end")
	question := fs.String("q", "where is my refund?", "the customer's question")
	wait := fs.Duration("wait", 60*time.Second, "how long to wait for the feed to become visible")
	session := fs.String("session", "auto", "conversation whose memory to show at the end (auto: this run's, web-1001-HHMMSS; empty: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	f := buildFeed(time.Now())
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": *brokers, "linger.ms": 5, "enable.idempotence": true,
		"enable.metrics.push": false})
	if err != nil {
		return fmt.Errorf("creating producer: %w", err)
	}
	defer p.Close()
	start := time.Now()
	msgs := make([]*kafka.Message, len(f.records))
	for i, r := range f.records {
		topic := r.topic
		msgs[i] = &kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny}, Key: r.key, Value: r.value}
	}
	if err := produceAll(ctx, p, msgs, *brokers); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "produced %d demo records (Debezium tickets/orders/articles, JSON refunds/chat/session turns, 1 malformed) to %s\n", len(f.records), *brokers)

	// Wait until every expectation holds.
	deadline := time.Now().Add(*wait)
	for _, ex := range expectations(f.now) {
		for {
			ok, err := check(ctx, *apiURL, ex, f.now)
			if ok {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("after %s, %s %s is not as expected (%v); see .run/ingest.log", *wait, ex.entity, ex.id, err)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	fmt.Fprintf(stdout, "all demo events visible through the API %d ms after the first was produced\n\n", time.Since(start).Milliseconds())

	resp, _, err := getContext(ctx, *apiURL, url.Values{"entity": {*entity}, "q": {*question}, "k": {"5"}})
	if err != nil {
		return err
	}
	printAnswer(stdout, *entity, *question, resp)
	// The builder folds the turns before the newest 4 once 4 more have come: the
	// summary of this run is ready once it covers the 4th of 10 turns (15 minutes old).
	if *session == "auto" {
		*session = f.session
	}
	if err := printMemory(ctx, stdout, *apiURL, *session, *question, f.now.Add(-15*time.Minute), deadline); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nTry it yourself:\n  curl -s '%s/v1/context?entity=%s&q=%s' | jq\n", *apiURL, url.QueryEscape(*entity), url.QueryEscape(*question))
	if *session != "" {
		fmt.Fprintf(stdout, "  curl -s '%s/v1/sessions/%s/memory?q=%s' | jq\n", *apiURL, url.PathEscape(*session), url.QueryEscape(*question))
	}
	return nil
}

type apiEvent struct {
	ID         string         `json:"id"`
	Source     string         `json:"source"`
	Time       time.Time      `json:"time"`
	Text       string         `json:"text"`
	Attrs      map[string]any `json:"attrs"`
	Score      float64        `json:"score"`
	Similarity *float64       `json:"similarity"`
}

type apiResponse struct {
	Events    []apiEvent `json:"events"`
	Documents []struct {
		DocID string  `json:"doc_id"`
		Title string  `json:"title"`
		Chunk int     `json:"chunk"`
		Score float64 `json:"score"`
	} `json:"documents"`
	Context string `json:"context"`
	Meta    struct {
		TookMS     float64            `json:"took_ms"`
		StagesMS   map[string]float64 `json:"stages_ms"`
		ServedFrom string             `json:"served_from"`
		Degraded   []map[string]any   `json:"degraded"`
		Candidates int                `json:"candidates"`
		Ranking    string             `json:"ranking"`
		Tokens     int                `json:"context_tokens"`
	} `json:"meta"`
}

func getContext(ctx context.Context, base string, q url.Values) (*apiResponse, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/context?"+q.Encode(), nil)
	if err != nil {
		return nil, nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, body, fmt.Errorf("context API: %s: %s", res.Status, strings.TrimSpace(string(body)))
	}
	var out apiResponse
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, body, fmt.Errorf("decoding context answer: %w", err)
	}
	return &out, body, nil
}

func check(ctx context.Context, base string, ex expectation, now time.Time) (bool, error) {
	resp, _, err := getContext(ctx, base, url.Values{"entity": {ex.entity}, "k": {"100"}})
	if err != nil {
		return false, err
	}
	for _, e := range resp.Events {
		if e.ID == ex.id {
			if ex.absent {
				return false, fmt.Errorf("still present")
			}
			if !strings.Contains(e.Text, ex.contains) {
				return false, fmt.Errorf("text %q lacks %q", e.Text, ex.contains)
			}
			if want := now.Add(-ex.at); e.Time.Sub(want).Abs() > time.Millisecond {
				return false, fmt.Errorf("time %s is not this run's %s", e.Time, want)
			}
			return true, nil
		}
	}
	if ex.absent {
		return true, nil
	}
	return false, fmt.Errorf("not found")
}

func printAnswer(w io.Writer, entity, question string, r *apiResponse) {
	fmt.Fprintf(w, "Q (%s): %q\n\n", entity, question)
	fmt.Fprintf(w, "  %-6s %-6s %-8s %-9s %s\n", "score", "sim", "age", "source", "text")
	for _, e := range r.Events {
		sim := "-"
		if e.Similarity != nil {
			sim = fmt.Sprintf("%.3f", *e.Similarity)
		}
		text := e.Text
		if len([]rune(text)) > 88 {
			text = string([]rune(text)[:87]) + "…"
		}
		fmt.Fprintf(w, "  %-6.3f %-6s %-8s %-9s %s\n", e.Score, sim, time.Since(e.Time).Round(time.Second), e.Source, text)
	}
	if len(r.Documents) > 0 {
		fmt.Fprintf(w, "\n  knowledge:\n")
		for _, d := range r.Documents {
			fmt.Fprintf(w, "  %-6.3f %s %q part %d\n", d.Score, d.DocID, d.Title, d.Chunk+1)
		}
	}
	fmt.Fprintf(w, "\nContext for the prompt (%d tokens est.):\n", r.Meta.Tokens)
	for _, line := range strings.Split(strings.TrimRight(r.Context, "\n"), "\n") {
		fmt.Fprintf(w, "  | %s\n", line)
	}
	stages := make([]string, 0, len(r.Meta.StagesMS))
	for _, k := range []string{"cache", "store", "embed", "knowledge", "rank", "render"} {
		if v, ok := r.Meta.StagesMS[k]; ok {
			stages = append(stages, fmt.Sprintf("%s %.2f", k, v))
		}
	}
	fmt.Fprintf(w, "\nmeta: took %.2f ms (%s ms), served from %s, %d candidates, ranking %s, degraded %v\n",
		r.Meta.TookMS, strings.Join(stages, ", "), r.Meta.ServedFrom, r.Meta.Candidates, r.Meta.Ranking, r.Meta.Degraded)
}

// printMemory waits until the session has a summary, then prints its memory as a
// bot would put it in a prompt.
func printMemory(ctx context.Context, w io.Writer, base, session, question string, through, deadline time.Time) error {
	if session == "" {
		return nil
	}
	var m struct {
		Summary *struct {
			Turns     int       `json:"turns"`
			ThroughAt time.Time `json:"through_at"`
		} `json:"summary"`
		Turns        []json.RawMessage `json:"turns"`
		Text         string            `json:"text"`
		Tokens       int               `json:"tokens"`
		OmittedTurns int               `json:"omitted_turns"`
		Meta         struct {
			TookMS     float64 `json:"took_ms"`
			ServedFrom string  `json:"served_from"`
		} `json:"meta"`
	}
	u := base + "/v1/sessions/" + url.PathEscape(session) + "/memory?q=" + url.QueryEscape(question)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == http.StatusNotFound {
			return nil // memory not configured
		}
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %s %s", u, res.Status, b)
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return err
		}
		if m.Summary != nil && !m.Summary.ThroughAt.Before(through.Truncate(time.Microsecond)) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("session %s has no summary yet; is the summary builder running? see .run/ingest.log", session)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	fmt.Fprintf(w, "\nConversation memory of session %s (%d summarised turns, %d recent turns, %d tokens, %.1f ms, from the %s):\n\n",
		session, m.Summary.Turns, len(m.Turns), m.Tokens, m.Meta.TookMS, m.Meta.ServedFrom)
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		fmt.Fprintln(w, "  "+l)
	}
	return nil
}
