package testenv

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// EmbeddingServer is an OpenAI-compatible embeddings endpoint (POST /v1/embeddings,
// float or base64 encoding) that answers every request after Delay with
// deterministic unit vectors, and counts what it was sent.
type EmbeddingServer struct {
	URL      string // base URL, ending in /v1
	Dims     int
	Requests atomic.Int64
	Texts    atomic.Int64
}

// NewEmbeddingServer starts a server answering after delay; it stops with the test.
func NewEmbeddingServer(t testing.TB, dims int, delay time.Duration) *EmbeddingServer {
	s := &EmbeddingServer{Dims: dims}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input          []string `json:"input"`
			EncodingFormat string   `json:"encoding_format"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		time.Sleep(delay)
		s.Requests.Add(1)
		s.Texts.Add(int64(len(req.Input)))
		data := make([]map[string]any, len(req.Input))
		for i, text := range req.Input {
			v := vector(text, dims)
			var emb any = v
			if req.EncodingFormat == "base64" {
				b := make([]byte, 4*dims)
				for j, x := range v {
					binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
				}
				emb = base64.StdEncoding.EncodeToString(b)
			}
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": emb}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "fake"})
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/v1"
	return s
}

// vector derives a unit vector from the text's hash.
func vector(text string, dims int) []float32 {
	v := make([]float32, dims)
	h := sha256.Sum256([]byte(text))
	var norm float64
	for i := range v {
		x := float32(int8(h[i%32]^byte(i))) / 128
		v[i] = x
		norm += float64(x * x)
	}
	inv := float32(1 / math.Sqrt(norm))
	for i := range v {
		v[i] *= inv
	}
	return v
}
