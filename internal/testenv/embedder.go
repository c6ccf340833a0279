package testenv

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/freshctx/freshctx/embed"
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

// LocalEmbedder is the local embedder as the default config makes it: with
// the word vectors `make setup` installs (embed.DefaultWordVectors). Without
// them the test fails (skipped with -short), since figures measured without
// them are not the default's.
func LocalEmbedder(t testing.TB, dims int) *embed.Local {
	t.Helper()
	emb, err := embed.NewLocalFromConfig(embed.Config{Provider: embed.ProviderLocal, Dims: dims})
	if err != nil {
		if testing.Short() {
			t.Skipf("%v; skipped with -short", err)
		}
		t.Fatalf("%v", err)
	}
	return emb
}
