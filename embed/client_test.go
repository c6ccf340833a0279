package embed

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// vecFor is the fake model: a deterministic vector per text.
func vecFor(text string, dims int) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(len(text)%7+i) / 10
	}
	return v
}

// fakeProvider serves one provider's documented request and response shapes and
// lets a test script failures.
type fakeProvider struct {
	t        *testing.T
	provider string
	dims     int
	delay    time.Duration
	// script answers request n (1-based) with a status and body instead of a
	// success; nil or a 0 status: success.
	script   func(n int, texts []string) (int, string, http.Header)
	requests atomic.Int64
	texts    atomic.Int64
	mu       sync.Mutex
	got      []map[string]any
}

func (f *fakeProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(f.requests.Add(1))
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, `{"error":"bad json"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.got = append(f.got, body)
	f.mu.Unlock()
	var texts []string
	var wantPath, field string
	switch f.provider {
	case ProviderOpenAI:
		wantPath, field = "/v1/embeddings", "input"
	case ProviderOllama:
		wantPath, field = "/api/embed", "input"
	case ProviderTEI:
		wantPath, field = "/embed", "inputs"
	}
	if r.URL.Path != wantPath || r.Method != http.MethodPost {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	for _, x := range body[field].([]any) {
		texts = append(texts, x.(string))
	}
	if f.delay > 0 {
		time.Sleep(f.delay)
	}
	if f.script != nil {
		if status, msg, h := f.script(n, texts); status != 0 {
			for k, v := range h {
				w.Header()[k] = v
			}
			w.WriteHeader(status)
			fmt.Fprint(w, msg)
			return
		}
	}
	f.texts.Add(int64(len(texts)))
	w.Header().Set("Content-Type", "application/json")
	switch f.provider {
	case ProviderOpenAI:
		var data []map[string]any
		for i, t := range texts {
			var emb any = vecFor(t, f.dims)
			if body["encoding_format"] == "base64" {
				b := make([]byte, 4*f.dims)
				for j, x := range vecFor(t, f.dims) {
					binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
				}
				emb = base64.StdEncoding.EncodeToString(b)
			}
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": emb})
		}
		// Out of order on purpose: clients must use index.
		for i, j := 0, len(data)-1; i < j; i, j = i+1, j-1 {
			data[i], data[j] = data[j], data[i]
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": body["model"],
			"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
	case ProviderOllama:
		var embs [][]float32
		for _, t := range texts {
			embs = append(embs, vecFor(t, f.dims))
		}
		json.NewEncoder(w).Encode(map[string]any{"model": body["model"], "embeddings": embs})
	case ProviderTEI:
		var embs [][]float32
		for _, t := range texts {
			embs = append(embs, vecFor(t, f.dims))
		}
		json.NewEncoder(w).Encode(embs)
	}
}

func newFake(t *testing.T, provider string, dims int) (*fakeProvider, Config) {
	f := &fakeProvider{t: t, provider: provider, dims: dims}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	base := srv.URL
	if provider == ProviderOpenAI {
		base += "/v1"
	}
	return f, Config{Provider: provider, BaseURL: base, Model: "m", Dims: dims, APIKey: "sk-test", MaxAttempts: 4}
}

func newClient(t *testing.T, cfg Config) (*Client, *Metrics) {
	t.Helper()
	m := NewMetrics(nil)
	c, err := NewClient(cfg, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, m
}

func TestProvidersContract(t *testing.T) {
	for _, provider := range []string{ProviderOpenAI, ProviderOllama, ProviderTEI} {
		t.Run(provider, func(t *testing.T) {
			f, cfg := newFake(t, provider, 8)
			c, _ := newClient(t, cfg)
			if err := c.Check(context.Background()); err != nil {
				t.Fatal(err)
			}
			texts := []string{"a", "bb", "ccc"}
			vecs, err := c.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			for i, tx := range texts {
				if fmt.Sprint(vecs[i]) != fmt.Sprint(vecFor(tx, 8)) {
					t.Errorf("vector %d = %v, want %v", i, vecs[i], vecFor(tx, 8))
				}
			}
			f.mu.Lock()
			body := f.got[len(f.got)-1]
			f.mu.Unlock()
			switch provider {
			case ProviderOpenAI:
				if body["model"] != "m" || body["encoding_format"] != "base64" {
					t.Errorf("openai request = %v", body)
				}
			case ProviderOllama:
				if body["model"] != "m" {
					t.Errorf("ollama request = %v", body)
				}
			case ProviderTEI:
				if body["normalize"] != true {
					t.Errorf("tei request = %v", body)
				}
			}
		})
	}
}

func TestOpenAIFloatFormatAndAuth(t *testing.T) {
	f, cfg := newFake(t, ProviderOpenAI, 4)
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		f.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg.BaseURL, cfg.EncodingFormat = srv.URL+"/v1", "float"
	c, _ := newClient(t, cfg)
	if _, err := c.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if auth.Load() != "Bearer sk-test" {
		t.Errorf("Authorization = %v", auth.Load())
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	f, cfg := newFake(t, ProviderOpenAI, 4)
	var first time.Time
	var second atomic.Int64
	f.script = func(n int, _ []string) (int, string, http.Header) {
		if n == 1 {
			first = time.Now()
			return 429, `{"error":{"message":"Rate limit reached","type":"requests"}}`, http.Header{"Retry-After": {"1"}}
		}
		second.Store(int64(time.Since(first)))
		return 0, "", nil
	}
	c, m := newClient(t, cfg)
	if _, err := c.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if waited := time.Duration(second.Load()); waited < 900*time.Millisecond {
		t.Errorf("retried after %v, Retry-After said 1s", waited)
	}
	if testutil.ToFloat64(m.Retries.WithLabelValues("rate_limited")) != 1 {
		t.Error("rate-limited retry not counted")
	}
}

func TestTransientErrorsAreRetried(t *testing.T) {
	for name, script := range map[string]func(int, []string) (int, string, http.Header){
		"500": func(n int, _ []string) (int, string, http.Header) { return map[bool]int{true: 500}[n < 3], "boom", nil },
		"malformed": func(n int, _ []string) (int, string, http.Header) {
			return map[bool]int{true: 200}[n < 3], "{not json", nil
		},
		"503 TEI": func(n int, _ []string) (int, string, http.Header) {
			return map[bool]int{true: 503}[n < 2], `{"error":"overloaded","error_type":"overloaded"}`, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			f, cfg := newFake(t, ProviderOpenAI, 4)
			f.script = script
			c, _ := newClient(t, cfg)
			if _, err := c.Embed(context.Background(), []string{"x"}); err != nil {
				t.Fatalf("after transient failures: %v", err)
			}
		})
	}
}

func TestSlowResponsesTimeOutAndRetry(t *testing.T) {
	f, cfg := newFake(t, ProviderOllama, 4)
	var calls atomic.Int64
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			time.Sleep(300 * time.Millisecond) // longer than the timeout
		}
		f.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	cfg.BaseURL, cfg.Timeout = slow.URL, 100*time.Millisecond
	c, _ := newClient(t, cfg)
	if _, err := c.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() < 2 {
		t.Errorf("calls = %d, want a retry after the timeout", calls.Load())
	}
}

// A 4xx for one input is that input's fault: the batch is bisected and only the
// rejected text fails, permanently; the others are embedded.
func TestRejectedInputIsIsolated(t *testing.T) {
	f, cfg := newFake(t, ProviderTEI, 4)
	f.script = func(_ int, texts []string) (int, string, http.Header) {
		for _, t := range texts {
			if strings.Contains(t, "poison") {
				return 422, `{"error":"Tokenization error","error_type":"validation"}`, nil
			}
		}
		return 0, "", nil
	}
	cfg.Linger = 50 * time.Millisecond // one request for all texts
	c, _ := newClient(t, cfg)
	texts := []string{"a", "b", "poison", "d", "e"}
	vecs, err := c.Embed(context.Background(), texts)
	var pe *PartialError
	if !errors.As(err, &pe) || !pe.Permanent() {
		t.Fatalf("err = %v, want a permanent PartialError", err)
	}
	for i := range texts {
		if (pe.Failed(i) != nil) != (i == 2) {
			t.Errorf("text %d failed = %v", i, pe.Failed(i))
		}
		if i != 2 && vecs[i] == nil {
			t.Errorf("text %d not embedded", i)
		}
	}
	if !strings.Contains(pe.Failed(2).Error(), "HTTP 422: Tokenization error") {
		t.Errorf("error = %v", pe.Failed(2))
	}
}

func TestConfigurationErrorsAreClear(t *testing.T) {
	f, cfg := newFake(t, ProviderOpenAI, 4)
	f.script = func(int, []string) (int, string, http.Header) {
		return 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`, nil
	}
	cfg.APIKeyEnv = "MY_KEY"
	c, _ := newClient(t, cfg)
	err := c.Check(context.Background())
	if err == nil || !strings.Contains(err.Error(), "HTTP 401: Incorrect API key provided (check the API key in $MY_KEY)") {
		t.Fatalf("err = %v", err)
	}
	// Wrong dimensions are caught before anything is consumed.
	_, cfg = newFake(t, ProviderOllama, 8)
	cfg.Dims = 16
	c, _ = newClient(t, cfg)
	if err := c.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "embedder.dims: configured 16, but ollama:m-16 returns 8 dimensions") {
		t.Fatalf("err = %v", err)
	}
}

// Texts from many concurrent callers share requests: with a 20 ms provider and
// four request slots, requests fill up.
func TestCrossCallerBatching(t *testing.T) {
	f, cfg := newFake(t, ProviderOpenAI, 4)
	f.delay = 20 * time.Millisecond
	c, m := newClient(t, cfg)
	var wg sync.WaitGroup
	for caller := 0; caller < 64; caller++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 10; round++ {
				texts := make([]string, 8)
				for i := range texts {
					texts[i] = fmt.Sprintf("caller %d round %d text %d", caller, round, i)
				}
				if _, err := c.Embed(context.Background(), texts); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	perRequest := float64(f.texts.Load()) / float64(f.requests.Load())
	t.Logf("%d texts in %d requests: %.1f texts per request", f.texts.Load(), f.requests.Load(), perRequest)
	if perRequest < 64 {
		t.Errorf("%.1f texts per request, want at least 64", perRequest)
	}
	if got := testutil.ToFloat64(m.Texts); got != 5120 {
		t.Errorf("texts metric = %v", got)
	}
}

func TestCacheNeverPaysTwice(t *testing.T) {
	f, cfg := newFake(t, ProviderOllama, 4)
	c, m := newClient(t, cfg)
	for i := 0; i < 3; i++ {
		if _, err := c.Embed(context.Background(), []string{"same text", "other"}); err != nil {
			t.Fatal(err)
		}
	}
	if f.texts.Load() != 2 || testutil.ToFloat64(m.CacheHits) != 4 {
		t.Errorf("provider saw %d texts, cache hits %v; want 2 and 4", f.texts.Load(), testutil.ToFloat64(m.CacheHits))
	}
}

func TestBreakerOpensAndRecovers(t *testing.T) {
	f, cfg := newFake(t, ProviderOpenAI, 4)
	var down atomic.Bool
	down.Store(true)
	f.script = func(int, []string) (int, string, http.Header) {
		if down.Load() {
			return 502, "bad gateway", nil
		}
		return 0, "", nil
	}
	cfg.MaxAttempts, cfg.BreakerFailures, cfg.BreakerCooldown = 1, 3, 200*time.Millisecond
	c, m := newClient(t, cfg)
	for i := 0; i < 3; i++ {
		if _, err := c.Embed(context.Background(), []string{fmt.Sprint(i)}); err == nil {
			t.Fatal("want an error while the provider is down")
		}
	}
	before := f.requests.Load()
	if _, err := c.Embed(context.Background(), []string{"x"}); !errors.Is(err, ErrBreakerOpen) {
		t.Fatalf("err = %v, want ErrBreakerOpen", err)
	}
	if f.requests.Load() != before || testutil.ToFloat64(m.BreakerState) != breakerOpen {
		t.Fatal("an open breaker must not call the provider")
	}
	down.Store(false)
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := c.Embed(context.Background(), []string{"y"})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("breaker did not recover: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if testutil.ToFloat64(m.BreakerState) != breakerClosed {
		t.Error("breaker not closed after a successful probe")
	}
}

func TestRetryAfterParsing(t *testing.T) {
	if d := retryAfter("2"); d != 2*time.Second {
		t.Errorf("2 → %v", d)
	}
	if d := retryAfter(time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)); d < 1*time.Second || d > 3*time.Second {
		t.Errorf("date → %v", d)
	}
	if d := retryAfter("3600"); d != time.Minute {
		t.Errorf("capped: %v", d)
	}
}
