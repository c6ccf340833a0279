package wire

import (
	"fmt"
	"log/slog"
	"os"
	"strings"
	"syscall"

	"github.com/freshctx/freshctx/config"
)

// The lean build (go build -tags lean, what `make build` and the image ship
// as ingest and contextapi) leaves out the Milvus client and the development
// broker: with their dependencies they are ~29 MB of binary, which this kernel
// keeps resident whole, and ~4 MB of heap from their packages' start-up, for
// every deployment that uses neither (docs/adr/0017-lean-and-full-builds.md).
// The full build (<name>-full beside it) has everything; a lean process whose
// configuration needs a part it lacks replaces itself with the full build.

// NeedsFull lists what in cfg the lean build leaves out: store: milvus and,
// when devBroker (ingest's consuming commands), an empty kafka.brokers, which
// starts the development broker.
func NeedsFull(cfg *config.Config, devBroker bool) []string {
	var needs []string
	if cfg.Store == config.StoreMilvus {
		needs = append(needs, "store: milvus")
	}
	if devBroker && cfg.Kafka.Brokers == "" {
		needs = append(needs, "kafka.brokers empty (the development broker)")
	}
	return needs
}

// NotInLeanBuild is the error for a part the lean build leaves out.
func NotInLeanBuild(what string) error {
	return fmt.Errorf("%s: needs the full build; this lean build (-tags lean) leaves out the Milvus client and the development broker", what)
}

// HandOver replaces this process (exec, same PID, arguments and environment)
// with the full build, the executable's path with "-full" appended, when this is
// the lean build and needs is not empty. It returns nil when there is nothing to
// hand over, and an error naming what was needed when the full build is missing
// or cannot be started.
func HandOver(needs []string, log *slog.Logger) error {
	if !Lean || len(needs) == 0 {
		return nil
	}
	what := strings.Join(needs, " and ")
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("%w (finding this executable: %v)", NotInLeanBuild(what), err)
	}
	full := exe + "-full"
	if _, err := os.Stat(full); err != nil {
		return fmt.Errorf("%w, and the full build %s is not there: `make build` builds both (or go build without -tags lean)", NotInLeanBuild(what), full)
	}
	log.Info("handing over to the full build", "needs", what, "exec", full)
	if err := syscall.Exec(full, append([]string{full}, os.Args[1:]...), os.Environ()); err != nil {
		return fmt.Errorf("%w (starting %s: %v)", NotInLeanBuild(what), full, err)
	}
	return nil
}
