// Package session is conversation memory for a bot: the last turns of a session
// (read from the store the moment ingest has written them), a rolling summary of
// the older ones (built in the background by [Builder], in its own consumer group),
// and [Assemble], which puts persona, summary, turns and question in the order
// models use best, within a token budget.
//
// Turns are ordinary events of a configured source whose entity is
// "session:<id>" and whose attrs include the speaker's role; the key is the
// message id, so a repeated message is stored once.
package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/freshctx/freshctx/store"
)

// EntityPrefix is how a session's turns are filed: entity "session:<id>".
const EntityPrefix = "session:"

// Config configures memory (the API) and the summary builder (ingest).
type Config struct {
	// Source names the event source whose events are turns. Its entity must be
	// "session:{{...}}" and its attrs must include Role. Required.
	Source string `yaml:"source"`
	// Role is the attribute holding the speaker (user, customer, assistant, bot,
	// agent, system). Default "role".
	Role string `yaml:"role"`
	// Turns is how many of the newest turns memory returns. Default 8.
	Turns int `yaml:"turns"`
	// Persona is the system text that opens the memory. Optional.
	Persona string `yaml:"persona"`
	// MaxTokens is the default memory budget. Default 1000.
	MaxTokens int `yaml:"max_tokens"`
	// Lookback bounds how old a turn memory still reads. Default 72h; set it to the
	// turn source's retention.
	Lookback time.Duration `yaml:"lookback"`
	// Summary configures the summary builder; without it there are no summaries.
	Summary *SummaryConfig `yaml:"summary"`
}

// SummaryConfig configures the background summary builder.
type SummaryConfig struct {
	// Topic receives every summary, keyed by tenant and session: make it compacted
	// (cleanup.policy=compact). The builder never reads it. Default
	// freshctx.session-summaries.
	Topic string `yaml:"topic"`
	// Group is the builder's consumer group. Default freshctx-summaries.
	Group string `yaml:"group"`
	// EveryTurns summarises a session once this many turns are not yet summarised.
	// Default 8.
	EveryTurns int `yaml:"every_turns"`
	// Idle summarises a session's remaining turns after this long without a new
	// one. Default 2m.
	Idle time.Duration `yaml:"idle"`
	// MaxTokens caps a summary's length. Default 200.
	MaxTokens int `yaml:"max_tokens"`
	// Summariser is "extractive" (offline, no model: the session's most
	// informative sentences) or "openai" (an OpenAI-compatible chat-completions
	// endpoint). Default extractive.
	Summariser string `yaml:"summariser"`
	// BaseURL, Model, APIKeyEnv and Timeout configure the openai summariser.
	BaseURL   string `yaml:"base_url"`
	Model     string `yaml:"model"`
	APIKeyEnv string `yaml:"api_key_env"`
	// APIKey is read from APIKeyEnv at load (config), never from the file.
	APIKey  string        `yaml:"-"`
	Timeout time.Duration `yaml:"timeout"`
}

// Defaults.
const (
	TurnsDefault      = 8
	MaxTokensDefault  = 1000
	LookbackDefault   = 72 * time.Hour
	TopicDefault      = "freshctx.session-summaries"
	GroupDefault      = "freshctx-summaries"
	EveryTurnsDefault = 8
	IdleDefault       = 2 * time.Minute
	SummaryTokens     = 200
)

// WithDefaults fills unset fields.
func (c Config) WithDefaults() Config {
	if c.Role == "" {
		c.Role = "role"
	}
	if c.Turns == 0 {
		c.Turns = TurnsDefault
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = MaxTokensDefault
	}
	if c.Lookback == 0 {
		c.Lookback = LookbackDefault
	}
	if c.Summary != nil {
		s := *c.Summary
		if s.Topic == "" {
			s.Topic = TopicDefault
		}
		if s.Group == "" {
			s.Group = GroupDefault
		}
		if s.EveryTurns == 0 {
			s.EveryTurns = EveryTurnsDefault
		}
		if s.Idle == 0 {
			s.Idle = IdleDefault
		}
		if s.MaxTokens == 0 {
			s.MaxTokens = SummaryTokens
		}
		if s.Summariser == "" {
			s.Summariser = "extractive"
		}
		if s.Timeout == 0 {
			s.Timeout = 30 * time.Second
		}
		c.Summary = &s
	}
	return c
}

// Validate checks the settings that do not depend on the sources; errors name the field.
func (c Config) Validate() error {
	switch {
	case c.Source == "":
		return errors.New("source: required (the event source whose events are chat turns)")
	case c.Turns < 1 || c.Turns > 200:
		return errors.New("turns: must be in [1, 200]")
	case c.MaxTokens < 1 || c.MaxTokens > 32000:
		return errors.New("max_tokens: must be in [1, 32000]")
	case c.Lookback < 0:
		return errors.New("lookback: must not be negative")
	}
	if s := c.Summary; s != nil {
		switch {
		case s.EveryTurns < 1:
			return errors.New("summary.every_turns: must be positive")
		case s.Idle < time.Second:
			return errors.New("summary.idle: must be at least 1s")
		case s.MaxTokens < 16 || s.MaxTokens > 4000:
			return errors.New("summary.max_tokens: must be in [16, 4000]")
		}
		switch s.Summariser {
		case "extractive":
		case "openai":
			if s.BaseURL == "" || s.Model == "" {
				return errors.New("summary.base_url, summary.model: required by the openai summariser")
			}
		default:
			return fmt.Errorf("summary.summariser: %q is not one of extractive, openai", s.Summariser)
		}
	}
	return nil
}

// CheckSource verifies that the turn source files turns by session and keeps the role.
func (c Config) CheckSource(entity string, attrs []string) error {
	if !strings.HasPrefix(entity, EntityPrefix+"{{") {
		return fmt.Errorf("source: the entity of source %s must be %q (it is %q)", c.Source, EntityPrefix+"{{.session_id}}", entity)
	}
	for _, a := range attrs {
		if a == c.Role {
			return nil
		}
	}
	return fmt.Errorf("source: source %s must list %q in attrs (the speaker of each turn)", c.Source, c.Role)
}

// Turn is one message of a conversation.
type Turn struct {
	ID      string    `json:"id"`
	Role    string    `json:"role"`
	Content string    `json:"content"`
	Time    time.Time `json:"time"`
	// Version orders turns and tells which a summary covers (store.Summary.Through).
	Version int64 `json:"-"`
}

// TurnOf is the turn a stored event of the turn source is; the speaker is its
// attribute named Config.Role.
func (c Config) TurnOf(e store.Event) Turn {
	role, _ := e.Attrs[c.Role].(string)
	return Turn{ID: e.ID, Role: role, Content: e.Text, Time: e.Time, Version: e.Version}
}

// ChatRole maps a speaker to a chat-completions role: assistant for the bot's
// side, system for system, user for everyone else.
func ChatRole(role string) string {
	switch strings.ToLower(role) {
	case "assistant", "bot", "agent", "ai", "model":
		return "assistant"
	case "system":
		return "system"
	default:
		return "user"
	}
}
