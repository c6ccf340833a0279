package api

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/freshctx/freshctx/embed"
)

func hostileServer(t testing.TB) *Server {
	l, _ := embed.NewLocal(16)
	return New(Config{Tenant: "acme", Auth: Auth{Mode: AuthNone}}, l, &fakeStore{}, nil, nil, nil)
}

// Every hostile input gets a 2xx or a 4xx with a message, never a 5xx. Values
// reach the stores only as query parameters (pgstore binds them; rediscache uses
// them inside a length-prefixed hash tag), so none is concatenated into a query.
func TestHostileInputs(t *testing.T) {
	s := hostileServer(t)
	huge := strings.Repeat("𝄞", 10000)
	for _, tc := range []struct {
		name   string
		method string
		target string
		body   string
		want   int
	}{
		{"SQL in entity", "GET", "/v1/context?entity=" + url.QueryEscape("customer:1' OR '1'='1"), "", 200},
		{"SQL in q", "GET", "/v1/context?entity=c&q=" + url.QueryEscape("'; DROP TABLE events; --"), "", 200},
		{"quotes and backslashes", "GET", "/v1/context?entity=" + url.QueryEscape(`c"\\'\`) + "&q=" + url.QueryEscape(`\"`), "", 200},
		{"control characters", "GET", "/v1/context?entity=" + url.QueryEscape("c\x00\x01\x1b[31m"), "", 200},
		{"redis hash tag braces", "GET", "/v1/context?entity=" + url.QueryEscape("{x}:}{"), "", 200},
		{"huge unicode entity", "GET", "/v1/context?entity=" + url.QueryEscape(huge), "", 400},
		{"huge question", "GET", "/v1/context?entity=c&q=" + url.QueryEscape(huge), "", 400},
		{"invalid UTF-8", "GET", "/v1/context?entity=%ff%fe", "", 400},
		{"negative k", "GET", "/v1/context?entity=c&k=-5", "", 400},
		{"k overflow", "GET", "/v1/context?entity=c&k=99999999999999999999", "", 400},
		{"window overflow", "GET", "/v1/context?entity=c&window=99999999999h", "", 400},
		{"negative window", "GET", "/v1/context?entity=c&window=-1m", "", 400},
		{"max_tokens huge", "GET", "/v1/context?entity=c&max_tokens=1000000000", "", 400},
		{"budget zero", "GET", "/v1/context?entity=c&budget_ms=0", "", 400},
		{"knowledge not a bool", "GET", "/v1/context?entity=c&knowledge=maybe", "", 400},
		{"JSON not an object", "POST", "/v1/context", `["entity"]`, 400},
		{"JSON wrong type", "POST", "/v1/context", `{"entity": 42}`, 400},
		{"JSON trailing garbage", "POST", "/v1/context", `{"entity":"c"} {`, 200},
		{"JSON unknown field", "POST", "/v1/context", `{"entity":"c","tenant":"other"}`, 400},
		{"JSON deeply nested", "POST", "/v1/context", strings.Repeat(`{"a":`, 10000), 400},
		{"body too large", "POST", "/v1/context", `{"entity":"` + strings.Repeat("a", 70000) + `"}`, 413},
		{"search filter operators", "POST", "/v1/search", `{"q":"x","filter":{"$where":"1=1","a')":"' OR 1=1"}}`, 404},
		{"timeline cursor garbage", "GET", "/v1/entities/c/events?cursor=!!!", "", 404},
		{"unknown method", "DELETE", "/v1/context", "", 404},
	} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.target, strings.NewReader(tc.body)))
		if rec.Code != tc.want {
			t.Errorf("%s: status %d, want %d: %s", tc.name, rec.Code, tc.want, rec.Body)
		}
		if rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"message":"`) {
			t.Errorf("%s: no error message: %s", tc.name, rec.Body)
		}
	}
}

// FuzzContextParams: no combination of parameters makes the handler fail with a
// 5xx or panic.
func FuzzContextParams(f *testing.F) {
	f.Add("customer:1", "where is my refund?", "15m", "10", "100", "1000", "true")
	f.Add("", "", "", "", "", "", "")
	f.Add("{x}", "'; --", "-1h", "0", "-1", "99999999999", "no")
	s := hostileServer(f)
	f.Fuzz(func(t *testing.T, entity, q, window, k, budget, maxTokens, knowledge string) {
		v := url.Values{"entity": {entity}, "q": {q}, "window": {window}, "k": {k}, "budget_ms": {budget},
			"max_tokens": {maxTokens}, "knowledge": {knowledge}}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/context?"+v.Encode(), nil))
		if rec.Code >= 500 {
			t.Fatalf("%v: %d %s", v, rec.Code, rec.Body)
		}
	})
}
