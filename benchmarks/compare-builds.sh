#!/usr/bin/env bash
# Two builds of winnow, one command line, interleaved runs: docs per CPU-second of each, from
# the summary line `winnow clean` prints, and its wall-clock docs per second. For "did this change slow the pipeline down?" across
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
# Wall-clock docs per second as the summary gives them (what more threads buy, or a loaded machine takes).
wall() { sed -E -n 's/.* ([0-9.]+) docs\/s,.*/\1/p' | head -1; }
for i in $(seq "$runs"); do
  for side in other here; do
    build=$here extra=()
    if [ "$side" = other ]; then
      build=$other
      read -r -a extra <<<"${OTHER_FLAGS:-}"
    fi
    # The summary's CPU starts with the run; the process's (GNU time: user + system, peak RSS) also
    # counts loading the modules, the model and the language-ID model, which a short run feels.
    line=$(/usr/bin/time -f 'process %U %S %M' node "$build/pipelines/cli/bin/winnow.js" clean "$input" -o "$out/out.jsonl" "$@" "${extra[@]}" 2>&1 | grep -E 'winnow: wrote|"msg":"wrote|^process ' || true)
    records=$(printf '%s' "$line" | sed -E -n 's/.* from ([0-9]+) HTML records?.*/\1/p' | head -1)
    whole=$(printf '%s' "$line" | awk -v n="$records" '/^process /{ printf "%.1f docs/CPU-s whole process, peak RSS %d MB", n / ($2 + $3), $4 / 1024 }')
    printf '%s%s\trun %s\t%s docs/CPU-s\t%s\t%s docs/s wall\n' "$build" "${extra[*]:+ ${extra[*]}}" "$i" "$(printf '%s' "$line" | grep -v '^process ' | rate)" "$whole" "$(printf '%s' "$line" | grep -v '^process ' | wall)"
  done
done
