package rediscache

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
)

// A Redis Cluster master is killed (SIGKILL) while a feeder writes new versions
// and a reader reads them. Its replica takes over; the feeder carries on after
// the failover's seconds; and the reader is never served, as complete, a
// version older than one it was served before or than one the feeder had been
// acknowledged for (the promoted replica may lack writes its master
// acknowledged: its since markers are void under its new replication id). The
// killed node is started again and rejoins as a replica.
func TestClusterFailoverNeverServesARegressedVersion(t *testing.T) {
	addrs, prefix := testenv.RedisCluster(t)
	cfg := Config{Mode: ModeCluster, Addrs: addrs, KeyPrefix: prefix}
	w, r := newCache(t, cfg), newCache(t, cfg)
	ctx := context.Background()
	if err := w.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	const entities = 24
	entity := func(i int) string { return fmt.Sprintf("customer:%d", i) }

	var acked atomic.Int64 // every entity is written at this version or later
	var stop atomic.Bool
	var wg sync.WaitGroup
	var maxStall time.Duration
	wg.Add(2)
	go func() { // the feeder: like ingest, it retries a batch until it is written
		defer wg.Done()
		last := time.Now()
		for v := int64(1); !stop.Load(); v++ {
			batch := make([]store.Event, entities)
			for i := range batch {
				batch[i] = ev("k", "acme", entity(i), "v"+strconv.FormatInt(v, 10), v, time.Now())
			}
			for !stop.Load() {
				wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				err := w.Apply(wctx, batch, nil)
				cancel()
				if err == nil {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			maxStall = max(maxStall, time.Since(last))
			last = time.Now()
			acked.Store(v)
		}
	}()
	var (
		mu                             sync.Mutex
		served                         = map[int]int64{}
		regressed, lost, errs, served_ int
		completeAfter                  int // complete answers after the failover
		failedAt                       time.Time
	)
	go func() { // the reader: like the API, it trusts only complete answers
		defer wg.Done()
		for !stop.Load() {
			for i := 0; i < entities; i++ {
				floor := acked.Load()
				rctx, cancel := context.WithTimeout(ctx, time.Second)
				evs, complete, err := r.Recent(rctx, "acme", entity(i), t0, 10)
				cancel()
				mu.Lock()
				switch {
				case err != nil:
					errs++
				case complete:
					served_++
					if !failedAt.IsZero() {
						completeAfter++
					}
					v := int64(0)
					if len(evs) == 1 {
						v = evs[0].Version
					}
					if v < served[i] {
						regressed++
						t.Errorf("%s: served version %d after %d", entity(i), v, served[i])
					}
					if v < floor {
						lost++
						t.Errorf("%s: served version %d as complete, but version %d was acknowledged before the read", entity(i), v, floor)
					}
					served[i] = max(served[i], v)
				}
				mu.Unlock()
			}
		}
	}()
	defer func() { stop.Store(true); wg.Wait() }()

	testenv.Eventually(t, "the feeder to write 30 versions", 30*time.Second, func() bool { return acked.Load() >= 30 })
	// Kill the master that holds customer:0's slot.
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	t.Cleanup(func() { cc.Close() })
	victim := masterOf(t, cc, keySlot(w.entityTag("acme", entity(0))+":tl"))
	node := redis.NewClient(&redis.Options{Addr: victim})
	info, err := node.Info(ctx, "server").Result()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := node.ConfigGet(ctx, "dir").Result()
	node.Close()
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(infoField(info, "process_id"))
	port := victim[strings.LastIndexByte(victim, ':')+1:]
	t.Cleanup(func() { restartNode(t, cc, dir["dir"], port) })
	before := acked.Load()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("killing the master %s (pid %d): %v", victim, pid, err)
	}
	mu.Lock()
	failedAt = time.Now()
	mu.Unlock()
	t.Logf("killed master %s (pid %d) at version %d", victim, pid, before)

	// The replica takes over and the feeder carries on.
	testenv.Eventually(t, "the feeder to write 30 versions after the failover", 60*time.Second, func() bool {
		return acked.Load() >= before+30
	})
	// The cache vouches again for windows that begin after the feeder's first
	// write since the failover (older windows are read from the store).
	recovered := time.Now()
	testenv.Eventually(t, "complete answers again, for a window after the failover", 30*time.Second, func() bool {
		floor := acked.Load()
		evs, complete, err := r.Recent(ctx, "acme", entity(0), recovered, 10)
		return err == nil && complete && len(evs) == 1 && evs[0].Version >= floor
	})
	stop.Store(true)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	t.Logf("versions written %d; complete answers %d (%d after the failover); read errors %d; longest feeder stall %s",
		acked.Load(), served_, completeAfter, errs, maxStall.Round(time.Millisecond))
	if regressed != 0 || lost != 0 {
		t.Fatalf("regressed %d, lost %d", regressed, lost)
	}
	if maxStall > testenv.Patience(30*time.Second) {
		t.Errorf("the feeder stalled %s", maxStall)
	}
}

// masterOf returns the address of the master serving slot.
func masterOf(t *testing.T, cc *redis.ClusterClient, slot int) string {
	t.Helper()
	slots, err := cc.ClusterSlots(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range slots {
		if slot >= s.Start && slot <= s.End {
			return s.Nodes[0].Addr
		}
	}
	t.Fatalf("no master serves slot %d", slot)
	return ""
}

func infoField(info, name string) string {
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return v
		}
	}
	return ""
}

// restartNode starts the killed node again the way scripts/setup.sh starts it
// (its nodes.conf keeps its identity) and waits until the cluster sees all six
// nodes up and the node has synced as a replica.
func restartNode(t *testing.T, cc *redis.ClusterClient, dir, port string) {
	cmd := exec.Command("redis-server", "--bind", "127.0.0.1", "--port", port, "--cluster-enabled", "yes",
		"--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000", "--save", "", "--appendonly", "no",
		"--daemonize", "yes", "--logfile", dir+"/redis.log")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("restarting the Redis node on port %s: %v %s", port, err, out)
		return
	}
	testenv.Eventually(t, "the restarted node to rejoin the cluster", 60*time.Second, func() bool {
		nodes, err := cc.ClusterNodes(context.Background()).Result()
		if err != nil {
			return false
		}
		up := 0
		for _, line := range strings.Split(strings.TrimSpace(nodes), "\n") {
			if strings.Contains(line, " connected") && !strings.Contains(line, "fail") {
				up++
			}
		}
		return up == 6
	})
	// and until it has synced with its new master, so that the tests after
	// this one find every replica serving reads
	node := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + port})
	defer node.Close()
	testenv.Eventually(t, "the restarted node to sync with its master", 60*time.Second, func() bool {
		info, err := node.Info(context.Background(), "replication").Result()
		return err == nil && infoField(info, "role") == "slave" && infoField(info, "master_link_status") == "up" &&
			infoField(info, "master_sync_in_progress") == "0"
	})
}
