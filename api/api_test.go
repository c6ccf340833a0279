package api

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/store"
)

// fakeStore and fakeCache stand in for the backends where a test must make them
// fail or run late; the real ones are exercised in the end-to-end test.
type fakeStore struct {
	events []store.Event
	err    error
	delay  time.Duration
}

func (f *fakeStore) Recent(ctx context.Context, tenant, entity string, since time.Time, limit int) ([]store.Event, error) {
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.err != nil {
		return nil, f.err
	}
	var out []store.Event
	for _, e := range f.events {
		if e.Tenant == tenant && e.Entity == entity && !e.Time.Before(since) {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Time.After(out[j].Time) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
func (f *fakeStore) Ping(context.Context) error { return f.err }

type fakeCache struct {
	fakeStore
	complete bool
}

func (f *fakeCache) Recent(ctx context.Context, tenant, entity string, since time.Time, limit int) ([]store.Event, bool, error) {
	evs, err := f.fakeStore.Recent(ctx, tenant, entity, since, limit)
	return evs, f.complete, err
}

type slowEmbedder struct {
	*embed.Local
	delay time.Duration
}

func (s slowEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	select {
	case <-time.After(s.delay):
		return s.Local.Embed(ctx, texts)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func demoEvents(t *testing.T, now time.Time) []store.Event {
	t.Helper()
	l, _ := embed.NewLocal(384)
	texts := []struct {
		key, text string
		age       time.Duration
	}{
		{"1", "Order O-1 shipped with DHL", time.Minute},
		{"2", "Refund R-1 approved: 49.90 EUR back to the card", 5 * time.Minute},
		{"3", "Ticket T-1 [open] Refund not received", 8 * time.Minute},
		{"4", "Newsletter subscription confirmed", 2 * time.Minute},
	}
	var out []store.Event
	for _, x := range texts {
		v, _ := l.Embed(context.Background(), []string{x.text})
		out = append(out, store.Event{Source: "s", Key: x.key, ID: x.key, Tenant: "acme", Entity: "customer:1",
			Time: now.Add(-x.age), Text: x.text, Embedding: v[0]})
	}
	return out
}

func newTestServer(t *testing.T, emb Embedder, st store.Reader, c Cache) *Server {
	t.Helper()
	cfg := Config{Tenant: "acme", Auth: Auth{Mode: AuthNone}}.WithDefaults()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if c == nil {
		return New(cfg, emb, st, nil, nil, nil)
	}
	return New(cfg, emb, st, c, nil, nil)
}

func get(t *testing.T, s *Server, q url.Values) (*httptest.ResponseRecorder, ContextResponse) {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/context?"+q.Encode(), nil))
	var resp ContextResponse
	if rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
			t.Fatal(err)
		}
	}
	return rec, resp
}

func TestContextRanksForTheQuestion(t *testing.T) {
	now := time.Now()
	l, _ := embed.NewLocal(384)
	s := newTestServer(t, l, &fakeStore{events: demoEvents(t, now)}, nil)
	rec, resp := get(t, s, url.Values{"entity": {"customer:1"}, "q": {"where is my refund?"}, "k": {"2"}})
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if len(resp.Events) != 2 || !strings.Contains(resp.Events[0].Text, "Refund") || !strings.Contains(resp.Events[1].Text, "Refund") {
		t.Fatalf("top 2 for a refund question: %+v", resp.Events)
	}
	if resp.Meta.Ranking != "hybrid" || resp.Meta.ServedFrom != "store" || resp.Meta.Candidates != 4 {
		t.Errorf("meta = %+v", resp.Meta)
	}
	if resp.Meta.NewestEventAgeMS == nil || *resp.Meta.NewestEventAgeMS < 59000 {
		t.Errorf("newest event age = %v, want about 60000 ms", resp.Meta.NewestEventAgeMS)
	}
	if st := rec.Header().Get("Server-Timing"); !strings.Contains(st, "store;dur=") || !strings.Contains(st, "embed;dur=") || !strings.Contains(st, "total;dur=") {
		t.Errorf("Server-Timing = %q", st)
	}
	// The rendered context lists the chosen events newest first, naming source and id.
	if i, j := strings.Index(resp.Context, "s 2:"), strings.Index(resp.Context, "s 3:"); i < 0 || j < 0 || i > j {
		t.Errorf("context not newest first:\n%s", resp.Context)
	}
	// Without a question: newest first.
	_, resp = get(t, s, url.Values{"entity": {"customer:1"}})
	if resp.Meta.Ranking != "recency" || resp.Events[0].Key != "1" || resp.Events[1].Key != "4" {
		t.Errorf("no question: %+v", resp.Events)
	}
}

// A question sent as the customer typed it into the chat ("Hi! … Thanks!",
// 请问 …) is ranked as the question alone: the courtesies are neither
// analysed nor embedded.
func TestCourtesiesRankAsTheQuestionAlone(t *testing.T) {
	now := time.Now()
	l, _ := embed.NewLocal(384)
	s := newTestServer(t, l, &fakeStore{events: demoEvents(t, now)}, nil)
	_, bare := get(t, s, url.Values{"entity": {"customer:1"}, "q": {"where is my refund?"}, "knowledge": {"false"}})
	_, chat := get(t, s, url.Values{"entity": {"customer:1"}, "q": {"Hi there! Quick question: where is my refund? Thanks!"}, "knowledge": {"false"}})
	if len(bare.Events) == 0 || len(chat.Events) != len(bare.Events) {
		t.Fatalf("events: %+v against %+v", chat.Events, bare.Events)
	}
	const tolerance = 0.001 // (the two requests' clocks differ: recency moves a little)
	for i := range bare.Events {
		if chat.Events[i].Key != bare.Events[i].Key || math.Abs(chat.Events[i].Score-bare.Events[i].Score) > tolerance {
			t.Errorf("event %d: %s %.6f, want %s %.6f", i, chat.Events[i].Key, chat.Events[i].Score, bare.Events[i].Key, bare.Events[i].Score)
		}
	}
}

// The entity path ranks exactly: the same order as scoring every event by brute force.
func TestRankMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	now := time.Now()
	var events []store.Event
	for i := 0; i < 500; i++ {
		v := make([]float32, 16)
		var n float32
		for j := range v {
			v[j] = rng.Float32() - 0.5
			n += v[j] * v[j]
		}
		events = append(events, store.Event{Source: "s", Key: string(rune('a'+i%26)) + string(rune(i)), Time: now.Add(-time.Duration(rng.IntN(900)) * time.Second), Embedding: v})
	}
	q := events[0].Embedding
	s := newTestServer(t, nil, &fakeStore{}, nil)
	s.cfg.HalfLife = 10 * time.Minute
	got, _ := s.rank(events, "q", q, nil, now, RankSimilarity, 20)
	// Brute force, written out from the documented formula.
	best := 0.0
	for _, e := range events {
		best = math.Max(best, relevance.Cosine(q, e.Embedding))
	}
	var all []float64
	for _, e := range events {
		rel := math.Max(0, relevance.Cosine(q, e.Embedding)) / best
		all = append(all, 0.7*rel+0.3*math.Exp2(-now.Sub(e.Time).Seconds()/600))
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(all)))
	for k := 0; k < 20; k++ {
		if math.Abs(got[k].Score-all[k]) > 1e-12 {
			t.Fatalf("rank %d: score %v, brute force %v", k, got[k].Score, all[k])
		}
	}
	// Deterministic: shuffled input, same output.
	shuffled := append([]store.Event(nil), events...)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	again, _ := s.rank(shuffled, "q", q, nil, now, RankSimilarity, 20)
	for k := range got {
		if got[k].Key != again[k].Key {
			t.Fatalf("order depends on input order at %d", k)
		}
	}
}

// ranking=similarity is the formula before hybrid whatever the question and
// the events say: no reading of a question's shape (a newer value, a
// headcount, a result, a cause found) changes a score.
func TestSimilarityRankingReadsNoQuestionShape(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	now := time.Now()
	texts := []string{"Table TB-5521 booked: Friday 19:30, 4 people", "TB-5521 changed to 6 people", "TB-5521 deposit 50 EUR paid",
		"TJ-8801 体检 完成，报告 3 个 工作日 出", "TJ-8801 报告 已 出：尿酸 偏高", "7708 报障：晚上 经常 断网", "7708 检修：路由器 过热，已 更换",
		"Job EL-8830 invoice 165 EUR: labour 120 EUR, parts 45 EUR"}
	var events []store.Event
	for i, text := range texts {
		v := make([]float32, 16)
		for j := range v {
			v[j] = rng.Float32() - 0.5
		}
		events = append(events, store.Event{Source: "s", Key: text, Text: text, Time: now.Add(-time.Duration(5+7*i) * time.Minute), Embedding: v})
	}
	s := newTestServer(t, nil, &fakeStore{}, nil)
	s.cfg.HalfLife = 10 * time.Minute
	q := events[0].Embedding
	best := 0.0
	for _, e := range events {
		best = math.Max(best, relevance.Cosine(q, e.Embedding))
	}
	for _, question := range []string{"how many people is tb5521 for?", "TJ8801 体检 结果 怎么样？", "KD22317708 为什么 断网？", "why is EL-8830 165?"} {
		got, _ := s.rank(events, question, q, nil, now, RankSimilarity, len(events))
		for _, g := range got {
			want := 0.7*math.Max(0, relevance.Cosine(q, g.Embedding))/best + 0.3*math.Exp2(-now.Sub(g.Time).Seconds()/600)
			if math.Abs(g.Score-want) > 1e-12 {
				t.Errorf("%q: %q scores %v, the formula %v", question, g.Text, g.Score, want)
			}
		}
	}
}

func TestDegradationLadder(t *testing.T) {
	now := time.Now()
	events := demoEvents(t, now)
	l, _ := embed.NewLocal(384)
	q := url.Values{"entity": {"customer:1"}, "q": {"refund"}, "budget_ms": {"40"}}

	t.Run("late embedding ranks by words, identifiers and recency", func(t *testing.T) {
		s := newTestServer(t, slowEmbedder{l, time.Second}, &fakeStore{events: events}, nil)
		relevance.LoadLexicons() // what contextapi loads at start (WarmUpInBackground), not this answer's time
		start := time.Now()
		rec, resp := get(t, s, q)
		if rec.Code != http.StatusOK || resp.Meta.Ranking != "hybrid-lexical" || len(resp.Meta.Degraded) != 1 || resp.Meta.Degraded[0].Stage != "embed" ||
			!strings.Contains(resp.Events[0].Text, "Refund") {
			t.Fatalf("%d %+v", rec.Code, resp.Meta)
		}
		if took := time.Since(start); took > 500*time.Millisecond {
			t.Errorf("answer took %v with a 40 ms budget", took)
		}
	})
	t.Run("cache down reads the store", func(t *testing.T) {
		s := newTestServer(t, l, &fakeStore{events: events}, &fakeCache{fakeStore: fakeStore{err: errors.New("connection refused")}})
		rec, resp := get(t, s, q)
		if rec.Code != http.StatusOK || resp.Meta.ServedFrom != "store" || len(resp.Events) != 4 || resp.Meta.Degraded[0].Stage != "cache" {
			t.Fatalf("%d %+v", rec.Code, resp.Meta)
		}
	})
	t.Run("complete cache answers alone", func(t *testing.T) {
		s := newTestServer(t, l, &fakeStore{err: errors.New("must not be called")}, &fakeCache{fakeStore: fakeStore{events: events}, complete: true})
		rec, resp := get(t, s, q)
		if rec.Code != http.StatusOK || resp.Meta.ServedFrom != "cache" || len(resp.Meta.Degraded) != 0 {
			t.Fatalf("%d %+v", rec.Code, resp.Meta)
		}
	})
	t.Run("store late after a partial cache serves the partial answer", func(t *testing.T) {
		s := newTestServer(t, l, &fakeStore{events: events, delay: time.Second}, &fakeCache{fakeStore: fakeStore{events: events[:2]}})
		rec, resp := get(t, s, q)
		if rec.Code != http.StatusOK || resp.Meta.ServedFrom != "partial_cache" || len(resp.Events) != 2 {
			t.Fatalf("%d %+v", rec.Code, resp.Meta)
		}
	})
	t.Run("nothing answers: 503", func(t *testing.T) {
		s := newTestServer(t, l, &fakeStore{err: errors.New("down")}, nil)
		rec, _ := get(t, s, q)
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"code":"unavailable"`) {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
	})
}

func TestContextValidation(t *testing.T) {
	l, _ := embed.NewLocal(384)
	s := newTestServer(t, l, &fakeStore{}, nil)
	for _, tc := range []struct {
		q     url.Values
		field string
	}{
		{url.Values{}, "entity"},
		{url.Values{"entity": {strings.Repeat("x", 300)}}, "entity"},
		{url.Values{"entity": {"c:1"}, "window": {"yesterday"}}, "window"},
		{url.Values{"entity": {"c:1"}, "window": {"48h"}}, "window"},
		{url.Values{"entity": {"c:1"}, "k": {"0"}}, "k"},
		{url.Values{"entity": {"c:1"}, "k": {"ten"}}, "k"},
		{url.Values{"entity": {"c:1"}, "k": {"101"}}, "k"},
		{url.Values{"entity": {"c:1"}, "budget_ms": {"-1"}}, "budget_ms"},
		{url.Values{"entity": {"c:1"}, "max_tokens": {"999999"}}, "max_tokens"},
		{url.Values{"entity": {"c:1"}, "q": {strings.Repeat("é", 2001)}}, "q"},
	} {
		rec, _ := get(t, s, tc.q)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"message":"`+tc.field) {
			t.Errorf("%v: %d %s; want 400 naming %s", tc.q, rec.Code, rec.Body, tc.field)
		}
	}
	// POST with JSON, unknown fields and oversize bodies.
	post := func(body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/context", strings.NewReader(body)))
		return rec
	}
	if rec := post(`{"entity":"customer:1","q":"refund","k":3}`); rec.Code != http.StatusOK {
		t.Errorf("POST: %d %s", rec.Code, rec.Body)
	}
	if rec := post(`{"entity":"customer:1","tenant":"other"}`); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "tenant") {
		t.Errorf("unknown field: %d %s", rec.Code, rec.Body)
	}
	if rec := post(`{"entity":"` + strings.Repeat("x", 70000) + `"}`); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversize body: %d", rec.Code)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v2/nothing", nil))
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"code":"not_found"`) {
		t.Errorf("unknown route: %d %s", rec.Code, rec.Body)
	}
}

func TestRenderRespectsTokenBudget(t *testing.T) {
	now := time.Now()
	var evs []Scored
	for i := 0; i < 50; i++ {
		evs = append(evs, Scored{Event: store.Event{Source: "chat", ID: "m", Time: now.Add(-time.Duration(i) * time.Minute),
			Text: strings.Repeat("refund status update ", 5)}})
	}
	text, tokens, omitted, _ := renderContext("customer:1", evs, nil, now, 200)
	if tokens > 200 || estimateTokens(text) > 200 || omitted == 0 {
		t.Fatalf("tokens %d (est. %d), omitted %d", tokens, estimateTokens(text), omitted)
	}
	if !strings.Contains(text, "older events omitted") {
		t.Errorf("cut not marked:\n%s", text)
	}
	// CJK counts a token per character.
	if got := estimateTokens("退款已批准"); got != 5 {
		t.Errorf("estimateTokens(CJK) = %d, want 5", got)
	}
	if got := estimateTokens("where is my refund"); got != 5 {
		t.Errorf("estimateTokens(English) = %d, want 5", got)
	}
}

func TestReady(t *testing.T) {
	l, _ := embed.NewLocal(384)
	s := newTestServer(t, l, &fakeStore{}, &fakeCache{fakeStore: fakeStore{err: errors.New("down")}})
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "answers fall back to postgres") {
		t.Errorf("cache down: %d %s", rec.Code, rec.Body)
	}
	s = newTestServer(t, l, &fakeStore{err: errors.New("down")}, nil)
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("store down: %d %s", rec.Code, rec.Body)
	}
}

// Dashboards and rate() alerts need every series before its first event: the
// degradation counters and stage histograms exist, at 0, on the first scrape.
func TestMetricsExistFromTheFirstScrape(t *testing.T) {
	l, _ := embed.NewLocal(64)
	s := newTestServer(t, l, &fakeStore{}, nil)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body := rec.Body.String()
	for _, st := range degradableStages {
		if want := `freshctx_api_degraded_total{stage="` + st + `"} 0`; !strings.Contains(body, want) {
			t.Errorf("first scrape lacks %s", want)
		}
	}
	for _, st := range stages {
		if want := `freshctx_api_stage_seconds_count{stage="` + st + `"} 0`; !strings.Contains(body, want) {
			t.Errorf("first scrape lacks %s", want)
		}
	}
}

// knowledgeStore is fakeStore with a knowledge search that counts its calls.
type knowledgeStore struct {
	fakeStore
	searches int
	last     store.SearchQuery
}

func (k *knowledgeStore) Search(ctx context.Context, q store.SearchQuery) ([]store.Hit, store.SearchInfo, error) {
	k.searches++
	k.last = q
	return []store.Hit{{Source: "kb", DocID: "KB-1", Text: "Refunds take 3-5 days.", Score: 0.5}}, store.SearchInfo{}, nil
}

// A knowledge search looks for the question's words in their other spelling
// too ("colour" for an article on a color, "centre" for one on a center; a
// Traditional question's Simplified characters), as it does for their
// translations: the full-text side keeps each spelling apart.
func TestKnowledgeLooksForTheOtherSpelling(t *testing.T) {
	l, _ := embed.NewLocal(384)
	st := &knowledgeStore{fakeStore: fakeStore{events: demoEvents(t, time.Now())}}
	s := newTestServer(t, l, st, nil)
	get(t, s, url.Values{"entity": {"customer:1"}, "q": {"Hi! which colour does the service centre stock?"}})
	if st.searches != 1 || st.last.Text != "which colour does the service centre stock?" ||
		!slices.Contains(st.last.Also, "color") || !slices.Contains(st.last.Also, "center") {
		t.Errorf("searched %d times for %q, also %q", st.searches, st.last.Text, st.last.Also)
	}
	get(t, s, url.Values{"entity": {"customer:1"}, "q": {"退款多久到賬？"}}) // (Traditional: 賬)
	if !slices.Contains(st.last.Also, "退款多久到账？") {
		t.Errorf("a Traditional question also looks for its Simplified words: %q", st.last.Also)
	}
}

// The documented "off" values of the ranking knobs are off: knowledge_k 0 adds no
// knowledge (and asks the store for none), similarity_weight 0 ranks by recency
// alone; left unset they take their defaults.
func TestOffValuesOfTheAPI(t *testing.T) {
	now := time.Now()
	l, _ := embed.NewLocal(384)
	ask := func(cfg Config) (ContextResponse, int) {
		st := &knowledgeStore{fakeStore: fakeStore{events: demoEvents(t, now)}}
		s := New(cfg.WithDefaults(), l, st, nil, nil, nil)
		_, resp := get(t, s, url.Values{"entity": {"customer:1"}, "q": {"where is my refund?"}})
		return resp, st.searches
	}
	base := Config{Tenant: "acme", Auth: Auth{Mode: AuthNone}}
	on, searches := ask(base)
	if len(on.Documents) != 1 || searches != 1 || on.Meta.Ranking != "hybrid" || on.Events[0].Key == "1" {
		t.Fatalf("defaults: %d documents, %d searches, ranking %s, first %s", len(on.Documents), searches, on.Meta.Ranking, on.Events[0].Key)
	}
	off := base
	off.KnowledgeK, off.SimilarityWeight = Ptr(0), Ptr(0.0)
	got, searches := ask(off)
	if len(got.Documents) != 0 || searches != 0 {
		t.Errorf("knowledge_k 0: %d documents, %d searches; want none", len(got.Documents), searches)
	}
	var keys []string
	for _, e := range got.Events {
		keys = append(keys, e.Key)
	}
	if strings.Join(keys, ",") != "1,4,2,3" {
		t.Errorf("similarity_weight 0: order %v, want newest first (1,4,2,3)", keys)
	}
}

// statsCache is a cache that also serves BM25's corpus statistics.
type statsCache struct {
	fakeCache
	calls int
}

func (s *statsCache) TermStats(ctx context.Context, tenant string, sources, terms []string) (map[string]relevance.SourceStats, error) {
	s.calls++
	return map[string]relevance.SourceStats{"s": {N: 1000, AvgLen: 6, DF: map[string]float64{"refund": 10}}}, nil
}

// The tenant's source statistics are read (once per question) only when
// api.corpus_idf gives them a share.
func TestCorpusStatisticsOnlyWhenAsked(t *testing.T) {
	now := time.Now()
	l, _ := embed.NewLocal(384)
	for _, share := range []float64{0, 0.5} {
		c := &statsCache{fakeCache: fakeCache{fakeStore: fakeStore{events: demoEvents(t, now)}, complete: true}}
		cfg := Config{Tenant: "acme", Auth: Auth{Mode: AuthNone}, CorpusIDF: share}.WithDefaults()
		s := New(cfg, l, &fakeStore{}, c, nil, nil)
		rec, resp := get(t, s, url.Values{"entity": {"customer:1"}, "q": {"where is my refund?"}})
		want := 0
		if share > 0 {
			want = 1
		}
		if rec.Code != http.StatusOK || c.calls != want || !strings.Contains(resp.Events[0].Text, "Refund") {
			t.Fatalf("corpus_idf %v: %d statistics reads, want %d; first %q", share, c.calls, want, resp.Events[0].Text)
		}
	}
}

// A score that is not a number (the cosine of an all-zero question vector) is
// sent as 0, and an answer that cannot be encoded is a 500 with a body, never a
// 200 with an empty one.
func TestScoresThatAreNotNumbers(t *testing.T) {
	if round4(math.NaN()) != 0 || round4(math.Inf(1)) != 0 || round4(0.123456) != 0.1235 {
		t.Errorf("round4: NaN %v, +Inf %v, 0.123456 %v", round4(math.NaN()), round4(math.Inf(1)), round4(0.123456))
	}
	rec := httptest.NewRecorder()
	writeJSON(rec, http.StatusOK, map[string]float64{"score": math.NaN()})
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), `"code":"internal"`) {
		t.Errorf("unencodable answer: %d %q", rec.Code, rec.Body.String())
	}
}

// api.vector_share moves hybrid's relevance between BM25 and the vectors: at 0
// an event that shares the question's word but not its vector outranks one with
// the nearer vector and no shared word; at 1 the order turns.
func TestVectorShare(t *testing.T) {
	now := time.Now()
	q := []float32{1, 0}
	events := []store.Event{
		{Source: "s", Key: "words", ID: "words", Tenant: "acme", Entity: "customer:1", Time: now.Add(-2 * time.Minute), Text: "Refund approved", Embedding: []float32{0, 1}},
		{Source: "s", Key: "vector", ID: "vector", Tenant: "acme", Entity: "customer:1", Time: now.Add(-2 * time.Minute), Text: "Money on its way back", Embedding: []float32{1, 0}},
	}
	for _, c := range []struct {
		share float64
		first string
	}{{0, "words"}, {1, "vector"}} {
		share := c.share
		cfg := Config{Tenant: "acme", Auth: Auth{Mode: AuthNone}, VectorShare: &share}.WithDefaults()
		s := New(cfg, fixedEmbedder{q}, &fakeStore{}, &fakeCache{fakeStore: fakeStore{events: events}, complete: true}, nil, nil)
		rec, resp := get(t, s, url.Values{"entity": {"customer:1"}, "q": {"where is my refund?"}, "knowledge": {"false"}})
		if rec.Code != http.StatusOK || len(resp.Events) != 2 || resp.Events[0].ID != c.first {
			t.Errorf("vector_share %v: %d %+v, want %s first", share, rec.Code, resp.Events, c.first)
		}
	}
	bad := 1.5
	if err := (Config{Tenant: "acme", Auth: Auth{Mode: AuthNone}, VectorShare: &bad}.WithDefaults()).Validate(); err == nil || !strings.Contains(err.Error(), "vector_share") {
		t.Errorf("vector_share 1.5: %v, want an error naming vector_share", err)
	}
}

// api.thesaurus: the built-in thesaurus finds "Refund approved" for "did I
// get my money back?", which shares no word with it; a thesaurus of one's own
// replaces it (an ordering it names comes first); [] turns expansion off.
func TestThesaurus(t *testing.T) {
	now := time.Now()
	events := []store.Event{
		{Source: "s", Key: "refund", ID: "refund", Tenant: "acme", Entity: "customer:1", Time: now.Add(-9 * time.Minute), Text: "Refund approved: 20.00 EUR"},
		{Source: "s", Key: "login", ID: "login", Tenant: "acme", Entity: "customer:1", Time: now.Add(-1 * time.Minute), Text: "Signed in from the mobile app"},
	}
	own := filepath.Join(t.TempDir(), "ours.txt")
	if err := os.WriteFile(own, []byte("money back => sign\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		thesaurus []string
		first     string
	}{{nil, "refund"}, {[]string{relevance.Builtin}, "refund"}, {[]string{own}, "login"}, {[]string{}, "login"}} {
		cfg := Config{Tenant: "acme", Auth: Auth{Mode: AuthNone}, Thesaurus: c.thesaurus}.WithDefaults()
		if err := cfg.LoadThesaurus(); err != nil {
			t.Fatal(err)
		}
		s := New(cfg, fixedEmbedder{[]float32{1, 0}}, &fakeStore{}, &fakeCache{fakeStore: fakeStore{events: events}, complete: true}, nil, nil)
		rec, resp := get(t, s, url.Values{"entity": {"customer:1"}, "q": {"did I get my money back?"}, "knowledge": {"false"}, "explain": {"true"}})
		if rec.Code != http.StatusOK || len(resp.Events) != 2 || resp.Events[0].ID != c.first {
			t.Errorf("thesaurus %v: %d %+v, want %s first", c.thesaurus, rec.Code, resp.Events, c.first)
		}
	}
}

// fixedEmbedder embeds every text as the same vector.
type fixedEmbedder struct{ v []float32 }

func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = f.v
	}
	return out, nil
}

// explain=true gives every component with at most four decimals, thread and
// identifier included (a refund inherits from its order's story here, and an
// event naming one of the question's three identifiers matches a third).
func TestExplainComponentsAreRounded(t *testing.T) {
	now := time.Now()
	l, _ := embed.NewLocal(384)
	evs := demoEvents(t, now)
	evs[0].Text, evs[0].Time = "Order O-1001 placed: running shoes, size 42", now.Add(-12*time.Minute)
	evs[1].Text = "Refund for O-1001 approved: 49.90 EUR back to the card"
	evs[2].Text = "Ticket T-1001 [open] Refund not received"
	for i := range evs {
		// (source, key, version) names a text: these are other texts than
		// demoEvents' under the same keys, so they are other versions.
		evs[i].Version = 2
	}
	s := newTestServer(t, l, &fakeStore{events: evs}, nil)
	rec, resp := get(t, s, url.Values{"entity": {"customer:1"}, "q": {"what about my running shoes? O-1001, T-1001 or R-1001"}, "explain": {"true"}})
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	threads, partial := 0, 0
	for _, e := range resp.Events {
		c := e.Explain
		if c == nil {
			t.Fatalf("no explain on %s", e.Key)
		}
		for name, v := range map[string]float64{"similarity": c.Similarity, "lexical": c.Lexical, "identifier": c.Identifier,
			"recency": c.Recency, "source": c.Source, "thread": c.Thread, "change": c.Change} {
			if math.Abs(v*1e4-math.Round(v*1e4)) > 1e-6 {
				t.Errorf("%s: %s %v has more than four decimals", e.Key, name, v)
			}
		}
		if c.Thread > 0 {
			threads++
		}
		if c.Identifier > 0 && c.Identifier < 1 {
			partial++
		}
	}
	if threads == 0 || partial == 0 {
		for _, e := range resp.Events {
			t.Logf("%s %q %+v", e.Key, e.Text, *e.Explain)
		}
		t.Fatalf("the case should exercise a thread (%d) and a partial identifier match (%d)", threads, partial)
	}
}

// explain=true shows the whole computation: meta.fusion's weights with each
// event's components give its score (to the four decimals they are rounded
// to), and say why the shares are what they are; without explain there is no
// fusion.
func TestExplainGivesTheScore(t *testing.T) {
	now := time.Now()
	l, _ := embed.NewLocal(384)
	events := demoEvents(t, now)
	moved := "Delivery address changed to Elm Street 4"
	v, _ := l.Embed(context.Background(), []string{moved})
	events = append(events, store.Event{Source: "s", Key: "5", ID: "5", Tenant: "acme", Entity: "customer:1",
		Time: now.Add(-3 * time.Minute), Text: moved, Embedding: v[0]})
	s := newTestServer(t, l, &fakeStore{events: events}, nil)
	for _, q := range []string{"where is my refund?", "what did I just change?", "how much was the refund?", "where does my delivery go now?"} {
		rec, resp := get(t, s, url.Values{"entity": {"customer:1"}, "q": {q}, "knowledge": {"false"}, "explain": {"true"}})
		f := resp.Meta.Fusion
		if rec.Code != http.StatusOK || f == nil || f.Lexical == 0 || f.Recency == 0 {
			t.Fatalf("%q: status %d, meta.fusion %+v", q, rec.Code, f)
		}
		if now := strings.Contains(q, "now"); f.AsksNewest != (strings.Contains(q, "just") || now) || f.AsksNow != now {
			t.Errorf("%q: asks_newest %v, asks_now %v", q, f.AsksNewest, f.AsksNow)
		}
		if strings.HasPrefix(q, "how much") != slices.Contains(f.Asks, "amount") {
			t.Errorf("%q: asks %v", q, f.Asks)
		}
		if strings.Contains(q, "refund") && !slices.Contains(f.Expanded, "reimburs") {
			t.Errorf("%q: expanded %v, want the thesaurus's reimbursement (stemmed) among them", q, f.Expanded)
		}
		changes := 0
		for _, e := range resp.Events {
			c := e.Explain
			if c.Change > 0 {
				changes++
			}
			rel := c.Source * (f.Similarity*c.Similarity + f.Lexical*c.Lexical) / (f.Similarity + f.Lexical)
			got := (1-f.Recency)*(1+f.Change*c.Change)*max(rel, c.Thread) + c.Source*(f.Recency*c.Recency+f.Identifier*c.Identifier)
			if math.Abs(got-e.Score) > 2e-3 {
				t.Errorf("%q, %q: explain and meta.fusion give %.4f, the score is %.4f", q, e.Text, got, e.Score)
			}
		}
		// "Delivery address changed" says a change, which a
		// question asking for the newest weighs change_weight more
		// (a question asking what something is now, ChangedNow's more)
		if f.AsksNewest && (f.Change == 0 || changes == 0) || f.AsksNow && f.Change <= relevance.DefaultWeights.Changed {
			t.Errorf("%q: change_weight %v, %d events saying a change", q, f.Change, changes)
		}
	}
	if _, resp := get(t, s, url.Values{"entity": {"customer:1"}, "q": {"where is my refund?"}, "knowledge": {"false"}}); resp.Meta.Fusion != nil {
		t.Errorf("meta.fusion without explain: %+v", resp.Meta.Fusion)
	}
}

// A message of several sentences is ranked by the sentences that ask: it
// ranks its events as the question alone does, and explain=true shows what
// was taken as the question and what as context.
func TestAMessageIsRankedByWhatItAsks(t *testing.T) {
	now := time.Now()
	l, _ := embed.NewLocal(384)
	s := newTestServer(t, l, &fakeStore{events: demoEvents(t, now)}, nil)
	order := func(q string) ([]string, *relevance.Fusion) {
		rec, resp := get(t, s, url.Values{"entity": {"customer:1"}, "q": {q}, "knowledge": {"false"}, "explain": {"true"}})
		if rec.Code != http.StatusOK {
			t.Fatalf("%q: status %d", q, rec.Code)
		}
		var ids []string
		for _, e := range resp.Events {
			ids = append(ids, e.ID)
		}
		return ids, resp.Meta.Fusion
	}
	alone, _ := order("where is my refund?")
	got, f := order("Hi, I am at work right now and a bit worried. Where is my refund?")
	if !slices.Equal(got, alone) {
		t.Errorf("with context: %v; the question alone: %v", got, alone)
	}
	if f == nil || f.Question != "Where is my refund?" || f.Context != "I am at work right now and a bit worried." {
		t.Errorf("meta.fusion question %q, context %q", f.Question, f.Context)
	}
}

// await takes a value that is already there even when the context has ended
// (a knowledge search that finished in time, then ranking ran past the
// deadline), and gives up on one that is not.
func TestAwaitPrefersAReadyValue(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 1000 { // select alone would pick the ended context about half the time
		ch := make(chan int, 1)
		ch <- 7
		if v, ok := await(ctx, ch); !ok || v != 7 {
			t.Fatalf("a ready value: %d, %v", v, ok)
		}
	}
	if _, ok := await(ctx, make(chan int)); ok {
		t.Fatal("nothing to take and the context ended: want no value")
	}
}
