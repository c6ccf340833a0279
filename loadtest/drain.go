package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
	"gopkg.in/yaml.v3"
)

// drainTopics are the topics the produce mix writes to.
var drainTopics = []string{"shop.public.tickets", "support.chat"}

// drainRun is one measurement: ingest draining a backlog produced before it
// started, on a broker of its own.
type drainRun struct {
	Partitions  int     `json:"partitions"`
	Backlog     int64   `json:"backlog_records"`
	Seconds     float64 `json:"drain_seconds"`
	PerSecond   float64 `json:"records_per_second"`
	PeakRSSMB   float64 `json:"peak_rss_mb"`
	MedianRSSMB float64 `json:"median_rss_mb"`
	// PeakAnonMB is the most private memory seen (RssAnon, sampled): RSS
	// without the binary's file pages, which the page cache shares and may map
	// in huge pages (~55 MB of ingest's RSS here).
	PeakAnonMB   float64 `json:"peak_private_rss_mb"`
	PeakHeapMB   float64 `json:"peak_go_heap_mb"`
	LoadAvgStart string  `json:"loadavg_at_start"`
	CPU          *cpuUse `json:"cpu,omitempty"` // with -cpu: per component while draining
}

// drain measures ingest (its own process, the given binary and config, in a
// schema and key prefix of its own: drainConfig) draining a backlog: records
// per second from the first record consumed to the last one acknowledged, and
// its memory (VmHWM, the median VmRSS while draining, the Go heap), for each
// backlog size and partition count asked for.
func drain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest drain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ingestBin := fs.String("ingest", "bin/ingest", "the ingest binary to run")
	cfgPath := fs.String("config", "examples/demo.yaml", "ingest's configuration; its sources must read the produce mix's topics (shop.public.tickets, support.chat); kafka.brokers is set to this command's broker")
	backlogs := fs.String("backlogs", "300000", "comma-separated backlog sizes, in events of the produce mix (one run each)")
	partitions := fs.String("partitions", "8", "comma-separated partition counts of the topics (one run each)")
	listen := fs.String("listen", "127.0.0.1:19093", "where the broker listens (an in-memory kfake in this process, new for every run)")
	env := fs.String("env", "", "extra environment for ingest, comma-separated KEY=VALUE (e.g. GOMEMLIMIT=100MiB)")
	timeout := fs.Duration("timeout", 10*time.Minute, "a run that has not drained within this fails")
	out := fs.String("out", "", "directory for the report: drain.json, drain.md and a chart per varied dimension (drain-backlog.svg, drain-partitions.svg)")
	embedDelay := fs.Duration("embedder-delay", 0, "run a stand-in model provider as its own process (loadtest embedder) taking this long per request, and point ingest at it instead of the config's embedder (0: the config's embedder)")
	cpu := fs.Bool("cpu", false, "also report the CPU time each component used per 1,000 records while draining (ingest, the broker, PostgreSQL, Redis, the embedding server; read from /proc)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *embedDelay < 0 {
		return errors.New("-embedder-delay: must not be negative")
	}
	sizes, err := intList("-backlogs", *backlogs, 1000, 20_000_000)
	if err != nil {
		return err
	}
	parts, err := intList("-partitions", *partitions, 1, 1024)
	if err != nil {
		return err
	}
	if _, err := os.Stat(*ingestBin); err != nil {
		return fmt.Errorf("-ingest: %w (build it: go build -o bin/ ./cmd/ingest)", err)
	}
	var extraEnv []string
	for _, kv := range strings.Split(*env, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		if !strings.Contains(kv, "=") {
			return fmt.Errorf("-env: %q is not KEY=VALUE", kv)
		}
		extraEnv = append(extraEnv, kv)
	}
	// ingest writes to a schema and key prefix of its own (drainConfig).
	var ingestConfig string
	var cleanup func()
	if *embedDelay > 0 {
		ingestConfig, cleanup, err = startEmbedder(ctx, *cfgPath, *embedDelay, stderr)
	} else {
		ingestConfig, cleanup, err = drainConfig(ctx, *cfgPath, nil)
	}
	if err != nil {
		return err
	}
	defer cleanup()
	var runs []drainRun
	fmt.Fprintln(stdout, "| partitions | backlog (records) | drain | records/s | peak RSS | median RSS | peak private RSS | peak Go heap | load average at start |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|---|")
	for _, np := range parts {
		for _, n := range sizes {
			r, err := drainOnce(ctx, drainSetup{bin: *ingestBin, config: ingestConfig, listen: *listen, partitions: np, events: n,
				env: extraEnv, timeout: *timeout, cpu: *cpu}, stderr)
			if err != nil {
				return fmt.Errorf("%d partitions, %d events: %w", np, n, err)
			}
			runs = append(runs, r)
			fmt.Fprintf(stdout, "| %d | %d | %.1f s | %.0f | %.0f MB | %.0f MB | %.0f MB | %.0f MB | %s |\n", r.Partitions, r.Backlog, r.Seconds,
				r.PerSecond, r.PeakRSSMB, r.MedianRSSMB, r.PeakAnonMB, r.PeakHeapMB, r.LoadAvgStart)
		}
	}
	for _, r := range runs {
		if r.CPU != nil {
			fmt.Fprintf(stdout, "\nCPU per component while draining %d records on %d partitions:\n\n%s", r.Backlog, r.Partitions,
				r.CPU.table(int(r.Backlog), "records"))
		}
	}
	if *out == "" {
		return nil
	}
	return writeDrainReport(*out, "loadtest drain "+strings.Join(args, " "), runs, len(sizes) > 1, len(parts) > 1)
}

type drainSetup struct {
	bin, config, listen string
	partitions, events  int
	env                 []string
	timeout             time.Duration
	cpu                 bool
}

func drainOnce(ctx context.Context, s drainSetup, stderr io.Writer) (drainRun, error) {
	r := drainRun{Partitions: s.partitions, LoadAvgStart: loadAvg()}
	c, err := newBroker(s.listen, s.partitions)
	if err != nil {
		return r, err
	}
	defer c.Close()
	addr := c.ListenAddrs()[0]
	if r.Backlog, err = produceBacklog(ctx, addr, s.events, s.partitions); err != nil {
		return r, err
	}
	fmt.Fprintf(stderr, "drain: %d records on %d partitions; starting ingest\n", r.Backlog, s.partitions)

	metricsAddr, err := freeAddr()
	if err != nil {
		return r, err
	}
	logPath := filepath.Join(os.TempDir(), fmt.Sprintf("freshctx-drain-%d.log", os.Getpid()))
	logFile, err := os.Create(logPath)
	if err != nil {
		return r, err
	}
	defer logFile.Close()
	cmd := exec.Command(s.bin, "run", "-config", s.config, "-metrics-listen", metricsAddr)
	// A group of its own: nothing left from another run (or a process still
	// shutting down on the same port) can have committed offsets for it.
	group := fmt.Sprintf("freshctx-drain-%d-%d", os.Getpid(), time.Now().UnixNano())
	cmd.Env = append(append(os.Environ(), "FRESHCTX_KAFKA_BROKERS="+addr, "FRESHCTX_KAFKA_GROUP="+group), s.env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	exited, stop, err := startChild(cmd, 30*time.Second)
	if err != nil {
		return r, err
	}

	var rss []float64
	var first, last, moved time.Time
	var stopCPU func() (*cpuUse, error)
	var seen float64
	deadline := time.After(s.timeout)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			stop()
			return r, ctx.Err()
		case <-exited:
			return r, fmt.Errorf("ingest exited early (%v); its log: %s", cmd.ProcessState, logPath)
		case <-deadline:
			stop()
			return r, fmt.Errorf("not drained within %s; ingest's log: %s", s.timeout, logPath)
		case <-tick.C:
		}
		mem := procMemory(cmd.Process.Pid)
		r.PeakRSSMB, r.PeakAnonMB = max(r.PeakRSSMB, mem.hwm), max(r.PeakAnonMB, mem.anon)
		if i%2 != 0 {
			continue
		}
		m, err := scrapeMetrics("http://" + metricsAddr + "/metrics")
		if err != nil {
			continue // not listening yet
		}
		r.PeakHeapMB = max(r.PeakHeapMB, m["go_memstats_heap_inuse_bytes"]/(1<<20))
		consumed := m["freshctx_ingest_consumed_total"]
		if consumed > 0 && first.IsZero() {
			first = time.Now()
			if stopCPU, err = startCPU(s.cpu); err != nil {
				stop()
				return r, err
			}
		}
		if !first.IsZero() {
			rss = append(rss, mem.rss)
		}
		if int64(consumed) >= r.Backlog && m["freshctx_ingest_inflight_records"] == 0 {
			last = time.Now()
			if r.CPU, err = stopCPU(); err != nil {
				stop()
				return r, err
			}
			break
		}
		if consumed != seen || moved.IsZero() {
			seen, moved = consumed, time.Now()
		} else if time.Since(moved) > time.Minute {
			stop()
			return r, fmt.Errorf("stalled: %.0f of %d records consumed and nothing more for a minute; ingest's log: %s", consumed, r.Backlog, logPath)
		}
	}
	mem := procMemory(cmd.Process.Pid)
	r.PeakRSSMB, r.PeakAnonMB = max(r.PeakRSSMB, mem.hwm), max(r.PeakAnonMB, mem.anon)
	stop()
	r.Seconds = last.Sub(first).Seconds()
	r.PerSecond = float64(r.Backlog) / r.Seconds
	r.MedianRSSMB = median(rss)
	_ = os.Remove(logPath)
	return r, nil
}

// produceBacklog produces events of the produce mix as fast as the broker takes
// them and returns how many records the topics hold (tombstones included).
func produceBacklog(ctx context.Context, addr string, events, partitions int) (int64, error) {
	p, err := newMixProducer(addr)
	if err != nil {
		return 0, err
	}
	defer p.Close()
	if _, err := (mix{entities: 10000, skew: 1.1, debezium: 0.6, limit: events}).run(ctx, p, time.Hour); err != nil {
		return 0, err
	}
	for p.Flush(1000) > 0 {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
	}
	var total int64
	for _, t := range drainTopics {
		for part := 0; part < partitions; part++ {
			lo, hi, err := p.QueryWatermarkOffsets(t, int32(part), 10000)
			if err != nil {
				return 0, fmt.Errorf("reading %s[%d]'s offsets: %w", t, part, err)
			}
			total += hi - lo
		}
	}
	return total, nil
}

// scrapeMetrics reads a Prometheus text exposition and sums each metric's
// samples over their labels.
func scrapeMetrics(url string) (map[string]float64, error) {
	res, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, errors.New(res.Status)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		sp := strings.LastIndexByte(line, ' ')
		if sp < 0 {
			continue
		}
		name := line[:sp]
		if i := strings.IndexByte(name, '{'); i >= 0 {
			name = name[:i]
		}
		v, err := strconv.ParseFloat(line[sp+1:], 64)
		if err == nil {
			out[name] += v
		}
	}
	return out, sc.Err()
}

// memory is a process's VmRSS, VmHWM and RssAnon in MB.
type memory struct{ rss, hwm, anon float64 }

// procMemory reads a process's memory (zeros when unreadable).
func procMemory(pid int) (m memory) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			m.rss = kb / 1024
		case "VmHWM:":
			m.hwm = kb / 1024
		case "RssAnon:":
			m.anon = kb / 1024
		}
	}
	return m
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func intList(flagName, s string, lo, hi int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < lo || v > hi {
			return nil, fmt.Errorf("%s: %q is not a whole number in [%d, %d]", flagName, f, lo, hi)
		}
		out = append(out, v)
	}
	return out, nil
}

func writeDrainReport(dir, command string, runs []drainRun, byBacklog, byPartitions bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	j, _ := json.MarshalIndent(map[string]any{"command": command, "started": time.Now().UTC(), "runs": runs}, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "drain.json"), append(j, '\n'), 0o644); err != nil {
		return err
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# loadtest drain\n\n`%s`\n\n", command)
	md.WriteString("| partitions | backlog (records) | drain s | records/s | peak RSS MB | median RSS MB | peak private RSS MB | peak Go heap MB | load average at start |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range runs {
		fmt.Fprintf(&md, "| %d | %d | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f | %s |\n", r.Partitions, r.Backlog, r.Seconds, r.PerSecond, r.PeakRSSMB, r.MedianRSSMB, r.PeakAnonMB, r.PeakHeapMB, r.LoadAvgStart)
	}
	if byBacklog {
		xs, peak, med, anon, heap := []float64{}, []float64{}, []float64{}, []float64{}, []float64{}
		for _, r := range runs {
			xs, peak, med, heap = append(xs, float64(r.Backlog)), append(peak, r.PeakRSSMB), append(med, r.MedianRSSMB), append(heap, r.PeakHeapMB)
			anon = append(anon, r.PeakAnonMB)
		}
		svg := lineChart("ingest memory against backlog", "backlog (records)", "MB", xs,
			[]series{{"peak RSS", peak}, {"median RSS", med}, {"peak private RSS", anon}, {"peak Go heap", heap}})
		if err := os.WriteFile(filepath.Join(dir, "drain-backlog.svg"), []byte(svg), 0o644); err != nil {
			return err
		}
		md.WriteString("\n![memory against backlog](drain-backlog.svg)\n")
	}
	if byPartitions {
		xs, rate := []float64{}, []float64{}
		for _, r := range runs {
			xs, rate = append(xs, float64(r.Partitions)), append(rate, r.PerSecond)
		}
		svg := lineChart("ingest throughput against partitions", "partitions", "records/s", xs, []series{{"records/s", rate}})
		if err := os.WriteFile(filepath.Join(dir, "drain-partitions.svg"), []byte(svg), 0o644); err != nil {
			return err
		}
		md.WriteString("\n![throughput against partitions](drain-partitions.svg)\n")
	}
	return os.WriteFile(filepath.Join(dir, "drain.md"), []byte(md.String()), 0o644)
}

// startChild starts cmd and returns a channel closed when it exits and a stop
// that sends SIGTERM and kills it after grace.
func startChild(cmd *exec.Cmd, grace time.Duration) (exited chan struct{}, stop func(), err error) {
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	exited = make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	return exited, func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(grace):
			_ = cmd.Process.Kill()
			<-exited
		}
	}, nil
}

// drainSchema and drainKeyPrefix hold what ingest writes while draining: the
// backlog's synthetic customers and watermarks must not end up in the
// configured stores (the demo's, by default), and a stand-in provider's vectors
// are another model's, which those stores must never mix with their own
// (ingest refuses to, by the recorded model).
const (
	drainSchema    = "freshctx_drain"
	drainKeyPrefix = "fcdrain"
)

// drainConfig writes a copy of the config whose PostgreSQL schema is
// drainSchema (reset and migrated) and whose Redis keys start with
// drainKeyPrefix (the previous run's removed). edit may change the copy
// before it is written. It returns the copy's path and a function that
// removes it.
func drainConfig(ctx context.Context, cfgPath string, edit func(doc map[string]any, cfg *config.Config)) (string, func(), error) {
	raw, err := os.ReadFile(cfgPath)
	if err != nil {
		return "", nil, fmt.Errorf("-config: %w", err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return "", nil, fmt.Errorf("-config: %w", err)
	}
	cfg, err := config.Load(cfgPath, os.Getenv)
	if err != nil {
		return "", nil, err
	}
	u, err := url.Parse(cfg.Postgres.DSN)
	if err != nil || u.Scheme == "" {
		return "", nil, fmt.Errorf("drain needs postgres.dsn as a URL (postgres://…), to give the run a schema of its own")
	}
	q := u.Query()
	q.Set("search_path", drainSchema+",public")
	u.RawQuery = q.Encode()
	if err := resetSchema(ctx, u.String()); err != nil {
		return "", nil, err
	}
	pg := cfg.Postgres
	pg.DSN = u.String()
	st, err := pgstore.Connect(ctx, pg)
	if err != nil {
		return "", nil, err
	}
	_, err = st.Migrate(ctx)
	st.Close()
	if err != nil {
		return "", nil, err
	}
	rc := cfg.Redis
	rc.KeyPrefix = drainKeyPrefix
	cache, err := rediscache.New(rc)
	if err != nil {
		return "", nil, err
	}
	err = cache.DropAll(ctx) // the previous run's keys
	cache.Close()
	if err != nil {
		return "", nil, fmt.Errorf("redis: %w", err)
	}
	setIn := func(section, key string, v any) {
		m, _ := doc[section].(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		m[key] = v
		doc[section] = m
	}
	setIn("postgres", "dsn", u.String())
	setIn("redis", "key_prefix", drainKeyPrefix)
	if edit != nil {
		edit(doc, cfg)
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("freshctx-drain-%d.yaml", os.Getpid()))
	if err := os.WriteFile(path, out, 0o600); err != nil {
		return "", nil, err
	}
	return path, func() { os.Remove(path) }, nil
}

// startEmbedder runs `loadtest embedder` (this binary) as its own process on a
// free port, with the dimensions of the config's embedder, and writes a drain
// config (drainConfig) whose embedder is that server. It returns the config's
// path and a function that stops the server and removes the config.
func startEmbedder(ctx context.Context, cfgPath string, delay time.Duration, stderr io.Writer) (string, func(), error) {
	addr, err := freeAddr()
	if err != nil {
		return "", nil, err
	}
	var dims int
	path, remove, err := drainConfig(ctx, cfgPath, func(doc map[string]any, cfg *config.Config) {
		dims = cfg.Embedder.Dims
		doc["embedder"] = map[string]any{"provider": "openai", "base_url": "http://" + addr + "/v1", "model": "fake", "dims": dims}
	})
	if err != nil {
		return "", nil, err
	}
	self, err := os.Executable()
	if err != nil {
		remove()
		return "", nil, err
	}
	cmd := exec.Command(self, "embedder", "-listen", addr, "-dims", fmt.Sprint(dims), "-delay", delay.String())
	cmd.Stdout, cmd.Stderr = stderr, stderr
	_, stop, err := startChild(cmd, 5*time.Second)
	if err != nil {
		remove()
		return "", nil, err
	}
	for i := 0; ; i++ { // until it listens
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if i == 100 {
			stop()
			remove()
			return "", nil, fmt.Errorf("the embedding server did not listen on %s: %w", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintf(stderr, "drain: ingest embeds through a stand-in provider at http://%s/v1 (%s per request)\n", addr, delay)
	return path, func() { stop(); remove() }, nil
}
