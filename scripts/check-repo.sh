#!/usr/bin/env bash
# check-repo.sh: the repository holds source, not build output. Fails when a
# tracked file is 1 MB or more, or is an executable binary (ELF), or when Go
# files are not gofmt-formatted. `make test` (and so CI) runs it first.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  size=$(stat -c %s "$f")
  if [ "$size" -ge 1000000 ]; then
    echo "check-repo: $f is $size bytes; tracked files stay under 1 MB (build output belongs in bin/, which git ignores)" >&2
    fail=1
  fi
  if [ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')" = "7f454c46" ]; then
    echo "check-repo: $f is an executable binary; build output is never tracked" >&2
    fail=1
  fi
done < <(git ls-files -z)
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "check-repo: not gofmt-formatted (run gofmt -w):" >&2
  echo "$unformatted" >&2
  fail=1
fi
exit $fail
