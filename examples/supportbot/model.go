package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/freshctx/freshctx/client"
	"github.com/freshctx/freshctx/session"
)

// Responder writes the bot's reply from the prompt (and the context answer it
// was built from).
type Responder interface {
	Name() string
	Reply(ctx context.Context, prompt []session.Message, ans *client.ContextResponse) (string, error)
}

// ChatModel is any server speaking the OpenAI chat-completions API (OpenAI,
// vLLM, llama.cpp's server, Ollama's /v1, LiteLLM, ...).
type ChatModel struct {
	BaseURL string // e.g. http://127.0.0.1:11434/v1
	Model   string
	APIKey  string
	HTTP    *http.Client
}

func (m *ChatModel) Name() string { return m.Model }

func (m *ChatModel) Reply(ctx context.Context, prompt []session.Message, _ *client.ContextResponse) (string, error) {
	body, _ := json.Marshal(map[string]any{"model": m.Model, "messages": prompt, "temperature": 0.2})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(m.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if m.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+m.APIKey)
	}
	res, err := m.HTTP.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", res.Status, strings.TrimSpace(string(b[:min(len(b), 300)])))
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(b, &out); err != nil || len(out.Choices) == 0 || out.Choices[0].Message.Content == "" {
		return "", fmt.Errorf("no reply in the answer: %s", strings.TrimSpace(string(b[:min(len(b), 300)])))
	}
	return strings.TrimSpace(out.Choices[0].Message.Content), nil
}

// Offline is the built-in responder for the demo and for trying the loop
// without a model: it quotes what freshctx ranked first and the best knowledge
// passage. It does not understand the question; it shows what a model would
// have been given to answer it.
type Offline struct{}

func (Offline) Name() string { return "offline" }

func (Offline) Reply(_ context.Context, _ []session.Message, ans *client.ContextResponse) (string, error) {
	var b strings.Builder
	if len(ans.Events) == 0 {
		b.WriteString("I cannot see anything recent on your account.")
	} else {
		b.WriteString("Here is what I can see: " + ans.Events[0].Text)
	}
	if len(ans.Documents) > 0 {
		b.WriteString(" From our help pages (" + ans.Documents[0].Title + "): " + firstSentence(ans.Documents[0].Text))
	}
	return b.String(), nil
}

func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}
