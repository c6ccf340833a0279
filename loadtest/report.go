package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// report is a run's result: <name>.json (everything), <name>.md (a table and the
// chart) and <name>.svg (the latency percentile curve), written to one directory.
type report struct {
	Name      string         `json:"name"`
	Command   string         `json:"command"`
	Started   time.Time      `json:"started"`
	Machine   string         `json:"machine"`
	Results   map[string]any `json:"results"`
	LatencyOf string         `json:"latency_of"`
	Latency   latencySummary `json:"latency"`
}

func newReport(name string, args []string) *report {
	return &report{Name: name, Command: "loadtest " + name + " " + strings.Join(args, " "), Started: time.Now().UTC(),
		Machine: fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()), Results: map[string]any{}}
}

func (r *report) write(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	j, _ := json.MarshalIndent(r, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, r.Name+".json"), append(j, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, r.Name+".svg"), []byte(r.svg()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, r.Name+".md"), []byte(r.markdown()), 0o644)
}

func (r *report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# loadtest %s\n\n`%s`\n\n%s, started %s\n\n", r.Name, r.Command, r.Machine, r.Started.Format(time.RFC3339))
	keys := make([]string, 0, len(r.Results))
	for k := range r.Results {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteString("| result | value |\n|---|---|\n")
	for _, k := range keys {
		v := r.Results[k]
		if f, ok := v.(float64); ok {
			v = fmt.Sprintf("%.2f", f)
		}
		fmt.Fprintf(&b, "| %s | %v |\n", k, v)
	}
	l := r.Latency
	fmt.Fprintf(&b, "\n%s latency (ms), %d samples:\n\n| min | mean | p50 | p90 | p99 | p99.9 | max |\n|---|---|---|---|---|---|---|\n", r.LatencyOf, l.Count)
	fmt.Fprintf(&b, "| %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n\n![latency](%s.svg)\n", l.Min, l.Mean, l.P50, l.P90, l.P99, l.P999, l.Max, r.Name)
	return b.String()
}

// svg draws latency against percentile, the x axis stretched toward the tail
// (position = -log10(1 - p/100)), as HdrHistogram's plots do.
func (r *report) svg() string {
	const w, h, left, bottom, top, right = 640.0, 360.0, 60.0, 40.0, 30.0, 20.0
	pts := r.Latency.Percentiles
	x := func(p float64) float64 {
		t := -math.Log10(math.Max(1-p/100, 1e-4)) / 4 // 0 … 1 for 0 … 99.99
		return left + t*(w-left-right)
	}
	maxMS := 0.0
	for _, p := range pts {
		maxMS = math.Max(maxMS, p[1])
	}
	yMax := niceCeil(maxMS)
	y := func(ms float64) float64 { return h - bottom - ms/yMax*(h-bottom-top) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/><text x="%.0f" y="18" font-size="13">%s latency by percentile (ms)</text>`+"\n", left, xmlEscape(r.LatencyOf))
	for i := 0; i <= 4; i++ {
		ms := yMax * float64(i) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n",
			left, w-right, y(ms), y(ms), left-6, y(ms)+4, trimFloat(ms))
	}
	for _, p := range []float64{0, 90, 99, 99.9, 99.99} {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="middle">p%s</text>`+"\n",
			x(p), x(p), top, h-bottom, x(p), h-bottom+16, trimFloat(p))
	}
	var poly []string
	for _, p := range pts {
		if p[0] <= 99.99 {
			poly = append(poly, fmt.Sprintf("%.1f,%.1f", x(p[0]), y(p[1])))
		}
	}
	fmt.Fprintf(&b, `<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="%s"/>`+"\n", strings.Join(poly, " "))
	b.WriteString("</svg>\n")
	return b.String()
}

func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*e >= v {
			return m * e
		}
	}
	return 10 * e
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// series is one named line of a lineChart.
type series struct {
	name string
	ys   []float64
}

// lineChart draws lines of ys against xs (the same xs for every series), the x
// axis logarithmic when xs span more than a factor of ten, with a legend.
func lineChart(title, xLabel, yLabel string, xs []float64, lines []series) string {
	const w, h, left, bottom, top, right = 640.0, 360.0, 70.0, 46.0, 30.0, 130.0
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}
	lo, hi, yMax := math.Inf(1), math.Inf(-1), 0.0
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	for _, l := range lines {
		for _, y := range l.ys {
			yMax = math.Max(yMax, y)
		}
	}
	yMax = niceCeil(yMax)
	logX := lo > 0 && hi/lo > 10
	pos := func(x float64) float64 {
		if hi == lo {
			return 0.5
		}
		if logX {
			return math.Log(x/lo) / math.Log(hi/lo)
		}
		return (x - lo) / (hi - lo)
	}
	px := func(x float64) float64 { return left + pos(x)*(w-left-right) }
	py := func(y float64) float64 { return h - bottom - y/yMax*(h-bottom-top) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/><text x="%.0f" y="18" font-size="13">%s</text>`+"\n", left, xmlEscape(title))
	for i := 0; i <= 4; i++ {
		y := yMax * float64(i) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n",
			left, w-right, py(y), py(y), left-6, py(y)+4, trimFloat(y))
	}
	for _, x := range xs {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#eee"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n",
			px(x), px(x), top, h-bottom, px(x), h-bottom+14, trimFloat(x))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", left+(w-left-right)/2, h-8, xmlEscape(xLabel))
	fmt.Fprintf(&b, `<text x="14" y="%.1f" text-anchor="middle" transform="rotate(-90 14 %.1f)">%s</text>`+"\n", top+(h-bottom-top)/2, top+(h-bottom-top)/2, xmlEscape(yLabel))
	for i, l := range lines {
		c := colors[i%len(colors)]
		var pts []string
		for j, y := range l.ys {
			if j < len(xs) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(xs[j]), py(y)))
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(xs[j]), py(y), c)
			}
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", c, strings.Join(pts, " "))
		ly := top + 10 + float64(i)*16
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/><text x="%.1f" y="%.1f">%s</text>`+"\n",
			w-right+10, w-right+28, ly, ly, c, w-right+32, ly+4, xmlEscape(l.name))
	}
	b.WriteString("</svg>\n")
	return b.String()
}
