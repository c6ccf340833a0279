//go:build lean

package main

import (
	"github.com/freshctx/freshctx/cmd/internal/wire"
	"github.com/freshctx/freshctx/config"
)

// startDevBroker is not reached in the lean build: wire.HandOver hands a
// config without kafka.brokers to the full build first.
func startDevBroker(*config.Config) (devBroker, error) {
	return nil, wire.NotInLeanBuild("kafka.brokers empty (the development broker)")
}
