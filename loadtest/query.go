package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

var questions = []string{
	"where is my refund?", "my parcel is late", "can I change the delivery address?",
	"why was my payment declined?", "what happened to my order?", "I want to return an item",
	"退款什么时候到账？", "",
}

// answerMeta is what the load generator reads of an answer.
type answerMeta struct {
	ServedFrom string            `json:"served_from"`
	Degraded   []json.RawMessage `json:"degraded"`
	Candidates int               `json:"candidates"`
}

// metaOf decodes an answer's meta. The API writes meta last, so it is decoded
// from there on (a quoted "meta": can only be a key: quotes inside strings are
// escaped); an answer laid out otherwise is decoded whole.
func metaOf(body []byte) (answerMeta, error) {
	var whole struct {
		Meta answerMeta `json:"meta"`
	}
	if i := bytes.LastIndex(body, []byte(`"meta":`)); i >= 0 {
		tail := bytes.TrimRight(body[i+len(`"meta":`):], " \t\r\n")
		if n := len(tail); n > 0 && tail[n-1] == '}' {
			if json.Unmarshal(tail[:n-1], &whole.Meta) == nil {
				return whole.Meta, nil
			}
		}
	}
	err := json.Unmarshal(body, &whole)
	return whole.Meta, err
}

// query runs concurrent clients against GET /v1/context for a fixed time and
// reports latency percentiles (measured by the client) and throughput.
func query(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	apiURL := fs.String("api", "http://127.0.0.1:8081", "context API base URL")
	clients := fs.Int("clients", 16, "concurrent clients, each with one request in flight")
	duration := fs.Duration("duration", 30*time.Second, "how long to run (bounded)")
	entities := fs.Int("entities", 10_000, "entities to ask about (customer:0 … N-1), uniformly")
	window := fs.String("window", "15m", "window parameter")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	out := fs.String("out", "", "directory for the report: query.json, query.md and query.svg (the latency chart)")
	key := fs.String("key", "", "API key (Bearer), when the API requires one (api.auth.mode keys; its rate limit applies)")
	extra := fs.String("params", "", "extra query parameters for every request, e.g. knowledge=false")
	cpu := fs.Bool("cpu", false, "also report the CPU time each component used per 1,000 requests (contextapi, redis, postgresql, the load generator, the machine; read from /proc, so run it on the same machine)")
	pprofURL := fs.String("pprof", "", "also save a CPU profile of contextapi for the run, from this pprof address (contextapi -pprof-listen), as contextapi.cpu.pprof in -out")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *pprofURL != "" && *out == "" {
		return fmt.Errorf("-pprof needs -out (where the profile goes)")
	}
	if *duration > 10*time.Minute || *clients < 1 || *clients > 256 {
		return fmt.Errorf("-duration at most 10m, -clients in [1, 256]")
	}
	base, err := url.Parse(*apiURL)
	if err != nil {
		return fmt.Errorf("-api: %w", err)
	}
	params, err := url.ParseQuery(*extra)
	if err != nil {
		return fmt.Errorf("-params: %w", err)
	}
	deadline := time.Now().Add(*duration)
	var mu sync.Mutex
	lat := newHist()
	errs, degraded, candidates := 0, 0, 0 // candidates: events ranked, summed over answers
	var firstErr atomic.Value             // the first error, as a sample
	served := map[string]int{}
	var wg sync.WaitGroup
	stopCPU, err := startCPU(*cpu)
	if err != nil {
		return err
	}
	profiled := make(chan error, 1)
	if *pprofURL != "" {
		go func() {
			profiled <- fetchProfile(*pprofURL, max(1, int(duration.Seconds())-1), *out, "contextapi.cpu.pprof")
		}()
	}
	start := time.Now()
	for c := 0; c < *clients; c++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, 1))
			mine := newHist()
			myErrs, myDeg, myCands := 0, 0, 0
			myServed := map[string]int{}
			g, err := newGetter(base, *key, 10*time.Second)
			if err != nil {
				firstErr.CompareAndSwap(nil, err.Error())
				myErrs++
			}
			for err == nil && time.Now().Before(deadline) && ctx.Err() == nil {
				q := url.Values{"entity": {fmt.Sprint("customer:", rng.IntN(*entities))}, "window": {*window}}
				if s := questions[rng.IntN(len(questions))]; s != "" {
					q.Set("q", s)
				}
				for k, v := range params {
					q[k] = v
				}
				t0 := time.Now()
				status, body, err := g.get(base.Path + "/v1/context?" + q.Encode())
				var m answerMeta
				if err == nil && status == http.StatusOK {
					m, err = metaOf(body)
				}
				mine.record(time.Since(t0))
				if err != nil || status != http.StatusOK {
					myErrs++
					firstErr.CompareAndSwap(nil, fmt.Sprintf("HTTP %d: %v", status, err))
					continue
				}
				myServed[m.ServedFrom]++
				myCands += m.Candidates
				if len(m.Degraded) > 0 {
					myDeg++
				}
			}
			g.close()
			mu.Lock()
			lat.merge(mine)
			errs += myErrs
			degraded += myDeg
			candidates += myCands
			for k, v := range myServed {
				served[k] += v
			}
			mu.Unlock()
		}(uint64(c))
	}
	wg.Wait()
	elapsed := time.Since(start)
	l := lat.summary()
	n := int(l.Count)
	use, err := stopCPU()
	if err != nil {
		return err
	}
	res := map[string]any{
		"requests": n, "errors": errs, "degraded": degraded, "served_from": served,
		"seconds": elapsed.Seconds(), "requests_per_s": float64(n) / elapsed.Seconds(),
		"p50_ms": l.P50, "p90_ms": l.P90, "p99_ms": l.P99, "max_ms": l.Max, "clients": *clients,
		// The cost of an answer grows with the events it ranks: a window that has
		// emptied since the seed makes every request cheaper.
		"candidates_per_answer": float64(candidates) / float64(max(1, n-errs)),
	}
	if use != nil {
		res["cpu"] = use
	}
	r := newReport("query", args)
	r.Results, r.LatencyOf, r.Latency = res, "GET /v1/context", l
	if err := r.write(*out); err != nil {
		return err
	}
	if e, ok := firstErr.Load().(string); ok {
		res["first_error"] = e
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "query: %d requests in %.1fs with %d clients: %.0f req/s; latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; %d errors, %d degraded; served from %v; %.1f events ranked per answer\n",
		n, elapsed.Seconds(), *clients, res["requests_per_s"], res["p50_ms"], res["p90_ms"], res["p99_ms"], res["max_ms"], errs, degraded, served, res["candidates_per_answer"])
	if errs > 0 {
		fmt.Fprintf(stdout, "query: first error: %v\n", res["first_error"])
	}
	if use != nil {
		fmt.Fprintf(stdout, "\nCPU per component over the run (%d requests):\n\n%s", n, use.table(n, "requests"))
	}
	if *pprofURL != "" {
		if err := <-profiled; err != nil {
			return err
		}
		fmt.Fprintf(stdout, "query: contextapi's CPU profile: %s (go tool pprof -top %s)\n", *out+"/contextapi.cpu.pprof", *out+"/contextapi.cpu.pprof")
	}
	return nil
}
