package testenv

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/freshctx/freshctx/internal/fakeembed"
)

// EmbeddingServer is an OpenAI-compatible embeddings endpoint (fakeembed): it
// answers every request after a delay with deterministic unit vectors and
// counts what it was sent (Requests, Texts).
type EmbeddingServer struct {
	*fakeembed.Handler
	URL string // base URL, ending in /v1
}

// NewEmbeddingServer starts a server answering after delay; it stops with the test.
func NewEmbeddingServer(t testing.TB, dims int, delay time.Duration) *EmbeddingServer {
	h := &fakeembed.Handler{Dims: dims, Delay: delay}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &EmbeddingServer{Handler: h, URL: srv.URL + "/v1"}
}
