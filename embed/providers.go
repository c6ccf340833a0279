package embed

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
)

// wire is one provider's request and response format.
type wire interface {
	// request builds the HTTP request for texts.
	request(ctx context.Context, texts []string) (*http.Request, error)
	// decode reads a 200 response into one vector per text.
	decode(body []byte, n int) ([][]float32, error)
}

func newWire(cfg Config) (wire, error) {
	base := strings.TrimRight(cfg.BaseURL, "/")
	switch cfg.Provider {
	case ProviderOpenAI:
		return &openAIWire{url: base + "/embeddings", cfg: cfg}, nil
	case ProviderOllama:
		return &ollamaWire{url: base + "/api/embed", cfg: cfg}, nil
	case ProviderTEI:
		return &teiWire{url: base + "/embed", cfg: cfg}, nil
	}
	return nil, fmt.Errorf("provider: %q is not one of local, openai, ollama, tei", cfg.Provider)
}

func jsonRequest(ctx context.Context, url, apiKey string, body any) (*http.Request, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	return req, nil
}

// openAIWire speaks POST {base_url}/embeddings (OpenAI and compatible servers:
// vLLM, LM Studio, LocalAI, TEI's and Ollama's OpenAI routes). base_url ends in /v1,
// as in OpenAI's own clients.
type openAIWire struct {
	url string
	cfg Config
}

type openAIRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format,omitempty"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

func (w *openAIWire) request(ctx context.Context, texts []string) (*http.Request, error) {
	r := openAIRequest{Model: w.cfg.Model, Input: texts, EncodingFormat: w.cfg.EncodingFormat}
	if w.cfg.SendDimensions {
		r.Dimensions = w.cfg.Dims
	}
	return jsonRequest(ctx, w.url, w.cfg.APIKey, r)
}

func (w *openAIWire) decode(body []byte, n int) ([][]float32, error) {
	var resp struct {
		Data []struct {
			Index     int             `json:"index"`
			Embedding json.RawMessage `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("decoding response: %w", err)
	}
	if len(resp.Data) != n {
		return nil, fmt.Errorf("response has %d embeddings for %d inputs", len(resp.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("response has a bad or repeated index %d", d.Index)
		}
		v, err := decodeVector(d.Embedding)
		if err != nil {
			return nil, fmt.Errorf("embedding %d: %w", d.Index, err)
		}
		out[d.Index] = v
	}
	return out, nil
}

// decodeVector reads a JSON array of numbers or a base64 string of little-endian
// float32s (encoding_format=base64: a quarter of the bytes and no float parsing).
func decodeVector(raw json.RawMessage) ([]float32, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s []byte
		if len(raw) >= 2 && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
			s = raw[1 : len(raw)-1] // no escapes: the base64 text itself, unparsed
		} else {
			var str string
			if err := json.Unmarshal(raw, &str); err != nil {
				return nil, err
			}
			s = []byte(str)
		}
		b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
		n, err := base64.StdEncoding.Decode(b, s)
		if err != nil {
			return nil, fmt.Errorf("base64: %w", err)
		}
		b = b[:n]
		if len(b)%4 != 0 {
			return nil, fmt.Errorf("base64 embedding of %d bytes is not float32s", len(b))
		}
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
		}
		return v, nil
	}
	var v []float32
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// ollamaWire speaks Ollama's POST /api/embed with a batch input.
type ollamaWire struct {
	url string
	cfg Config
}

func (w *ollamaWire) request(ctx context.Context, texts []string) (*http.Request, error) {
	return jsonRequest(ctx, w.url, w.cfg.APIKey, map[string]any{"model": w.cfg.Model, "input": texts, "truncate": true})
}

func (w *ollamaWire) decode(body []byte, n int) ([][]float32, error) {
	var resp struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("decoding response: %w", err)
	}
	if len(resp.Embeddings) != n {
		return nil, fmt.Errorf("response has %d embeddings for %d inputs", len(resp.Embeddings), n)
	}
	return resp.Embeddings, nil
}

// teiWire speaks Hugging Face Text Embeddings Inference's POST /embed.
type teiWire struct {
	url string
	cfg Config
}

func (w *teiWire) request(ctx context.Context, texts []string) (*http.Request, error) {
	return jsonRequest(ctx, w.url, w.cfg.APIKey, map[string]any{"inputs": texts, "normalize": true, "truncate": true})
}

func (w *teiWire) decode(body []byte, n int) ([][]float32, error) {
	var resp [][]float32
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("decoding response: %w", err)
	}
	if len(resp) != n {
		return nil, fmt.Errorf("response has %d embeddings for %d inputs", len(resp), n)
	}
	return resp, nil
}

// errorMessage pulls the message out of an error body: OpenAI's
// {"error":{"message"}}, Ollama's and TEI's {"error": "..."}, else the text.
func errorMessage(body []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Error) > 0 {
		var s string
		if json.Unmarshal(e.Error, &s) == nil {
			return s
		}
		var o struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(e.Error, &o) == nil && o.Message != "" {
			return o.Message
		}
	}
	msg := strings.TrimSpace(string(body))
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return msg
}

func readBody(r io.Reader) ([]byte, error) { return io.ReadAll(io.LimitReader(r, 256<<20)) }
