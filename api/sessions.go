package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/freshctx/freshctx/session"
	"github.com/freshctx/freshctx/store"
)

// SummaryReader reads session summaries (the store).
type SummaryReader interface {
	Summary(ctx context.Context, tenant, session string) (store.Summary, bool, error)
}

// WithSessions serves conversation memory: GET /v1/sessions/{id}/memory, the
// session parameter of /v1/context and the MCP tool get_session_memory.
func WithSessions(cfg session.Config, summaries SummaryReader) Option {
	return func(s *Server) {
		c := cfg.WithDefaults()
		s.sessions, s.summaries = &c, summaries
	}
}

// MemoryResponse is the body of GET /v1/sessions/{id}/memory.
type MemoryResponse struct {
	session.Memory
	Meta MemoryMeta `json:"meta"`
}

// MemoryMeta describes how a memory answer was made.
type MemoryMeta struct {
	TookMS     float64    `json:"took_ms"`
	ServedFrom string     `json:"served_from"` // cache or store: where the turns came from
	Degraded   []Degraded `json:"degraded"`
	// FreshThrough: as in /v1/context's meta (after=, fresh_through=).
	FreshThrough *time.Time `json:"fresh_through,omitempty"`
}

type memoryParams struct {
	id        string
	q         string
	maxTokens int
	turns     int
	// turnsAsked: the request gave turns, a cap; otherwise memory shows every
	// turn the summary does not cover.
	turnsAsked bool
}

const maxSessionIDBytes = 256

func (s *Server) memoryParams(id, q string, maxTokens, turns *int) (memoryParams, error) {
	if s.sessions == nil {
		return memoryParams{}, &Error{Status: http.StatusNotFound, Code: "not_configured", Msg: "session memory is not configured (see docs/sessions.md)"}
	}
	p := memoryParams{id: id, q: strings.TrimSpace(q), maxTokens: s.sessions.MaxTokens, turns: s.sessions.Turns}
	switch {
	case id == "" || len(id) > maxSessionIDBytes || !utf8.ValidString(id):
		return p, badRequest("id: a session id of 1 to %d bytes of UTF-8 is required", maxSessionIDBytes)
	case !utf8.ValidString(p.q) || utf8.RuneCountInString(p.q) > maxQRunes:
		return p, badRequest("q: must be UTF-8 of at most %d characters", maxQRunes)
	}
	if maxTokens != nil {
		if *maxTokens < 1 || *maxTokens > maxMaxTokens {
			return p, badRequest("max_tokens: must be in [1, %d]", maxMaxTokens)
		}
		p.maxTokens = *maxTokens
	}
	if turns != nil {
		if *turns < 0 || *turns > 200 {
			return p, badRequest("turns: must be in [0, 200]")
		}
		p.turns, p.turnsAsked = *turns, true
	}
	return p, nil
}

func (s *Server) handleMemory(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	var maxTokens, turns *int
	for _, f := range []struct {
		name string
		dst  **int
	}{{"max_tokens", &maxTokens}, {"turns", &turns}} {
		if v := q.Get(f.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return badRequest("%s: %q is not an integer", f.name, v)
			}
			*f.dst = &n
		}
	}
	p, err := s.memoryParams(r.PathValue("id"), q.Get("q"), maxTokens, turns)
	if err != nil {
		return err
	}
	fp, err := freshParams(q, s.cfg.Budget)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(fp.readCtx(r.Context()), s.cfg.Budget)
	defer cancel()
	var meta Meta
	marks := s.awaitFresh(ctx, fp, time.Now(), &meta)
	resp, err := s.memory(ctx, p)
	if err != nil {
		return err
	}
	resp.Meta.FreshThrough = freshThrough(marks)
	resp.Meta.Degraded = append(resp.Meta.Degraded, meta.Degraded...)
	writeJSON(w, http.StatusOK, resp)
	return nil
}

// memory reads a session's newest turns and summary, then assembles them. The
// turns come from the cache when it holds enough of them in its window (it is
// fed without gaps, so those are the newest), else from the store; a missing
// summary degrades the answer, missing turns fail it.
func (s *Server) memory(ctx context.Context, p memoryParams) (MemoryResponse, error) {
	start := s.now()
	resp := MemoryResponse{Meta: MemoryMeta{Degraded: []Degraded{}}}
	type sumResult struct {
		sum *store.Summary
		err error
	}
	sumDone := make(chan sumResult, 1)
	go func() {
		if s.summaries == nil {
			sumDone <- sumResult{}
			return
		}
		sum, ok, err := s.summaries.Summary(ctx, tenantOf(ctx), p.id)
		if !ok {
			sumDone <- sumResult{err: err}
			return
		}
		sumDone <- sumResult{sum: &sum, err: err}
	}()

	entity := session.EntityPrefix + p.id
	var events []store.Event
	if p.turns > 0 {
		// The builder folds a turn only once it is older than the newest Turns,
		// and in steps of EveryTurns: read enough to show every turn the summary
		// does not cover yet (Assemble drops those it covers).
		n := p.turns
		if sc := s.sessions.Summary; sc != nil && !p.turnsAsked {
			n += sc.EveryTurns
		}
		var err error
		events, resp.Meta.ServedFrom, err = s.readTurns(ctx, entity, n, &resp.Meta)
		if err != nil {
			return resp, err
		}
	}
	var sum *store.Summary
	select {
	case r := <-sumDone:
		if r.err != nil {
			s.degradeMemory(&resp.Meta, "summary", reason(r.err), "turns_only")
		}
		sum = r.sum
	case <-ctx.Done():
		s.degradeMemory(&resp.Meta, "summary", "deadline exceeded", "turns_only")
	}
	turns := make([]session.Turn, 0, len(events))
	for i := len(events) - 1; i >= 0; i-- { // oldest first
		turns = append(turns, s.sessions.TurnOf(events[i]))
	}
	resp.Memory = session.Assemble(p.id, s.sessions.Persona, sum, turns, p.q, p.maxTokens, estimateTokens)
	resp.Meta.TookMS = float64(time.Since(start).Microseconds()) / 1000
	return resp, nil
}

// readTurns returns an entity's newest n events: from the cache when it has n of
// them within its window, else from the store within the lookback.
func (s *Server) readTurns(ctx context.Context, entity string, n int, meta *MemoryMeta) ([]store.Event, string, error) {
	now := s.now()
	if w, ok := s.cache.(interface{ Window() time.Duration }); ok {
		cctx, cancel := context.WithTimeout(ctx, share(s.cfg.Budget, cacheShare))
		events, complete, err := s.cache.Recent(cctx, tenantOf(ctx), entity, now.Add(-w.Window()), n)
		cancel()
		switch {
		case err != nil:
			s.degradeMemory(meta, "cache", reason(err), "store")
		case complete && len(events) >= n:
			return events, "cache", nil
		}
	}
	events, err := s.store.Recent(ctx, tenantOf(ctx), entity, now.Add(-s.sessions.Lookback), n)
	if err != nil {
		return nil, "", &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Msg: "the session's turns could not be read within the budget", Err: err}
	}
	return events, "store", nil
}

func (s *Server) degradeMemory(meta *MemoryMeta, stage, why, fallback string) {
	meta.Degraded = append(meta.Degraded, Degraded{Stage: stage, Reason: why, Fallback: fallback})
	s.degraded.WithLabelValues(stage).Inc()
}
