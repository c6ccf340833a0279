// Package client is the Go client of freshctx's context API: typed requests and
// answers (the API's own types, which a test keeps in step with
// api/openapi.yaml), the caller's deadline turned into the request's latency
// budget, retries with backoff on 503 and 429 that honour Retry-After, and
// errors that carry the API's code and message.
//
//	c := client.New("http://127.0.0.1:8080", client.WithAPIKey(os.Getenv("FRESHCTX_KEY")))
//	ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
//	defer cancel()
//	ans, err := c.Context(ctx, client.ContextRequest{Entity: "customer:42", Q: "where is my refund?"})
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/kafkaio"
)

// The API's types, re-exported: what a request takes and an answer holds.
type (
	ContextRequest   = api.ContextRequest
	ContextResponse  = api.ContextResponse
	SearchRequest    = api.SearchRequest
	SearchResponse   = api.SearchResponse
	TimelineResponse = api.TimelineResponse
	MemoryResponse   = api.MemoryResponse
	StatusResponse   = api.StatusResponse
	LatestRecord     = kafkaio.Latest
)

// LatestResponse is the answer of Latest: the newest records of a topic
// partition, oldest first.
type LatestResponse struct {
	Topic     string         `json:"topic"`
	Partition int            `json:"partition"`
	Records   []LatestRecord `json:"records"`
}

// Client calls one freshctx context API. Its methods are safe for concurrent use.
type Client struct {
	base    string
	key     string
	http    *http.Client
	retries int
	backoff time.Duration
	margin  float64
}

// Option configures a Client.
type Option func(*Client)

// WithAPIKey sends key as the Bearer token (api.auth.mode keys).
func WithAPIKey(key string) Option { return func(c *Client) { c.key = key } }

// WithHTTPClient uses h for the calls (default: a client with a 10 s timeout).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithRetries retries a 503 or 429 up to n times (default 3; 0: never), backing
// off from base (default 50 ms) with jitter, or as long as Retry-After says.
func WithRetries(n int, base time.Duration) Option {
	return func(c *Client) { c.retries, c.backoff = n, base }
}

// New returns a client of the API at base (e.g. http://127.0.0.1:8080).
func New(base string, opts ...Option) *Client {
	c := &Client{base: strings.TrimRight(base, "/"), http: &http.Client{Timeout: 10 * time.Second}, retries: 3,
		backoff: 50 * time.Millisecond, margin: 0.8}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Error is an answer that is not a success: the HTTP status, the API's error
// code (bad_request, unauthorized, forbidden, rate_limited, unavailable, ...) and
// its message, which names the field at fault.
type Error struct {
	Status     int
	Code       string
	Message    string
	RetryAfter time.Duration // from a 429's or 503's Retry-After
}

func (e *Error) Error() string {
	return fmt.Sprintf("freshctx: %d %s: %s", e.Status, e.Code, e.Message)
}

// Temporary reports an error worth retrying later (503, 429).
func (e *Error) Temporary() bool {
	return e.Status == http.StatusServiceUnavailable || e.Status == http.StatusTooManyRequests
}

// Context asks for an entity's recent events ranked for a question (and
// knowledge, memory). Without req.BudgetMS, the budget is most of what is left
// of ctx's deadline, so the API answers (degraded if it must) before the caller
// gives up.
func (c *Client) Context(ctx context.Context, req ContextRequest) (*ContextResponse, error) {
	var out ContextResponse
	err := c.do(ctx, func(budget *int) (*http.Request, error) {
		r := req
		if r.BudgetMS == nil {
			r.BudgetMS = budget
		}
		return c.jsonRequest(ctx, http.MethodPost, "/v1/context", r)
	}, &out)
	return &out, err
}

// Search searches the knowledge chunks.
func (c *Client) Search(ctx context.Context, req SearchRequest) (*SearchResponse, error) {
	var out SearchResponse
	err := c.do(ctx, func(budget *int) (*http.Request, error) {
		r := req
		if r.BudgetMS == nil {
			r.BudgetMS = budget
		}
		return c.jsonRequest(ctx, http.MethodPost, "/v1/search", r)
	}, &out)
	return &out, err
}

// Timeline reads a page of an entity's events, newest first; cursor is the
// previous page's NextCursor ("" for the first page), limit 0 the API's default.
func (c *Client) Timeline(ctx context.Context, entity, cursor string, limit int, opts ...ReadOption) (*TimelineResponse, error) {
	q := url.Values{}
	for _, o := range opts {
		o(q)
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out TimelineResponse
	err := c.do(ctx, func(*int) (*http.Request, error) {
		return c.request(ctx, http.MethodGet, "/v1/entities/"+url.PathEscape(entity)+"/events?"+q.Encode(), nil)
	}, &out)
	return &out, err
}

// Memory reads a session's conversation memory for question q; turns and
// maxTokens 0 take the API's defaults.
func (c *Client) Memory(ctx context.Context, session, q string, turns, maxTokens int, opts ...ReadOption) (*MemoryResponse, error) {
	v := url.Values{}
	for _, o := range opts {
		o(v)
	}
	if q != "" {
		v.Set("q", q)
	}
	if turns > 0 {
		v.Set("turns", strconv.Itoa(turns))
	}
	if maxTokens > 0 {
		v.Set("max_tokens", strconv.Itoa(maxTokens))
	}
	var out MemoryResponse
	err := c.do(ctx, func(*int) (*http.Request, error) {
		return c.request(ctx, http.MethodGet, "/v1/sessions/"+url.PathEscape(session)+"/memory?"+v.Encode(), nil)
	}, &out)
	return &out, err
}

// Status reads how far ingest has durably written each source partition
// (watermarks, lag, last write, dead-lettered counts).
func (c *Client) Status(ctx context.Context) (*StatusResponse, error) {
	var out StatusResponse
	err := c.do(ctx, func(*int) (*http.Request, error) {
		return c.request(ctx, http.MethodGet, "/v1/status", nil)
	}, &out)
	return &out, err
}

// Latest reads the newest n records (0: the API's default) of a topic
// partition the API allow-lists (api.read_latest_topics), of the caller's
// tenant; dead letters carry their error.
func (c *Client) Latest(ctx context.Context, topic string, partition, n int) (*LatestResponse, error) {
	q := url.Values{"partition": {strconv.Itoa(partition)}}
	if n > 0 {
		q.Set("n", strconv.Itoa(n))
	}
	var out LatestResponse
	err := c.do(ctx, func(*int) (*http.Request, error) {
		return c.request(ctx, http.MethodGet, "/v1/topics/"+url.PathEscape(topic)+"/latest?"+q.Encode(), nil)
	}, &out)
	return &out, err
}

// Record names one Kafka record for read-your-writes: what a producer's
// delivery report gives (topic, partition, offset), in the form after= takes.
// Put it in ContextRequest.After, or pass After(Record(...)) to Timeline and
// Memory: the answer then includes that record, or says in its degraded list
// (stage "freshness") that the budget ran out first.
func Record(topic string, partition int32, offset int64) string {
	return topic + ":" + strconv.FormatInt(int64(partition), 10) + ":" + strconv.FormatInt(offset, 10)
}

// ReadOption adds a condition to Timeline and Memory: read-your-writes (After,
// FreshThrough) or, for Timeline, a filter (Contexts).
type ReadOption func(url.Values)

// Contexts keeps only events whose ai-context (the AI task their producer made
// them for) is one of contexts; ContextRequest.Context does the same.
func Contexts(contexts ...string) ReadOption {
	return func(v url.Values) {
		for _, c := range contexts {
			v.Add("context", c)
		}
	}
}

// After asks for an answer that includes each of records (see Record).
func After(records ...string) ReadOption {
	return func(v url.Values) {
		for _, r := range records {
			v.Add("after", r)
		}
	}
}

// FreshThrough asks for an answer that includes every record with a Kafka
// timestamp at or before t.
func FreshThrough(t time.Time) ReadOption {
	return func(v url.Values) { v.Set("fresh_through", strconv.FormatInt(t.UnixMilli(), 10)) }
}

// budget is the latency budget to ask for: margin of what is left of ctx's
// deadline, in [1, 10000] ms; nil without a deadline (the API's default).
func (c *Client) budget(ctx context.Context) *int {
	d, ok := ctx.Deadline()
	if !ok {
		return nil
	}
	ms := int(float64(time.Until(d).Milliseconds()) * c.margin)
	ms = min(max(ms, 1), 10000)
	return &ms
}

func (c *Client) jsonRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	r, err := c.request(ctx, method, path, bytes.NewReader(b))
	if err == nil {
		r.Header.Set("Content-Type", "application/json")
	}
	return r, err
}

func (c *Client) request(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) {
	r, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	if c.key != "" {
		r.Header.Set("Authorization", "Bearer "+c.key)
	}
	return r, nil
}

// do sends the request make builds (anew for each attempt, with the budget
// left) and decodes a success into out; 503 and 429 are retried while attempts
// and ctx's deadline allow.
func (c *Client) do(ctx context.Context, make func(budget *int) (*http.Request, error), out any) error {
	backoff := c.backoff
	for attempt := 0; ; attempt++ {
		req, err := make(c.budget(ctx))
		if err != nil {
			return err
		}
		res, err := c.http.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(io.LimitReader(res.Body, 32<<20))
		res.Body.Close()
		if err != nil {
			return err
		}
		if res.StatusCode == http.StatusOK {
			if err := json.Unmarshal(body, out); err != nil {
				return fmt.Errorf("freshctx: decoding the answer: %w", err)
			}
			return nil
		}
		apiErr := decodeError(res, body)
		if !apiErr.Temporary() || attempt >= c.retries {
			return apiErr
		}
		wait := apiErr.RetryAfter
		if wait == 0 {
			wait = backoff/2 + rand.N(backoff/2+1)
			backoff = min(backoff*2, 5*time.Second)
		}
		if d, ok := ctx.Deadline(); ok && time.Until(d) < wait {
			return apiErr // no time left to try again
		}
		select {
		case <-ctx.Done():
			return errors.Join(apiErr, ctx.Err())
		case <-time.After(wait):
		}
	}
}

func decodeError(res *http.Response, body []byte) *Error {
	e := &Error{Status: res.StatusCode, Code: http.StatusText(res.StatusCode), Message: strings.TrimSpace(string(body))}
	var wire struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &wire) == nil && wire.Error.Code != "" {
		e.Code, e.Message = wire.Error.Code, wire.Error.Message
	}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s >= 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return e
}
