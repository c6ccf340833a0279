package rediscache

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
)

// redisProcess starts redis-server with args (on loopback, nothing saved) and
// stops it at the end of the test.
func redisProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("redis-server", args...)
	cmd.Dir = t.TempDir()
	if err := cmd.Start(); err != nil {
		t.Skipf("redis-server not runnable here: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

func loopbackPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

// The cache through a real Sentinel (redis.mode sentinel): a master, a replica
// and a Sentinel from Debian's redis-server on loopback. Writes and reads go
// to the master Sentinel names; when the master is killed, the Sentinel
// promotes the replica, the cache follows it, and the "complete since" marker
// written under the old master does not vouch for the new one (the replica may
// lack acknowledged writes) until the feeder marks it again.
func TestSentinel(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server is not installed (make setup installs it)")
	}
	mport, rport, sport := loopbackPort(t), loopbackPort(t), loopbackPort(t)
	common := []string{"--bind", "127.0.0.1", "--save", "", "--appendonly", "no"}
	master := redisProcess(t, append([]string{"--port", mport}, common...)...)
	redisProcess(t, append([]string{"--port", rport, "--replicaof", "127.0.0.1", mport}, common...)...)
	conf := filepath.Join(t.TempDir(), "sentinel.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf("port %s\nbind 127.0.0.1\nsentinel monitor fc 127.0.0.1 %s 1\n"+
		"sentinel down-after-milliseconds fc 1000\nsentinel failover-timeout fc 10000\n", sport, mport)), 0o600)
	redisProcess(t, conf, "--sentinel")

	ctx := context.Background()
	sen := redis.NewSentinelClient(&redis.Options{Addr: "127.0.0.1:" + sport})
	defer sen.Close()
	masterAddr := func() string {
		a, err := sen.GetMasterAddrByName(ctx, "fc").Result()
		if err != nil || len(a) != 2 {
			return ""
		}
		return a[0] + ":" + a[1]
	}
	replicaUp := func() bool {
		r := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + rport})
		defer r.Close()
		info, err := r.Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "master_link_status:up")
	}
	knowsReplica := func() bool { // the Sentinel learns of replicas from the master's INFO, every 10 s
		rs, err := sen.Replicas(ctx, "fc").Result()
		if err != nil {
			return false
		}
		for _, r := range rs {
			if r["port"] == rport && !strings.Contains(r["flags"], "down") && !strings.Contains(r["flags"], "disconnected") {
				return true
			}
		}
		return false
	}
	testenv.Eventually(t, "the Sentinel to watch the master and know the synced replica", 60*time.Second, func() bool {
		return masterAddr() == "127.0.0.1:"+mport && replicaUp() && knowsReplica()
	})

	c := MustNew(Config{Mode: ModeSentinel, Addrs: []string{"127.0.0.1:" + sport}, MasterName: "fc", KeyPrefix: testenv.Name("s"),
		Window: time.Hour, MaxPerEntity: 100})
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond) // the window starts after the marker's millisecond
	now := time.Now()
	if err := c.Apply(ctx, []store.Event{ev("1", "acme", "customer:1", "first", 1, now)}, nil); err != nil {
		t.Fatal(err)
	}
	got, complete := texts(t, c, "acme", "customer:1", now)
	if !complete || strings.Join(got, ",") != "first" {
		t.Fatalf("through the Sentinel's master: %v complete=%v", got, complete)
	}

	// Failover: the master dies, the Sentinel promotes the replica.
	master.Process.Signal(syscall.SIGKILL)
	testenv.Eventually(t, "the Sentinel to promote the replica", 60*time.Second, func() bool {
		return masterAddr() == "127.0.0.1:"+rport
	})
	var afterComplete bool
	testenv.Eventually(t, "the cache to read from the promoted replica", 30*time.Second, func() bool {
		evs, cmpl, err := c.Recent(ctx, "acme", "customer:1", now, 100)
		afterComplete = cmpl
		return err == nil && len(evs) <= 1
	})
	if afterComplete {
		t.Fatal("the marker written under the old master vouched for the promoted replica")
	}
	testenv.Eventually(t, "writes to go to the promoted replica", 30*time.Second, func() bool {
		return c.Apply(ctx, []store.Event{ev("2", "acme", "customer:1", "second", 1, now)}, nil) == nil
	})
	if err := c.Start(ctx); err != nil { // the feeder marks the new master
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond)
	now = time.Now()
	if err := c.Apply(ctx, []store.Event{ev("3", "acme", "customer:1", "third", 1, now)}, nil); err != nil {
		t.Fatal(err)
	}
	got, complete = texts(t, c, "acme", "customer:1", now)
	if !complete || strings.Join(got, ",") != "third" {
		t.Fatalf("after the failover, marked again: %v complete=%v", got, complete)
	}
}
