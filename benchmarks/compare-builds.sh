#!/usr/bin/env bash
# Two builds of winnow, one command line, interleaved runs: docs per CPU-second of each, from
# the summary line `winnow clean` prints. For "did this change slow the pipeline down?" across
# commits (build the other commit in a git worktree first).
#
#   benchmarks/compare-builds.sh OTHER_CHECKOUT INPUT RUNS [winnow clean flags...]
#   e.g. benchmarks/compare-builds.sh ../winnow-old benchmarks/data/wcxb-dev-300.warc.gz 3 --workers 0 --model mlp
set -euo pipefail
other=$1 input=$2 runs=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rate() { sed -E -n 's/.* from ([0-9]+) HTML records?.* ([0-9.]+) CPU s.*/\1 \2/p' | awk '{ printf "%.1f", $1 / $2 }'; }
for i in $(seq "$runs"); do
  for build in "$other" "$here"; do
    line=$(node "$build/pipelines/cli/bin/winnow.js" clean "$input" -o "$out/out.jsonl" "$@" 2>&1 | grep -E 'winnow: wrote|"msg":"wrote' || true)
    printf '%s\trun %s\t%s docs/CPU-s\n' "$build" "$i" "$(printf '%s' "$line" | rate)"
  done
done
