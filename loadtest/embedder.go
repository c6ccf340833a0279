package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/freshctx/freshctx/internal/fakeembed"
)

// embedder serves a stand-in model provider as its own process: an
// OpenAI-compatible /v1/embeddings that answers after -delay with
// deterministic vectors (internal/fakeembed). Benchmarks point ingest at it
// (provider openai, base_url http://LISTEN/v1) to measure ingest with a
// provider's latency and wire format but without a model.
func embedder(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest embedder", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:19400", "address to listen on")
	dims := fs.Int("dims", 384, "dimensions of the vectors")
	delay := fs.Duration("delay", 20*time.Millisecond, "how long every request takes, whatever its size")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dims < 1 || *delay < 0 {
		return errors.New("-dims must be positive and -delay not negative")
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("-listen: %w", err)
	}
	h := &fakeembed.Handler{Dims: *dims, Delay: *delay}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "embedder: OpenAI-compatible embeddings at http://%s/v1 (%d dimensions, %s per request; not a model: vectors from a hash of the text)\n",
		ln.Addr(), *dims, *delay)
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintf(stdout, "embedder: %d requests, %d texts\n", h.Requests.Load(), h.Texts.Load())
	return nil
}
