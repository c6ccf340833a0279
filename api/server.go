// Package api serves context to LLM agents over HTTP: GET/POST /v1/context (an
// entity's recent events ranked for a question, rendered for a prompt), health and
// readiness, and Prometheus metrics.
//
// Every request runs within a latency budget. Stages run in parallel where they
// can (the question is embedded while the events are read) and each has its own
// deadline. When a stage misses it, the answer degrades instead of failing, and
// meta.degraded says how: a late or failed question embedding ranks by recency
// alone; a Redis cache that is down, late, or does not cover the window is
// replaced by the store; a store that fails after the cache gave a partial answer
// serves that partial answer. Only when no source of events answers is the
// result a 503.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/session"
	"github.com/freshctx/freshctx/store"
)

// Embedder embeds the question.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Cache is the recent-events cache. complete reports whether the events cover
// the whole window; when false they may be a subset.
type Cache interface {
	Recent(ctx context.Context, tenant, entity string, since time.Time, limit int) (events []store.Event, complete bool, err error)
	Ping(ctx context.Context) error
}

// Server is the HTTP handler of the context API.
type Server struct {
	cfg       Config
	embedder  Embedder
	store     store.Reader
	cache     Cache          // optional
	knowledge store.Searcher // optional: the store's knowledge search
	timeline  store.Timeline // optional: the store's timeline
	auth      *authenticator
	mcp       http.Handler
	latest    LatestReader // optional: the MCP tool read_latest
	changes   ChangeStream // optional: GET /v1/entities/{entity}/stream
	streams   *streamLimits
	kcache    *knowledgeCache // nil: knowledge searches are not cached
	sessions  *session.Config // optional: conversation memory
	summaries SummaryReader
	// Freshness (optional): the source topics, their watermarks and a waker.
	freshTopics []string
	marks       WatermarkReader
	waker       Waker
	marksMu     sync.Mutex
	marksSnap   []store.Watermark // the source topics' watermarks as of marksWake
	marksWake   <-chan struct{}
	log         *slog.Logger
	reg         Registry
	mux         *http.ServeMux
	routes      []string // "METHOD /path" of every documented route
	now         func() time.Time

	reqSeconds   *prometheus.HistogramVec
	stageSeconds *prometheus.HistogramVec
	degraded     *prometheus.CounterVec
}

// New returns a server. reg receives the API's metrics and is served on /metrics.
// Option adds an optional capability to a Server.
type Option func(*Server)

// WithLatestReader offers the MCP tool read_latest over the topics in
// Config.ReadLatestTopics.
func WithLatestReader(r LatestReader) Option { return func(s *Server) { s.latest = r } }

// Registry is where the API's metrics are registered and what /metrics serves; a
// *prometheus.Registry is one.
type Registry interface {
	prometheus.Registerer
	prometheus.Gatherer
}

func New(cfg Config, e Embedder, st store.Reader, cache Cache, log *slog.Logger, reg Registry, opts ...Option) *Server {
	cfg = cfg.WithDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	s := &Server{cfg: cfg, embedder: e, store: st, cache: cache, log: log, reg: reg, mux: http.NewServeMux(), now: time.Now}
	for _, o := range opts {
		o(s)
	}
	s.auth = newAuthenticator(cfg.Auth, cfg.Tenant)
	if s.auth.mode == AuthNone {
		log.Warn("authentication is OFF (api.auth.mode: none): every caller reads tenant " + strconv.Quote(cfg.Tenant) + "; for development only")
	}
	s.knowledge, _ = st.(store.Searcher)
	s.timeline, _ = st.(store.Timeline)
	lat := []float64{.0005, .001, .002, .005, .01, .025, .05, .1, .25, .5, 1}
	s.reqSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "freshctx", Subsystem: "api", Name: "request_seconds",
		Help: "Request latency by route and status code.", Buckets: lat}, []string{"route", "code"})
	s.stageSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "freshctx", Subsystem: "api", Name: "stage_seconds",
		Help: "Latency of each stage of /v1/context.", Buckets: lat}, []string{"stage"})
	s.degraded = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "freshctx", Subsystem: "api", Name: "degraded_total",
		Help: "Answers that used a fallback, by stage."}, []string{"stage"})
	// Every stage's series exists from the first scrape (at 0), so dashboards and
	// rate() alerts see them before the first degradation.
	for _, st := range stages {
		s.stageSeconds.WithLabelValues(st)
	}
	for _, st := range degradableStages {
		s.degraded.WithLabelValues(st)
	}
	reg.MustRegister(s.reqSeconds, s.stageSeconds, s.degraded)
	s.handle("GET /v1/context", s.instrument("/v1/context", s.authed(s.handleContext)))
	s.handle("POST /v1/context", s.instrument("/v1/context", s.authed(s.handleContext)))
	s.handle("POST /v1/search", s.instrument("/v1/search", s.authed(s.handleSearch)))
	s.handle("GET /v1/entities/{entity}/events", s.instrument("/v1/entities/{entity}/events", s.authed(s.handleTimeline)))
	s.handle("GET /v1/sessions/{id}/memory", s.instrument("/v1/sessions/{id}/memory", s.authed(s.handleMemory)))
	s.handle("GET /v1/status", s.instrument("/v1/status", s.authed(s.handleStatus)))
	if s.changes != nil {
		s.streams = &streamLimits{byTenant: map[string]int{}, byKey: map[string]int{},
			max: cfg.MaxStreams, maxPerTenant: cfg.MaxStreamsPerTenant, maxPerKey: cfg.MaxStreamsPerKey}
		s.handle("GET /v1/entities/{entity}/stream", s.instrument("/v1/entities/{entity}/stream", s.authed(s.handleStream)))
	}
	s.handle("GET /v1/topics/{topic}/latest", s.instrument("/v1/topics/{topic}/latest", s.authed(s.handleLatest)))
	if s.marks != nil {
		reg.MustRegister(newStatusCollector(s))
	}
	s.handle("GET /openapi.yaml", s.instrument("/openapi.yaml", s.handleOpenAPI))
	s.mcp = s.mcpHandler()
	s.mux.Handle("/mcp", s.mcp) // Model Context Protocol, streamable HTTP (described in docs/api.md, not OpenAPI)
	if *cfg.Console {
		// The web console (docs/console.md): pages only, not an API route.
		s.mux.Handle("GET /console", s.instrument("/console", s.handleConsole))
		s.mux.Handle("GET /console/", s.instrument("/console", s.handleConsole))
	}
	s.handle("GET /healthz", s.instrument("/healthz", s.handleHealth))
	s.handle("GET /readyz", s.instrument("/readyz", s.handleReady))
	s.handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	s.mux.Handle("/", s.instrument("other", func(w http.ResponseWriter, r *http.Request) error {
		return &Error{Status: http.StatusNotFound, Code: "not_found", Msg: "no route " + r.Method + " " + r.URL.Path + "; see GET /v1/context"}
	}))
	return s
}

// authed identifies the caller (key → tenant, rate limit) before h runs; h reads
// the tenant with callerOf, never from the request.
func (s *Server) authed(h func(http.ResponseWriter, *http.Request) error) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := s.auth.authenticate(r)
		if err != nil {
			return err
		}
		return h(w, r.WithContext(withCaller(r.Context(), c)))
	}
}

func tenantOf(ctx context.Context) string {
	c, _ := callerOf(ctx)
	return c.tenant
}

// handle registers a documented route.
func (s *Server) handle(route string, h http.Handler) {
	s.routes = append(s.routes, route)
	s.mux.Handle(route, h)
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Error is an error with the HTTP status and the message for the client. Every
// handler error is mapped and logged in one place, instrument.
type Error struct {
	Status     int
	Code       string
	Msg        string
	Err        error         // internal cause, logged, never sent
	retryAfter time.Duration // sent as Retry-After with 429
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func badRequest(format string, args ...any) error {
	return &Error{Status: http.StatusBadRequest, Code: "bad_request", Msg: fmt.Sprintf(format, args...)}
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) { w.code = code; w.ResponseWriter.WriteHeader(code) }

// Unwrap lets http.ResponseController reach the connection (flushes and write
// deadlines of the change stream).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) instrument(route string, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		if err := h(sw, r); err != nil {
			var e *Error
			if !errors.As(err, &e) {
				e = &Error{Status: http.StatusInternalServerError, Code: "internal", Msg: "internal error", Err: err}
			}
			if e.Status >= 500 {
				s.log.Error("request failed", "route", route, "status", e.Status, "err", e)
			}
			if e.retryAfter > 0 {
				sw.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(e.retryAfter.Seconds()))))
			}
			writeJSON(sw, e.Status, map[string]any{"error": map[string]string{"code": e.Code, "message": e.Msg}})
		}
		s.reqSeconds.WithLabelValues(route, strconv.Itoa(sw.code)).Observe(time.Since(start).Seconds())
	})
}

// writeJSON encodes v before anything is sent, so an answer that cannot be
// encoded is a 500 with an error body, never a 200 with an empty one.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := jsonBufs.Get().(*bytes.Buffer)
	defer putJSONBuf(buf)
	var b []byte
	var err error
	if a, ok := v.(jsonAppender); ok {
		b, err = a.appendJSON(buf.AvailableBuffer())
	} else {
		b, err = appendReflected(buf.AvailableBuffer(), v)
	}
	if err == nil {
		buf.Write(b)
		buf.WriteByte('\n') // as json.Encoder ends a value
	} else {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(buf, "{\"error\":{\"code\":\"internal\",\"message\":%q}}\n", "the answer could not be encoded: "+err.Error())
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	// The body is whole already: with its length the server sends it as is, in one
	// write with the headers, instead of in chunks.
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// jsonBufs are writeJSON's encoding buffers, kept between responses.
var jsonBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putJSONBuf returns buf to jsonBufs unless one response made it unusually large
// (a pool must not pin the memory of the largest answer ever written).
func putJSONBuf(buf *bytes.Buffer) {
	if buf.Cap() > 256<<10 {
		return
	}
	buf.Reset()
	jsonBufs.Put(buf)
}

func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// handleReady is 503 while the store is unreachable. A cache outage only degrades
// answers, so it is reported but does not fail readiness.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), time.Second)
	defer cancel()
	checks := map[string]string{"postgres": "ok"}
	status := http.StatusOK
	if err := s.store.Ping(ctx); err != nil {
		checks["postgres"] = "down: " + err.Error()
		status = http.StatusServiceUnavailable
	}
	if relevance.Loading() {
		// Ready once question expansion is loaded (about a second after start):
		// until then answers rank without synonyms and translations
		// (meta.degraded says so).
		checks["lexicons"] = "loading (WordNet, CC-CEDICT)"
		status = http.StatusServiceUnavailable
	}
	if s.cache != nil {
		checks["redis"] = "ok"
		if err := s.cache.Ping(ctx); err != nil {
			checks["redis"] = "down (answers fall back to postgres): " + err.Error()
		}
	}
	writeJSON(w, status, map[string]any{"ready": status == http.StatusOK, "checks": checks})
	return nil
}

// ContextRequest holds the parameters of /v1/context (query string or JSON body).
type ContextRequest struct {
	Entity    string `json:"entity"`
	Q         string `json:"q"`
	Window    string `json:"window"`
	K         *int   `json:"k"`
	Knowledge *bool  `json:"knowledge"`
	BudgetMS  *int   `json:"budget_ms"`
	MaxTokens *int   `json:"max_tokens"`
	// Session adds the conversation's memory (see GET /v1/sessions/{id}/memory).
	Session      string `json:"session"`
	MemoryTokens *int   `json:"memory_tokens"`
	// Ranking is hybrid (default: api.ranking), similarity or recency.
	Ranking string `json:"ranking"`
	// Explain adds each event's score components.
	Explain bool `json:"explain"`
	// After names records, as TOPIC:PARTITION:OFFSET, that the answer must include
	// (read-your-writes): the API waits for ingest to have written them.
	After []string `json:"after"`
	// FreshThrough (RFC 3339 or unix ms): wait until every source is complete
	// through this Kafka timestamp.
	FreshThrough string `json:"fresh_through"`
	// Context keeps only events whose ai-context is one of these.
	Context []string `json:"context"`
}

// Limits on request parameters.
const (
	maxEntityBytes = 256
	maxQRunes      = 2000
	maxBodyBytes   = 64 << 10
	maxBudgetMS    = 10000
	maxMaxTokens   = 32000
)

type params struct {
	entity    string
	q         string
	window    time.Duration
	k         int
	knowledge bool
	budget    time.Duration
	maxTokens int
	memory    *memoryParams
	ranking   string
	explain   bool
	// after and freshThrough: what the answer must include (see awaitFresh).
	after        []store.Watermark
	freshThrough time.Time
	contexts     []string // ai-context filter (empty: every event)
}

func (s *Server) parse(r *http.Request) (params, error) {
	var req ContextRequest
	if r.Method == http.MethodPost {
		body := http.MaxBytesReader(nil, r.Body, maxBodyBytes)
		dec := json.NewDecoder(body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return params{}, &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Msg: fmt.Sprintf("body exceeds %d bytes", maxBodyBytes)}
			}
			if errors.Is(err, io.EOF) {
				return params{}, badRequest("body: a JSON object with at least \"entity\" is required")
			}
			return params{}, badRequest("body: %v", err)
		}
	} else {
		q := r.URL.Query()
		req.Entity, req.Q, req.Window, req.Session, req.Ranking = q.Get("entity"), q.Get("q"), q.Get("window"), q.Get("session"), q.Get("ranking")
		req.After, req.FreshThrough, req.Context = q["after"], q.Get("fresh_through"), q["context"]
		if v := q.Get("explain"); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return params{}, badRequest("explain: %q is not true or false", v)
			}
			req.Explain = b
		}
		if v := q.Get("knowledge"); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return params{}, badRequest("knowledge: %q is not true or false", v)
			}
			req.Knowledge = &b
		}
		for _, f := range []struct {
			name string
			dst  **int
		}{{"k", &req.K}, {"budget_ms", &req.BudgetMS}, {"max_tokens", &req.MaxTokens}, {"memory_tokens", &req.MemoryTokens}} {
			if v := q.Get(f.name); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil {
					return params{}, badRequest("%s: %q is not an integer", f.name, v)
				}
				*f.dst = &n
			}
		}
	}
	return s.params(req)
}

// params validates a context request (from REST or MCP); errors name the field.
func (s *Server) params(req ContextRequest) (params, error) {
	p := params{entity: req.Entity, q: strings.TrimSpace(req.Q), window: s.cfg.DefaultWindow, k: s.cfg.DefaultK,
		budget: s.cfg.Budget, maxTokens: s.cfg.MaxTokens, ranking: s.cfg.Ranking, explain: req.Explain}
	var err error
	if p.after, p.freshThrough, err = parseFreshness(req.After, req.FreshThrough); err != nil {
		return p, err
	}
	if p.contexts, err = parseContexts(req.Context); err != nil {
		return p, err
	}
	switch req.Ranking {
	case "":
	case RankHybrid, RankSimilarity, RankRecency:
		p.ranking = req.Ranking
	default:
		return p, badRequest("ranking: %q is not one of hybrid, similarity, recency", req.Ranking)
	}
	switch {
	case p.entity == "":
		return p, badRequest("entity: required, e.g. entity=customer:42")
	case len(p.entity) > maxEntityBytes:
		return p, badRequest("entity: longer than %d bytes", maxEntityBytes)
	case !utf8.ValidString(p.entity) || !utf8.ValidString(p.q):
		return p, badRequest("entity and q must be valid UTF-8")
	case utf8.RuneCountInString(p.q) > maxQRunes:
		return p, badRequest("q: longer than %d characters", maxQRunes)
	}
	if req.Window != "" {
		d, err := time.ParseDuration(req.Window)
		if err != nil || d <= 0 {
			return p, badRequest("window: %q is not a positive duration like 15m or 1h", req.Window)
		}
		if d > s.cfg.MaxWindow {
			return p, badRequest("window: %s exceeds the maximum %s", d, s.cfg.MaxWindow)
		}
		p.window = d
	}
	p.knowledge = p.q != "" && s.knowledge != nil && *s.cfg.KnowledgeK > 0
	if req.Knowledge != nil {
		p.knowledge = *req.Knowledge && p.knowledge
	}
	if req.K != nil {
		if *req.K < 1 || *req.K > s.cfg.MaxK {
			return p, badRequest("k: must be in [1, %d]", s.cfg.MaxK)
		}
		p.k = *req.K
	}
	if req.BudgetMS != nil {
		if *req.BudgetMS < 1 || *req.BudgetMS > maxBudgetMS {
			return p, badRequest("budget_ms: must be in [1, %d]", maxBudgetMS)
		}
		p.budget = time.Duration(*req.BudgetMS) * time.Millisecond
	}
	if req.MaxTokens != nil {
		if *req.MaxTokens < 1 || *req.MaxTokens > maxMaxTokens {
			return p, badRequest("max_tokens: must be in [1, %d]", maxMaxTokens)
		}
		p.maxTokens = *req.MaxTokens
	}
	if req.Session != "" {
		mp, err := s.memoryParams(req.Session, "", req.MemoryTokens, nil)
		if err != nil {
			return p, prefixField(err, "session")
		}
		p.memory = &mp
	} else if req.MemoryTokens != nil {
		return p, badRequest("memory_tokens: only with session")
	}
	return p, nil
}

// maxContexts bounds context= values.
const maxContexts = 16

func parseContexts(vs []string) ([]string, error) {
	if len(vs) > maxContexts {
		return nil, badRequest("context: at most %d values", maxContexts)
	}
	for _, v := range vs {
		if len(v) > 256 || !utf8.ValidString(v) {
			return nil, badRequest("context: %q is not a context name (UTF-8, at most 256 bytes)", v)
		}
	}
	return vs, nil
}

// servable drops, in place, the events whose TTL has passed at now (every
// store filters them too; this holds the line whatever their clocks say) and,
// when contexts are given, those whose ai-context is not one of them.
func servable(events []store.Event, contexts []string, now time.Time) []store.Event {
	out := events[:0]
	for _, e := range events {
		if e.Expired(now) || (len(contexts) > 0 && !slices.Contains(contexts, e.Context)) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// prefixField names the request field a nested validation error is about.
func prefixField(err error, field string) error {
	var e *Error
	if errors.As(err, &e) && e.Status == http.StatusBadRequest && !strings.HasPrefix(e.Msg, field) {
		e.Msg = field + ": " + e.Msg
	}
	return err
}

// EventOut is one event in a response.
type EventOut struct {
	ID         string         `json:"id"`
	Source     string         `json:"source"`
	Key        string         `json:"key"`
	Time       time.Time      `json:"time"`
	Text       string         `json:"text"`
	Attrs      map[string]any `json:"attrs,omitempty"`
	Score      float64        `json:"score"`
	Similarity *float64       `json:"similarity,omitempty"`
	// Explain holds the score's components (explain=true).
	Explain    *relevance.Components `json:"explain,omitempty"`
	Version    int64                 `json:"version"`
	Provenance store.Provenance      `json:"provenance"`
	// Context is the event's ai-context; ExpiresAt when its ai-ttl passes.
	Context   string     `json:"context,omitempty"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

func eventOut(e Scored) EventOut {
	out := EventOut{ID: e.ID, Source: e.Source, Key: e.Key, Time: e.Time, Text: e.Text, Attrs: e.Attrs,
		Score: round4(e.Score), Version: e.Version, Provenance: e.Provenance, Context: e.Context}
	if !e.ExpiresAt.IsZero() {
		t := e.ExpiresAt
		out.ExpiresAt = &t
	}
	if e.Similarity != nil {
		v := round4(*e.Similarity)
		out.Similarity = &v
	}
	return out
}

// How a request's latency budget is shared: the question's embedding may take
// embedShare of it (the knowledge search follows within what is left), the cache
// cacheShare; the store gets what remains of the whole.
const (
	embedShare = 0.4
	cacheShare = 0.3
	statsShare = 0.1 // BM25's corpus statistics; late, the candidates' own are used
)

func share(budget time.Duration, f float64) time.Duration { return time.Duration(float64(budget) * f) }

// The stages of an answer (freshctx_api_stage_seconds) and those that can
// degrade (freshctx_api_degraded_total).
var (
	stages           = []string{"freshness", "cache", "store", "embed", "knowledge", "memory", "stats", "rank", "render"}
	degradableStages = []string{"freshness", "cache", "store", "embed", "knowledge", "memory", "rank"}
)

// Degraded says which stage missed its deadline or failed, and what was used instead.
type Degraded struct {
	Stage    string `json:"stage"`
	Reason   string `json:"reason"`
	Fallback string `json:"fallback"`
}

// Meta describes how an answer was made.
type Meta struct {
	TookMS           float64            `json:"took_ms"`
	StagesMS         map[string]float64 `json:"stages_ms"`
	ServedFrom       string             `json:"served_from"` // cache, store, or partial_cache
	Degraded         []Degraded         `json:"degraded"`
	Candidates       int                `json:"candidates"`
	NewestEventAgeMS *int64             `json:"newest_event_age_ms"`
	Window           string             `json:"window"`
	// Now is the server's time the window was measured from; Cutoff is now − window:
	// no event older than it is in the answer.
	Now    time.Time `json:"now"`
	Cutoff time.Time `json:"cutoff"`
	// FreshThrough is the time up to which the sources are complete (every
	// record with a Kafka timestamp at or before it is stored); absent without
	// watermarks.
	FreshThrough     *time.Time `json:"fresh_through,omitempty"`
	K                int        `json:"k"`
	Ranking          string     `json:"ranking"`
	ContextTokens    int        `json:"context_tokens"`
	OmittedEvents    int        `json:"omitted_events"`
	OmittedDocuments int        `json:"omitted_documents"`
	KnowledgeMode    string     `json:"knowledge_mode,omitempty"` // ann or exact, when knowledge was searched
	// KnowledgeCached says the knowledge came from the search cache: the same
	// search, answered since the tenant's documents last changed.
	KnowledgeCached bool `json:"knowledge_cached,omitempty"`
	// Fusion is how hybrid ranking fused the events' components for this
	// question (explain=true): with an event's explain, its score.
	Fusion *relevance.Fusion `json:"fusion,omitempty"`
}

// ContextResponse is the body of a /v1/context answer.
type ContextResponse struct {
	Entity string `json:"entity"`
	// Memory is the conversation's memory, when the request names a session.
	Memory    *MemoryResponse `json:"memory,omitempty"`
	Events    []EventOut      `json:"events"`
	Documents []store.Hit     `json:"documents"`
	Context   string          `json:"context"`
	Meta      Meta            `json:"meta"`
}

type stageTimer struct {
	order []string
	ms    map[string]float64
}

func (t *stageTimer) record(stage string, start time.Time) {
	if _, ok := t.ms[stage]; !ok {
		t.order = append(t.order, stage)
	}
	t.ms[stage] = float64(time.Since(start).Microseconds()) / 1000
}

func (s *Server) handleContext(w http.ResponseWriter, r *http.Request) error {
	p, err := s.parse(r)
	if err != nil {
		return err
	}
	resp, timer, err := s.answer(r.Context(), p)
	if err != nil {
		return err
	}
	s.serverTiming(w, timer, resp.Meta.TookMS)
	writeJSON(w, http.StatusOK, &resp)
	return nil
}

// await returns what ch holds, if anything, else waits for it until ctx ends.
// A value that is already there is taken even when ctx has ended (select
// alone would pick between the two at random).
func await[T any](ctx context.Context, ch <-chan T) (T, bool) {
	select {
	case v := <-ch:
		return v, true
	default:
	}
	select {
	case v := <-ch:
		return v, true
	case <-ctx.Done():
		var zero T
		return zero, false
	}
}

// answer makes a /v1/context answer for the caller in ctx, within p.budget.
func (s *Server) answer(parent context.Context, p params) (ContextResponse, *stageTimer, error) {
	start := s.now()
	ctx, cancel := context.WithTimeout(p.readCtx(parent), p.budget)
	defer cancel()
	timer := &stageTimer{ms: map[string]float64{}}
	meta := Meta{Degraded: []Degraded{}, Window: p.window.String(), K: p.k}

	// In the background: embed the question (within 40% of the budget), then, when
	// asked for, search the knowledge with it. Meanwhile the events are read.
	type embedResult struct {
		vec []float32
		err error
		at  time.Time
	}
	type searchResult struct {
		hits   []store.Hit
		info   store.SearchInfo
		cached bool
		err    error
		took   time.Duration
	}
	type memoryResult struct {
		m   MemoryResponse
		err error
	}
	memDone := make(chan memoryResult, 1)
	fresh := make(chan struct{}) // closed once the freshness wait is over
	if p.memory != nil {
		go func() {
			// Memory is read after the wait, so it holds the turns after= names.
			select {
			case <-fresh:
			case <-ctx.Done():
			}
			m, err := s.memory(ctx, *p.memory)
			memDone <- memoryResult{m, err}
		}()
	}
	var emb embedResult
	embedDone := make(chan struct{})
	searchDone := make(chan searchResult, 1)
	if p.q != "" {
		// What the events are ranked by is what the message asks (its
		// sentences that ask, relevance.Asked); what the knowledge search
		// looks for is the whole message without "hi" or "thanks" ("my
		// router keeps dropping. how do I reset it?" is about the router).
		// Both are embedded in one call when they differ.
		asked, said := relevance.Asked(p.q)
		whole, texts := asked, []string{asked}
		if said != "" {
			whole = relevance.WithoutCourtesy(p.q)
			texts = append(texts, whole)
		}
		go func() {
			var wholeVec []float32
			ectx, ecancel := context.WithTimeout(ctx, share(p.budget, embedShare))
			vecs, err := s.embedder.Embed(ectx, texts)
			ecancel()
			emb = embedResult{err: err, at: time.Now()}
			if err == nil && len(vecs) == len(texts) {
				emb.vec, wholeVec = vecs[0], vecs[len(vecs)-1]
			} else if err == nil {
				emb.err = errors.New("embedder returned no vector")
			}
			// The vector is there for ranking now, not after the knowledge
			// search: a late search degrades the knowledge alone.
			close(embedDone)
			if p.knowledge && emb.err == nil {
				t0 := time.Now()
				vec := wholeVec
				hits, info, cached, err := s.searchKnowledge(ctx, store.SearchQuery{Tenant: tenantOf(ctx), Text: whole, K: *s.cfg.KnowledgeK},
					func() ([]float32, error) { return vec, nil })
				searchDone <- searchResult{hits: hits, info: info, cached: cached, err: err, took: time.Since(t0)}
			}
		}()
	} else {
		close(embedDone)
	}

	// Read-your-writes: wait (woken by the watermarks, within half the budget)
	// until what the request names is written; then read.
	fstart := time.Now()
	marks := s.awaitFresh(ctx, p, start, &meta)
	close(fresh)
	if len(p.after) > 0 || !p.freshThrough.IsZero() {
		timer.record("freshness", fstart)
	}
	meta.FreshThrough = freshThrough(marks)

	// The entity's events in the window, from the cache when it covers the
	// window, else the store.
	now := s.now()
	since := now.Add(-p.window)
	events, err := s.recent(ctx, p, since, timer, &meta)
	if err != nil {
		return ContextResponse{}, nil, err
	}
	meta.Candidates = len(events)

	meta.Now, meta.Cutoff = now.UTC(), since.UTC()
	var qvec []float32
	meta.Ranking = RankRecency
	if p.q != "" && p.ranking != RankRecency {
		// Without a question vector, hybrid still ranks by words, identifiers and
		// recency; similarity falls back to recency.
		fallback := RankRecency
		if p.ranking == RankHybrid {
			fallback = rankLexical
		}
		if _, ok := await(ctx, embedDone); ok {
			timer.ms["embed"] = float64(emb.at.Sub(start).Microseconds()) / 1000
			timer.order = append(timer.order, "embed")
			if emb.err != nil {
				s.degrade(&meta, "embed", reason(emb.err), fallback)
				meta.Ranking = fallback
			} else {
				qvec = emb.vec
				meta.Ranking = p.ranking
			}
		} else {
			timer.record("embed", start)
			s.degrade(&meta, "embed", "deadline exceeded", fallback)
			meta.Ranking = fallback
		}
	}
	mode := meta.Ranking
	if mode == rankLexical {
		mode = RankHybrid
	}
	var stats relevance.Stats
	if mode == RankHybrid && p.q != "" && s.cfg.CorpusIDF > 0 {
		sstart := time.Now()
		stats = s.termStats(ctx, p.budget, events, p.q)
		timer.record("stats", sstart)
	}
	if mode == RankHybrid && p.q != "" && relevance.Loading() {
		// The first second after start: the question is not expanded rather than wait.
		s.degrade(&meta, "rank", "question expansion (WordNet, CC-CEDICT) still loading", "no synonyms")
	}
	rstart := time.Now()
	ranked, fusion := s.rank(events, p.q, qvec, stats, now, mode, p.k)
	if p.explain && fusion != nil {
		f := *fusion
		f.Similarity, f.Lexical, f.Recency, f.Identifier = round4(f.Similarity), round4(f.Lexical), round4(f.Recency), round4(f.Identifier)
		meta.Fusion = &f
	}
	timer.record("rank", rstart)
	// The knowledge search has run beside the ranking; its hits are waited for
	// only now.
	var hits []store.Hit
	if p.knowledge {
		switch {
		case qvec == nil:
			s.degrade(&meta, "knowledge", "no question vector", "events_only")
		default:
			// A search that finished in time is used even when ranking then
			// ran past the deadline.
			if res, ok := await(ctx, searchDone); ok {
				timer.ms["knowledge"] = float64(res.took.Microseconds()) / 1000
				timer.order = append(timer.order, "knowledge")
				if res.err != nil {
					s.degrade(&meta, "knowledge", reason(res.err), "events_only")
				} else {
					hits, meta.KnowledgeMode, meta.KnowledgeCached = res.hits, res.info.Mode, res.cached
				}
			} else {
				timer.record("knowledge", start)
				s.degrade(&meta, "knowledge", "deadline exceeded", "events_only")
			}
		}
	}
	rstart = time.Now()
	text, tokens, omitted, omittedDocs := renderContext(p.entity, ranked, hits, now, p.maxTokens)
	timer.record("render", rstart)

	resp := ContextResponse{Entity: p.entity, Events: make([]EventOut, len(ranked)), Documents: []store.Hit{}, Context: text}
	if p.memory != nil {
		select {
		case r := <-memDone:
			if r.err != nil {
				s.degrade(&meta, "memory", reason(r.err), "no_memory")
			} else {
				resp.Memory = &r.m
				resp.Context = r.m.Text + "\n" + text // the conversation first, then what happened
			}
		case <-ctx.Done():
			s.degrade(&meta, "memory", "deadline exceeded", "no_memory")
		}
	}
	for i, e := range ranked {
		resp.Events[i] = eventOut(e)
		if p.explain && e.Components != nil {
			c := *e.Components
			c.Similarity, c.Lexical, c.Recency = round4(c.Similarity), round4(c.Lexical), round4(c.Recency)
			c.Identifier, c.Thread = round4(c.Identifier), round4(c.Thread)
			resp.Events[i].Explain = &c
		}
	}
	for _, h := range hits {
		h.Score = round4(h.Score)
		resp.Documents = append(resp.Documents, h)
	}
	meta.OmittedDocuments = omittedDocs
	var newest time.Time
	for _, e := range events {
		if e.Time.After(newest) {
			newest = e.Time
		}
	}
	if !newest.IsZero() {
		age := now.Sub(newest).Milliseconds()
		meta.NewestEventAgeMS = &age
	}
	meta.ContextTokens, meta.OmittedEvents = tokens, omitted
	meta.StagesMS = timer.ms
	meta.TookMS = float64(time.Since(start).Microseconds()) / 1000
	resp.Meta = meta
	return resp, timer, nil
}

// recent reads the entity's events in the window, without those whose TTL has
// passed and, with context=, those of other contexts.
func (s *Server) recent(ctx context.Context, p params, since time.Time, timer *stageTimer, meta *Meta) ([]store.Event, error) {
	events, err := s.recentAll(ctx, p, since, timer, meta)
	return servable(events, p.contexts, s.now()), err
}

func (s *Server) recentAll(ctx context.Context, p params, since time.Time, timer *stageTimer, meta *Meta) ([]store.Event, error) {
	limit := s.cfg.ScanLimit
	var partial []store.Event
	if s.cache != nil {
		cstart := time.Now()
		cctx, ccancel := context.WithTimeout(ctx, share(p.budget, cacheShare))
		events, complete, err := s.cache.Recent(cctx, tenantOf(ctx), p.entity, since, limit)
		ccancel()
		timer.record("cache", cstart)
		switch {
		case err != nil:
			s.degrade(meta, "cache", reason(err), "store")
		case complete:
			meta.ServedFrom = "cache"
			return events, nil
		default:
			partial = events // the cache does not cover the window: ask the store
		}
	}
	sstart := time.Now()
	events, err := s.store.Recent(ctx, tenantOf(ctx), p.entity, since, limit)
	timer.record("store", sstart)
	if err == nil {
		meta.ServedFrom = "store"
		return events, nil
	}
	if partial != nil {
		s.degrade(meta, "store", reason(err), "partial_cache")
		meta.ServedFrom = "partial_cache"
		return partial, nil
	}
	return nil, &Error{Status: http.StatusServiceUnavailable, Code: "unavailable",
		Msg: "no event source answered within the budget (cache and store)", Err: err}
}

// serverTiming sends the stage timings as a Server-Timing header and records
// them in the stage metric.
func (s *Server) serverTiming(w http.ResponseWriter, timer *stageTimer, totalMS float64) {
	var st []string
	for _, name := range timer.order {
		st = append(st, fmt.Sprintf("%s;dur=%.3f", name, timer.ms[name]))
		s.stageSeconds.WithLabelValues(name).Observe(timer.ms[name] / 1000)
	}
	st = append(st, fmt.Sprintf("total;dur=%.3f", totalMS))
	w.Header().Set("Server-Timing", strings.Join(st, ", "))
}

func (s *Server) degrade(meta *Meta, stage, why, fallback string) {
	meta.Degraded = append(meta.Degraded, Degraded{Stage: stage, Reason: why, Fallback: fallback})
	s.degraded.WithLabelValues(stage).Inc()
}

func reason(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "deadline exceeded"
	}
	return err.Error()
}

// round4 rounds a score for the answer. A score that is not a number (the
// cosine of a question whose vector is all zeros, e.g. a word the local embedder
// has no feature for) is 0: JSON has no NaN.
func round4(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return math.Round(f*10000) / 10000
}
