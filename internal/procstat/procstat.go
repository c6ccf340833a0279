// Package procstat reads processes' CPU time from Linux's /proc, for the
// benchmarks and the load tool that say where a machine's CPU went.
package procstat

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"strconv"
	"strings"
)

// ClockTicks is USER_HZ, from the auxiliary vector (AT_CLKTCK), else 100.
var ClockTicks = func() float64 {
	b, err := os.ReadFile("/proc/self/auxv")
	if err == nil {
		for i := 0; i+16 <= len(b); i += 16 {
			if binary.LittleEndian.Uint64(b[i:]) == 17 { // AT_CLKTCK
				if v := binary.LittleEndian.Uint64(b[i+8:]); v > 0 {
					return float64(v)
				}
			}
		}
	}
	return 100
}()

// PIDs lists the processes in /proc.
func PIDs() ([]int, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, d := range dirs {
		if pid, err := strconv.Atoi(d.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// Comm is the process's command name (/proc/PID/comm).
func Comm(pid int) (string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b)), err
}

// CPU is the CPU time the process has used, user and system, in seconds; with
// children, also that of its children it has waited for (a server's exited
// workers).
func CPU(pid int, children bool) (float64, error) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// Fields after the command name (which may hold spaces): state is field 3,
	// utime 14, stime 15, cutime 16, cstime 17.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("procstat: malformed stat")
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 15 {
		return 0, errors.New("procstat: short stat")
	}
	fields := []int{11, 12}
	if children {
		fields = append(fields, 13, 14)
	}
	var ticks float64
	for _, j := range fields {
		v, _ := strconv.ParseFloat(f[j], 64)
		ticks += v
	}
	return ticks / ClockTicks, nil
}
