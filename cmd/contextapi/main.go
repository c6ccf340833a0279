// Command contextapi serves fresh, ranked context about an entity to LLM agents
// over HTTP. Run `contextapi -h` for usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/cmd/internal/wire"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/store/rediscache"
)

const usage = `contextapi: serve an entity's recent events, ranked for a question, to LLM agents.

Usage:
  contextapi -config FILE [flags]

Routes:
  GET  /v1/context?entity=customer:42&q=where+is+my+refund&window=15m&k=10
  POST /v1/context   {"entity":"customer:42","q":"...","window":"15m","k":10,"budget_ms":50,"max_tokens":800}
                     add session=ID to put the conversation's memory first
  POST /v1/search    knowledge search with attribute filters
  GET  /v1/entities/{entity}/events   an entity's timeline, newest first, cursor paging
  GET  /v1/sessions/{id}/memory?q=    a conversation's memory: persona, summary, newest
                     turns, question (with sessions: in the config)
  /mcp               Model Context Protocol (get_context, search_knowledge,
                     get_session_memory, read_latest)
  GET  /openapi.yaml the API described
  GET  /healthz      the process is up
  GET  /readyz       PostgreSQL reachable (Redis is reported; its outage only degrades answers)
  GET  /metrics      Prometheus metrics

Answers come from the Redis recent cache when it covers the window, else from
the store (PostgreSQL, or Milvus with store: milvus), within the latency budget (budget_ms, default api.budget); fallbacks are
listed in meta.degraded and stage timings in meta.stages_ms and Server-Timing.

Environment: FRESHCTX_API_LISTEN, FRESHCTX_POSTGRES_DSN, FRESHCTX_REDIS_ADDR,
FRESHCTX_REDIS_PASSWORD, FRESHCTX_MILVUS_ADDR override the file.

Builds: make build ships contextapi lean (no Milvus client); with store: milvus it
runs contextapi-full, beside it, in its place (docs/adr/0017-lean-and-full-builds.md).

Example:
  contextapi -config examples/demo.yaml
  curl -s 'http://127.0.0.1:8080/v1/context?entity=customer:1001&q=where+is+my+refund' | jq

Flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "contextapi:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("contextapi", flag.ContinueOnError)
	common := wire.Flags(fs, usage, stderr)
	pprofAddr := fs.String("pprof-listen", "", "serve Go's /debug/pprof on this address (off when empty; never expose it publicly)")
	cfg, log, err := common.Parse(args, getenv)
	if err != nil {
		return err
	}
	if err := wire.HandOver(wire.NeedsFull(cfg, false), log); err != nil {
		return err
	}
	reg := wire.Registry()
	stores, err := wire.Open(ctx, cfg, reg, log)
	if err != nil {
		return err
	}
	defer stores.Close()
	st, vs, emb := stores.PG, stores.Vectors, stores.Embedder
	cache, err := rediscache.New(cfg.Redis)
	if err != nil {
		return err
	}
	defer cache.Close()
	var opts []api.Option
	if len(cfg.API.ReadLatestTopics) > 0 {
		avro, err := wire.Avro(cfg)
		if err != nil {
			return err
		}
		reader, err := kafkaio.NewReader(cfg.Kafka, cfg.Sources, avro)
		if err != nil {
			return err
		}
		opts = append(opts, api.WithLatestReader(api.LatestReaderOf(reader.ReadLatest)))
	}
	if cfg.Sessions != nil {
		opts = append(opts, api.WithSessions(*cfg.Sessions, st))
	}
	// Freshness: ingest publishes watermarks in Redis; every replica reads them
	// and is woken by their changes (one subscription per process).
	var topics []string
	for _, s := range cfg.Sources {
		topics = append(topics, s.Topic)
	}
	opts = append(opts, api.WithFreshness(topics, cache, cache.WatchWatermarks(ctx)))
	if *cfg.Redis.ChangesPerEntity > 0 {
		// Live subscriptions: each open stream holds one blocking read.
		cache.SetSubscriptions(cfg.API.MaxStreams)
		opts = append(opts, api.WithChangeStream(cache))
	}
	// Knowledge searches are cached where document writes are announced (NOTIFY
	// on PostgreSQL) and reads see them at once (no replica).
	if w, ok := vs.(api.KnowledgeWatcher); ok && *cfg.API.KnowledgeCache > 0 && !st.HasReadReplica() {
		opts = append(opts, api.WithKnowledgeCache(ctx, w, *cfg.API.KnowledgeCache))
	}
	relevance.WarmUpInBackground() // WordNet and CC-CEDICT for question expansion: /readyz waits for them, questions do not
	go func() {
		relevance.LoadLexicons() // (returns when the background load is done)
		lemmas, words := relevance.Lexicons()
		if lemmas == 0 {
			log.Warn("WordNet not found: questions are not expanded with synonyms (make setup installs wordnet-base)", "dir", relevance.WordNetDir)
		}
		if words == 0 {
			log.Warn("CC-CEDICT not found: no translations between English and Chinese (make setup fetches it)", "file", relevance.CEDICTFile)
		}
		log.Info("question expansion loaded", "wordnet_lemmas", lemmas, "cedict_words", words)
	}()
	if th := cfg.API.Lexicon; th != nil {
		log.Info("thesaurus loaded", "files", cfg.API.Thesaurus, "entries", th.Entries())
	} else {
		log.Info("thesaurus off (api.thesaurus: [])")
	}
	srv := &http.Server{
		Handler:           api.New(cfg.API, emb, vs, cache, log, reg, opts...),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      15 * time.Second,
	}
	stopPprof, err := wire.Pprof(*pprofAddr, log)
	if err != nil {
		return err
	}
	defer stopPprof()
	ln, err := net.Listen("tcp", cfg.API.Listen)
	if err != nil {
		return fmt.Errorf("api.listen: %w", err)
	}
	log.Info("context API listening", "url", "http://"+ln.Addr().String(), "tenant", cfg.API.Tenant)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	log.Info("context API stopped")
	return nil
}
