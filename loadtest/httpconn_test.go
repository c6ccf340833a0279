package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The load generator's client reads what net/http's server writes: bodies with a
// length and chunked ones, kept-alive connections and closed ones, and statuses.
func TestGetterReadsWhatTheServerWrites(t *testing.T) {
	var conns atomic.Int32
	big := strings.Repeat("x", 40_000)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/length":
			w.Header().Set("Content-Length", "11")
			fmt.Fprint(w, "hello world")
		case "/chunked": // larger than the server's buffer, no length: chunked
			fmt.Fprintf(w, `{"a":%q,"meta":{"served_from":"cache","candidates":3}}`, big+r.URL.Query().Get("q"))
		case "/auth":
			if r.Header.Get("Authorization") != "Bearer k1" {
				http.Error(w, "an API key is required", http.StatusUnauthorized)
				return
			}
			fmt.Fprint(w, "welcome")
		case "/close":
			w.Header().Set("Connection", "close")
			fmt.Fprint(w, "bye")
		default:
			http.Error(w, "no such path", http.StatusNotFound)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	base, _ := url.Parse(srv.URL)
	g, err := newGetter(base, "k1", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	for _, c := range []struct {
		target string
		status int
		body   string
	}{
		{"/length", 200, "hello world"},
		{"/chunked?q=%C3%A9", 200, fmt.Sprintf(`{"a":%q,"meta":{"served_from":"cache","candidates":3}}`, big+"é")},
		{"/length", 200, "hello world"},
		{"/missing", 404, "no such path\n"},
		{"/auth", 200, "welcome"},
		{"/close", 200, "bye"},
		{"/length", 200, "hello world"},
	} {
		status, body, err := g.get(c.target)
		if err != nil || status != c.status || string(body) != c.body {
			t.Fatalf("GET %s: %d, %d bytes, %v; want %d, %d bytes", c.target, status, len(body), err, c.status, len(c.body))
		}
	}
	// One connection for everything up to /close, which the server closed; one after.
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections, want 2 (kept alive until the server closed one)", n)
	}
	if _, err := newGetter(base, "a\r\nX-Injected: 1", time.Second); err == nil || !strings.Contains(err.Error(), "-key") {
		t.Errorf("a key with a line break: %v, want an error naming -key", err)
	}
	if _, err := newGetter(&url.URL{Scheme: "ftp", Host: "x"}, "", time.Second); err == nil || !strings.Contains(err.Error(), "-api") {
		t.Errorf("an ftp URL: %v, want an error naming -api", err)
	}
}

func TestMetaOf(t *testing.T) {
	for _, c := range []struct {
		body string
		want answerMeta
	}{
		// As the API writes it: meta last. A string that mentions "meta": is no key.
		{`{"events":[{"text":"say \"meta\":{\"served_from\":\"x\"}"}],"meta":{"served_from":"cache","candidates":4,"degraded":[{"part":"knowledge"}]}}` + "\n",
			answerMeta{ServedFrom: "cache", Candidates: 4, Degraded: []json.RawMessage{[]byte(`{"part":"knowledge"}`)}}},
		// Laid out otherwise: decoded whole.
		{`{"meta":{"served_from":"store","candidates":2},"events":[]}`, answerMeta{ServedFrom: "store", Candidates: 2}},
	} {
		got, err := metaOf([]byte(c.body))
		if err != nil || got.ServedFrom != c.want.ServedFrom || got.Candidates != c.want.Candidates || len(got.Degraded) != len(c.want.Degraded) {
			t.Errorf("metaOf(%s) = %+v, %v; want %+v", c.body, got, err, c.want)
		}
	}
	if _, err := metaOf([]byte(`{"meta":`)); err == nil {
		t.Error("a truncated answer decoded without an error")
	}
}
