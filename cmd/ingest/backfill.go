package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/freshctx/freshctx/backfill"
	"github.com/freshctx/freshctx/cmd/internal/wire"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/store/rediscache"
)

type backfillFlags struct {
	job               string
	restart, dryRun   bool
	rate, embedRate   float64
	concurrency       int
	rejects, progress string
}

func runBackfill(ctx context.Context, cfg *config.Config, log *slog.Logger, f backfillFlags, metricsAddr string, stdout, stderr io.Writer) error {
	job, err := pickJob(cfg, f.job)
	if err != nil {
		return err
	}
	if f.rate >= 0 {
		job.RecordsPerSecond = f.rate
	}
	if f.embedRate >= 0 {
		job.EmbedCallsPerSecond = f.embedRate
	}
	if f.concurrency > 0 {
		job.Concurrency = f.concurrency
	}
	if f.rejects != "" {
		job.Rejects = f.rejects
	}
	show, err := progressPrinter(f.progress, stderr, log, "backfill")
	if err != nil {
		return err
	}
	reg := wire.Registry()
	stores, err := wire.Open(ctx, cfg, reg, log)
	if err != nil {
		return err
	}
	defer stores.Close()
	st, vs, emb := stores.PG, stores.Vectors, stores.Embedder
	var cache pipeline.Cache
	if !f.dryRun {
		c, err := rediscache.New(cfg.Redis)
		if err != nil {
			return err
		}
		defer c.Close()
		if err := c.Ping(ctx); err != nil {
			log.Warn("redis unreachable; backfilling into postgres only (readers fall back to it)", "redis", cfg.Redis.Where(), "err", err)
		}
		cache = c
	}
	avro, err := wire.Avro(cfg)
	if err != nil {
		return err
	}
	stopMetrics, err := serveMetrics(metricsAddr, reg, log)
	if err != nil {
		return err
	}
	defer stopMetrics()
	status, err := backfill.Run(ctx, cfg.Pipeline, job, cfg.Sources, backfill.Deps{
		Deps:        pipeline.Deps{Embedder: emb, Store: vs, Cache: cache, Avro: avro, Logger: log, Metrics: pipeline.NewMetrics(reg)},
		Checkpoints: st, Kafka: cfg.Kafka, PostgresDSN: cfg.Postgres.DSN,
	}, backfill.Options{Restart: f.restart, DryRun: f.dryRun, Progress: show})
	show(backfill.Status{}) // end the live line
	summary(stdout, job, status)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(stdout, "interrupted: run the same command again to resume\n")
		return nil
	}
	return err
}

func pickJob(cfg *config.Config, name string) (backfill.Job, error) {
	var names []string
	for _, j := range cfg.Backfill {
		if j.Name == name || (name == "" && len(cfg.Backfill) == 1) {
			return j, nil
		}
		names = append(names, j.Name)
	}
	switch {
	case len(cfg.Backfill) == 0:
		return backfill.Job{}, errors.New("backfill: the config has no backfill jobs (see docs/backfill.md)")
	case name == "":
		return backfill.Job{}, fmt.Errorf("-job: required, the config has %d jobs: %s", len(names), strings.Join(names, ", "))
	default:
		return backfill.Job{}, fmt.Errorf("-job: no job named %q (have: %s)", name, strings.Join(names, ", "))
	}
}

// progressPrinter returns what shows a job's progress (what: "backfill",
// "reembed"): a line rewritten in place on a terminal (at most 4 times a
// second), else a log line every 10 s. A zero status ends the live line.
func progressPrinter(mode string, w io.Writer, log *slog.Logger, what string) (func(backfill.Status), error) {
	if mode == "auto" {
		mode = "log"
		if f, ok := w.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				mode = "line"
			}
		}
	}
	last := time.Now() // the first log line comes after an interval, not at once
	var shown bool
	switch mode {
	case "line":
		return func(s backfill.Status) {
			if s.Job == "" {
				if shown {
					fmt.Fprintln(w)
				}
				return
			}
			if time.Since(last) < 250*time.Millisecond && !s.Finished {
				return
			}
			last, shown = time.Now(), true
			fmt.Fprintf(w, "\r\033[K%s", progressLine(s))
		}, nil
	case "log":
		return func(s backfill.Status) {
			if s.Job == "" || s.Finished || time.Since(last) < 10*time.Second {
				return // the end is in the summary
			}
			last = time.Now()
			attrs := []any{"job", s.Job, "done", s.Done, "total", s.Total, "unit", s.Unit,
				s.Item(), s.Counts[s.Item()], "rate", int(s.Rate()), "eta", s.ETA().Round(time.Second)}
			if rejected, ok := s.Counts["rejected"]; ok {
				attrs = append(attrs, "rejected", rejected)
			}
			log.Info(what+" progress", attrs...)
		}, nil
	default:
		return nil, fmt.Errorf("-progress: %q is not one of auto, line, log", mode)
	}
}

func progressLine(s backfill.Status) string {
	var b strings.Builder
	item := s.Item()
	fmt.Fprintf(&b, "%s  %s %s", s.Job, count(s.Counts[item]), item)
	if s.Total > 0 {
		fmt.Fprintf(&b, "  %5.1f%%", 100*float64(s.Done)/float64(s.Total))
		if s.Unit == item {
			fmt.Fprintf(&b, " of %s", count(s.Total))
		}
	}
	fmt.Fprintf(&b, "  %s %s/s", count(int64(s.Rate())), item)
	if eta := s.ETA(); eta > 0 {
		fmt.Fprintf(&b, "  ETA %s", eta.Round(time.Second))
	}
	if rejected, ok := s.Counts["rejected"]; ok {
		fmt.Fprintf(&b, "  rejected %s", count(rejected))
	}
	return b.String()
}

func summary(w io.Writer, job backfill.Job, s backfill.Status) {
	if s.Job == "" {
		return
	}
	state := "stopped"
	switch {
	case s.Finished && s.RunRecords == 0 && s.Resumed:
		state = "already finished (-restart runs it again)"
	case s.Finished:
		state = "finished"
	}
	if s.DryRun {
		state += " (dry run: nothing was written)"
	}
	fmt.Fprintf(w, "backfill %s: %s\n", s.Job, state)
	if s.RunRecords > 0 || !s.Finished {
		fmt.Fprintf(w, "  this run: %s records in %s (%s records/s)\n", count(s.RunRecords), s.Elapsed.Round(time.Millisecond), count(int64(s.Rate())))
	}
	keys := make([]string, 0, len(s.Counts))
	for k := range s.Counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	total := "  all runs:"
	if s.DryRun {
		total = "  would be:"
	}
	for _, k := range keys {
		total += fmt.Sprintf(" %s %s,", k, count(s.Counts[k]))
	}
	fmt.Fprintln(w, strings.TrimSuffix(total, ","))
	if n := s.Counts["rejected"]; n > 0 && !s.DryRun {
		fmt.Fprintf(w, "  rejected records (with the reason) are in %s\n", job.Rejects)
	}
}

// count renders n with thousands separators.
func count(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
