package session

import (
	"fmt"
	"strings"
	"time"

	"github.com/freshctx/freshctx/internal/textutil"
	"github.com/freshctx/freshctx/store"
)

// Message is one chat-completions message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Memory is a session's memory, assembled for a prompt.
type Memory struct {
	SessionID string         `json:"session_id"`
	Persona   string         `json:"persona,omitempty"`
	Summary   *store.Summary `json:"summary"`
	// Turns are the newest turns that fit, oldest first.
	Turns    []Turn `json:"turns"`
	Question string `json:"question,omitempty"`
	// Messages are persona and summary (one system message), the turns, then the
	// question: ready for a chat-completions call.
	Messages []Message `json:"messages"`
	// Text is the same memory as one block of prompt text.
	Text           string `json:"text"`
	Tokens         int    `json:"tokens"`
	OmittedTurns   int    `json:"omitted_turns"`
	SummaryTrimmed bool   `json:"summary_trimmed"`
}

// Assemble builds the memory in the order that works best for models: system
// persona, the summary of older turns, the turns the summary does not cover
// (oldest of them first), then the current question, within maxTokens as counted
// by tokens. A turn the summary covers (version at most its Through) is left
// out, so nothing is said twice. Persona and question always stay; the summary
// gets at most half of what is left, the turns the rest, newest first; turns
// that do not fit are counted in OmittedTurns. turns must be oldest first.
func Assemble(sessionID, persona string, sum *store.Summary, turns []Turn, question string, maxTokens int, tokens func(string) int) Memory {
	m := Memory{SessionID: sessionID, Persona: persona, Question: question, Turns: []Turn{}, Messages: []Message{}}
	if sum != nil && sum.Text != "" {
		fresh := make([]Turn, 0, len(turns))
		for _, t := range turns {
			if t.Version > sum.Through {
				fresh = append(fresh, t)
			}
		}
		turns = fresh
	}
	left := maxTokens - tokens(persona)
	if question != "" {
		left -= tokens(questionHead + question)
	}
	var summary, head string
	if sum != nil && sum.Text != "" {
		s := *sum
		m.Summary = &s
		head = fmt.Sprintf("Summary of the conversation so far (%d earlier turns):\n", sum.Turns)
		left -= tokens(head)
		summary = sum.Text
		if tokens(summary) > max(left/2, 0) {
			summary = trimToTokens(summary, max(left/2, 0), tokens)
			m.SummaryTrimmed = true
		}
		left -= tokens(summary)
	}
	if len(turns) > 0 {
		left -= tokens(turnsHead)
	}
	first := len(turns)
	for i := len(turns) - 1; i >= 0; i-- {
		t := tokens(turnLine(turns[i]))
		if t > left {
			break
		}
		left -= t
		first = i
	}
	m.Turns = append(m.Turns, turns[first:]...)
	m.OmittedTurns = first

	var sys, text strings.Builder
	if persona != "" {
		sys.WriteString(persona)
		text.WriteString(persona + "\n\n")
	}
	if summary != "" {
		if sys.Len() > 0 {
			sys.WriteString("\n\n")
		}
		sys.WriteString(head + summary)
		text.WriteString(head + summary + "\n\n")
	}
	if sys.Len() > 0 {
		m.Messages = append(m.Messages, Message{Role: "system", Content: sys.String()})
	}
	if len(m.Turns) > 0 {
		text.WriteString(turnsHead + "\n")
	}
	for _, t := range m.Turns {
		m.Messages = append(m.Messages, Message{Role: ChatRole(t.Role), Content: t.Content})
		text.WriteString(turnLine(t) + "\n")
	}
	if question != "" {
		m.Messages = append(m.Messages, Message{Role: "user", Content: question})
		if len(m.Turns) > 0 {
			text.WriteString("\n")
		}
		text.WriteString(questionHead + question + "\n")
	}
	m.Text = text.String()
	m.Tokens = tokens(m.Text)
	return m
}

const (
	turnsHead    = "Recent turns:"
	questionHead = "Question: "
)

func turnLine(t Turn) string {
	return "[" + t.Time.UTC().Format(time.TimeOnly) + "] " + t.Role + ": " + t.Content
}

// trimToTokens cuts s to whole sentences (or words) within n tokens.
func trimToTokens(s string, n int, tokens func(string) int) string {
	if n <= 0 {
		return ""
	}
	var b strings.Builder
	for _, sent := range textutil.Sentences(s) {
		next := b.String()
		if next != "" {
			next += " "
		}
		next += sent
		if tokens(next) > n {
			break
		}
		b.Reset()
		b.WriteString(next)
	}
	if b.Len() == 0 { // the first sentence alone is too long: cut it by words
		for _, w := range strings.Fields(s) {
			if tokens(b.String()+" "+w+" …") > n {
				break
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		if b.Len() > 0 {
			b.WriteString(" …")
		}
	}
	return b.String()
}
