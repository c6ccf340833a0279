#!/usr/bin/env bash
# run-demo.sh: the whole local stack with the demo feed (README's run command).
# Sets up PostgreSQL + pgvector and Redis, builds, migrates, starts ingest (with an
# in-process Kafka-protocol broker) and contextapi in the background, streams the
# demo feed and prints a real context answer. Idempotent: a previous run is stopped
# first. Stop with `make stop`.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=${CONFIG:-examples/demo.yaml}
RUN=.run
mkdir -p "$RUN" bin

bash scripts/setup.sh
bash scripts/stop.sh >/dev/null

echo "build: bin/ingest bin/contextapi (lean) bin/ingest-full bin/contextapi-full bin/loadtest bin/supportbot"
bash scripts/build.sh bin

bin/ingest migrate -config "$CONFIG"
# A demo database made by an earlier embedder (such as the local embedder
# without word vectors, before ADR 0018) holds vectors the configured one cannot
# compare with: they are made again ("nothing to re-embed" otherwise).
bin/ingest reembed -config "$CONFIG" -log-level warn

nohup bin/ingest -config "$CONFIG" >"$RUN/ingest.log" 2>&1 &
echo $! >"$RUN/ingest.pid"
nohup bin/contextapi -config "$CONFIG" >"$RUN/contextapi.log" 2>&1 &
echo $! >"$RUN/contextapi.pid"

wait_http() { # url name log
  for _ in $(seq 1 150); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    kill -0 "$(cat "$RUN/$2.pid")" 2>/dev/null || { echo "$2 exited; last log lines:" >&2; tail -20 "$3" >&2; exit 1; }
    sleep 0.1
  done
  echo "$2 did not become ready at $1; see $3" >&2; exit 1
}
wait_http http://127.0.0.1:9464/healthz ingest "$RUN/ingest.log"
wait_http http://127.0.0.1:8080/readyz contextapi "$RUN/contextapi.log"
echo "ingest and contextapi are up (logs in $RUN/)"
echo

bin/loadtest demo -brokers 127.0.0.1:19092 -api http://127.0.0.1:8080

# The reference bot backend beside it (examples/supportbot), with its offline
# responder: one customer turn through the whole loop.
nohup bin/supportbot -brokers 127.0.0.1:19092 -freshctx http://127.0.0.1:8080 >"$RUN/supportbot.log" 2>&1 &
echo $! >"$RUN/supportbot.pid"
wait_http http://127.0.0.1:8090/healthz supportbot "$RUN/supportbot.log"
session="web-1001-bot-$(date +%H%M%S)"
echo
echo "\$ bin/supportbot say -customer 1001 -session $session \"has my refund been sent?\""
bin/supportbot say -customer 1001 -session "$session" "has my refund been sent?"

cat <<MSG

Services keep running: ingest (metrics http://127.0.0.1:9464/metrics), contextapi
(http://127.0.0.1:8080), the reference bot (POST http://127.0.0.1:8090/chat; see
examples/supportbot/README.md). The console: http://127.0.0.1:8080/console/ask?entity=customer:1001&q=where+is+my+refund%3F
(timeline, sources with the dead-lettered record, sessions; see docs/console.md).
Stop them with: make stop
MSG
