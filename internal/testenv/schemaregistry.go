package testenv

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// SchemaRegistry is a local server for the Schema Registry REST calls the
// confluent-kafka-go client makes: register a schema under a subject, fetch a
// schema by id or GUID. It keeps schemas in memory, one id per distinct schema.
type SchemaRegistry struct {
	URL string

	mu      sync.Mutex
	schemas []string       // by id-1
	byText  map[string]int // schema text → id
	Unknown []string       // requests it could not answer, for debugging tests
}

// NewSchemaRegistry starts the server; it stops with the test.
func NewSchemaRegistry(t testing.TB) *SchemaRegistry {
	sr := &SchemaRegistry{byText: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(sr.serve))
	t.Cleanup(srv.Close)
	sr.URL = srv.URL
	return sr
}

func guidOf(id int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", id) }

func (sr *SchemaRegistry) serve(w http.ResponseWriter, r *http.Request) {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	w.Header().Set("Content-Type", "application/vnd.schemaregistry.v1+json")
	notFound := func() {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error_code":40403,"message":"Schema not found"}`)
	}
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/subjects/") && strings.HasSuffix(path, "/versions"):
		var req struct {
			Schema string `json:"schema"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Schema == "" {
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"error_code":42201,"message":"Invalid schema"}`)
			return
		}
		id, ok := sr.byText[req.Schema]
		if !ok {
			sr.schemas = append(sr.schemas, req.Schema)
			id = len(sr.schemas)
			sr.byText[req.Schema] = id
		}
		json.NewEncoder(w).Encode(map[string]any{"id": id, "guid": guidOf(id), "schema": req.Schema})
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/schemas/ids/"):
		id, err := strconv.Atoi(strings.TrimPrefix(path, "/schemas/ids/"))
		if err != nil || id < 1 || id > len(sr.schemas) {
			notFound()
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"schema": sr.schemas[id-1], "guid": guidOf(id)})
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/schemas/guids/"):
		g := strings.TrimPrefix(path, "/schemas/guids/")
		for i, s := range sr.schemas {
			if guidOf(i+1) == g {
				json.NewEncoder(w).Encode(map[string]any{"schema": s, "id": i + 1})
				return
			}
		}
		notFound()
	default:
		sr.Unknown = append(sr.Unknown, r.Method+" "+r.URL.String())
		notFound()
	}
}
