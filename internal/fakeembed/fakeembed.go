// Package fakeembed is an OpenAI-compatible embeddings endpoint for tests and
// benchmarks: POST /v1/embeddings (float or base64 encoding) answers every
// request after a fixed delay with deterministic unit vectors derived from each
// text's hash, and counts what it was sent. It stands in for a model provider
// (a real one cannot run on the development machine); its vectors carry no
// meaning.
package fakeembed

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"net/http"
	"sync/atomic"
	"time"
)

// Handler serves the endpoint.
type Handler struct {
	Dims     int
	Delay    time.Duration // before every answer, whatever its size
	Requests atomic.Int64
	Texts    atomic.Int64
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input          []string `json:"input"`
		EncodingFormat string   `json:"encoding_format"`
	}
	if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	time.Sleep(h.Delay)
	h.Requests.Add(1)
	h.Texts.Add(int64(len(req.Input)))
	data := make([]map[string]any, len(req.Input))
	for i, text := range req.Input {
		v := Vector(text, h.Dims)
		var emb any = v
		if req.EncodingFormat == "base64" {
			b := make([]byte, 4*h.Dims)
			for j, x := range v {
				binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
			}
			emb = base64.StdEncoding.EncodeToString(b)
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": emb}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "fake"})
}

// Vector derives a unit vector of dims from the text's hash.
func Vector(text string, dims int) []float32 {
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
