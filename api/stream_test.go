package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/api"
	teststack "github.com/freshctx/freshctx/internal/stack"
	"github.com/freshctx/freshctx/internal/testenv"
)

// sseEvent is one Server-Sent Event.
type sseEvent struct{ id, event, data string }

// sseClient reads a stream's events into a channel until the response ends.
func sseClient(t *testing.T, ctx context.Context, url, lastID string) (<-chan sseEvent, *http.Response) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %s %s", res.Status, res.Header.Get("Content-Type"))
	}
	ch := make(chan sseEvent, 1000)
	go func() {
		defer close(ch)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.event != "" {
					ch <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data = line[6:]
			}
		}
	}()
	return ch, res
}

// A live subscription to an entity, served by two API replicas: a client
// reads half the changes from one, disconnects, changes keep coming, and it
// reconnects to the other with Last-Event-ID. It sees every change of its
// entity once, in order (stored before updated, versions rising), and nothing
// of another tenant's entity of the same name.
func TestEntityStreamAcrossReplicas(t *testing.T) {
	s := teststack.Start(t, 2, []string{"support.chat"}, `
api: {tenant: acme, auth: {mode: none}, budget: 5s}
sources:
  - name: chat
    topic: support.chat
    format: json
    key: "{{.message_id}}"
    tenant: "{{.tenant}}"
    entity: "customer:{{.customer_id}}"
    time: ts
    text: "{{.text}}"
`)
	b := s.Replica()
	base := time.Now().Add(-time.Minute)
	produce := func(tenant, key string, version int) {
		s.ProduceJSON("support.chat", key, map[string]any{"message_id": key, "tenant": tenant, "customer_id": 1,
			"text": fmt.Sprintf("%s %s v%d", tenant, key, version), "ts": base.Add(time.Duration(version) * time.Second).Format(time.RFC3339Nano)})
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, _ := sseClient(t, ctx, s.API.URL+"/v1/entities/customer:1/stream", "")
	type change struct{ key, op, text string }
	var got []change
	var lastID string
	read := func(from <-chan sseEvent, n int) {
		t.Helper()
		deadline := time.After(testenv.Patience(30 * time.Second))
		for len(got) < n {
			select {
			case ev, ok := <-from:
				if !ok {
					t.Fatalf("the stream ended after %d changes", len(got))
				}
				var c api.ChangeOut
				if err := json.Unmarshal([]byte(ev.data), &c); err != nil || c.Op != ev.event {
					t.Fatalf("event %+v: %v", ev, err)
				}
				if lastID != "" && !idLess(lastID, ev.id) {
					t.Errorf("id %s after %s", ev.id, lastID)
				}
				lastID = ev.id
				got = append(got, change{c.Event.Key, c.Op, c.Event.Text})
			case <-deadline:
				t.Fatalf("%d of %d changes arrived: %+v\n%s", len(got), n, got, s.Logs.String())
			}
		}
	}
	// Replica A: three messages, then an update of each.
	for i := range 3 {
		produce("acme", fmt.Sprint("m", i), 1)
		produce("globex", fmt.Sprint("g", i), 1) // another tenant, the same entity name
	}
	for i := range 3 {
		produce("acme", fmt.Sprint("m", i), 2)
	}
	read(events, 6)
	cancel()
	// Disconnected: two more updates and a new message.
	produce("acme", "m0", 3)
	produce("acme", "m1", 3)
	produce("acme", "m3", 1)
	// Replica B, resuming after the last id seen.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	events2, _ := sseClient(t, ctx2, b.URL+"/v1/entities/customer:1/stream", lastID)
	read(events2, 9)
	want := []change{
		{"m0", "stored", "acme m0 v1"}, {"m1", "stored", "acme m1 v1"}, {"m2", "stored", "acme m2 v1"},
		{"m0", "updated", "acme m0 v2"}, {"m1", "updated", "acme m1 v2"}, {"m2", "updated", "acme m2 v2"},
		{"m0", "updated", "acme m0 v3"}, {"m1", "updated", "acme m1 v3"}, {"m3", "stored", "acme m3 v1"},
	}
	// Keys on different partitions may interleave differently; each key's own
	// changes must come in order, once each.
	perKey := func(cs []change) map[string][]change {
		m := map[string][]change{}
		for _, c := range cs {
			m[c.key] = append(m[c.key], c)
		}
		return m
	}
	if g, w := fmt.Sprint(perKey(got)), fmt.Sprint(perKey(want)); g != w || len(got) != len(want) {
		t.Errorf("changes per key:\n got %s\nwant %s", g, w)
	}
	for _, c := range got {
		if strings.Contains(c.text, "globex") {
			t.Errorf("another tenant's change: %+v", c)
		}
	}
	// A client that never reads does not slow ingest: ingest only appends to
	// the entity's stream; the stalled connection's writes block its own
	// handler until it is dropped.
	stalled, err := net.Dial("tcp", strings.TrimPrefix(b.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	fmt.Fprintf(stalled, "GET /v1/entities/customer:1/stream HTTP/1.1\r\nHost: x\r\n\r\n")
	start := time.Now()
	long := strings.Repeat("refund status details ", 80)
	for i := range 300 {
		s.ProduceJSON("support.chat", fmt.Sprint("s", i), map[string]any{"message_id": fmt.Sprint("s", i), "tenant": "acme", "customer_id": 1,
			"text": long + fmt.Sprint(i), "ts": time.Now().Format(time.RFC3339Nano)})
	}
	testenv.Eventually(t, "ingest to write 300 events beside a stalled subscriber", 30*time.Second, func() bool {
		var tl api.TimelineResponse
		return s.GetJSON("/v1/entities/customer:1/events?limit=200", "", &tl) == http.StatusOK && len(tl.Events) == 200 &&
			tl.Events[0].Key == "s299"
	})
	t.Logf("300 events (1.8 KB each) produced and stored in %s with a subscriber that never reads", time.Since(start).Round(time.Millisecond))

	// An id that is no longer kept (or never was) gets a reset.
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	events3, _ := sseClient(t, ctx3, b.URL+"/v1/entities/customer:1/stream", "1-0")
	select {
	case ev := <-events3:
		if ev.event != "reset" {
			t.Errorf("resuming from a trimmed id: %+v", ev)
		}
	case <-time.After(testenv.Patience(10 * time.Second)):
		t.Error("no reset for a trimmed id")
	}
	// A malformed id is a 400 naming it.
	req, _ := http.NewRequest(http.MethodGet, b.URL+"/v1/entities/customer:1/stream", nil)
	req.Header.Set("Last-Event-ID", "nope")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusBadRequest {
		t.Errorf("a malformed Last-Event-ID: %v %v", res.Status, err)
	}
}

func idLess(a, b string) bool {
	var am, as, bm, bs uint64
	fmt.Sscanf(a, "%d-%d", &am, &as)
	fmt.Sscanf(b, "%d-%d", &bm, &bs)
	return am < bm || am == bm && as < bs
}
