package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"math"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/pipeline"
)

// Each subcommand has its own flags and help: a flag of another command is an
// error, not silently ignored, and -h teaches the command asked about.
func TestSubcommandsHaveTheirOwnFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string // "" with help: flag.ErrHelp
		help []string
		not  []string
	}{
		{args: []string{"run", "-config", "x.yaml", "-job", "refunds"}, err: "flag provided but not defined: -job"},
		{args: []string{"-config", "x.yaml", "-dry-run"}, err: "flag provided but not defined: -dry-run"},
		{args: []string{"migrate", "-config", "x.yaml", "-metrics-listen", ":1"}, err: "flag provided but not defined: -metrics-listen"},
		{args: []string{"bogus"}, err: `unknown command "bogus"`},
		{args: []string{"backfill", "-h"}, help: []string{"ingest backfill:", "-dry-run", "-restart", "-rejects"}, not: []string{"ingest run:"}},
		{args: []string{"migrate", "-h"}, help: []string{"ingest migrate:", "advisory lock"}, not: []string{"-dry-run", "-metrics-listen"}},
		{args: []string{"-h"}, help: []string{"ingest run:", "-metrics-listen", "ingest COMMAND -h"}, not: []string{"-dry-run"}},
	} {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, func(string) string { return "" }, &out, &out)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: err %v, want %q", tc.args, err, tc.err)
		case tc.err == "" && !errors.Is(err, flag.ErrHelp):
			t.Errorf("%v: err %v, want help", tc.args, err)
		}
		for _, w := range tc.help {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: help lacks %q:\n%s", tc.args, w, out.String())
			}
		}
		for _, w := range tc.not {
			if strings.Contains(out.String(), w) {
				t.Errorf("%v: help shows %q, which belongs to another command", tc.args, w)
			}
		}
	}
}

// With a real broker, ingest sets the collector's target (75) and a soft memory
// limit sized from the pipeline's budget, unless GOGC or GOMEMLIMIT choose.
func TestMemorySettingsDefaultUnlessTheEnvironmentChooses(t *testing.T) {
	prevGC, prevLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	defer func() { debug.SetGCPercent(prevGC); debug.SetMemoryLimit(prevLimit) }()
	cfg := &config.Config{Embedder: embed.Config{Provider: embed.ProviderLocal, Dims: 384},
		Pipeline: pipeline.Config{MaxInflightRecords: 20000, MaxInflightBytes: 16 << 20}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	setMemoryLimit(cfg, func(string) string { return "" }, log)
	if gc := debug.SetGCPercent(100); gc != gcPercent {
		t.Errorf("GOGC %d, want %d", gc, gcPercent)
	}
	if limit, want := debug.SetMemoryLimit(math.MaxInt64), cfg.Pipeline.GoMemoryLimit(4*384, 0); limit != want {
		t.Errorf("memory limit %d, want %d", limit, want)
	}

	env := map[string]string{"GOGC": "200", "GOMEMLIMIT": "1GiB"}
	setMemoryLimit(cfg, func(k string) string { return env[k] }, log)
	if gc := debug.SetGCPercent(100); gc != 100 {
		t.Errorf("GOGC set in the environment, but ingest set %d", gc)
	}
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set in the environment, but ingest set %d", limit)
	}
}
