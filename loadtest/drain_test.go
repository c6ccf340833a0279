package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/testenv"
)

// scrapeMetrics sums a metric over its labels and skips comments.
func TestScrapeMetrics(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("# HELP freshctx_ingest_consumed_total Records consumed.\n# TYPE freshctx_ingest_consumed_total counter\n" +
			"freshctx_ingest_consumed_total{topic=\"a\"} 10\nfreshctx_ingest_consumed_total{topic=\"b\"} 5.5e+01\n" +
			"freshctx_ingest_inflight_records 0\ngo_memstats_heap_inuse_bytes 1.048576e+06\n"))
	}))
	defer srv.Close()
	m, err := scrapeMetrics(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if m["freshctx_ingest_consumed_total"] != 65 || m["go_memstats_heap_inuse_bytes"] != 1<<20 {
		t.Fatalf("scraped %v", m)
	}
	if v, ok := m["freshctx_ingest_inflight_records"]; !ok || v != 0 {
		t.Fatalf("inflight: %v %v", v, ok)
	}
}

func TestIntList(t *testing.T) {
	got, err := intList("-sizes", "100000, 1000000", 1000, 50_000_000)
	if err != nil || len(got) != 2 || got[1] != 1000000 {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := intList("-partitions", "4,x", 1, 1024); err == nil || !strings.Contains(err.Error(), `-partitions: "x"`) {
		t.Fatalf("want an error naming the flag and value, got %v", err)
	}
	if _, err := intList("-partitions", "0", 1, 1024); err == nil {
		t.Fatal("0 partitions accepted")
	}
}

// lineChart is well-formed SVG with one polyline and one point per value of
// each series, and a legend entry per series.
func TestLineChart(t *testing.T) {
	svg := lineChart("memory <MB>", "backlog", "MB", []float64{1e5, 1e6, 5e6},
		[]series{{"peak RSS", []float64{120, 124, 127}}, {"heap", []float64{40, 50, 55}}})
	if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	if n := strings.Count(svg, "<polyline"); n != 2 {
		t.Fatalf("%d polylines", n)
	}
	if n := strings.Count(svg, "<circle"); n != 6 {
		t.Fatalf("%d points", n)
	}
	for _, s := range []string{"peak RSS", "heap", "memory &lt;MB&gt;"} {
		if !strings.Contains(svg, s) {
			t.Fatalf("%q missing", s)
		}
	}
}

// The stand-in provider that -embedder-delay runs answers as an OpenAI-compatible
// endpoint, and ingest's provider client reads its vectors.
func TestEmbedderServesThroughTheProviderClient(t *testing.T) {
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() {
		done <- embedder(ctx, []string{"-listen", addr, "-dims", "8", "-delay", "1ms"}, &out, io.Discard)
	}()
	c, err := embed.NewClient(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: "http://" + addr + "/v1", Model: "fake", Dims: 8, CacheEntries: -1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var vecs [][]float32
	testenv.Eventually(t, "an answer from the embedder", 30*time.Second, func() bool {
		vecs, err = c.Embed(ctx, []string{"refund approved", "refund approved", "where is my order"})
		return err == nil
	})
	if len(vecs) != 3 || len(vecs[0]) != 8 || !slices.Equal(vecs[0], vecs[1]) || slices.Equal(vecs[0], vecs[2]) {
		t.Fatalf("vectors %v: want 3 of 8 dimensions, equal for equal texts only", vecs)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "texts") {
		t.Errorf("no summary on exit: %q", out.String())
	}
}

// -pprof takes the address contextapi -pprof-listen was given, as well as a URL.
func TestFetchProfileTakesAnAddressOrAURL(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/debug/pprof/profile" || r.URL.Query().Get("seconds") != "3" {
			http.Error(w, "unexpected "+r.URL.String(), http.StatusNotFound)
			return
		}
		io.WriteString(w, "profile bytes")
	}))
	defer srv.Close()
	for _, addr := range []string{srv.Listener.Addr().String(), srv.URL, srv.URL + "/"} {
		dir := t.TempDir()
		if err := fetchProfile(addr, 3, dir, "p.pprof"); err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "p.pprof")); err != nil || string(b) != "profile bytes" {
			t.Fatalf("%s: saved %q, %v", addr, b, err)
		}
	}
}
