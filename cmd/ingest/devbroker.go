//go:build !lean

package main

import (
	"fmt"
	"net"
	"strconv"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/freshctx/freshctx/config"
)

// startDevBroker starts kfake, franz-go's in-process Kafka-protocol broker, with
// the source topics and the DLQ topic created.
func startDevBroker(cfg *config.Config) (devBroker, error) {
	_, portText, err := net.SplitHostPort(cfg.Kafka.DevBroker)
	if err != nil {
		return nil, fmt.Errorf("kafka.dev_broker: %w", err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, fmt.Errorf("kafka.dev_broker: port %q: %w", portText, err)
	}
	topics := []string{cfg.Kafka.DLQTopic}
	if cfg.Sessions != nil && cfg.Sessions.Summary != nil {
		topics = append(topics, cfg.Sessions.Summary.Topic)
	}
	for _, s := range cfg.Sources {
		topics = append(topics, s.Topic)
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.Ports(port), kfake.SeedTopics(4, topics...), kfake.AllowAutoTopicCreation())
	if err != nil {
		return nil, fmt.Errorf("starting the development broker on %s (is another ingest running?): %w", cfg.Kafka.DevBroker, err)
	}
	return c, nil
}
