// Command loadtest drives freshctx from the outside, through Kafka and the
// context API, the way its users do.
//
//	go run ./loadtest demo [flags]   stream the demo feed, wait until it is visible, print a context answer
//	go run ./loadtest produce [flags] a paced event mix to the demo topics
//	go run ./loadtest seed [flags]   bulk-load a benchmark store and cache
//	go run ./loadtest query [flags]  measure the context API under concurrent clients
//	go run ./loadtest freshness [flags] record timestamp → visible through the API, under load
//	go run ./loadtest baseline [flags] the naive consumer (one record at a time) to compare with
//	go run ./loadtest growth [flags] the context API as the store grows: seed, query the cache and store paths, curves
//	go run ./loadtest drain [flags]  ingest draining a backlog: records/s and memory, against backlog size and partitions
//
// Run `go run ./loadtest -h` for the subcommands and their flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `loadtest: drive freshctx through Kafka and the context API.

Usage:
  loadtest demo [-brokers 127.0.0.1:19092] [-api http://127.0.0.1:8080]
      Produce the demo feed (tickets and orders as Debezium change events; refunds
      and chat as plain JSON; an unchanged-text update, a TOAST placeholder, a delete
      with its tombstone and one malformed record), wait until ingest has made it
      visible, then ask the context API a customer's question and print the answer.

  loadtest produce [-brokers 127.0.0.1:19092] [-rate 1000] [-duration 30s] [-entities 10000] [-skew 1.1] [-debezium 0.6]
      Produce a paced mix to the demo topics: ticket changes as Debezium envelopes
      (creates, updates, deletes with tombstones) and chat events as plain JSON, over
      entities with a Zipf-skewed popularity.

  loadtest broker [-listen 127.0.0.1:19092] [-partitions 4]
      Run an in-memory Kafka-protocol broker (franz-go's kfake) as its own process.

  loadtest embedder [-listen 127.0.0.1:19400] [-dims 384] [-delay 20ms]
      Run a stand-in model provider as its own process: OpenAI-compatible
      /v1/embeddings answering every request after -delay with vectors derived
      from a hash of each text (no model, no meaning). Point ingest at it with
      embedder: {provider: openai, base_url: http://127.0.0.1:19400/v1, model: fake}.

  loadtest seed [-config examples/bench.yaml] [-events 1000000] [-entities 10000] [-span 2h] [-documents 1000]
      Reset the benchmark schema and Redis prefix of the config, then bulk-load events
      (local embedder) spread over the span, fill the Redis window, and write a
      knowledge corpus (articles of three chunks) for the knowledge search.

  loadtest query [-api http://127.0.0.1:8081] [-key KEY] [-clients 16] [-duration 30s] [-entities 10000] [-cpu] [-out DIR]
      Run concurrent clients against GET /v1/context (random entity, a question mix
      that includes Chinese and no question) and report p50/p90/p99 and requests/s;
      -cpu adds each component's CPU per 1,000 requests. Each client keeps one
      HTTP/1.1 connection and decodes only the answer's meta, so the generator takes
      little of the machine it shares with the server (~50 µs of CPU per request).

  loadtest freshness [-brokers ...] [-api ...] [-rate 20] [-load-rate 0] [-duration 30s] [-out DIR]
      Produce marker events (each on its own entity) at -rate per second, beside a
      background load of the produce mix at -load-rate, and poll each through
      GET /v1/entities/{entity}/events until it is visible: the distribution of
      record timestamp → visible is what users feel as freshness.

  loadtest baseline [-config examples/demo.yaml] [-topic support.chat] [-records 2000] [-out DIR]
      The naive consumer freshctx is measured against: poll one record, embed it
      alone, insert it alone, commit, repeat (same mapping and embedder as ingest,
      its own table freshctx_baseline). Reports events/s.

  loadtest growth [-contextapi bin/contextapi] [-config examples/bench.yaml] [-sizes 100000,1000000,5000000] [-clients 16] [-duration 10s] [-out DIR]
      For each store size: seed the benchmark store (as loadtest seed, with its
      knowledge corpus), start contextapi (its own process), and run loadtest query
      four ways: answered by the recent cache (window 15m) or by the store (window
      90m, beyond the 1 h Redis window), each with and without the knowledge search.
      -out draws requests/s and p99 against the size (growth-throughput.svg,
      growth-p99.svg).

  loadtest drain [-ingest bin/ingest] [-config examples/demo.yaml] [-backlogs 300000] [-partitions 8] [-env GOMEMLIMIT=…] [-embedder-delay 20ms] [-cpu] [-out DIR]
      For each backlog size and partition count: start a broker of its own, produce
      that many events of the produce mix, then start ingest (its own process) and
      measure it draining them: records/s from the first record consumed to the last
      acknowledged, peak RSS (VmHWM), median RSS and peak Go heap. ingest writes to the
      config's PostgreSQL and Redis, but in a schema (freshctx_drain) and key prefix
      (fcdrain) of the run's own, reset first: the backlog's customers never show in the
      demo. With several sizes or counts, -out also draws the curve (drain-backlog.svg,
      drain-partitions.svg). -embedder-delay runs a stand-in model provider (loadtest
      embedder) as a third process and points ingest at it; -cpu adds the CPU per 1,000
      records of each component while draining.

  loadtest eval [-brokers ...] [-api ...] [-topic app.activity] [-ranking hybrid|similarity|recency] [-set FILE|DIR,...] [-misses 0.85] [-out DIR]
      Run the labelled retrieval set (internal/evalset: 40 customers, 116 questions,
      English and Chinese, a tuning and a held-back part) through the running stack:
      produce its events, wait until the API shows them, ask every question and print
      nDCG@5, MRR and Recall@3 per kind of question beside newest-first and random
      order, and the window and tenant violations (which fail the command). -set runs
      a set of your own questions instead (docs/evaluation.md has the format and an
      example, examples/evalset.json); a set that does not parse is refused with the
      file, case, event or question and field at fault. -misses prints each question
      answered below that nDCG@5 with its answer's events, grades and score components.

Every measuring subcommand takes -out DIR: it writes NAME.json (all results and
the latency percentiles, from an HDR-style histogram), NAME.md (a report) and
NAME.svg (the latency-by-percentile chart).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return errors.New("a subcommand is required")
		}
		return flag.ErrHelp
	}
	switch args[0] {
	case "demo":
		return demo(ctx, args[1:], stdout, stderr)
	case "seed":
		return seed(ctx, args[1:], stdout, stderr)
	case "produce":
		return produce(ctx, args[1:], stdout, stderr)
	case "broker":
		return broker(ctx, args[1:], stdout, stderr)
	case "embedder":
		return embedder(ctx, args[1:], stdout, stderr)
	case "query":
		return query(ctx, args[1:], stdout, stderr)
	case "freshness":
		return freshness(ctx, args[1:], stdout, stderr)
	case "baseline":
		return baseline(ctx, args[1:], stdout, stderr)
	case "eval":
		return eval(ctx, args[1:], stdout, stderr)
	case "drain":
		return drain(ctx, args[1:], stdout, stderr)
	case "growth":
		return growth(ctx, args[1:], stdout, stderr)
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
}
