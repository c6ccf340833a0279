// Command ingest consumes Kafka topics (Debezium change events and plain JSON
// events) into the event store (PostgreSQL + pgvector) and the recent-events cache
// (Redis). Run `ingest -h` for usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/sync/errgroup"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/cmd/internal/wire"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/session"
	"github.com/freshctx/freshctx/session/builder"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

const usage = `ingest: consume Kafka topics into the freshctx event store and recent cache.

Usage:
  ingest [run] -config FILE [flags]   consume until SIGINT/SIGTERM, then drain and commit
  ingest migrate -config FILE         apply pending database migrations (and, with
                                      store: milvus, create the Milvus collections), then exit
  ingest backfill -config FILE [-job NAME] [flags]
                                      load existing data (a PostgreSQL table or query,
                                      JSON Lines files, or a topic's history) through
                                      the same path; resumable
  ingest reembed -config FILE         make every stored vector again with the configured
                                      embedder after changing it; resumable

Each command has its own flags: ingest COMMAND -h.

Environment: FRESHCTX_KAFKA_BROKERS, FRESHCTX_KAFKA_GROUP, FRESHCTX_POSTGRES_DSN,
FRESHCTX_REDIS_ADDR, FRESHCTX_REDIS_PASSWORD, FRESHCTX_MILVUS_ADDR override the file.
GOMEMLIMIT replaces ingest's soft memory limit (32 MiB + 2 × pipeline.max_inflight_bytes
+ 2 × the vectors of max_inflight_records and of the provider's embedder.cache_entries;
none with the development broker, which keeps every record in ingest's memory), and
GOGC its collector target (75 instead of Go's 100: less memory for a little more CPU).

Builds: make build ships ingest lean (no Milvus client, no development broker); with
store: milvus or an empty kafka.brokers it runs ingest-full, beside it, in its place
(docs/adr/0017-lean-and-full-builds.md).
`

const runUsage = `ingest run: consume the sources' topics into the store and the recent cache.

Usage:
  ingest [run] -config FILE [flags]

Each source in the config maps one topic to events (see docs/configuration.md).
Offsets are committed only after every earlier record of the partition is stored
or dead-lettered; stopping with SIGINT/SIGTERM drains in-flight work first.

When kafka.brokers is empty (and FRESHCTX_KAFKA_BROKERS unset), ingest starts an
in-process development broker on kafka.dev_broker (default 127.0.0.1:19092),
with the source topics created. It keeps data in memory only: for development.

Sessions: with sessions.summary in the config, ingest also runs the session
summary builder, in its own consumer group (sessions.summary.group), beside the
pipeline.

Examples:
  ingest -config examples/demo.yaml
  ingest run -config examples/demo.yaml -metrics-listen 127.0.0.1:9464 -log-format json

Other commands: ingest migrate, ingest backfill, ingest reembed (ingest COMMAND -h).

Flags:
`

const migrateUsage = `ingest migrate: apply pending database migrations, then exit.

Usage:
  ingest migrate -config FILE

Safe to run from several processes at once (an advisory lock serialises them) and
as often as you like: it prints "schema is up to date" when nothing is pending.
With store: milvus it also creates and loads the Milvus collections.

Example:
  ingest migrate -config examples/demo.yaml

Flags:
`

const backfillUsage = `ingest backfill: load existing data through the live write path.

Usage:
  ingest backfill -config FILE [-job NAME] [flags]

Jobs are listed under backfill: in the config: a PostgreSQL table or query, JSON
Lines files, or a topic's history replayed without a consumer group. A job writes
with versions below every live version, so it never replaces what the live
pipeline wrote, and any live change replaces what it wrote: run it beside ingest.
Progress is checkpointed in PostgreSQL after every page; SIGINT finishes the page
in hand and stops, and running the same command again resumes (after SIGKILL, the
last page is redone; writes are idempotent). Bad records go to the job's rejects
file and the job goes on. -dry-run reads, maps and compares with what is stored,
and writes nothing.

Examples:
  ingest backfill -config examples/demo.yaml -job refunds-2025 -dry-run
  ingest backfill -config examples/demo.yaml -job refunds-2025 -rate 5000 -restart

Flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "ingest:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	help := map[string]string{"run": usage + "\n" + runUsage, "migrate": migrateUsage, "backfill": backfillUsage, "reembed": reembedUsage}[cmd]
	switch {
	case cmd == "help":
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	case help == "":
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q (want run, migrate, backfill or reembed)", cmd)
	}
	// Each command has its own flags: a flag another command takes is an error
	// here, not silently ignored.
	fs := flag.NewFlagSet("ingest "+cmd, flag.ContinueOnError)
	common := wire.Flags(fs, help, stderr)
	var metricsAddr, pprofAddr *string
	var bf backfillFlags
	var re reembedFlags
	switch cmd {
	case "run":
		metricsAddr = fs.String("metrics-listen", "127.0.0.1:9464", "address for /metrics and /healthz (empty: off)")
	case "backfill":
		metricsAddr = fs.String("metrics-listen", "", "address for /metrics and /healthz while the job runs (empty: off)")
		fs.StringVar(&bf.job, "job", "", "the job to run (optional when the config has one)")
		fs.BoolVar(&bf.restart, "restart", false, "forget the job's checkpoint and start over")
		fs.BoolVar(&bf.dryRun, "dry-run", false, "report what would be written; write nothing")
		fs.Float64Var(&bf.rate, "rate", -1, "records per second (0: unlimited; default: the job's records_per_second)")
		fs.Float64Var(&bf.embedRate, "embed-rate", -1, "embedding calls per second (0: unlimited; default: the job's embed_calls_per_second)")
		fs.IntVar(&bf.concurrency, "concurrency", 0, "parallel lanes (default: the job's concurrency, else 4)")
		fs.StringVar(&bf.rejects, "rejects", "", "file that rejected records are appended to (default: the job's rejects)")
		fs.StringVar(&bf.progress, "progress", "auto", "progress display: auto (a live line on a terminal, else log lines), line, log")
	case "reembed":
		fs.IntVar(&re.batch, "batch", 0, "texts per embedding call and per write (default: pipeline.batch_size)")
		fs.StringVar(&re.progress, "progress", "auto", "progress display: auto (a live line on a terminal, else log lines), line, log")
		fs.BoolVar(&re.dryRun, "dry-run", false, "say what would be re-embedded (models, counts); write nothing (services may run meanwhile)")
		fs.StringVar(&re.copyFrom, "copy-from", "", "store: milvus only: the milvus.prefix of the collections to copy from (the config's milvus.prefix is the new one)")
	}
	if cmd != "migrate" {
		pprofAddr = fs.String("pprof-listen", "", "serve Go's /debug/pprof on this address (off when empty; never expose it publicly)")
	}
	cfg, log, err := common.Parse(args, getenv)
	if err != nil {
		return err
	}
	if err := wire.HandOver(wire.NeedsFull(cfg, cmd == "run"), log); err != nil {
		return err
	}
	// Ingest reads its own writes (prior versions, checkpoints, turns): the
	// primary only; postgres.read_dsn is for the API.
	cfg.Postgres.ReadDSN = ""
	if pprofAddr != nil {
		stopPprof, err := wire.Pprof(*pprofAddr, log)
		if err != nil {
			return err
		}
		defer stopPprof()
	}
	switch cmd {
	case "migrate":
		return migrate(ctx, cfg, stdout)
	case "backfill":
		return runBackfill(ctx, cfg, log, bf, *metricsAddr, stdout, stderr)
	case "reembed":
		return runReembed(ctx, cfg, log, re, stdout, stderr)
	default:
		return ingest(ctx, cfg, log, *metricsAddr)
	}
}

func migrate(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	st, err := pgstore.Connect(ctx, cfg.Postgres)
	if err != nil {
		return err
	}
	defer st.Close()
	applied, err := st.Migrate(ctx)
	for _, name := range applied {
		fmt.Fprintln(stdout, "applied", name)
	}
	if err != nil {
		return err
	}
	if len(applied) == 0 {
		fmt.Fprintln(stdout, "schema is up to date")
	}
	if cfg.Store == config.StoreMilvus {
		return wire.SetupMilvus(ctx, cfg, stdout)
	}
	// The knowledge index depends on the configured vector size.
	if err := st.EnsureChunkIndex(ctx, cfg.Embedder.Dims); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "knowledge index ready for %d-dimensional vectors\n", cfg.Embedder.Dims)
	return nil
}

// devBroker is the in-process development broker that ingest starts when
// kafka.brokers is empty (devbroker.go; not in the lean build).
type devBroker interface {
	ListenAddrs() []string
	Close()
}

func ingest(ctx context.Context, cfg *config.Config, log *slog.Logger, metricsAddr string) error {
	if cfg.Kafka.Brokers != "" {
		setMemoryLimit(cfg, os.Getenv, log)
	} else {
		// No memory limit with the development broker: it keeps every record
		// in this process's heap, beyond any limit, and the collector would run
		// without end trying to stay under it.
		cluster, err := startDevBroker(cfg)
		if err != nil {
			return err
		}
		defer cluster.Close()
		cfg.Kafka.Brokers = cluster.ListenAddrs()[0]
		log.Warn("no kafka.brokers configured: started an in-process development broker; its data lives in memory only",
			"addr", cfg.Kafka.Brokers)
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
	if err := cache.Start(ctx); err != nil {
		log.Warn("redis unreachable; ingesting into postgres only until it is back", "redis", cfg.Redis.Where(), "err", err)
	}
	avro, err := wire.Avro(cfg)
	if err != nil {
		return err
	}
	p, err := pipeline.New(cfg.Pipeline, cfg.Kafka, cfg.Sources, pipeline.Deps{
		Embedder: emb, Store: vs, Cache: cache, Avro: avro, Logger: log, Metrics: pipeline.NewMetrics(reg), Watermarks: cache,
	})
	if err != nil {
		return err
	}
	var summaries *builder.Builder
	if sc := cfg.Sessions; sc != nil && sc.Summary != nil {
		if summaries, err = newBuilder(cfg, avro, st, vs, log, reg); err != nil {
			return err
		}
	}
	stopMetrics, err := serveMetrics(metricsAddr, reg, log)
	if err != nil {
		return err
	}
	defer stopMetrics()
	if summaries == nil {
		return p.Run(ctx)
	}
	// The summary builder reads the turn topic in its own consumer group, beside
	// the pipeline; either one failing stops both.
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return p.Run(gctx) })
	g.Go(func() error { return summaries.Run(gctx) })
	return g.Wait()
}

func newBuilder(cfg *config.Config, avro *cdc.Avro, st *pgstore.Store, turns builder.TurnReader, log *slog.Logger, reg *prometheus.Registry) (*builder.Builder, error) {
	sc := *cfg.Sessions
	sum, err := session.NewSummariser(*sc.Summary)
	if err != nil {
		return nil, fmt.Errorf("sessions.%w", err)
	}
	for _, s := range cfg.Sources {
		if s.Name == sc.Source {
			return builder.NewBuilder(sc, cfg.Kafka, s, avro, st, turns, sum, log.With("component", "summaries"), builder.NewMetrics(reg))
		}
	}
	return nil, fmt.Errorf("sessions.source: %q is not the name of a source", sc.Source)
}

// serveMetrics serves /metrics and /healthz on addr (nothing when addr is empty)
// until the returned stop is called.
func serveMetrics(addr string, reg *prometheus.Registry, log *slog.Logger) (stop func(), err error) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, `{"status":"ok"}`) })
	return wire.Serve(addr, "-metrics-listen", "/metrics", mux, log)
}

// gcPercent is ingest's GOGC unless the environment sets one: the heap may grow
// to 1.75 times what is live between collections instead of 2 times. Draining
// a backlog, that cut the peak RSS from 121-127 to 112-114 MB for ~7% more of
// ingest's CPU per record (BENCHMARKS.md, "Ingest memory"); the pipeline
// benchmark with a 20 ms provider was unchanged (it waits on PostgreSQL).
const gcPercent = 75

// setMemoryLimit gives the Go runtime a soft memory limit sized from the
// pipeline's in-flight budget and the vectors it holds
// (pipeline.Config.GoMemoryLimit), unless GOMEMLIMIT sets one, and GOGC
// gcPercent unless GOGC sets one.
func setMemoryLimit(cfg *config.Config, getenv func(string) string, log *slog.Logger) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") != "" {
		return
	}
	var cached int64 // vectors the provider client caches (the local embedder keeps none)
	if cfg.Embedder.Provider != embed.ProviderLocal {
		cached = int64(max(cfg.Embedder.CacheEntries, 0))
	}
	limit := cfg.Pipeline.GoMemoryLimit(4*int64(cfg.Embedder.Dims), cached)
	debug.SetMemoryLimit(limit)
	log.Debug("go soft memory limit", "bytes", limit,
		"from", "32 MiB + 2 × pipeline.max_inflight_bytes + 2 × (max_inflight_records + embedder.cache_entries) × 4 × dims (set GOMEMLIMIT to choose another)")
}
