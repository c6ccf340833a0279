package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"
)

// Each subcommand has its own flags and help: a flag of another command is an
// error, not silently ignored, and -h teaches the command asked about.
func TestSubcommandsHaveTheirOwnFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string // "" with help: flag.ErrHelp
		help []string
		not  []string
	}{
		{args: []string{"run", "-config", "x.yaml", "-job", "refunds"}, err: "flag provided but not defined: -job"},
		{args: []string{"-config", "x.yaml", "-dry-run"}, err: "flag provided but not defined: -dry-run"},
		{args: []string{"migrate", "-config", "x.yaml", "-metrics-listen", ":1"}, err: "flag provided but not defined: -metrics-listen"},
		{args: []string{"bogus"}, err: `unknown command "bogus"`},
		{args: []string{"backfill", "-h"}, help: []string{"ingest backfill:", "-dry-run", "-restart", "-rejects"}, not: []string{"ingest run:"}},
		{args: []string{"migrate", "-h"}, help: []string{"ingest migrate:", "advisory lock"}, not: []string{"-dry-run", "-metrics-listen"}},
		{args: []string{"-h"}, help: []string{"ingest run:", "-metrics-listen", "ingest COMMAND -h"}, not: []string{"-dry-run"}},
	} {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, func(string) string { return "" }, &out, &out)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: err %v, want %q", tc.args, err, tc.err)
		case tc.err == "" && !errors.Is(err, flag.ErrHelp):
			t.Errorf("%v: err %v, want help", tc.args, err)
		}
		for _, w := range tc.help {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: help lacks %q:\n%s", tc.args, w, out.String())
			}
		}
		for _, w := range tc.not {
			if strings.Contains(out.String(), w) {
				t.Errorf("%v: help shows %q, which belongs to another command", tc.args, w)
			}
		}
	}
}
