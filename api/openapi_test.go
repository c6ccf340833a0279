package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/session"
	"github.com/freshctx/freshctx/store"
)

type openAPIDoc struct {
	Paths      map[string]map[string]any `yaml:"paths"`
	Components struct {
		Schemas map[string]struct {
			Properties map[string]any `yaml:"properties"`
		} `yaml:"schemas"`
	} `yaml:"components"`
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.Anonymous && f.Tag.Get("json") == "" {
			out = append(out, jsonFields(f.Type)...) // embedded: its fields are promoted
			continue
		}
		tag := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		if tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	sort.Strings(out)
	return out
}

// The document describes every route the server has and nothing else, and every
// field of every request and response type.
func TestOpenAPIMatchesTheCode(t *testing.T) {
	var doc openAPIDoc
	if err := yaml.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	l, _ := embed.NewLocal(8)
	s := New(Config{}, l, &fakeStore{}, nil, nil, nil, WithChangeStream(noChanges{}))
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			route := strings.ToUpper(method) + " " + path
			documented[route] = true
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(strings.ToUpper(method), strings.NewReplacer("{entity}", "customer:1", "{topic}", "t").Replace(path), strings.NewReader("{}"))
			s.ServeHTTP(rec, req)
			if strings.Contains(rec.Body.String(), `"code":"not_found","message":"no route`) {
				t.Errorf("%s is documented but not served", route)
			}
		}
	}
	for _, route := range s.routes {
		if !documented[route] {
			t.Errorf("%s is served but not documented", route)
		}
	}
	for name, typ := range map[string]reflect.Type{
		"ContextRequest": reflect.TypeOf(ContextRequest{}), "ContextResponse": reflect.TypeOf(ContextResponse{}),
		"Event": reflect.TypeOf(EventOut{}), "Meta": reflect.TypeOf(Meta{}), "Degraded": reflect.TypeOf(Degraded{}),
		"Hit": reflect.TypeOf(store.Hit{}), "Provenance": reflect.TypeOf(store.Provenance{}),
		"SearchRequest": reflect.TypeOf(SearchRequest{}), "SearchResponse": reflect.TypeOf(SearchResponse{}),
		"SearchMeta": reflect.TypeOf(SearchMeta{}), "TimelineResponse": reflect.TypeOf(TimelineResponse{}),
		"MemoryResponse": reflect.TypeOf(MemoryResponse{}), "MemoryMeta": reflect.TypeOf(MemoryMeta{}),
		"Summary": reflect.TypeOf(store.Summary{}), "Turn": reflect.TypeOf(session.Turn{}), "Message": reflect.TypeOf(session.Message{}),
		"StatusResponse": reflect.TypeOf(StatusResponse{}), "SourcePartition": reflect.TypeOf(SourcePartition{}),
		"LatestRecord": reflect.TypeOf(kafkaio.Latest{}), "DeadLetter": reflect.TypeOf(kafkaio.DeadLetter{}),
	} {
		schema, ok := doc.Components.Schemas[name]
		if !ok {
			t.Errorf("schema %s is missing", name)
			continue
		}
		var props []string
		for p := range schema.Properties {
			props = append(props, p)
		}
		sort.Strings(props)
		if got, want := strings.Join(props, ","), strings.Join(jsonFields(typ), ","); got != want {
			t.Errorf("schema %s has %s; the Go type has %s", name, got, want)
		}
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.yaml", nil))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), "openapi: 3") {
		t.Errorf("/openapi.yaml: %d", rec.Code)
	}
}

// noChanges is a change stream that cannot be read.
type noChanges struct{}

func (noChanges) LastChange(context.Context, string, string) (string, error) {
	return "", errors.New("no change stream")
}

func (noChanges) Changes(context.Context, string, string, string, int, time.Duration) ([]store.Change, error) {
	return nil, errors.New("no change stream")
}

// The answer types the document lists for meta.fusion.asks are the ones the
// ranking names.
func TestOpenAPIListsTheAnswerTypes(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Items struct {
						Enum []string `yaml:"enum"`
					} `yaml:"items"`
				} `yaml:"properties"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	var enum []string
	for _, s := range doc.Components.Schemas {
		if p, ok := s.Properties["asks"]; ok {
			enum = p.Items.Enum
		}
	}
	if want := relevance.AskNames(); !reflect.DeepEqual(enum, want) {
		t.Errorf("openapi.yaml lists asks %v, the ranking names %v", enum, want)
	}
}
