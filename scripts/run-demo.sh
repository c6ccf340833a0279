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

# A demo database made by an earlier embedder (the local embedder without word
# vectors, before ADR 0018) holds vectors the configured one cannot compare
# with: the demo starts afresh then (its database and its cache keys; the feed
# below writes them again).
DEMO_DSN=$(sed -n 's/^ *dsn: *\([^ ]*\).*/\1/p' "$CONFIG" | head -1)
DEMO_PREFIX=$(sed -n 's/^ *key_prefix: *\([^ ]*\).*/\1/p' "$CONFIG" | head -1)
held=$(psql "$DEMO_DSN" -qAt -c "SELECT value FROM freshctx_settings WHERE name = 'embedding'" 2>/dev/null || true)
if [ -n "$held" ] && [[ "$held" != local-hash-v1-*-wordvec-v2-* ]]; then
  echo "demo: the database holds vectors of $held, an earlier embedder's: starting the demo afresh"
  # its tables in schema public, in one statement and without CASCADE: nothing
  # else (the vector extension there, other schemas) is touched
  psql "$DEMO_DSN" -qAt -v ON_ERROR_STOP=1 -c "DO \$\$DECLARE t text; BEGIN
    SELECT string_agg(format('public.%I', tablename), ', ') INTO t FROM pg_tables WHERE schemaname = 'public';
    IF t IS NOT NULL THEN EXECUTE 'DROP TABLE ' || t; END IF; END\$\$"
  redis-cli --scan --pattern "${DEMO_PREFIX:-fc}:*" | xargs -r -n 500 redis-cli del >/dev/null
fi

bin/ingest migrate -config "$CONFIG"

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
