package api_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

const (
	acmeKey   = "acme-secret-key-0123456789"
	globexKey = "globex-secret-key-0123456789"
)

func sha(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

// twoTenants serves the API over real stores holding two tenants whose entity ids,
// event keys and document ids overlap.
func twoTenants(t *testing.T, auth api.Auth) *httptest.Server {
	ctx := context.Background()
	dsn, _ := testenv.PostgresDSN(t)
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.EnsureChunkIndex(ctx, 64); err != nil {
		t.Fatal(err)
	}
	addr, prefix := testenv.RedisAddr(t)
	cache := rediscache.MustNew(rediscache.Config{Addr: addr, KeyPrefix: prefix})
	t.Cleanup(func() { cache.Close() })
	emb, _ := embed.NewLocal(64)
	now := time.Now()
	for i, tenant := range []string{"acme", "globex"} {
		text := tenant + " secret: refund for customer one"
		v, _ := emb.Embed(ctx, []string{text})
		ev := store.Event{Source: "tickets", Key: tenant + "-1", ID: "T-1", Tenant: tenant, Entity: "customer:1", Time: now.Add(-time.Minute),
			Text: text, Embedding: v[0], Version: 1}
		if _, err := st.Apply(ctx, []store.Event{ev}, nil); err != nil {
			t.Fatal(err)
		}
		if err := cache.Apply(ctx, []store.Event{ev}, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := st.ApplyDocuments(ctx, []store.Document{{Source: "kb", Key: tenant + "-1", DocID: "KB-1", Tenant: tenant, Version: 1,
			Chunks: []store.Chunk{{Text: tenant + " secret refund policy", TextHash: []byte{byte(i)}, Embedding: v[0]}}}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	// A budget for a loaded CI machine under -race: these tests are about who
	// sees what, not about latency (a first knowledge search once took > 100 ms).
	srv := httptest.NewServer(api.New(api.Config{Tenant: "acme", Auth: auth, Budget: 10 * time.Second}, emb, st, cache, nil, nil))
	t.Cleanup(srv.Close)
	return srv
}

func keys() api.Auth {
	return api.Auth{Mode: api.AuthKeys, Keys: []api.Key{
		{Name: "acme-bot", Tenant: "acme", Sha256: sha(acmeKey)},
		{Name: "globex-bot", Tenant: "globex", Secret: globexKey, Env: "GLOBEX_KEY"},
	}}
}

func call(t *testing.T, method, url, key, body string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return res.StatusCode, b.String(), res.Header
}

// Invariant 8 through the API: a key reads its own tenant only, whatever it asks.
func TestTenantsAreIsolatedOverREST(t *testing.T) {
	srv := twoTenants(t, keys())
	for _, tc := range []struct{ key, mine, other string }{{acmeKey, "acme", "globex"}, {globexKey, "globex", "acme"}} {
		for _, u := range []string{"/v1/context?entity=customer:1&q=refund", "/v1/entities/customer:1/events"} {
			code, body, _ := call(t, "GET", srv.URL+u, tc.key, "")
			if code != 200 || !strings.Contains(body, tc.mine+" secret") || strings.Contains(body, tc.other) {
				t.Errorf("%s key, %s: %d %s", tc.mine, u, code, body)
			}
		}
		code, body, _ := call(t, "POST", srv.URL+"/v1/search", tc.key, `{"q":"refund policy","k":10}`)
		if code != 200 || !strings.Contains(body, tc.mine+" secret") || strings.Contains(body, tc.other) {
			t.Errorf("%s key, search: %d %s", tc.mine, code, body)
		}
		// Naming the other tenant is refused, not silently answered.
		if code, body, _ := call(t, "GET", srv.URL+"/v1/context?entity=customer:1&tenant="+tc.other, tc.key, ""); code != 403 || strings.Contains(body, tc.other+" secret") {
			t.Errorf("%s key asking for %s: %d %s", tc.mine, tc.other, code, body)
		}
		if code, body, _ := call(t, "POST", srv.URL+"/v1/context", tc.key, `{"entity":"customer:1","tenant":"`+tc.other+`"}`); code != 400 || !strings.Contains(body, "tenant") {
			t.Errorf("%s key with a tenant field: %d %s", tc.mine, code, body)
		}
	}
	for _, key := range []string{"", "wrong-key-0123456789", acmeKey + "x"} {
		code, body, h := call(t, "GET", srv.URL+"/v1/context?entity=customer:1", key, "")
		if code != 401 || !strings.Contains(body, `"code":"unauthorized"`) || strings.Contains(body, "secret") {
			t.Errorf("key %q: %d %s %v", key, code, body, h)
		}
	}
	// Health, readiness, metrics and the OpenAPI document need no key.
	for _, u := range []string{"/healthz", "/readyz", "/metrics", "/openapi.yaml"} {
		if code, _, _ := call(t, "GET", srv.URL+u, "", ""); code != 200 {
			t.Errorf("%s without a key: %d", u, code)
		}
	}
}

func TestRateLimitPerKey(t *testing.T) {
	a := keys()
	a.RatePerSecond, a.Burst = 1, 3
	srv := twoTenants(t, a)
	for i := 0; i < 3; i++ {
		if code, _, _ := call(t, "GET", srv.URL+"/healthz", acmeKey, ""); code != 200 {
			t.Fatal(code)
		}
		if code, body, _ := call(t, "GET", srv.URL+"/v1/context?entity=customer:1", acmeKey, ""); code != 200 {
			t.Fatalf("request %d within the burst: %d %s", i, code, body)
		}
	}
	code, body, h := call(t, "GET", srv.URL+"/v1/context?entity=customer:1", acmeKey, "")
	if code != 429 || h.Get("Retry-After") != "1" || !strings.Contains(body, "rate_limited") {
		t.Fatalf("over the burst: %d %s Retry-After=%q", code, body, h.Get("Retry-After"))
	}
	// Another key has its own bucket.
	if code, _, _ := call(t, "GET", srv.URL+"/v1/context?entity=customer:1", globexKey, ""); code != 200 {
		t.Fatalf("the other key was limited too: %d", code)
	}
}

func mcpSession(t *testing.T, url, key string) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: testenv.Bearer{Key: key}}, MaxRetries: -1}
	return c.Connect(context.Background(), tr, nil)
}

func toolText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// The MCP endpoint, driven by the SDK's own client over HTTP: tools listed and
// called, keys enforced, tenants isolated.
func TestMCP(t *testing.T) {
	srv := twoTenants(t, keys())
	if _, err := mcpSession(t, srv.URL, "not-a-key-0123456789"); err == nil {
		t.Fatal("an MCP session with an invalid key was accepted")
	}
	for _, tc := range []struct{ key, mine, other string }{{acmeKey, "acme", "globex"}, {globexKey, "globex", "acme"}} {
		s, err := mcpSession(t, srv.URL, tc.key)
		if err != nil {
			t.Fatal(err)
		}
		tools, err := s.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range tools.Tools {
			names = append(names, tool.Name)
			if tool.Description == "" || tool.InputSchema == nil || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
				t.Errorf("tool %s lacks a description, schema or read-only hint", tool.Name)
			}
		}
		if strings.Join(names, ",") != "get_context,search_knowledge" {
			t.Errorf("tools = %v", names)
		}
		res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_context",
			Arguments: map[string]any{"entity": "customer:1", "question": "where is my refund?"}})
		if err != nil || res.IsError {
			t.Fatalf("get_context: %v %+v", err, res)
		}
		if text := toolText(t, res); !strings.Contains(text, tc.mine+" secret") || strings.Contains(text, tc.other) {
			t.Errorf("%s get_context: %s", tc.mine, text)
		}
		structured, _ := json.Marshal(res.StructuredContent)
		if strings.Contains(string(structured), tc.other) {
			t.Errorf("%s get_context structured content leaks %s", tc.mine, tc.other)
		}
		res, err = s.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_knowledge", Arguments: map[string]any{"query": "refund policy"}})
		if err != nil || res.IsError {
			t.Fatalf("search_knowledge: %v %+v", err, res)
		}
		if text := toolText(t, res); !strings.Contains(text, tc.mine+" secret") || strings.Contains(text, tc.other) {
			t.Errorf("%s search_knowledge: %s", tc.mine, text)
		}
		// Bad arguments are a tool error naming the field, not a crash.
		res, err = s.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_context", Arguments: map[string]any{"entity": "customer:1", "window": "forever"}})
		if err != nil || !res.IsError || !strings.Contains(toolText(t, res), "window") {
			t.Errorf("bad window: %v %+v", err, res)
		}
		s.Close()
	}
}

// Development mode has no keys, so it has no per-key rate limit either: a load
// test against it measures the API, not a bucket.
func TestNoRateLimitWithoutKeys(t *testing.T) {
	srv := twoTenants(t, api.Auth{Mode: api.AuthNone, RatePerSecond: 1, Burst: 1})
	for i := 0; i < 5; i++ {
		if code, body, _ := call(t, "GET", srv.URL+"/v1/context?entity=customer:1", "", ""); code != 200 {
			t.Fatalf("request %d: %d %s", i, code, body)
		}
	}
}
