#!/usr/bin/env bash
# Two builds of winnow, one command line, interleaved runs: docs per CPU-second of each, from
# the summary line `winnow clean` prints. For "did this change slow the pipeline down?" across
# commits (build the other commit in a git worktree first).
#
#   benchmarks/compare-builds.sh OTHER_CHECKOUT INPUT RUNS [winnow clean flags...]
#   e.g. benchmarks/compare-builds.sh ../winnow-old benchmarks/data/wcxb-dev-300.warc.gz 3 --workers 0 --model mlp
#
# OTHER_FLAGS adds flags to the other build's runs only; with this checkout as the other build it
# measures what one option costs (here, the page metadata):
#   OTHER_FLAGS=--no-metadata benchmarks/compare-builds.sh . benchmarks/data/wcxb-dev.warc.gz 10 --workers 0
set -euo pipefail
other=$1 input=$2 runs=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rate() { sed -E -n 's/.* from ([0-9]+) HTML records?.* ([0-9.]+) CPU s.*/\1 \2/p' | awk '{ printf "%.1f", $1 / $2 }'; }
for i in $(seq "$runs"); do
  for side in other here; do
    build=$here extra=()
    if [ "$side" = other ]; then
      build=$other
      read -r -a extra <<<"${OTHER_FLAGS:-}"
    fi
    line=$(node "$build/pipelines/cli/bin/winnow.js" clean "$input" -o "$out/out.jsonl" "$@" "${extra[@]}" 2>&1 | grep -E 'winnow: wrote|"msg":"wrote' || true)
    printf '%s%s\trun %s\t%s docs/CPU-s\n' "$build" "${extra[*]:+ ${extra[*]}}" "$i" "$(printf '%s' "$line" | rate)"
  done
done
