package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store/pgstore"
)

func writeConfig(t *testing.T, dsn, redisAddr, prefix, listen string) string {
	t.Helper()
	text := fmt.Sprintf(`
postgres: {dsn: %q}
redis: {addr: %q, key_prefix: %q}
api: {listen: %q, tenant: acme, auth: {mode: none}, budget: 5s}  # generous: tests must hold on a loaded machine
sources:
  - {name: chat, topic: chat, format: json, key: "{{.id}}", tenant: acme, entity: "customer:{{.c}}", text: "{{.text}}"}
`, dsn, redisAddr, prefix, listen)
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunServesAndShutsDown(t *testing.T) {
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	listen := ln.Addr().String()
	ln.Close()
	cfg := writeConfig(t, dsn, redisAddr, prefix, listen)

	// Before migrations: a clear refusal.
	var logs bytes.Buffer
	err := run(context.Background(), []string{"-config", cfg}, os.Getenv, &logs, &logs)
	if err == nil || !strings.Contains(err.Error(), "run `ingest migrate -config FILE` first") {
		t.Fatalf("unmigrated database: err = %v", err)
	}
	st, err := pgstore.Connect(context.Background(), pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	st.Close()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-config", cfg, "-log-format", "json"}, os.Getenv, &bytes.Buffer{}, &bytes.Buffer{})
	}()
	base := "http://" + listen
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := http.Get(base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, err := http.Get(base + "/v1/context?entity=customer:1&q=refund")
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	json.NewDecoder(res.Body).Decode(&body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || body["context"] == nil {
		t.Fatalf("context: %d %v", res.StatusCode, body)
	}
	res, _ = http.Get(base + "/metrics")
	var metrics bytes.Buffer
	metrics.ReadFrom(res.Body)
	res.Body.Close()
	if !strings.Contains(metrics.String(), `freshctx_api_request_seconds_count{code="200",route="/v1/context"} 1`) {
		t.Errorf("metrics lack the request:\n%s", metrics.String())
	}
	if !regexp.MustCompile(`freshctx_embedder_info\{dims="\d+",model="[^"]+"\} 1`).MatchString(metrics.String()) {
		t.Errorf("metrics lack the embedding model:\n%s", metrics.String())
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("did not shut down")
	}
}

func TestRunUsage(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), nil, os.Getenv, &out, &out); err == nil || !strings.Contains(out.String(), "GET  /v1/context") {
		t.Fatalf("no -config: err = %v, output:\n%s", err, out.String())
	}
}

// With a model provider, the start-up check compares its dimensions with the
// configuration before serving anything.
func TestRunChecksProviderDimensions(t *testing.T) {
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)
	st, err := pgstore.Connect(context.Background(), pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	st.Close()
	srv := testenv.NewEmbeddingServer(t, 32, 0)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	listen := ln.Addr().String()
	ln.Close()
	cfg := writeConfig(t, dsn, redisAddr, prefix, listen)
	text, _ := os.ReadFile(cfg)
	withDims := func(dims int) string {
		p := filepath.Join(t.TempDir(), "p.yaml")
		os.WriteFile(p, append(text, []byte(fmt.Sprintf("embedder: {provider: openai, base_url: %q, model: fake, dims: %d, api_key_env: FAKE_KEY}\n", srv.URL, dims))...), 0o600)
		return p
	}
	err = run(context.Background(), []string{"-config", withDims(64)}, func(string) string { return "" }, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "embedder.dims: configured 64, but openai:fake-64 returns 32 dimensions") {
		t.Fatalf("dims mismatch: err = %v", err)
	}
	// the local embedder's word vectors, missing, or too many for dims
	for yaml, want := range map[string]string{
		"embedder: {word_vectors: /nonexistent/vectors.txt}\n": "embedder.word_vectors: open /nonexistent/vectors.txt: no such file or directory (make setup installs",
		"embedder: {dims: 128}\n":                              "embedder.dims: 128 leaves fewer than 64 dimensions beside the 100 of word_vectors: 164 at least, or word_vectors: none",
	} {
		p := filepath.Join(t.TempDir(), "wv.yaml")
		os.WriteFile(p, append(text, yaml...), 0o600)
		err = run(context.Background(), []string{"-config", p}, func(string) string { return "" }, &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", strings.TrimSpace(yaml), err, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-config", withDims(32)}, func(string) string { return "" }, &bytes.Buffer{}, &bytes.Buffer{})
	}()
	before := srv.Requests.Load()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := http.Get("http://" + listen + "/readyz")
		if err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("not serving with matching dims")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("matching dims: %v", err)
	}
	if srv.Requests.Load() == before {
		t.Fatal("the provider was never asked for the start-up check")
	}
}
