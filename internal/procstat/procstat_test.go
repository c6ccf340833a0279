package procstat

import (
	"os"
	"slices"
	"testing"
	"time"
)

// This process's CPU time grows while it computes, and it is listed with its
// command name.
func TestOwnCPUGrows(t *testing.T) {
	before, err := CPU(os.Getpid(), false)
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		x++
	}
	after, err := CPU(os.Getpid(), true)
	if err != nil || after <= before {
		t.Fatalf("CPU %v then %v (%v; spun %d times)", before, after, err, x)
	}
	pids, err := PIDs()
	if err != nil || !slices.Contains(pids, os.Getpid()) {
		t.Fatalf("PIDs without this process: %v", err)
	}
	if comm, err := Comm(os.Getpid()); err != nil || comm == "" {
		t.Fatalf("Comm: %q, %v", comm, err)
	}
}
