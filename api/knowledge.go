package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/store"
)

const (
	maxSearchK      = 50
	searchKDefault  = 5
	maxFilterKeys   = 16
	maxFilterKeyLen = 64
	maxTimeline     = 200
)

// SearchRequest is the body of POST /v1/search.
type SearchRequest struct {
	Q        string         `json:"q"`
	K        *int           `json:"k"`
	Filter   map[string]any `json:"filter"`
	BudgetMS *int           `json:"budget_ms"`
}

// SearchResponse is the answer of POST /v1/search.
type SearchResponse struct {
	Documents []store.Hit `json:"documents"`
	Meta      SearchMeta  `json:"meta"`
}

// SearchMeta describes how a search was answered.
type SearchMeta struct {
	TookMS   float64            `json:"took_ms"`
	StagesMS map[string]float64 `json:"stages_ms"`
	Mode     string             `json:"mode"` // ann or exact
	K        int                `json:"k"`
	// Cached: answered from the search cache (the same search since the
	// tenant's documents last changed).
	Cached bool `json:"cached,omitempty"`
}

// validateFilter allows an object of at most 16 keys whose values are strings,
// numbers or booleans: it is matched with jsonb containment, as a parameter.
func validateFilter(f map[string]any) error {
	if len(f) > maxFilterKeys {
		return badRequest("filter: at most %d keys", maxFilterKeys)
	}
	for k, v := range f {
		if k == "" || len(k) > maxFilterKeyLen || !utf8.ValidString(k) {
			return badRequest("filter: key %q must be 1 to %d bytes of UTF-8", k, maxFilterKeyLen)
		}
		switch x := v.(type) {
		case string:
			if len(x) > 1024 || !utf8.ValidString(x) {
				return badRequest("filter.%s: a string of at most 1024 bytes of UTF-8", k)
			}
		case float64, bool:
		default:
			return badRequest("filter.%s: must be a string, number or boolean", k)
		}
	}
	return nil
}

func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) error {
	if s.knowledge == nil {
		return &Error{Status: http.StatusNotFound, Code: "not_found", Msg: "knowledge search is not configured"}
	}
	var req SearchRequest
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Msg: fmt.Sprintf("body exceeds %d bytes", maxBodyBytes)}
		}
		return badRequest("body: %v", err)
	}
	q := strings.TrimSpace(req.Q)
	switch {
	case q == "":
		return badRequest("q: required")
	case !utf8.ValidString(q) || utf8.RuneCountInString(q) > maxQRunes:
		return badRequest("q: at most %d characters of UTF-8", maxQRunes)
	}
	k := searchKDefault
	if req.K != nil {
		if *req.K < 1 || *req.K > maxSearchK {
			return badRequest("k: must be in [1, %d]", maxSearchK)
		}
		k = *req.K
	}
	if err := validateFilter(req.Filter); err != nil {
		return err
	}
	budget := s.cfg.Budget
	if req.BudgetMS != nil {
		if *req.BudgetMS < 1 || *req.BudgetMS > maxBudgetMS {
			return badRequest("budget_ms: must be in [1, %d]", maxBudgetMS)
		}
		budget = time.Duration(*req.BudgetMS) * time.Millisecond
	}
	resp, timer, err := s.search(r.Context(), q, k, req.Filter, budget)
	if err != nil {
		return err
	}
	s.serverTiming(w, timer, resp.Meta.TookMS)
	writeJSON(w, http.StatusOK, resp)
	return nil
}

// search answers a knowledge search for the caller in ctx (REST and MCP).
func (s *Server) search(parent context.Context, q string, k int, filter map[string]any, budget time.Duration) (SearchResponse, *stageTimer, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(parent, budget)
	defer cancel()
	q = relevance.WithoutCourtesy(q) // ("hi, how do I reset my router? thanks": what is asked)
	timer := &stageTimer{ms: map[string]float64{}}
	var embedErr error
	embed := func() ([]float32, error) { // only when the search is not cached
		t0 := time.Now()
		vecs, err := s.embedder.Embed(ctx, []string{q})
		timer.record("embed", t0)
		if err == nil && len(vecs) != 1 {
			err = errors.New("embedder returned no vector")
		}
		if err != nil {
			embedErr = err
			return nil, err
		}
		return vecs[0], nil
	}
	t0 := time.Now()
	hits, info, cached, err := s.searchKnowledge(ctx, store.SearchQuery{Tenant: tenantOf(ctx), Text: q, K: k, Filter: filter}, embed)
	switch {
	case embedErr != nil:
		return SearchResponse{}, nil, &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Msg: "the question could not be embedded within the budget", Err: embedErr}
	case err != nil:
		return SearchResponse{}, nil, &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Msg: "knowledge search failed within the budget", Err: err}
	}
	timer.record("knowledge", t0)
	timer.ms["knowledge"] = max(0, timer.ms["knowledge"]-timer.ms["embed"]) // the stages do not overlap
	if hits == nil {
		hits = []store.Hit{}
	}
	for i := range hits {
		hits[i].Score = round4(hits[i].Score)
	}
	meta := SearchMeta{StagesMS: timer.ms, Mode: info.Mode, K: k, Cached: cached, TookMS: float64(time.Since(start).Microseconds()) / 1000}
	return SearchResponse{Documents: hits, Meta: meta}, timer, nil
}

// TimelineResponse is a page of an entity's events, newest first.
type TimelineResponse struct {
	Entity     string     `json:"entity"`
	Events     []EventOut `json:"events"`
	NextCursor string     `json:"next_cursor,omitempty"` // absent on the last page
	// FreshThrough and Degraded: as in /v1/context's meta (after=, fresh_through=).
	FreshThrough *time.Time `json:"fresh_through,omitempty"`
	Degraded     []Degraded `json:"degraded,omitempty"`
}

func (s *Server) handleTimeline(w http.ResponseWriter, r *http.Request) error {
	if s.timeline == nil {
		return &Error{Status: http.StatusNotFound, Code: "not_found", Msg: "the timeline is not available"}
	}
	entity := r.PathValue("entity")
	if entity == "" || len(entity) > maxEntityBytes || !utf8.ValidString(entity) {
		return badRequest("entity: 1 to %d bytes of UTF-8", maxEntityBytes)
	}
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxTimeline {
			return badRequest("limit: must be an integer in [1, %d]", maxTimeline)
		}
		limit = n
	}
	var after *store.Cursor
	if v := r.URL.Query().Get("cursor"); v != "" {
		b, err := base64.RawURLEncoding.DecodeString(v)
		var c store.Cursor
		if err != nil || len(b) > 4096 || json.Unmarshal(b, &c) != nil || c.Time.IsZero() {
			return badRequest("cursor: not a cursor this API returned")
		}
		after = &c
	}
	fp, err := freshParams(r.URL.Query(), s.cfg.Budget)
	if err != nil {
		return err
	}
	contexts, err := parseContexts(r.URL.Query()["context"])
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(fp.readCtx(r.Context()), s.cfg.Budget*10)
	defer cancel()
	var meta Meta
	marks := s.awaitFresh(ctx, fp, time.Now(), &meta)
	events, err := s.timeline.Timeline(ctx, tenantOf(ctx), entity, after, limit)
	if err != nil {
		return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Msg: "the store did not answer", Err: err}
	}
	full := len(events) == limit
	var last store.Event
	if full {
		last = events[len(events)-1]
	}
	events = servable(events, contexts, s.now())
	resp := TimelineResponse{Entity: entity, Events: make([]EventOut, len(events)), FreshThrough: freshThrough(marks), Degraded: meta.Degraded}
	for i, e := range events {
		resp.Events[i] = eventOut(Scored{Event: e})
	}
	if full { // the page was full before filtering: there may be more
		b, _ := json.Marshal(store.Cursor{Time: last.Time, Source: last.Source, Key: last.Key})
		resp.NextCursor = base64.RawURLEncoding.EncodeToString(b)
	}
	writeJSON(w, http.StatusOK, resp)
	return nil
}
