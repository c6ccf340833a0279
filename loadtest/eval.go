package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/client"
	"github.com/freshctx/freshctx/internal/evalset"
)

// eval runs the labelled retrieval set through the running stack: it produces
// every case's events to Kafka (plain JSON on the activity topic), waits until
// the API shows them, asks every question through GET /v1/context and scores
// the answers against the labels and against newest-first and random order. It
// also produces each case's first event under another tenant, with the same
// customer id, and counts any answer that shows it (a tenant violation), and
// counts any answer holding the event older than the window.
func eval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	brokers := fs.String("brokers", "127.0.0.1:19092", "Kafka bootstrap servers")
	apiURL := fs.String("api", "http://127.0.0.1:8080", "context API base URL")
	topic := fs.String("topic", "app.activity", "the topic of a json source keyed by event_id, with tenant, customer_id, ts, text (examples/demo.yaml: activity)")
	tenant := fs.String("tenant", "acme", "the tenant the API serves to this client (development mode: api.tenant)")
	ranking := fs.String("ranking", "", "ranking to ask for: hybrid, similarity or recency (default: the server's)")
	key := fs.String("key", "", "API key (Bearer), when the API requires one")
	wait := fs.Duration("wait", 2*time.Minute, "how long to wait for the events to become visible")
	out := fs.String("out", "", "write the report as DIR/eval.md too")
	misses := fs.Float64("misses", 0, "also print each question answered below this nDCG@5 (e.g. 0.85) with its answer's events, grades and score components (explain=true); looking at a held-back part's answers makes it a tuning part")
	set := fs.String("set", "", "a labelled set of your own instead of the built-in one: JSON files or directories of them, comma-separated (format: docs/evaluation.md; a case without a split is held back)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cases, warnings, err := loadSet(*set)
	if err != nil {
		return fmt.Errorf("-set: %w", err)
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "-set:", w)
	}
	run := strconv36(time.Now().UnixNano() % (36 * 36 * 36 * 36 * 36))
	now := time.Now()
	entity := func(c evalset.Case) string { return "eval-" + run + "-" + c.Customer }
	eventID := func(c evalset.Case, id string) string { return run + "-" + c.Customer + "-" + id }

	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": *brokers, "linger.ms": 5, "enable.idempotence": true, "enable.metrics.push": false})
	if err != nil {
		return fmt.Errorf("creating producer: %w", err)
	}
	defer p.Close()
	var msgs []*kafka.Message
	add := func(tenantID string, c evalset.Case, e evalset.Event, id string) {
		v, _ := json.Marshal(map[string]any{"event_id": id, "tenant": tenantID, "customer_id": entity(c), "kind": e.Source,
			"ts": now.Add(-time.Duration(e.Ago) * time.Minute).UTC().Format(time.RFC3339Nano), "text": e.Text})
		msgs = append(msgs, &kafka.Message{TopicPartition: kafka.TopicPartition{Topic: topic, Partition: kafka.PartitionAny},
			Key: []byte(entity(c)), Value: v})
	}
	for _, c := range cases {
		for _, e := range c.Events {
			add(*tenant, c, e, eventID(c, e.ID))
		}
		// Another tenant's event on the same customer id: never to be seen here.
		add(*tenant+"-other", c, c.Events[0], eventID(c, "other-tenant"))
	}
	if err := produceAll(ctx, p, msgs, *brokers); err != nil {
		return err
	}
	n := len(msgs)
	fmt.Fprintf(stdout, "produced %d events for %d customers to %s (run %s)\n", n, len(cases), *topic, run)

	var opts []client.Option
	if *key != "" {
		opts = append(opts, client.WithAPIKey(*key))
	}
	api := client.New(*apiURL, opts...)
	var last *client.ContextResponse // the answer get had last
	get := func(req client.ContextRequest) ([]string, error) {
		ans, err := api.Context(ctx, req)
		if err != nil {
			return nil, err
		}
		last = ans
		ids := make([]string, len(ans.Events))
		for i, e := range ans.Events {
			ids[i] = e.ID
		}
		return ids, nil
	}
	k100, k5, no := 100, 5, false
	// Visible: every event of every case, through the API (24 h window, k 100).
	deadline := time.Now().Add(*wait)
	for _, c := range cases {
		for {
			ids, err := get(client.ContextRequest{Entity: "customer:" + entity(c), Window: "24h", K: &k100})
			if err == nil && len(ids) >= len(c.Events) {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("after %s, %s shows %d of %d events (%v); is ingest running with the activity source?", *wait, entity(c), len(ids), len(c.Events), err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	fmt.Fprintf(stdout, "all events visible after %s\n", time.Since(now).Round(time.Millisecond))

	rep := evalset.NewReport()
	rng := rand.New(rand.NewPCG(1, 2))
	total := 0
	for _, c := range cases {
		total += len(c.Questions)
	}
	asked, lastProgress := 0, time.Now()
	degraded := map[string]int{} // answers degraded, by stage and fallback: the figures are not the full ranking's
	for _, c := range cases {
		for _, q := range c.Questions {
			if asked++; time.Since(lastProgress) >= 5*time.Second {
				fmt.Fprintf(stderr, "asked %d of %d questions\n", asked, total) // a large set of one's own takes a while
				lastProgress = time.Now()
			}
			ids, err := get(client.ContextRequest{Entity: "customer:" + entity(c), Q: q.Q, K: &k5, Window: fmt.Sprintf("%dm", evalset.Window),
				Knowledge: &no, Ranking: *ranking, Explain: *misses > 0})
			if err != nil {
				return fmt.Errorf("%s: question %q: %w", c.Customer, q.Q, err)
			}
			prefix := run + "-" + c.Customer + "-"
			ranked := make([]string, 0, len(ids))
			for _, id := range ids {
				if !strings.HasPrefix(id, prefix) {
					rep.TenantViolations++ // not this customer's event at all
					continue
				}
				id = strings.TrimPrefix(id, prefix)
				if id == "other-tenant" {
					rep.TenantViolations++
					continue
				}
				ranked = append(ranked, id)
			}
			rep.Add(c, q, ranked, rng)
			for _, d := range last.Meta.Degraded {
				degraded[d.Stage+": "+d.Fallback]++
			}
			if n := evalset.NDCG(ranked, q.Rel, 5); n < *misses {
				printMiss(stdout, c, q, n, prefix, last)
			}
		}
	}
	md := fmt.Sprintf("Retrieval quality through the API (%s, set %s, %d questions, k=5, window %dm, ranking %s):\n%s",
		*apiURL, orDefault(*set, "built-in"), rep.Questions, evalset.Window, orDefault(*ranking, "server default"), rep.Markdown())
	if len(degraded) > 0 {
		var ds []string
		for d, n := range degraded {
			ds = append(ds, fmt.Sprintf("%d × %s", n, d))
		}
		sort.Strings(ds)
		md += fmt.Sprintf("\nDegraded answers (ranked without a part; the figures above are not the full ranking's): %s\n", strings.Join(ds, "; "))
	}
	fmt.Fprint(stdout, md)
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(*out, "eval.md"), []byte(md), 0o644); err != nil {
			return err
		}
	}
	if rep.WindowViolations+rep.TenantViolations > 0 {
		return fmt.Errorf("%d window and %d tenant violations", rep.WindowViolations, rep.TenantViolations)
	}
	return nil
}

// printMiss prints a weakly answered question: the answer's events with
// their grade (0 when unlabelled), score and components, and the labelled
// events the answer left out.
func printMiss(w io.Writer, c evalset.Case, q evalset.Question, ndcg float64, prefix string, ans *client.ContextResponse) {
	fmt.Fprintf(w, "\n[%s %s %s, nDCG@5 %.2f] %s\n", c.Customer, c.Split, q.Kind, ndcg, q.Q)
	ago := map[string]int{}
	for _, e := range c.Events {
		ago[e.ID] = e.Ago
	}
	shown := map[string]bool{}
	for i, e := range ans.Events {
		id := strings.TrimPrefix(e.ID, prefix)
		shown[id] = true
		line := fmt.Sprintf("  %d. %-8s grade %d  score %.3f", i+1, id, q.Rel[id], e.Score)
		if x := e.Explain; x != nil {
			line += fmt.Sprintf("  (lexical %.2f similarity %.2f identifier %.2f thread %.2f recency %.2f source %.2f)",
				x.Lexical, x.Similarity, x.Identifier, x.Thread, x.Recency, x.Source)
		}
		fmt.Fprintf(w, "%s  %dm ago: %s\n", line, ago[id], e.Text)
	}
	for _, e := range c.Events {
		if q.Rel[e.ID] > 0 && !shown[e.ID] {
			fmt.Fprintf(w, "  -  %-8s grade %d  not in the answer  %dm ago: %s\n", e.ID, q.Rel[e.ID], e.Ago, e.Text)
		}
	}
}

// loadSet is the built-in labelled set, or the one in paths (comma-separated),
// with warnings about fields it ignored.
func loadSet(paths string) ([]evalset.Case, []string, error) {
	if paths == "" {
		cases, err := evalset.Load()
		return cases, nil, err
	}
	var ps []string
	for _, p := range strings.Split(paths, ",") {
		if p = strings.TrimSpace(p); p != "" {
			ps = append(ps, p)
		}
	}
	return evalset.ReadFiles(ps...)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func strconv36(n int64) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 36 {
		b = append([]byte{digits[n%36]}, b...)
	}
	return string(b)
}
