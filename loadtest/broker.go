package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"

	"github.com/twmb/franz-go/pkg/kfake"
)

// broker runs franz-go's kfake, an in-memory Kafka-protocol broker, as its own
// process until interrupted: to measure ingest without the broker in its process.
func broker(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest broker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:19092", "address to listen on")
	partitions := fs.Int("partitions", 4, "partitions of each topic created")
	if err := fs.Parse(args); err != nil {
		return err
	}
	_, portText, err := net.SplitHostPort(*listen)
	if err != nil {
		return fmt.Errorf("-listen: %w", err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return fmt.Errorf("-listen: %w", err)
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.Ports(port), kfake.DefaultNumPartitions(*partitions), kfake.AllowAutoTopicCreation())
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintf(stdout, "broker: kfake listening on %s (in memory; stop with Ctrl-C)\n", c.ListenAddrs()[0])
	<-ctx.Done()
	return nil
}
