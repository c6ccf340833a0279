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
	c, err := newBroker(*listen, *partitions)
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Fprintf(stdout, "broker: kfake listening on %s (in memory; stop with Ctrl-C)\n", c.ListenAddrs()[0])
	<-ctx.Done()
	return nil
}

// newBroker starts kfake on listen (host:port, port 0: any free port) with
// auto-created topics of the given partition count.
func newBroker(listen string, partitions int) (*kfake.Cluster, error) {
	_, portText, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("-listen: %w", err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, fmt.Errorf("-listen: %w", err)
	}
	return kfake.NewCluster(kfake.NumBrokers(1), kfake.Ports(port), kfake.DefaultNumPartitions(partitions), kfake.AllowAutoTopicCreation())
}
