package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/freshctx/freshctx/config"
)

// growthCase is one way of asking: the recent cache or the store, with or
// without the knowledge search.
type growthCase struct {
	name, window, params string
}

var growthCases = []growthCase{
	{"cache, knowledge on", "15m", ""},
	{"cache, knowledge off", "15m", "knowledge=false"},
	{"store, knowledge on", "90m", ""},
	{"store, knowledge off", "90m", "knowledge=false"},
}

type growthPoint struct {
	Events    int     `json:"events"`
	Case      string  `json:"case"`
	PerSecond float64 `json:"requests_per_second"`
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	Errors    float64 `json:"errors"`
	Degraded  float64 `json:"degraded"`
	Served    any     `json:"served_from"`
	Ranked    float64 `json:"candidates_per_answer"`
	LoadAvg   string  `json:"loadavg_at_start"`
}

// growth measures the context API as the store grows: for each size it seeds
// the benchmark store (loadtest seed), starts contextapi (its own process) and
// runs loadtest query for each case (recent cache or store; knowledge on or
// off), then draws throughput and p99 against the size.
func growth(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest growth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	apiBin := fs.String("contextapi", "bin/contextapi", "the contextapi binary to run")
	cfgPath := fs.String("config", "examples/bench.yaml", "the benchmark configuration (its schema and Redis prefix are reset for every size); api.listen is where the queries go")
	sizes := fs.String("sizes", "100000,1000000,5000000", "comma-separated store sizes in events (seeded over 2 h, half of them in the 1 h Redis window)")
	clients := fs.Int("clients", 16, "concurrent clients of each query run")
	duration := fs.Duration("duration", 10*time.Second, "length of each query run")
	out := fs.String("out", "", "directory for the report: growth.json, growth.md, growth-throughput.svg, growth-p99.svg")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ns, err := intList("-sizes", *sizes, 1000, 50_000_000)
	if err != nil {
		return err
	}
	if _, err := os.Stat(*apiBin); err != nil {
		return fmt.Errorf("-contextapi: %w (build it: go build -o bin/ ./cmd/contextapi)", err)
	}
	cfg, err := config.Load(*cfgPath, func(string) string { return "" })
	if err != nil {
		return err
	}
	listen := cfg.API.Listen
	var points []growthPoint
	fmt.Fprintln(stdout, "| events | case | events ranked per answer | requests/s | p50 | p99 | errors | degraded | served from | load average |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|---|")
	for _, n := range ns {
		fmt.Fprintf(stderr, "growth: seeding %d events\n", n)
		if err := seed(ctx, []string{"-config", *cfgPath, "-events", strconv.Itoa(n)}, io.Discard, stderr); err != nil {
			return fmt.Errorf("seeding %d events: %w", n, err)
		}
		stop, err := startAPI(ctx, *apiBin, *cfgPath, listen)
		if err != nil {
			return err
		}
		for _, c := range growthCases {
			load := loadAvg()
			var buf bytes.Buffer
			qa := []string{"-api", "http://" + listen, "-clients", strconv.Itoa(*clients), "-duration", duration.String(), "-window", c.window, "-json"}
			if c.params != "" {
				qa = append(qa, "-params", c.params)
			}
			if err := query(ctx, qa, &buf, stderr); err != nil {
				stop()
				return fmt.Errorf("%d events, %s: %w", n, c.name, err)
			}
			var res map[string]any
			if err := json.Unmarshal(buf.Bytes(), &res); err != nil {
				stop()
				return err
			}
			f := func(k string) float64 { v, _ := res[k].(float64); return v }
			p := growthPoint{Events: n, Case: c.name, PerSecond: f("requests_per_s"), P50: f("p50_ms"), P99: f("p99_ms"),
				Errors: f("errors"), Degraded: f("degraded"), Served: res["served_from"], Ranked: f("candidates_per_answer"), LoadAvg: load}
			points = append(points, p)
			fmt.Fprintf(stdout, "| %d | %s | %.1f | %.0f | %.2f ms | %.2f ms | %.0f | %.0f | %v | %s |\n", n, c.name, p.Ranked, p.PerSecond, p.P50, p.P99, p.Errors, p.Degraded, p.Served, load)
		}
		stop()
	}
	if *out == "" {
		return nil
	}
	return writeGrowthReport(*out, "loadtest growth "+strings.Join(args, " "), ns, points)
}

// startAPI runs contextapi until the returned stop is called, once it answers
// /readyz.
func startAPI(ctx context.Context, bin, cfg, listen string) (stop func(), err error) {
	cmd := exec.Command(bin, "-config", cfg)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	exited, stop, err := startChild(cmd, 20*time.Second)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if res, err := http.Get("http://" + listen + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return stop, nil
			}
		}
		select {
		case <-exited:
			return nil, fmt.Errorf("contextapi exited: %s", logs.String())
		case <-ctx.Done():
			stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("contextapi not ready on %s within 60s: %s", listen, logs.String())
		}
	}
}

func writeGrowthReport(dir, command string, sizes []int, points []growthPoint) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	j, _ := json.MarshalIndent(map[string]any{"command": command, "started": time.Now().UTC(), "points": points}, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "growth.json"), append(j, '\n'), 0o644); err != nil {
		return err
	}
	xs := make([]float64, len(sizes))
	for i, n := range sizes {
		xs[i] = float64(n)
	}
	curves := func(pick func(growthPoint) float64) []series {
		var out []series
		for _, c := range growthCases {
			s := series{name: c.name}
			for _, n := range sizes {
				for _, p := range points {
					if p.Events == n && p.Case == c.name {
						s.ys = append(s.ys, pick(p))
					}
				}
			}
			out = append(out, s)
		}
		return out
	}
	charts := map[string]string{
		"growth-throughput.svg": lineChart("context API requests/s against store size", "events stored", "requests/s", xs, curves(func(p growthPoint) float64 { return p.PerSecond })),
		"growth-p99.svg":        lineChart("context API p99 latency against store size", "events stored", "p99 ms", xs, curves(func(p growthPoint) float64 { return p.P99 })),
	}
	for name, svg := range charts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(svg), 0o644); err != nil {
			return err
		}
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# loadtest growth\n\n`%s`\n\n| events | case | events ranked per answer | requests/s | p50 ms | p99 ms | errors | degraded | served from | load average |\n|---|---|---|---|---|---|---|---|---|---|\n", command)
	for _, p := range points {
		fmt.Fprintf(&md, "| %d | %s | %.1f | %.0f | %.2f | %.2f | %.0f | %.0f | %v | %s |\n", p.Events, p.Case, p.Ranked, p.PerSecond, p.P50, p.P99, p.Errors, p.Degraded, p.Served, p.LoadAvg)
	}
	md.WriteString("\n![throughput](growth-throughput.svg)\n\n![p99](growth-p99.svg)\n")
	return os.WriteFile(filepath.Join(dir, "growth.md"), []byte(md.String()), 0o644)
}
