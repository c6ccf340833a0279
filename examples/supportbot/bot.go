package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/client"
	"github.com/freshctx/freshctx/session"
)

// Config is what the bot needs to know about its freshctx deployment.
type Config struct {
	// Tenant is the tenant this bot serves (its API key's tenant).
	Tenant string
	// TurnsTopic receives every turn of a conversation, keyed by session (the
	// source freshctx's sessions: config names), as JSON
	// {message_id, tenant, session_id, customer_id, role, content, ts, channel}.
	TurnsTopic string
	// Budget bounds each call to freshctx (its latency budget follows).
	Budget time.Duration
	// Window is how far back the customer's events are read.
	Window string
}

// Bot is the reference support-bot backend: POST /chat publishes the customer's
// turn, asks freshctx for the context and memory that include it, asks the
// model, publishes the reply as a turn and answers with the reply and the
// context it used.
type Bot struct {
	cfg      Config
	producer *kafka.Producer
	fresh    *client.Client
	model    Responder
	log      *slog.Logger
	now      func() time.Time
}

// ChatRequest is the body of POST /chat.
type ChatRequest struct {
	Tenant   string `json:"tenant"`
	Customer string `json:"customer"`
	Session  string `json:"session"`
	Text     string `json:"text"`
}

// ChatResponse is the answer of POST /chat.
type ChatResponse struct {
	Reply string `json:"reply"`
	// Prompt is exactly what the model was given.
	Prompt []session.Message `json:"prompt"`
	// Context is freshctx's answer the prompt was built from.
	Context *client.ContextResponse `json:"context"`
	// Turns are the records of the customer's turn and of the reply
	// (topic:partition:offset, what after= takes).
	Turns struct {
		Customer string `json:"customer"`
		Bot      string `json:"bot"`
	} `json:"turns"`
	// Model says who answered: the chat model's name, or "offline".
	Model  string  `json:"model"`
	TookMS float64 `json:"took_ms"`
}

const maxTextBytes = 4096

func (b *Bot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/healthz" {
		_, _ = w.Write([]byte("ok\n"))
		return
	}
	if r.URL.Path != "/chat" || r.Method != http.MethodPost {
		writeError(w, http.StatusNotFound, "not_found", "POST /chat is the route (and GET /healthz)")
		return
	}
	var req ChatRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "body: not a JSON object {tenant, customer, session, text}: "+err.Error())
		return
	}
	if err := b.check(&req); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	resp, err := b.chat(r.Context(), req)
	if err != nil {
		b.log.Error("chat failed", "session", req.Session, "err", err)
		var fe *client.Error
		if errors.As(err, &fe) {
			writeError(w, http.StatusBadGateway, "freshctx_"+fe.Code, fe.Message)
			return
		}
		writeError(w, http.StatusBadGateway, "upstream", err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(resp)
}

func (b *Bot) check(req *ChatRequest) error {
	if req.Tenant == "" {
		req.Tenant = b.cfg.Tenant
	}
	switch {
	case req.Tenant != b.cfg.Tenant:
		return fmt.Errorf("tenant: this bot serves tenant %q, not %q", b.cfg.Tenant, req.Tenant)
	case req.Customer == "" || len(req.Customer) > 200:
		return errors.New("customer: required, at most 200 bytes")
	case req.Session == "" || len(req.Session) > 200:
		return errors.New("session: required, at most 200 bytes")
	case strings.TrimSpace(req.Text) == "" || len(req.Text) > maxTextBytes || !utf8.ValidString(req.Text):
		return fmt.Errorf("text: required, UTF-8, at most %d bytes", maxTextBytes)
	}
	return nil
}

func (b *Bot) chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	start := b.now()
	out := &ChatResponse{Model: b.model.Name()}
	// 1. The customer's turn goes to Kafka like every other event.
	rec, err := b.publish(ctx, req, "customer", req.Text)
	if err != nil {
		return nil, fmt.Errorf("publishing the customer's turn: %w", err)
	}
	out.Turns.Customer = rec
	// 2. Context and memory that include that turn (read-your-writes).
	fctx, cancel := context.WithTimeout(ctx, b.cfg.Budget)
	defer cancel()
	ans, err := b.fresh.Context(fctx, client.ContextRequest{Entity: "customer:" + req.Customer, Q: req.Text,
		Session: req.Session, Window: b.cfg.Window, After: []string{rec}})
	if err != nil {
		return nil, fmt.Errorf("asking freshctx: %w", err)
	}
	out.Context = ans
	// 3. The model.
	out.Prompt = prompt(ans, req.Text)
	if out.Reply, err = b.model.Reply(ctx, out.Prompt, ans); err != nil {
		return nil, fmt.Errorf("asking the model (%s): %w", b.model.Name(), err)
	}
	// 4. The reply becomes a turn too, so the next question's memory has it.
	if out.Turns.Bot, err = b.publish(ctx, req, "bot", out.Reply); err != nil {
		return nil, fmt.Errorf("publishing the reply: %w", err)
	}
	out.TookMS = float64(b.now().Sub(start).Microseconds()) / 1000
	return out, nil
}

// prompt is what the model reads: the memory's system message (persona and
// summary) with the customer's context added, then the conversation's turns.
// The customer's new turn is the last turn when memory has it (after= made sure
// of it, unless freshness degraded); the memory's trailing question, the same
// text, is then not repeated.
func prompt(ans *client.ContextResponse, text string) []session.Message {
	events := ans.Context
	if ans.Memory != nil { // the answer's text is the memory's text, then the events and knowledge
		events = strings.TrimPrefix(events, ans.Memory.Text+"\n")
	}
	ctxText := "Context about this customer (their recent events, newest first, and the knowledge that matters):\n" + events
	if ans.Memory == nil || len(ans.Memory.Messages) == 0 {
		return []session.Message{{Role: "system", Content: ctxText}, {Role: "user", Content: text}}
	}
	msgs := append([]session.Message(nil), ans.Memory.Messages...)
	if msgs[0].Role == "system" {
		msgs[0].Content += "\n\n" + ctxText
	} else {
		msgs = append([]session.Message{{Role: "system", Content: ctxText}}, msgs...)
	}
	if n := len(msgs); n >= 2 && msgs[n-1].Role == "user" && msgs[n-2].Role == "user" && msgs[n-1].Content == msgs[n-2].Content {
		msgs = msgs[:n-1]
	}
	return msgs
}

// publish writes one turn, keyed by session (one partition per session keeps
// a conversation in order), and waits for the broker's acknowledgement.
func (b *Bot) publish(ctx context.Context, req ChatRequest, role, content string) (string, error) {
	now := b.now().UTC()
	id := req.Session + "-" + role + "-" + strconv.FormatInt(now.UnixNano(), 36)
	v, _ := json.Marshal(map[string]any{"message_id": id, "tenant": req.Tenant, "session_id": req.Session,
		"customer_id": req.Customer, "role": role, "content": content, "ts": now.Format(time.RFC3339Nano), "channel": "supportbot"})
	topic := b.cfg.TurnsTopic
	done := make(chan kafka.Event, 1)
	if err := b.producer.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
		Key: []byte(req.Session), Value: v}, done); err != nil {
		return "", err
	}
	select {
	case e := <-done:
		m := e.(*kafka.Message)
		if m.TopicPartition.Error != nil {
			return "", m.TopicPartition.Error
		}
		return client.Record(*m.TopicPartition.Topic, m.TopicPartition.Partition, int64(m.TopicPartition.Offset)), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": msg}})
}
