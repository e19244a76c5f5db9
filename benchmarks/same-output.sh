#!/usr/bin/env bash
# Do two builds write the same corpus? `winnow clean` of each build over the same inputs, the
# given flags, and the JSONL compared byte for byte (a speed change must not move a byte; see
# docs/speed.md). Inputs: the labelled sets as WARCs (benchmarks/make-warc.js DIR OUT).
#
#   benchmarks/same-output.sh OTHER_CHECKOUT "INPUT..." [winnow clean flags...]
#   e.g. benchmarks/same-output.sh ../winnow-old "benchmarks/data/*.warc.gz" --workers 0
set -euo pipefail
other=$1 inputs=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for input in $inputs; do
  name=$(basename "$input")
  for side in other here; do
    build=$here
    [ "$side" = other ] && build=$other
    node "$build/pipelines/cli/bin/winnow.js" clean "$input" -o "$out/$side-$name.jsonl" "$@" >/dev/null 2>"$out/$side.log" || {
      echo "$name: the $side build failed: $(tail -3 "$out/$side.log")"
      status=1
    }
  done
  if cmp -s "$out/other-$name.jsonl" "$out/here-$name.jsonl"; then
    echo "$name: identical ($(wc -l <"$out/here-$name.jsonl") documents)"
  else
    echo "$name: DIFFERENT: $(cmp "$out/other-$name.jsonl" "$out/here-$name.jsonl" | head -1)"
    status=1
  fi
done
exit $status
