// Package wire holds the start-up steps both binaries share: opening the store
// (refusing a database with pending migrations), building the embedder (refusing
// one that does not match the stored vectors), and the logger.
package wire

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
)

// Embedder is what both services need from an embedder.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dims() int
	Model() string
}

// Stores are what both services open at start.
type Stores struct {
	// PG holds settings, backfill checkpoints and session summaries, and, unless
	// `store: milvus`, the vectors too.
	PG *pgstore.Store
	// Vectors is where events and knowledge live: PG or Milvus.
	Vectors  store.VectorStore
	Embedder Embedder
	closers  []func()
}

// Close releases everything Open opened.
func (s *Stores) Close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
}

// Open connects to PostgreSQL (and Milvus with `store: milvus`) and builds the
// embedder, after checking that the schema is current, that a model provider
// answers with the configured dimensions, and that the embedder matches the
// vectors already stored.
func Open(ctx context.Context, cfg *config.Config, reg prometheus.Registerer, log *slog.Logger) (*Stores, error) {
	st, emb, closeAll, err := open(ctx, cfg, reg, log, claimShared)
	if err != nil {
		return nil, err
	}
	s := &Stores{PG: st, Embedder: emb, closers: []func(){closeAll}}
	vs, closeVectors, err := vectors(ctx, cfg, st)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.Vectors, s.closers = vs, append(s.closers, closeVectors)
	return s, nil
}

// OpenForReembed connects to PostgreSQL and builds the embedder as Open does,
// but accepts an embedder other than the stored vectors', and holds the store
// exclusively (no service may run while its vectors are made again), unless
// for a dry run, which writes nothing.
func OpenForReembed(ctx context.Context, cfg *config.Config, reg prometheus.Registerer, log *slog.Logger, dryRun bool) (*pgstore.Store, Embedder, func(), error) {
	if dryRun {
		return open(ctx, cfg, reg, log, claimNone)
	}
	return open(ctx, cfg, reg, log, claimExclusive)
}

// How open claims the store.
const (
	claimShared    = iota // a service: and the embedder must be the stored vectors'
	claimExclusive        // a re-embedding
	claimNone             // a dry run of one
)

// open connects, refuses pending migrations and builds the embedder; then,
// for a service, claims the store (shared) and checks the embedder against the
// stored vectors, or, for a re-embedding, claims it exclusively.
func open(ctx context.Context, cfg *config.Config, reg prometheus.Registerer, log *slog.Logger, claim int) (st *pgstore.Store, emb Embedder, closeAll func(), err error) {
	st, err = pgstore.Connect(ctx, cfg.Postgres)
	if err != nil {
		return nil, nil, nil, err
	}
	closers := []func(){st.Close}
	cleanup := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	defer func() {
		if err != nil {
			cleanup() // the named results are nil by now
		}
	}()
	pending, err := st.Pending(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(pending) > 0 {
		return nil, nil, nil, fmt.Errorf("database schema is not up to date (pending: %s): run `ingest migrate -config FILE` first", strings.Join(pending, ", "))
	}
	if cfg.Embedder.Provider == embed.ProviderLocal {
		if emb, err = embed.NewLocalFromConfig(cfg.Embedder); err != nil {
			return nil, nil, nil, fmt.Errorf("embedder.%w", err)
		}
	} else {
		c, err := embed.NewClient(cfg.Embedder, embed.NewMetrics(reg), log)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("embedder.%w", err)
		}
		closers = append(closers, c.Close)
		if err := c.Check(ctx); err != nil {
			return nil, nil, nil, err
		}
		emb = c
	}
	if claim != claimNone {
		release, err := st.Claim(ctx, claim == claimExclusive)
		if err != nil {
			return nil, nil, nil, err
		}
		closers = append(closers, release)
	}
	if claim == claimShared {
		if err := st.CheckEmbedding(ctx, emb.Model(), emb.Dims()); err != nil {
			return nil, nil, nil, err
		}
	}
	log.Info("embedder ready", "model", emb.Model(), "dims", emb.Dims())
	if reg != nil {
		// The model in use, for a dashboard (after ingest reembed, that the
		// services run the new one).
		info := prometheus.NewGauge(prometheus.GaugeOpts{Name: "freshctx_embedder_info",
			Help:        "The embedding model in use, in its labels (model, dims); always 1.",
			ConstLabels: prometheus.Labels{"model": emb.Model(), "dims": strconv.Itoa(emb.Dims())}})
		info.Set(1)
		if err := reg.Register(info); err != nil {
			return nil, nil, nil, err
		}
	}
	return st, emb, cleanup, nil
}

// Logger returns a slog logger writing to w at level ("debug", "info", "warn",
// "error") in format ("text" or "json").
func Logger(w io.Writer, level, format string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level: %q is not one of debug, info, warn, error", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("-log-format: %q is not one of text, json", format)
}

// Common holds the flags both binaries take.
type Common struct {
	fs        *flag.FlagSet
	stderr    io.Writer
	config    *string
	logLevel  *string
	logFormat *string
}

// Flags defines -config, -log-level and -log-format on fs, whose usage prints usage.
func Flags(fs *flag.FlagSet, usage string, stderr io.Writer) *Common {
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	return &Common{fs: fs, stderr: stderr,
		config:    fs.String("config", "", "path to the YAML configuration file (required)"),
		logLevel:  fs.String("log-level", "info", "debug, info, warn or error"),
		logFormat: fs.String("log-format", "text", "text or json"),
	}
}

// Parse parses args, then builds the logger and loads the configuration.
func (c *Common) Parse(args []string, getenv func(string) string) (*config.Config, *slog.Logger, error) {
	if err := c.fs.Parse(args); err != nil {
		return nil, nil, err
	}
	if *c.config == "" {
		c.fs.Usage()
		return nil, nil, errors.New("-config: required")
	}
	log, err := Logger(c.stderr, *c.logLevel, *c.logFormat)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := config.Load(*c.config, getenv)
	return cfg, log, err
}

// Registry returns a metrics registry with the Go runtime and process collectors.
func Registry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Avro returns the Schema Registry decoder when a source reads Avro, else nil.
func Avro(cfg *config.Config) (*cdc.Avro, error) {
	if !cfg.NeedsAvro() {
		return nil, nil
	}
	return cdc.NewAvro(cfg.SchemaRegistry)
}

// vectors returns the configured vector store: pg itself, or Milvus with
// `store: milvus` (checked to have been set up by `ingest migrate`).
func vectors(ctx context.Context, cfg *config.Config, pg *pgstore.Store) (store.VectorStore, func(), error) {
	if cfg.Store != config.StoreMilvus {
		return pg, func() {}, nil
	}
	return openMilvus(ctx, cfg)
}

// Serve serves h on addr (nothing when addr is empty) until the returned stop is
// called; flag names the setting in errors, path what the log line points to.
func Serve(addr, flag, path string, h http.Handler, log *slog.Logger) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // returns on Shutdown
	log.Info("serving", "url", "http://"+ln.Addr().String()+path)
	return func() { srv.Shutdown(context.Background()) }, nil //nolint:errcheck
}

// Pprof serves Go's /debug/pprof on addr (nothing when addr is empty) until the
// returned stop is called.
func Pprof(addr string, log *slog.Logger) (stop func(), err error) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	return Serve(addr, "-pprof-listen", "/debug/pprof/", mux, log)
}
