package embed

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Providers.
const (
	ProviderLocal  = "local"
	ProviderOpenAI = "openai"
	ProviderOllama = "ollama"
	ProviderTEI    = "tei"
)

// Config selects and tunes the embedder. Zero values take the defaults.
type Config struct {
	// Provider is local, openai (any OpenAI-compatible server), ollama or tei. Default local.
	Provider string `yaml:"provider"`
	// Dims is the vector size the model returns. Default 384. Checked at start.
	Dims int `yaml:"dims"`
	// WordVectors (local only) is a file of word vectors in GloVe's text format
	// whose words' vectors end each vector (NewLocalFromConfig): default
	// DefaultWordVectors, which `make setup` installs; none for the hashed
	// words alone (local-hash-v2-384; the local embedder before 2026-12-03 was
	// such, as local-hash-v1-384).
	WordVectors string `yaml:"word_vectors"`
	// BaseURL of the provider: for openai it ends in /v1 (https://api.openai.com/v1,
	// http://localhost:8000/v1 for vLLM, http://localhost:11434/v1 for Ollama's
	// OpenAI route); for ollama http://localhost:11434; for tei http://localhost:8080.
	BaseURL string `yaml:"base_url"`
	// Model names the model (openai, ollama). TEI serves one model: any name.
	Model string `yaml:"model"`
	// APIKeyEnv names the environment variable holding the API key, sent as a
	// Bearer token. Default OPENAI_API_KEY for openai, none otherwise.
	APIKeyEnv string `yaml:"api_key_env"`
	// APIKey is read from APIKeyEnv by the config loader; never in the file.
	APIKey string `yaml:"-"`
	// EncodingFormat for openai: base64 (default; a quarter of the bytes, no float
	// parsing) or float, for servers that do not support base64.
	EncodingFormat string `yaml:"encoding_format"`
	// SendDimensions sends dims in openai requests (text-embedding-3 models can shorten
	// their vectors). Default false.
	SendDimensions bool `yaml:"send_dimensions"`
	// Timeout bounds one request. Default 30s.
	Timeout time.Duration `yaml:"timeout"`
	// Concurrency is how many requests may be in flight. Default 4.
	Concurrency int `yaml:"concurrency"`
	// MaxInputs caps texts per request. Default 512 (openai), 256 (ollama), 32 (tei,
	// its default max_client_batch_size).
	MaxInputs int `yaml:"max_inputs"`
	// MaxTokens caps the estimated tokens of one request (4 bytes a token).
	// Default 100000 (OpenAI allows 300000 per request).
	MaxTokens int `yaml:"max_tokens"`
	// Linger is how long a request waits for more texts once a slot is free. Default 2ms.
	Linger time.Duration `yaml:"linger"`
	// MaxAttempts per request before the error is returned (the pipeline then backs
	// off and tries again). Default 6.
	MaxAttempts int `yaml:"max_attempts"`
	// CacheEntries is the size of the in-process vector cache, keyed by model and text
	// hash. Default 10000; -1 disables it.
	CacheEntries int `yaml:"cache_entries"`
	// BreakerFailures consecutive failed requests open the circuit breaker. Default 5.
	BreakerFailures int `yaml:"breaker_failures"`
	// BreakerCooldown is how long the breaker stays open before one probe. Default 10s.
	BreakerCooldown time.Duration `yaml:"breaker_cooldown"`
}

func (c Config) wordVectorsPath() string {
	if c.WordVectors == "" {
		return DefaultWordVectors
	}
	return c.WordVectors
}

// WithDefaults fills unset fields.
func (c Config) WithDefaults() Config {
	if c.Provider == "" {
		c.Provider = ProviderLocal
	}
	if c.Dims == 0 {
		c.Dims = LocalDimsDefault
	}
	if c.Provider == ProviderOpenAI && c.APIKeyEnv == "" {
		c.APIKeyEnv = "OPENAI_API_KEY"
	}
	if c.Provider == ProviderOpenAI && c.EncodingFormat == "" {
		c.EncodingFormat = "base64"
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.Concurrency, 4)
	switch c.Provider {
	case ProviderOpenAI:
		def(&c.MaxInputs, 512)
	case ProviderOllama:
		def(&c.MaxInputs, 256)
	default:
		def(&c.MaxInputs, 32)
	}
	def(&c.MaxTokens, 100000)
	def(&c.MaxAttempts, 6)
	def(&c.CacheEntries, 10000)
	def(&c.BreakerFailures, 5)
	if c.Timeout == 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Linger == 0 {
		c.Linger = 2 * time.Millisecond
	}
	if c.BreakerCooldown == 0 {
		c.BreakerCooldown = 10 * time.Second
	}
	return c
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	switch c.Provider {
	case ProviderLocal:
		if c.Dims < 8 || c.Dims > 16000 {
			return fmt.Errorf("dims: %d out of range [8, 16000]", c.Dims)
		}
		return nil
	case ProviderOpenAI, ProviderOllama, ProviderTEI:
		if c.WordVectors != "" {
			return fmt.Errorf("word_vectors: only for provider local, not %s", c.Provider)
		}
	default:
		return fmt.Errorf("provider: %q is not one of local, openai, ollama, tei", c.Provider)
	}
	switch {
	case c.BaseURL == "":
		return errors.New("base_url: required for provider " + c.Provider)
	case c.Model == "" && c.Provider != ProviderTEI:
		return errors.New("model: required for provider " + c.Provider)
	case c.Dims < 1 || c.Dims > 16000:
		return fmt.Errorf("dims: %d out of range [1, 16000]", c.Dims)
	case c.EncodingFormat != "" && c.EncodingFormat != "base64" && c.EncodingFormat != "float":
		return fmt.Errorf("encoding_format: %q is not one of base64, float", c.EncodingFormat)
	case c.Concurrency < 1 || c.Concurrency > 256:
		return errors.New("concurrency: must be in [1, 256]")
	case c.MaxInputs < 1 || c.MaxInputs > 4096:
		return errors.New("max_inputs: must be in [1, 4096]")
	case c.MaxTokens < 1:
		return errors.New("max_tokens: must be positive")
	case c.MaxAttempts < 1:
		return errors.New("max_attempts: must be positive")
	case c.Provider == ProviderOpenAI && c.APIKeyEnv != "" && c.APIKey == "" && isOpenAIHosted(c.BaseURL):
		return fmt.Errorf("api_key_env: %s is empty; OpenAI needs an API key", c.APIKeyEnv)
	}
	return nil
}

func isOpenAIHosted(url string) bool { return strings.Contains(url, "api.openai.com") }

// Error is a provider error that says whether retrying can help.
type Error struct {
	Status int // HTTP status, 0 for transport errors
	Msg    string
	// permanent: the provider rejected this input itself (a 4xx for one text).
	permanent bool
	retryIn   time.Duration // from Retry-After
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return "embedding provider: " + e.Msg
	}
	return fmt.Sprintf("embedding provider: HTTP %d: %s", e.Status, e.Msg)
}

// Permanent reports that no retry can succeed: the record belongs in the DLQ.
func (e *Error) Permanent() bool { return e.permanent }

// ErrBreakerOpen is returned while the provider is considered down.
var ErrBreakerOpen = errors.New("embedding provider unavailable: circuit breaker open")

// Client embeds through an HTTP provider. Texts from concurrent callers are
// gathered into shared requests (up to MaxInputs and MaxTokens), at most
// Concurrency requests are in flight, vectors are cached by (model, text hash),
// and failures are retried with backoff, honouring Retry-After. It is safe for
// concurrent use.
type Client struct {
	cfg     Config
	wire    wire
	http    *http.Client
	log     *slog.Logger
	m       *Metrics
	queue   chan *job
	slots   chan struct{}
	cache   *lru
	breaker breaker
	stop    chan struct{}
	wg      sync.WaitGroup
}

type job struct {
	text string
	key  [32]byte
	call *call
	idx  int
}

// call is one Embed invocation waiting for its texts.
type call struct {
	mu      sync.Mutex
	out     [][]float32
	errs    []error
	pending int
	done    chan struct{}
}

func (c *call) deliver(idx int, v []float32, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		if c.errs == nil {
			c.errs = make([]error, len(c.out))
		}
		c.errs[idx] = err
	}
	c.out[idx] = v
	c.pending--
	if c.pending == 0 {
		close(c.done)
	}
}

// NewClient starts a client; Close stops it.
func NewClient(cfg Config, m *Metrics, log *slog.Logger) (*Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	w, err := newWire(cfg)
	if err != nil {
		return nil, err
	}
	if m == nil {
		m = NewMetrics(nil)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// A pool sized to the request concurrency: no connection set up per request.
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        cfg.Concurrency * 2,
		MaxIdleConnsPerHost: cfg.Concurrency * 2,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	c := &Client{
		cfg: cfg, wire: w, log: log, m: m,
		http:  &http.Client{Transport: tr, Timeout: cfg.Timeout},
		queue: make(chan *job, cfg.MaxInputs*cfg.Concurrency*2),
		slots: make(chan struct{}, cfg.Concurrency),
		stop:  make(chan struct{}),
	}
	c.breaker = breaker{threshold: cfg.BreakerFailures, cooldown: cfg.BreakerCooldown, m: m, now: time.Now}
	if cfg.CacheEntries > 0 {
		c.cache = newLRU(cfg.CacheEntries)
	}
	c.wg.Add(1)
	go c.dispatch()
	return c, nil
}

// Close stops the dispatcher and waits for requests in flight.
func (c *Client) Close() {
	close(c.stop)
	c.wg.Wait()
	c.http.CloseIdleConnections()
}

// Dims returns the configured vector size.
func (c *Client) Dims() int { return c.cfg.Dims }

// Model names provider, model and size; stored vectors are comparable only within one.
func (c *Client) Model() string {
	return fmt.Sprintf("%s:%s-%d", c.cfg.Provider, c.cfg.Model, c.cfg.Dims)
}

// Check embeds a probe text and verifies the provider answers with Dims values,
// so a misconfiguration stops the service before it consumes anything.
func (c *Client) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	vecs, err := c.send(ctx, []string{"freshctx dimension check"})
	if err != nil {
		return fmt.Errorf("embedder check (%s at %s): %w", c.cfg.Provider, c.cfg.BaseURL, err)
	}
	if len(vecs[0]) != c.cfg.Dims {
		return fmt.Errorf("embedder.dims: configured %d, but %s returns %d dimensions", c.cfg.Dims, c.Model(), len(vecs[0]))
	}
	return nil
}

// Embed returns one vector per text, from the cache or from shared requests.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	cl := &call{out: make([][]float32, len(texts)), done: make(chan struct{})}
	var jobs []*job
	for i, t := range texts {
		key := sha256.Sum256([]byte(c.cfg.Model + "\x00" + t))
		if v, ok := c.cache.get(key); ok {
			c.m.CacheHits.Inc()
			cl.out[i] = v
			continue
		}
		jobs = append(jobs, &job{text: t, key: key, call: cl, idx: i})
	}
	if len(jobs) == 0 {
		return cl.out, nil
	}
	c.m.CacheMisses.Add(float64(len(jobs)))
	if err := c.breaker.allow(); err != nil {
		return nil, err
	}
	cl.pending = len(jobs)
	for _, j := range jobs {
		select {
		case c.queue <- j:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.stop:
			return nil, errors.New("embedder closed")
		}
	}
	select {
	case <-cl.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if cl.errs == nil {
		return cl.out, nil
	}
	for _, err := range cl.errs {
		var pe *Error
		if err != nil && !(errors.As(err, &pe) && pe.permanent) {
			return nil, err // transient: the caller retries the whole call
		}
	}
	return cl.out, &PartialError{Errs: cl.errs}
}

// PartialError is returned when the provider rejected some texts for good (a 4xx
// for that input) while the others were embedded: their vectors are returned
// beside it, and Errs[i] is non-nil for each rejected text.
type PartialError struct {
	Errs []error
}

func (e *PartialError) Error() string {
	n, first := 0, error(nil)
	for _, err := range e.Errs {
		if err != nil {
			if first == nil {
				first = err
			}
			n++
		}
	}
	return fmt.Sprintf("%d of %d texts rejected, first: %v", n, len(e.Errs), first)
}

// Permanent reports that retrying the call cannot help: the rejected texts stay rejected.
func (e *PartialError) Permanent() bool { return true }

// Failed returns the error of text i, or nil if it was embedded.
func (e *PartialError) Failed(i int) error { return e.Errs[i] }

// dispatch gathers queued texts into requests. It takes a request slot first and
// only then collects: while every slot is busy, texts pile up in the queue, so
// requests grow with load (cross-message batching without a fixed delay).
func (c *Client) dispatch() {
	defer c.wg.Done()
	var reqs sync.WaitGroup
	defer reqs.Wait()
	var carry *job // a text that did not fit the previous request's token budget
	for {
		first := carry
		carry = nil
		if first == nil {
			select {
			case first = <-c.queue:
			case <-c.stop:
				return
			}
		}
		select {
		case c.slots <- struct{}{}:
		case <-c.stop:
			first.call.deliver(first.idx, nil, errors.New("embedder closed"))
			return
		}
		batch := []*job{first}
		tokens := estimateTokens(first.text)
		linger := time.NewTimer(c.cfg.Linger)
	fill:
		for len(batch) < c.cfg.MaxInputs {
			select {
			case j := <-c.queue:
				t := estimateTokens(j.text)
				if tokens+t > c.cfg.MaxTokens {
					carry = j
					break fill
				}
				batch = append(batch, j)
				tokens += t
			case <-linger.C:
				break fill
			}
		}
		linger.Stop()
		reqs.Add(1)
		go func() {
			defer reqs.Done()
			defer func() { <-c.slots }()
			c.run(batch)
		}()
	}
}

func estimateTokens(s string) int { return len(s)/4 + 1 }

// run sends one request for batch with retries and delivers the results. A 4xx
// (other than 429) for a batch of several texts is bisected, so that only the
// text the provider rejects fails.
func (c *Client) run(batch []*job) {
	texts := make([]string, len(batch))
	for i, j := range batch {
		texts[i] = j.text
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-c.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	vecs, err := c.sendWithRetry(ctx, texts)
	var pe *Error
	if errors.As(err, &pe) && pe.permanent && len(batch) > 1 {
		mid := len(batch) / 2
		c.run(batch[:mid])
		c.run(batch[mid:])
		return
	}
	for i, j := range batch {
		if err != nil {
			j.call.deliver(j.idx, nil, err)
			continue
		}
		c.cache.put(j.key, vecs[i])
		j.call.deliver(j.idx, vecs[i], nil)
	}
}

func (c *Client) sendWithRetry(ctx context.Context, texts []string) ([][]float32, error) {
	backoff := 100 * time.Millisecond
	var lastErr error
	for attempt := 1; attempt <= c.cfg.MaxAttempts; attempt++ {
		vecs, err := c.send(ctx, texts)
		if err == nil {
			c.breaker.success()
			return vecs, nil
		}
		lastErr = err
		var pe *Error
		if errors.As(err, &pe) && pe.permanent {
			c.breaker.success() // the provider is up; it refused this input
			return nil, err
		}
		c.breaker.failure()
		if ctx.Err() != nil || attempt == c.cfg.MaxAttempts {
			break
		}
		wait := backoff/2 + rand.N(backoff/2+1)
		if pe != nil && pe.retryIn > 0 {
			wait = pe.retryIn
			c.m.Retries.WithLabelValues("rate_limited").Inc()
		} else {
			c.m.Retries.WithLabelValues("error").Inc()
		}
		if attempt == 1 || attempt == c.cfg.MaxAttempts-1 {
			c.log.Warn("embedding request failed; retrying", "provider", c.cfg.Provider, "texts", len(texts), "attempt", attempt, "in", wait, "err", err)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		backoff = min(backoff*2, 10*time.Second)
	}
	return nil, lastErr
}

// send makes one HTTP request.
func (c *Client) send(ctx context.Context, texts []string) ([][]float32, error) {
	req, err := c.wire.request(ctx, texts)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		c.m.Requests.WithLabelValues(c.cfg.Provider, "error").Inc()
		return nil, &Error{Msg: err.Error()}
	}
	defer res.Body.Close()
	body, err := readBody(res.Body)
	c.m.RequestSeconds.Observe(time.Since(start).Seconds())
	c.m.Requests.WithLabelValues(c.cfg.Provider, strconv.Itoa(res.StatusCode)).Inc()
	if err != nil {
		return nil, &Error{Status: res.StatusCode, Msg: "reading body: " + err.Error()}
	}
	if res.StatusCode != http.StatusOK {
		e := &Error{Status: res.StatusCode, Msg: errorMessage(body)}
		switch {
		case res.StatusCode == http.StatusTooManyRequests:
			e.retryIn = retryAfter(res.Header.Get("Retry-After"))
		case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
			e.Msg += fmt.Sprintf(" (check the API key in $%s)", c.cfg.APIKeyEnv)
		case res.StatusCode == http.StatusNotFound:
			e.Msg += " (check embedder.base_url and embedder.model)"
		case res.StatusCode == http.StatusRequestEntityTooLarge && len(texts) > 1:
			e.permanent = true // batch too large: bisect
		case res.StatusCode >= 400 && res.StatusCode < 500 && res.StatusCode != http.StatusRequestTimeout:
			e.permanent = true // the provider rejects this input
		}
		return nil, e
	}
	vecs, err := c.wire.decode(body, len(texts))
	if err != nil {
		return nil, &Error{Status: res.StatusCode, Msg: err.Error()}
	}
	c.m.Texts.Add(float64(len(texts)))
	c.m.RequestTexts.Observe(float64(len(texts)))
	return vecs, nil
}

// retryAfter parses Retry-After as seconds or an HTTP date; capped at a minute.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return min(time.Duration(s*float64(time.Second)), time.Minute)
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(time.Until(t), 0), time.Minute)
	}
	return 0
}

// breaker is a circuit breaker over consecutive request failures.
type breaker struct {
	mu        sync.Mutex
	threshold int
	cooldown  time.Duration
	failures  int
	openUntil time.Time
	probing   bool
	m         *Metrics
	now       func() time.Time
}

// Breaker states, as the freshctx_embed_breaker_state gauge shows them.
const (
	breakerClosed   = 0
	breakerOpen     = 1
	breakerHalfOpen = 2
)

func (b *breaker) allow() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failures < b.threshold {
		return nil
	}
	if b.now().Before(b.openUntil) || b.probing {
		return ErrBreakerOpen
	}
	b.probing = true // let one call through to probe the provider
	b.m.BreakerState.Set(breakerHalfOpen)
	return nil
}

func (b *breaker) success() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures, b.probing = 0, false
	b.m.BreakerState.Set(breakerClosed)
}

func (b *breaker) failure() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures++
	b.probing = false
	if b.failures >= b.threshold {
		b.openUntil = b.now().Add(b.cooldown)
		b.m.BreakerState.Set(breakerOpen)
	}
}

// Metrics are the embedding client's Prometheus metrics.
type Metrics struct {
	Requests       *prometheus.CounterVec
	Texts          prometheus.Counter
	RequestTexts   prometheus.Histogram
	RequestSeconds prometheus.Histogram
	CacheHits      prometheus.Counter
	CacheMisses    prometheus.Counter
	Retries        *prometheus.CounterVec
	BreakerState   prometheus.Gauge
}

// NewMetrics creates the metrics and registers them with reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	const ns, sub = "freshctx", "embed"
	m := &Metrics{
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "requests_total",
			Help: "Requests to the embedding provider by provider and HTTP status (error: no response)."}, []string{"provider", "code"}),
		Texts: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "texts_total", Help: "Texts embedded by the provider."}),
		RequestTexts: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "request_texts",
			Help: "Texts per successful request.", Buckets: prometheus.ExponentialBuckets(1, 2, 13)}),
		RequestSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Subsystem: sub, Name: "request_seconds",
			Help: "Request latency.", Buckets: []float64{.005, .01, .02, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}),
		CacheHits:   prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "cache_hits_total", Help: "Texts answered from the vector cache."}),
		CacheMisses: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "cache_misses_total", Help: "Texts not in the vector cache."}),
		Retries: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: sub, Name: "retries_total",
			Help: "Retried requests by reason (rate_limited: 429 with Retry-After; error)."}, []string{"reason"}),
		BreakerState: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Subsystem: sub, Name: "breaker_state",
			Help: "Circuit breaker: 0 closed, 1 open (provider considered down), 2 half-open (probing)."}),
	}
	for _, r := range []string{"rate_limited", "error"} {
		m.Retries.WithLabelValues(r) // at 0 from the first scrape
	}
	if reg != nil {
		reg.MustRegister(m.Requests, m.Texts, m.RequestTexts, m.RequestSeconds, m.CacheHits, m.CacheMisses, m.Retries, m.BreakerState)
	}
	return m
}
