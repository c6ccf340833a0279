package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/freshctx/freshctx/internal/ledger"
	"github.com/freshctx/freshctx/internal/pipetest"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

// The test binary doubles as the ingest process under test: with
// FRESHCTX_INGEST_CHILD set it runs `ingest` with those arguments and exits.
func TestMain(m *testing.M) {
	// As the full build a lean binary hands over to (lean_test.go): the
	// arguments are ingest's own.
	if os.Getenv("FRESHCTX_INGEST_AS_FULL") != "" {
		os.Setenv("FRESHCTX_INGEST_CHILD", strings.Join(os.Args[1:], " "))
	}
	if args := os.Getenv("FRESHCTX_INGEST_CHILD"); args != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		if err := run(ctx, strings.Fields(args), os.Getenv, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "ingest:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	ledger.PrintReports()
	os.Exit(code)
}

type child struct {
	cmd     *exec.Cmd
	metrics string
	out     *bytes.Buffer
}

func startChild(t *testing.T, cfgPath string) *child {
	t.Helper()
	metrics := freePort(t)
	c := startChildArgs(t, "-config "+cfgPath+" -metrics-listen "+metrics+" -log-level warn")
	c.metrics = metrics
	return c
}

// startChildArgs runs `ingest ARGS` as a child process.
func startChildArgs(t *testing.T, args string) *child {
	t.Helper()
	c := &child{out: &bytes.Buffer{}}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$")
	c.cmd.Env = append(os.Environ(), "FRESHCTX_INGEST_CHILD="+args)
	c.cmd.Stdout, c.cmd.Stderr = c.out, c.out
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			c.cmd.Process.Kill()
			c.cmd.Wait()
		}
	})
	return c
}

// processed scrapes the child's records counter (all results); -1 if it does not answer.
func (c *child) processed() int {
	res, err := http.Get("http://" + c.metrics + "/metrics")
	if err != nil {
		return -1
	}
	defer res.Body.Close()
	n := 0.0
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "freshctx_ingest_records_total{") {
			f, _ := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
			n += f
		}
	}
	return int(n)
}

func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	testenv.Eventually(t, what, timeout, cond)
}

// procEnv is a broker, schema, Redis prefix, group and migrated configuration
// for tests that run ingest as child processes.
type procEnv struct {
	brokers, dsn, redisAddr, prefix, group, cfgPath string
}

// newProcEnv writes the ledger source's configuration with kafka's consumer
// properties and the pipeline section given (YAML flow maps) and migrates.
func newProcEnv(t *testing.T, topic string, partitions int32, dims int, consumerProps, pipelineYAML string, opts ...kfake.Opt) procEnv {
	t.Helper()
	brokers, _ := testenv.Kafka(t, partitions, []string{topic, "freshctx.dlq"}, opts...)
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)
	e := procEnv{brokers: brokers, dsn: dsn, redisAddr: redisAddr, prefix: prefix, group: testenv.Name("g"),
		cfgPath: filepath.Join(t.TempDir(), "ingest.yaml")}
	os.WriteFile(e.cfgPath, []byte(fmt.Sprintf(`
kafka: {brokers: %q, group: %q, consumer_properties: %s}
postgres: {dsn: %q}
redis: {addr: %q, key_prefix: %q, max_per_entity: 100000}
embedder: {dims: %d, word_vectors: none}
pipeline: %s
api: {auth: {mode: none}}
sources:
  - {name: %s, topic: %s, format: debezium, tenant: %s, entity: %q, text: %q}
`, brokers, e.group, consumerProps, dsn, redisAddr, prefix, dims, pipelineYAML, ledger.SourceName, topic, ledger.Tenant, ledger.EntityTmpl, ledger.TextTmpl)), 0o600)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate", "-config", e.cfgPath}, os.Getenv, &out, &out); err != nil {
		t.Fatalf("migrate: %v %s", err, out.String())
	}
	return e
}

// 5. Crash: ingest killed with SIGKILL mid-stream, restarted. Nothing is lost;
// the restarted process starts exactly at the committed offsets, and the
// duplicates are the records written but not yet committed when it died.
func TestReliabilityCrash(t *testing.T) {
	const topic, partitions, n = "shop.public.tickets", 4, 20000
	// The killed member holds its partitions until its session times out: keep that short.
	env := newProcEnv(t, topic, partitions, 64, `{auto.commit.interval.ms: "100", session.timeout.ms: "6000", heartbeat.interval.ms: "500"}`,
		"{max_inflight_records: 2000}", kfake.GroupMinSessionTimeout(time.Second))
	brokers, dsn, redisAddr, prefix, group, cfgPath := env.brokers, env.dsn, env.redisAddr, env.prefix, env.group, env.cfgPath

	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "linger.ms": 5, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	l := ledger.New(topic)
	entries := make([]ledger.Entry, n)
	for k := range entries {
		entries[k] = l.Upsert(k, fmt.Sprintf("ticket %d", k)) // distinct keys: rows written = records written
	}
	l.Produce(t, p, entries, 1)

	ctx := context.Background()
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows := func() int {
		res, err := l.Check(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Stored
	}

	a := startChild(t, cfgPath)
	// Mid-stream, and past the start: its commits have begun to follow (on a
	// loaded machine the first commit came after 5,500 records were written,
	// and a kill before it doubles them all).
	waitFor(t, "the first process to be mid-stream, committing", 60*time.Second, func() bool {
		return a.processed() >= n/4 && committedSum(t, brokers, group, topic, partitions) >= n/8
	})
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a.cmd.Wait()
	written := rows()
	committed := committedSum(t, brokers, group, topic, partitions)
	if committed > int64(written) {
		t.Fatalf("committed %d records but only %d were written before the kill", committed, written)
	}

	b := startChild(t, cfgPath)
	waitFor(t, "the restarted process to finish", 60*time.Second, func() bool { return rows() == n })
	waitFor(t, "the restarted process to count its records", 10*time.Second, func() bool { return b.processed() == n-int(committed) })
	dups := b.processed() - (n - written)
	cache := rediscache.MustNew(rediscache.Config{Addr: redisAddr, KeyPrefix: prefix, MaxPerEntity: 100000})
	defer cache.Close()
	res, err := l.Check(ctx, st, cache)
	if err != nil {
		t.Fatal(err)
	}
	ledger.Add(ledger.Report{Scenario: "5 crash: SIGKILL mid-stream, restart", Produced: l.Records(), Stored: res.Stored,
		Duplicates: dups, Lost: res.Lost + res.CacheLost})
	t.Logf("killed after %d written, %d committed; restart processed %d; duplicates %d", written, committed, b.processed(), dups)
	if res.Lost+res.CacheLost != 0 {
		t.Fatalf("lost %d (first %v), cache mismatches %d\n%s", res.Lost, res.LostKeys, res.CacheLost, b.out.String())
	}
	if dups < 0 || dups > 2*2000 {
		t.Errorf("duplicates %d outside [0, 2×max_inflight_records]", dups)
	}
	b.cmd.Process.Signal(syscall.SIGTERM)
	if err := b.cmd.Wait(); err != nil {
		t.Errorf("graceful stop: %v\n%s", err, b.out.String())
	}
	if c := committedSum(t, brokers, group, topic, partitions); c != n {
		t.Errorf("after SIGTERM, committed %d, want %d", c, n)
	}
}

func committedSum(t *testing.T, brokers, group, topic string, partitions int32) int64 {
	t.Helper()
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": brokers, "group.id": group, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var tps []kafka.TopicPartition
	for p := int32(0); p < partitions; p++ {
		tps = append(tps, kafka.TopicPartition{Topic: &topic, Partition: p})
	}
	got, err := c.Committed(tps, 5000)
	if err != nil {
		t.Fatal(err)
	}
	var s int64
	for _, tp := range got {
		if tp.Offset >= 0 {
			s += int64(tp.Offset)
		}
	}
	return s
}

// 13. Many processes: three ingest processes share one group (cooperative-sticky);
// mid-stream one is SIGKILLed and one SIGTERMed, then a fourth joins. Every
// key ends at its newest version (deleted keys stay deleted) in the store and
// the cache. Each step waits until the group has settled (the killed member's
// session has expired), so no join round waits on a dead member.
func TestReliabilityManyProcesses(t *testing.T) {
	const topic, partitions, keys = "shop.public.tickets", 8, 12000
	env := newProcEnv(t, topic, partitions, 64,
		`{partition.assignment.strategy: cooperative-sticky, auto.commit.interval.ms: "100", session.timeout.ms: "6000", heartbeat.interval.ms: "500"}`,
		"{max_inflight_records: 1000, drain_timeout: 10s}", kfake.GroupMinSessionTimeout(time.Second))
	brokers, dsn, redisAddr, prefix, group, cfgPath := env.brokers, env.dsn, env.redisAddr, env.prefix, env.group, env.cfgPath
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "linger.ms": 5, "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// Two versions of every key, every fifth key then deleted: a stale or
	// resurrected row shows as lost.
	l := ledger.New(topic)
	var entries []ledger.Entry
	for k := range keys {
		entries = append(entries, l.Upsert(k, fmt.Sprintf("ticket %d first", k)))
	}
	for k := range keys {
		entries = append(entries, l.Upsert(k, fmt.Sprintf("ticket %d second", k)))
		if k%5 == 0 {
			entries = append(entries, l.Delete(k))
		}
	}
	l.Produce(t, p, entries, 1)

	admin, err := kafka.NewAdminClient(&kafka.ConfigMap{"bootstrap.servers": brokers})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	lastGroup := "not described yet" // (what a wait on the group that times out reports)
	members := func() int {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := admin.DescribeConsumerGroups(ctx, []string{group})
		if err != nil || len(res.ConsumerGroupDescriptions) != 1 {
			lastGroup = fmt.Sprintf("describe: %v", err)
			return -1
		}
		d := res.ConsumerGroupDescriptions[0]
		owned := 0
		lastGroup = fmt.Sprintf("state %v, %d members:", d.State, len(d.Members))
		for _, m := range d.Members {
			owned += len(m.Assignment.TopicPartitions)
			lastGroup += fmt.Sprintf(" %s (%s) %d partitions;", m.ConsumerID, m.Host, len(m.Assignment.TopicPartitions))
		}
		if d.State != kafka.ConsumerGroupStateStable || owned != partitions {
			return -1 // mid-rebalance: not every partition is owned
		}
		return len(d.Members)
	}
	ctx := context.Background()
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	procs := []*child{startChild(t, cfgPath), startChild(t, cfgPath), startChild(t, cfgPath)}
	seen := map[*child]int{} // the most each process was seen to have processed
	total := func() int {
		n := 0
		for _, c := range procs {
			if c.cmd.ProcessState == nil {
				seen[c] = max(seen[c], c.processed())
			}
			n += seen[c]
		}
		return n
	}
	// a wait on the group that times out says how the group last looked and
	// what each process still running logged
	waitGroup := func(what string, cond func() bool) {
		t.Helper()
		testenv.Eventually(t, what, 60*time.Second, cond, func() string {
			d := "group: " + lastGroup
			for i, c := range procs {
				if c.cmd.ProcessState == nil {
					d += fmt.Sprintf("\n--- process %d (processed %d):\n%s", i+1, c.processed(), pipetest.Tail(c.out.String(), 2000))
				}
			}
			return d
		})
	}
	waitGroup("three members owning every partition", func() bool { return members() == 3 })
	waitFor(t, "the group to be mid-stream", 60*time.Second, func() bool { return total() >= l.Records()/5 })
	procs[0].cmd.Process.Signal(syscall.SIGKILL)
	procs[0].cmd.Wait()
	waitGroup("the killed member's session to expire", func() bool { return members() == 2 })
	procs[1].cmd.Process.Signal(syscall.SIGTERM)
	if err := procs[1].cmd.Wait(); err != nil {
		t.Errorf("SIGTERMed member: %v\n%s", err, procs[1].out.String())
	}
	waitGroup("one member left", func() bool { total(); return members() == 1 })
	procs = append(procs, startChild(t, cfgPath))
	waitGroup("the fourth process to join", func() bool { return members() == 2 })
	var res ledger.Result
	testenv.Eventually(t, "every key at its newest version", 120*time.Second, func() bool {
		res, err = l.Check(ctx, st, nil)
		return err == nil && res.Lost == 0
	}, func() string {
		d := fmt.Sprintf("lost %d (first %v); committed %d of %d", res.Lost, res.LostKeys[:min(5, len(res.LostKeys))],
			committedSum(t, brokers, group, topic, partitions), l.Records())
		for i, c := range procs[2:] {
			d += fmt.Sprintf("\n--- process %d (processed %d):\n%s", i+3, c.processed(), pipetest.Tail(c.out.String(), 3000))
		}
		return d
	})
	cache := rediscache.MustNew(rediscache.Config{Addr: redisAddr, KeyPrefix: prefix, MaxPerEntity: 100000})
	defer cache.Close()
	if res, err = l.Check(ctx, st, cache); err != nil {
		t.Fatal(err)
	}
	total()
	for _, c := range procs[2:] {
		c.cmd.Process.Signal(syscall.SIGTERM)
		if err := c.cmd.Wait(); err != nil {
			t.Errorf("graceful stop: %v\n%s", err, c.out.String())
		}
	}
	if c := committedSum(t, brokers, group, topic, partitions); c != int64(l.Records()) {
		t.Errorf("committed %d of %d records", c, l.Records())
	}
	// Duplicates: at least what the processes were seen to process beyond the
	// records (the killed one's last uncommitted batch may go unseen).
	ledger.Add(ledger.Report{Scenario: "13 many processes: SIGKILL, SIGTERM, a 4th joins", Produced: l.Records(), Stored: res.Stored,
		Duplicates: max(0, total()-l.Records()), Lost: res.Lost + res.CacheLost})
	if res.Lost+res.CacheLost != 0 {
		var warnings string
		for i, c := range procs {
			for _, line := range strings.Split(c.out.String(), "\n") {
				if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
					warnings += fmt.Sprintf("process %d: %s\n", i+1, line)
				}
			}
		}
		t.Fatalf("lost %d (first %v), cache mismatches %d; the processes' warnings:\n%s", res.Lost, res.LostKeys, res.CacheLost,
			pipetest.Tail(warnings, 6000))
	}
}

// Throughput with 1, 2 and 3 ingest processes in one group on the same broker
// (FRESHCTX_SCALE=1; it prints a table for BENCHMARKS.md): 60,000 records over
// 12 partitions, local embedder, each run in a group and schema of its own.
func TestScaleProcesses(t *testing.T) {
	if os.Getenv("FRESHCTX_SCALE") == "" {
		t.Skip("a measurement: FRESHCTX_SCALE=1 go test ./cmd/ingest -run TestScaleProcesses -v")
	}
	const topic, partitions, n = "shop.public.tickets", 12, 60000
	for _, procs := range []int{1, 2, 3} {
		env := newProcEnv(t, topic, partitions, 384, "{partition.assignment.strategy: cooperative-sticky}", "{}")
		brokers, group, cfgPath := env.brokers, env.group, env.cfgPath
		p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": brokers, "linger.ms": 5, "enable.metrics.push": false})
		if err != nil {
			t.Fatal(err)
		}
		l := ledger.New(topic)
		entries := make([]ledger.Entry, n)
		for k := range entries {
			entries[k] = l.Upsert(k, fmt.Sprintf("ticket %d: the customer asks where the refund for order %d is", k, k*7))
		}
		l.Produce(t, p, entries, 1)
		p.Close()
		start := time.Now()
		var cs []*child
		for range procs {
			cs = append(cs, startChild(t, cfgPath))
		}
		waitFor(t, "every record processed", 10*time.Minute, func() bool {
			sum := 0
			for _, c := range cs {
				sum += max(0, c.processed())
			}
			return sum >= n
		})
		waitFor(t, "every record committed", time.Minute, func() bool {
			return committedSum(t, brokers, group, topic, partitions) == n
		})
		el := time.Since(start)
		for _, c := range cs {
			c.cmd.Process.Signal(syscall.SIGTERM)
			c.cmd.Wait()
		}
		t.Logf("| %d | %d | %.1f s | %.0f |", procs, n, el.Seconds(), n/el.Seconds())
	}
}
