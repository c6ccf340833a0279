# freshctx — `make help` lists the targets.
SHELL := /bin/bash
GO ?= go
export PATH := $(PATH):/usr/local/go/bin

.PHONY: help setup run stop test test-short build vet fmt bench fuzz clean

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-11s %s\n", $$1, $$2}'

setup: ## install (if missing) and start PostgreSQL 15 + pgvector and Redis on loopback
	@bash scripts/setup.sh

run: ## the demo: local stack, ingest + contextapi, demo feed, a real context answer
	@bash scripts/run-demo.sh

stop: ## stop the services started by `make run`
	@bash scripts/stop.sh

test: setup ## set up services and run every test (what CI runs), then print the reliability table
	@bash scripts/check-repo.sh
	$(GO) vet ./...
	@mkdir -p .run && rm -f .run/reliability.txt
	FRESHCTX_RELIABILITY_REPORT=$(CURDIR)/.run/reliability.txt $(GO) test -race -count=1 -timeout 30m ./...
	@echo; echo "Reliability suite (ledger oracle; lost must be 0):"
	@printf '%-52s %9s %8s %10s %13s %5s\n' scenario produced stored duplicates dead-lettered lost
	@sort -n .run/reliability.txt

test-short: ## unit tests that need no services
	$(GO) test -short -count=1 ./...

build: ## build bin/ingest, bin/contextapi (lean), bin/ingest-full, bin/contextapi-full, bin/loadtest, bin/supportbot
	@bash scripts/build.sh bin

vet: ## repository check (gofmt, no binaries or files over 1 MB) and go vet
	@bash scripts/check-repo.sh
	$(GO) vet ./...

bench: setup ## run the benchmarks
	$(GO) test -run XXX -bench . -benchmem ./...

fuzz: ## fuzz the Debezium decoder, the analysis of a text and the cache's body and analysis decoders, 60s each
	$(GO) test -run XXX -fuzz FuzzDecode -fuzztime 60s ./cdc
	$(GO) test -run XXX -fuzz 'FuzzAnalyze$$' -fuzztime 60s ./relevance
	$(GO) test -run XXX -fuzz FuzzDecodeAnalysis -fuzztime 60s ./relevance
	$(GO) test -run XXX -fuzz FuzzDecodeBody -fuzztime 60s ./store/rediscache

clean: stop ## stop services, remove build output
	rm -rf bin .run
