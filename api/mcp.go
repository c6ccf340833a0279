package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// GetContextInput is the input of the get_context tool.
type GetContextInput struct {
	Entity    string   `json:"entity" jsonschema:"whose recent activity to read, as the service names entities, e.g. customer:42"`
	Question  string   `json:"question,omitempty" jsonschema:"the user's question or message, in their words (a message of several sentences is ranked by the sentences that ask); ranks the events by relevance and finds knowledge articles. Omit it to get the newest events first"`
	Window    string   `json:"window,omitempty" jsonschema:"how far back to look, a duration such as 15m or 2h (default 15m)"`
	K         int      `json:"k,omitempty" jsonschema:"how many events at most (default 10, at most 100)"`
	MaxTokens int      `json:"max_tokens,omitempty" jsonschema:"cap on the size of the returned context text, in tokens (default 1000)"`
	After     []string `json:"after,omitempty" jsonschema:"records the answer must include, as TOPIC:PARTITION:OFFSET (what a Kafka producer's delivery report gives); the tool waits for them to be written"`
	Context   []string `json:"context,omitempty" jsonschema:"keep only events produced for one of these AI tasks (their ai-context), e.g. support"`
}

// SearchKnowledgeInput is the input of the search_knowledge tool.
type SearchKnowledgeInput struct {
	Query  string         `json:"query" jsonschema:"what to look up in the knowledge base (policies, help articles), in plain words"`
	Filter map[string]any `json:"filter,omitempty" jsonschema:"optional attributes every result must have, such as category refunds: an object of strings, numbers or booleans"`
	K      int            `json:"k,omitempty" jsonschema:"how many passages at most (default 5, at most 50)"`
}

// SessionMemoryInput is the input of the get_session_memory tool.
type SessionMemoryInput struct {
	SessionID string `json:"session_id" jsonschema:"the conversation's id, as the chat application names it"`
	Question  string `json:"question,omitempty" jsonschema:"the user's current message; it closes the memory"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"cap on the memory's size in tokens (default from the service's configuration)"`
}

// ReadLatestInput is the input of the read_latest tool.
type ReadLatestInput struct {
	Topic     string `json:"topic" jsonschema:"the Kafka topic to read; one of the topics listed in this tool's description"`
	Partition int    `json:"partition,omitempty" jsonschema:"the partition (default 0)"`
	N         int    `json:"n,omitempty" jsonschema:"how many of the newest records (default 10, at most 100)"`
}

// LatestReader reads the newest records of a topic partition for a tenant,
// without a consumer group and committing nothing. The result is relayed as JSON.
type LatestReader interface {
	ReadLatest(ctx context.Context, tenant, topic string, partition int32, n int) (any, error)
}

// LatestReaderOf makes a LatestReader of a read function with a concrete
// result (kafkaio.Reader.ReadLatest).
func LatestReaderOf[T any](read func(ctx context.Context, tenant, topic string, partition int32, n int) (T, error)) LatestReader {
	return latestFunc(func(ctx context.Context, tenant, topic string, partition int32, n int) (any, error) {
		return read(ctx, tenant, topic, partition, n)
	})
}

type latestFunc func(ctx context.Context, tenant, topic string, partition int32, n int) (any, error)

func (f latestFunc) ReadLatest(ctx context.Context, tenant, topic string, partition int32, n int) (any, error) {
	return f(ctx, tenant, topic, partition, n)
}

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}

// mcpHandler serves the Model Context Protocol (streamable HTTP) with the same
// keys and tenants as the REST API: the tenant comes from the key, and each
// tenant has a server of its own, so resource URIs and subscriptions never
// cross tenants.
func (s *Server) mcpHandler() http.Handler {
	var mu sync.Mutex
	servers := map[string]*mcp.Server{}
	serverFor := func(r *http.Request) *mcp.Server {
		tenant := s.cfg.Tenant
		if s.auth.mode != AuthNone {
			tenant = ""
			if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
				tenant, _ = ti.Extra["tenant"].(string)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		srv, ok := servers[tenant]
		if !ok {
			srv = s.newMCPServer(tenant)
			servers[tenant] = srv
		}
		return srv
	}
	h := mcp.NewStreamableHTTPHandler(serverFor, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	if s.auth.mode == AuthNone {
		return h
	}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		c, ok := s.auth.verify(token)
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		if ok, _ := s.auth.allow(c.name); !ok {
			return nil, fmt.Errorf("%w: rate limit reached for this key", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: c.name, Extra: map[string]any{"tenant": c.tenant}, Expiration: time.Now().Add(time.Hour)}, nil
	}
	return auth.RequireBearerToken(verify, nil)(h)
}

// newMCPServer is tenant's MCP server: the tools, and its entities as
// resources (subscribable with a change stream).
func (s *Server) newMCPServer(tenant string) *mcp.Server {
	var opts *mcp.ServerOptions
	var subs *entitySubscriptions
	if s.changes != nil {
		subs = &entitySubscriptions{s: s, tenant: tenant, active: map[string]*entityWatch{}}
		opts = &mcp.ServerOptions{SubscribeHandler: subs.subscribe, UnsubscribeHandler: subs.unsubscribe}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "freshctx", Title: "freshctx: fresh customer context", Version: "1"}, opts)
	if subs != nil {
		subs.srv = srv
	}
	s.addEntityResources(srv, tenant)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "get_context",
		Title: "Recent activity of a customer, ranked for a question",
		Description: "Returns what just happened to one entity (a customer, an account, an order): its events of the " +
			"last minutes (tickets, orders, refunds, chat), most relevant to the question first, plus knowledge " +
			"articles that answer the question, as prompt-ready text that names the source and time of every fact. " +
			"Use it first whenever the user asks about their own situation (\"where is my refund?\").",
		Annotations: readOnly,
	}, s.toolGetContext)
	if s.knowledge != nil {
		mcp.AddTool(srv, &mcp.Tool{
			Name:  "search_knowledge",
			Title: "Search the knowledge base",
			Description: "Searches the knowledge base (help-centre articles, policies) for passages about a topic, " +
				"independent of any customer. Use it for general questions (\"how long do refunds take?\"); use " +
				"get_context for questions about a particular customer.",
			Annotations: readOnly,
		}, s.toolSearch)
	}
	if s.sessions != nil {
		mcp.AddTool(srv, &mcp.Tool{
			Name:  "get_session_memory",
			Title: "Memory of the current conversation",
			Description: "Returns the memory of one conversation (session): the assistant's persona, a summary of the " +
				"older turns, then the newest turns in order, then the current question, within a token budget, as " +
				"prompt text and as chat messages. Use it at the start of every reply so the conversation stays coherent.",
			Annotations: readOnly,
		}, s.toolMemory)
	}
	if s.latest != nil && len(s.cfg.ReadLatestTopics) > 0 {
		mcp.AddTool(srv, &mcp.Tool{
			Name:  "read_latest",
			Title: "Newest raw records of a stream",
			Description: "Reads the newest records of one Kafka topic partition, decoded and trimmed like the indexed " +
				"events, for debugging or when a fact may be too new to be indexed. Only records of your tenant are " +
				"returned; it changes nothing. Topics: " + strings.Join(s.cfg.ReadLatestTopics, ", ") + ".",
			Annotations: readOnly,
		}, s.toolReadLatest)
	}
	return srv
}

// mcpCaller returns the caller of a tool call: the key's tenant, or the
// development tenant without authentication.
func (s *Server) mcpCaller(extra *mcp.RequestExtra) (caller, error) {
	if s.auth.mode == AuthNone {
		return caller{tenant: s.cfg.Tenant}, nil
	}
	if extra == nil || extra.TokenInfo == nil {
		return caller{}, errors.New("unauthenticated")
	}
	tenant, _ := extra.TokenInfo.Extra["tenant"].(string)
	if tenant == "" {
		return caller{}, errors.New("unauthenticated")
	}
	return caller{name: extra.TokenInfo.UserID, tenant: tenant}, nil
}

func (s *Server) toolGetContext(ctx context.Context, req *mcp.CallToolRequest, in GetContextInput) (*mcp.CallToolResult, any, error) {
	c, err := s.mcpCaller(req.Extra)
	if err != nil {
		return nil, nil, err
	}
	cr := ContextRequest{Entity: in.Entity, Q: in.Question, Window: in.Window, After: in.After, Context: in.Context}
	if in.K != 0 {
		cr.K = &in.K
	}
	if in.MaxTokens != 0 {
		cr.MaxTokens = &in.MaxTokens
	}
	p, err := s.params(cr)
	if err != nil {
		return nil, nil, toolError(err)
	}
	resp, _, err := s.answer(withCaller(ctx, c), p)
	if err != nil {
		return nil, nil, toolError(err)
	}
	text := resp.Context
	if len(resp.Meta.Degraded) > 0 {
		var parts []string
		for _, d := range resp.Meta.Degraded {
			parts = append(parts, d.Stage+" ("+d.Reason+", used "+d.Fallback+")")
		}
		text += "\n(Answered with fallbacks: " + strings.Join(parts, "; ") + ".)\n"
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: resp}, nil, nil
}

func (s *Server) toolMemory(ctx context.Context, req *mcp.CallToolRequest, in SessionMemoryInput) (*mcp.CallToolResult, any, error) {
	c, err := s.mcpCaller(req.Extra)
	if err != nil {
		return nil, nil, err
	}
	var maxTokens *int
	if in.MaxTokens != 0 {
		maxTokens = &in.MaxTokens
	}
	p, err := s.memoryParams(in.SessionID, in.Question, maxTokens, nil)
	if err != nil {
		return nil, nil, toolError(prefixField(err, "session_id"))
	}
	ctx, cancel := context.WithTimeout(withCaller(ctx, c), s.cfg.Budget)
	defer cancel()
	resp, err := s.memory(ctx, p)
	if err != nil {
		return nil, nil, toolError(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: resp.Text}}, StructuredContent: resp}, nil, nil
}

func (s *Server) toolSearch(ctx context.Context, req *mcp.CallToolRequest, in SearchKnowledgeInput) (*mcp.CallToolResult, any, error) {
	c, err := s.mcpCaller(req.Extra)
	if err != nil {
		return nil, nil, err
	}
	q := strings.TrimSpace(in.Query)
	if q == "" || !utf8.ValidString(q) || utf8.RuneCountInString(q) > maxQRunes {
		return nil, nil, fmt.Errorf("query: 1 to %d characters of text", maxQRunes)
	}
	k := searchKDefault
	if in.K != 0 {
		if in.K < 1 || in.K > maxSearchK {
			return nil, nil, fmt.Errorf("k: must be in [1, %d]", maxSearchK)
		}
		k = in.K
	}
	if err := validateFilter(in.Filter); err != nil {
		return nil, nil, toolError(err)
	}
	resp, _, err := s.search(withCaller(ctx, c), q, k, in.Filter, s.cfg.Budget)
	if err != nil {
		return nil, nil, toolError(err)
	}
	var b strings.Builder
	if len(resp.Documents) == 0 {
		b.WriteString("No knowledge passages match.\n")
	}
	for _, h := range resp.Documents {
		fmt.Fprintf(&b, "- [%s %s %q, part %d, score %.3f] %s\n", h.Source, h.DocID, h.Title, h.Chunk+1, h.Score, strings.Join(strings.Fields(h.Text), " "))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}, StructuredContent: resp}, nil, nil
}

func (s *Server) toolReadLatest(ctx context.Context, req *mcp.CallToolRequest, in ReadLatestInput) (*mcp.CallToolResult, any, error) {
	c, err := s.mcpCaller(req.Extra)
	if err != nil {
		return nil, nil, err
	}
	records, err := s.readLatest(ctx, c.tenant, in)
	if err != nil {
		return nil, nil, toolError(err)
	}
	b, _ := json.MarshalIndent(records, "", "  ")
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: map[string]any{"records": records}}, nil, nil
}

// readLatest checks a latest-read against the allow-list and limits and reads it
// for tenant: one rule for the MCP tool and GET /v1/topics/{topic}/latest.
func (s *Server) readLatest(ctx context.Context, tenant string, in ReadLatestInput) (any, error) {
	if s.latest == nil || !slices.Contains(s.cfg.ReadLatestTopics, in.Topic) {
		return nil, &Error{Status: http.StatusNotFound, Code: "not_found",
			Msg: fmt.Sprintf("topic: %q is not one of %s (api.read_latest_topics)", in.Topic, strings.Join(s.cfg.ReadLatestTopics, ", "))}
	}
	if in.Partition < 0 || in.Partition > 1<<20 {
		return nil, badRequest("partition: must be an integer in [0, %d]", 1<<20)
	}
	n := 10
	if in.N != 0 {
		if in.N < 1 || in.N > 100 {
			return nil, badRequest("n: must be an integer in [1, 100]")
		}
		n = in.N
	}
	records, err := s.latest.ReadLatest(ctx, tenant, in.Topic, int32(in.Partition), n)
	if err != nil {
		return nil, &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Msg: "the broker did not answer: " + err.Error(), Err: err}
	}
	return records, nil
}

// handleLatest serves GET /v1/topics/{topic}/latest?partition=P&n=N: the
// newest records of an allow-listed topic partition, of the caller's tenant.
func (s *Server) handleLatest(w http.ResponseWriter, r *http.Request) error {
	in := ReadLatestInput{Topic: r.PathValue("topic")}
	q := r.URL.Query()
	for name, dst := range map[string]*int{"partition": &in.Partition, "n": &in.N} {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return badRequest("%s: must be an integer", name)
			}
			*dst = n
		}
	}
	records, err := s.readLatest(r.Context(), tenantOf(r.Context()), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"topic": in.Topic, "partition": in.Partition, "records": records})
	return nil
}

// toolError turns an API error into the message a model should see.
func toolError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return errors.New(e.Msg)
	}
	return err
}
