package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store/milvusstore/milvustest"
)

// The lean build (-tags lean, what `make build` ships as bin/ingest) leaves out
// the Milvus client and the development broker, runs a PostgreSQL-only
// configuration itself, and hands one with store: milvus to the full build
// beside it, <path>-full; without that, it says what is missing.
func TestLeanBuildHandsOverToTheFullBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lean binary and needs PostgreSQL")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	dir := t.TempDir()
	lean := filepath.Join(dir, "ingest")
	// A cold build cache compiles ~400 packages: minutes on a loaded 2-core machine.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, goBin, "build", "-tags", "lean", "-o", lean, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags lean: %v\n%s", err, out)
	}
	mods, err := exec.Command(goBin, "version", "-m", lean).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, left := range []string{"github.com/milvus-io/milvus/client/v2", "github.com/twmb/franz-go"} {
		if strings.Contains(string(mods), left) {
			t.Errorf("the lean build links %s", left)
		}
	}
	if !strings.Contains(string(mods), "github.com/confluentinc/confluent-kafka-go/v2") {
		t.Errorf("go version -m shows no confluent-kafka-go; is this the module list?\n%s", mods)
	}

	dsn, _ := testenv.PostgresDSN(t)
	_, milvusAddr := milvustest.Start(t)
	writeConfig := func(name, store string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(fmt.Sprintf(`
kafka: {brokers: "127.0.0.1:1"}
postgres: {dsn: %q}
store: %s
milvus: {addr: %q, prefix: lean}
redis: {addr: "127.0.0.1:1"}
embedder: {dims: 32, word_vectors: none}
api: {auth: {mode: none}}
sources:
  - {name: tickets, topic: t, format: debezium, tenant: acme, entity: "customer:{{.customer_id}}", text: "{{.subject}}"}
`, dsn, store, milvusAddr)), 0o600)
		return path
	}
	pgCfg, milvusCfg := writeConfig("pg.yaml", "postgres"), writeConfig("milvus.yaml", "milvus")
	migrate := func(cfg string) (string, error) {
		cmd := exec.Command(lean, "migrate", "-config", cfg)
		cmd.Env = append(os.Environ(), "FRESHCTX_INGEST_AS_FULL=1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	// PostgreSQL only: the lean build does it itself.
	out, err := migrate(pgCfg)
	if err != nil || !strings.Contains(out, "knowledge index ready") || strings.Contains(out, "handing over") {
		t.Fatalf("lean migrate, store: postgres: %v\n%s", err, out)
	}
	// store: milvus and no full build beside it: the error names the setting
	// and the missing file.
	out, err = migrate(milvusCfg)
	if err == nil || !strings.Contains(out, "store: milvus: needs the full build") || !strings.Contains(out, lean+"-full is not there") {
		t.Fatalf("lean migrate, store: milvus, no full build: %v\n%s", err, out)
	}
	// With the full build beside it (here this test binary, which is the full
	// build of the package and runs ingest when FRESHCTX_INGEST_AS_FULL is set),
	// the lean process becomes the full one and Milvus is set up.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, lean+"-full"); err != nil {
		t.Fatal(err)
	}
	out, err = migrate(milvusCfg)
	if err != nil || !strings.Contains(out, "handing over to the full build") || !strings.Contains(out, "created Milvus collection lean_events") {
		t.Fatalf("lean migrate, store: milvus, full build beside it: %v\n%s", err, out)
	}
}
