#!/usr/bin/env bash
# build.sh [OUT]: the binaries, into OUT (default bin/).
#   ingest, contextapi            the lean build (-tags lean): no Milvus client, no
#                                 development broker, ~39 MB instead of ~75-80 MB
#   ingest-full, contextapi-full  everything; a lean binary whose configuration
#                                 needs store: milvus or (ingest) the development
#                                 broker runs this one in its place (exec)
#   loadtest, supportbot
# See docs/adr/0017-lean-and-full-builds.md. Extra go build flags: GOBUILDFLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bin}
mkdir -p "$OUT"
# shellcheck disable=SC2086 # GOBUILDFLAGS is a list of flags
go build ${GOBUILDFLAGS:-} -tags lean -o "$OUT/" ./cmd/ingest ./cmd/contextapi
# shellcheck disable=SC2086
go build ${GOBUILDFLAGS:-} -o "$OUT/ingest-full" ./cmd/ingest
# shellcheck disable=SC2086
go build ${GOBUILDFLAGS:-} -o "$OUT/contextapi-full" ./cmd/contextapi
# shellcheck disable=SC2086
go build ${GOBUILDFLAGS:-} -o "$OUT/" ./loadtest ./examples/supportbot
