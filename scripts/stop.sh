#!/usr/bin/env bash
# stop.sh: stop the services started by run-demo.sh (SIGTERM: they drain and commit).
cd "$(dirname "$0")/.."
for svc in supportbot contextapi ingest; do
  pidf=.run/$svc.pid
  [ -f "$pidf" ] || continue
  pid=$(cat "$pidf")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    echo "stopped $svc ($pid)"
  fi
  rm -f "$pidf"
done
