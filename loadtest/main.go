// Command loadtest drives freshctx from the outside, through Kafka and the
// context API, the way its users do.
//
//	go run ./loadtest demo [flags]   stream the demo feed, wait until it is visible, print a context answer
//
// Run `go run ./loadtest -h` for the subcommands and their flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `loadtest: drive freshctx through Kafka and the context API.

Usage:
  loadtest demo [-brokers 127.0.0.1:19092] [-api http://127.0.0.1:8080]
      Produce the demo feed (tickets and orders as Debezium change events; refunds
      and chat as plain JSON; an unchanged-text update, a TOAST placeholder, a delete
      with its tombstone and one malformed record), wait until ingest has made it
      visible, then ask the context API a customer's question and print the answer.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return errors.New("a subcommand is required")
		}
		return flag.ErrHelp
	}
	switch args[0] {
	case "demo":
		return demo(ctx, args[1:], stdout, stderr)
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
}
