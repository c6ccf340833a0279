package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	teststack "github.com/freshctx/freshctx/internal/stack"
	"github.com/freshctx/freshctx/internal/testenv"
)

// An agent subscribes to an entity as an MCP resource and hears about its new
// events without polling: through another replica than the one ingest feeds
// (the changes come from Redis), never about another tenant's entity of the
// same name, and reading the resource gives the event.
func TestMCPEntitySubscriptions(t *testing.T) {
	const acmeKey, globexKey = "mcp-acme-key", "mcp-globex-key"
	s := teststack.Start(t, 1, []string{"support.chat"}, fmt.Sprintf(`
api:
  budget: 5s
  auth:
    mode: keys
    rate_per_second: 1000
    keys:
      - {name: acme-agent, tenant: acme, sha256: %s}
      - {name: globex-agent, tenant: globex, sha256: %s}
sources:
  - name: chat
    topic: support.chat
    format: json
    key: "{{.message_id}}"
    tenant: "{{.tenant}}"
    entity: "customer:{{.customer_id}}"
    time: ts
    text: "{{.text}}"
`, sha(acmeKey), sha(globexKey)))
	replica := s.Replica()
	type listener struct {
		mu   sync.Mutex
		uris []string
	}
	subscribe := func(url, key, uri string) (*listener, *mcp.ClientSession) {
		l := &listener{}
		c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, &mcp.ClientOptions{
			ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
				l.mu.Lock()
				l.uris = append(l.uris, req.Params.URI)
				l.mu.Unlock()
			}})
		tr := &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: testenv.Bearer{Key: key}}, MaxRetries: -1}
		cs, err := c.Connect(context.Background(), tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatalf("subscribe %s: %v", uri, err)
		}
		return l, cs
	}
	count := func(l *listener) int { l.mu.Lock(); defer l.mu.Unlock(); return len(l.uris) }
	const uri = "freshctx://entities/customer:1"
	acme, acmeSession := subscribe(replica.URL, acmeKey, uri)
	globex, _ := subscribe(s.API.URL, globexKey, uri)
	other, _ := subscribe(s.API.URL, acmeKey, "freshctx://entities/customer:2")

	chat := func(id, tenant string, customer int, text string) {
		s.ProduceJSON("support.chat", id, map[string]any{"message_id": id, "tenant": tenant, "customer_id": customer, "text": text,
			"ts": time.Now().UTC().Format(time.RFC3339Nano)})
	}
	chat("m1", "acme", 1, "Where is my refund R-7001?")
	testenv.Eventually(t, "acme's subscriber to hear about customer:1", 30*time.Second, func() bool { return count(acme) > 0 }, nil)
	res, err := acmeSession.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "Where is my refund R-7001?") {
		t.Fatalf("reading %s: %v %+v", uri, err, res)
	}
	if n := count(globex); n != 0 {
		t.Fatalf("globex's subscriber to its own customer:1 heard %d notifications about acme's", n)
	}
	if n := count(other); n != 0 {
		t.Fatalf("the subscriber to customer:2 heard %d notifications about customer:1", n)
	}
	chat("g1", "globex", 1, "Globex question")
	testenv.Eventually(t, "globex's subscriber to hear about its customer:1", 30*time.Second, func() bool { return count(globex) > 0 }, nil)
	res, _ = acmeSession.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if strings.Contains(res.Contents[0].Text, "Globex question") {
		t.Fatal("acme read globex's event")
	}
	before := count(acme)
	chat("m2", "acme", 1, "And my invoice?")
	testenv.Eventually(t, "a second notification", 30*time.Second, func() bool { return count(acme) > before }, nil)
}
