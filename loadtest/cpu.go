package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/freshctx/freshctx/internal/procstat"
)

// cpuComponents maps a process name (/proc/PID/comm) to the component it is
// counted under.
var cpuComponents = map[string]string{
	"contextapi": "contextapi", "ingest": "ingest", "redis-server": "redis", "postgres": "postgresql",
	"loadtest": "load generator", "broker": "broker",
}

// cpuSample is the CPU time used so far by every process of each component,
// and by the whole machine.
type cpuSample struct {
	at       time.Time
	byPID    map[int]procCPU
	machine  float64 // busy seconds, all CPUs (from /proc/stat)
	machineN int     // CPUs
}

type procCPU struct {
	component string
	seconds   float64
}

// sampleCPU reads /proc: each component process's utime+stime, and the
// machine's busy time.
func sampleCPU() (cpuSample, error) {
	s := cpuSample{at: time.Now(), byPID: map[int]procCPU{}}
	pids, err := procstat.PIDs()
	if err != nil {
		return s, fmt.Errorf("-cpu needs /proc: %w", err)
	}
	for _, pid := range pids {
		comm, err := procstat.Comm(pid)
		if err != nil {
			continue
		}
		comp, ok := cpuComponents[comm]
		if !ok {
			continue
		}
		if comp == "load generator" { // other loadtest subcommands are not load
			if cl, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline")); err == nil {
				if args := strings.Split(string(cl), "\x00"); len(args) > 1 {
					switch args[1] {
					case "broker":
						comp = "broker"
					case "drain": // its broker, once the backlog is produced
						comp = "broker (loadtest drain)"
					case "embedder":
						comp = "embedding server"
					}
				}
			}
		}
		seconds, err := procstat.CPU(pid, false)
		if err != nil {
			continue
		}
		s.byPID[pid] = procCPU{component: comp, seconds: seconds}
	}
	b, err := os.ReadFile("/proc/stat")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) > 4 && f[0] == "cpu" {
				var busy float64
				for j, v := range f[1:] {
					if j == 3 || j == 4 { // idle, iowait
						continue
					}
					x, _ := strconv.ParseFloat(v, 64)
					busy += x
				}
				s.machine = busy / procstat.ClockTicks
			} else if strings.HasPrefix(line, "cpu") && len(f) > 0 && f[0] != "cpu" {
				s.machineN++
			}
		}
	}
	return s, nil
}

// startCPU starts measuring (when on) and returns the function that ends the
// measurement: what each component used since, or nil when off.
func startCPU(on bool) (stop func() (*cpuUse, error), err error) {
	if !on {
		return func() (*cpuUse, error) { return nil, nil }, nil
	}
	before, err := sampleCPU()
	if err != nil {
		return nil, err
	}
	return func() (*cpuUse, error) {
		after, err := sampleCPU()
		if err != nil {
			return nil, err
		}
		u := cpuBetween(before, after)
		return &u, nil
	}, nil
}

// cpuUse is what each component used between two samples. A process that
// started in between counts from zero; one that ended is missed (PostgreSQL's
// pooled backends and the servers live through a run).
type cpuUse struct {
	Seconds map[string]float64 `json:"cpu_seconds"`
	Machine float64            `json:"machine_busy_seconds"`
	Elapsed float64            `json:"seconds"`
	CPUs    int                `json:"cpus"`
}

func cpuBetween(a, b cpuSample) cpuUse {
	u := cpuUse{Seconds: map[string]float64{}, Machine: b.machine - a.machine, Elapsed: b.at.Sub(a.at).Seconds(), CPUs: b.machineN}
	for pid, p := range b.byPID {
		u.Seconds[p.component] += p.seconds - a.byPID[pid].seconds
	}
	return u
}

// table is the breakdown per 1,000 units of work (requests, events).
func (u cpuUse) table(units int, unit string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| component | CPU s | CPU ms per 1,000 %s | cores busy |\n|---|---|---|---|\n", unit)
	names := make([]string, 0, len(u.Seconds))
	for k := range u.Seconds {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return u.Seconds[names[i]] > u.Seconds[names[j]] })
	per := func(s float64) float64 {
		if units == 0 {
			return 0
		}
		return s * 1000 / float64(units) * 1000
	}
	var counted float64
	for _, n := range names {
		s := u.Seconds[n]
		counted += s
		fmt.Fprintf(&b, "| %s | %.2f | %.1f | %.2f |\n", n, s, per(s), s/u.Elapsed)
	}
	other := max(0, u.Machine-counted) // tick rounding can make it slightly negative
	fmt.Fprintf(&b, "| other (kernel, other processes) | %.2f | %.1f | %.2f |\n", other, per(other), other/u.Elapsed)
	fmt.Fprintf(&b, "| **machine** (%d CPUs) | %.2f | %.1f | %.2f |\n", u.CPUs, u.Machine, per(u.Machine), u.Machine/u.Elapsed)
	return b.String()
}

// fetchProfile saves a CPU profile of seconds from a Go pprof endpoint
// (contextapi -pprof-listen: an address such as 127.0.0.1:6061, or a URL) into dir.
func fetchProfile(pprofURL string, seconds int, dir, name string) error {
	if !strings.Contains(pprofURL, "://") {
		pprofURL = "http://" + pprofURL
	}
	res, err := http.Get(fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", strings.TrimRight(pprofURL, "/"), seconds))
	if err != nil {
		return fmt.Errorf("-pprof: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("-pprof: %s", res.Status)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, res.Body)
	return err
}
