#!/usr/bin/env bash
# The worker-scaling series for two builds in one call, rounds interleaved (after, before, after,
# ...), on a machine with no Node and no build outputs: "after" is the carried bundle as made by
# prepare.js; "before" is the same bundle with some workspace packages' dist folders swapped for
# older ones, carried in benchmarks/data/device/before/ in node_modules' layout
# (before/@winnow/archive/dist, ...). Only packages whose code differs need to be there.
#
#   ROUNDS=2 WORKERS=1,2,4,8,12,16 bash benchmarks/device/scaling-ab.sh
#
# Results: $OUT/after-N and $OUT/before-N (each scaling.sh's end-to-end.json), after-1's
# machine.txt, and summary.md: docs/s and main-thread CPU per page per worker count, every round.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BEFORE=$ROOT/benchmarks/data/device/before
WORK=$ROOT/benchmarks/data/device-run
OUT=${OUT:-$ROOT/benchmarks/data/device-out}
ROUNDS=${ROUNDS:-2}
export WORKERS=${WORKERS:-1,2,4,8,12,16} DOCS_PER_WORKER=${DOCS_PER_WORKER:-300} UNORDERED=${UNORDERED:-0} SECTIONS=scaling
[ -d "$BEFORE" ] || { echo "scaling-ab.sh: $BEFORE is missing" >&2; exit 2; }
mkdir -p "$OUT"
# Unpacks the bundle (once) before the first swap.
OUT=$OUT/after-1 bash "$ROOT/benchmarks/device/scaling.sh" >/dev/null
swap() { # $1: after | before
  (cd "$BEFORE" && find . -type d -name dist -prune -print) | while read -r dist; do
    target=$WORK/node_modules/$dist
    [ -d "$target.after" ] || cp -R "$target" "$target.after"
    rm -rf "$target"
    if [ "$1" = before ]; then cp -R "$BEFORE/$dist" "$target"; else cp -R "$target.after" "$target"; fi
  done
}
for round in $(seq "$ROUNDS"); do
  for side in before after; do
    [ "$round" = 1 ] && [ "$side" = after ] && continue # already run above
    swap "$side"
    OUT=$OUT/$side-$round bash "$ROOT/benchmarks/device/scaling.sh" >/dev/null
  done
done
swap after
# The run tool brings back at most 8 files: keep each round's JSON, one machine.txt, the summary.
find "$OUT" -mindepth 2 \( -name log.txt -o -name end-to-end.md -o \( -name machine.txt -not -path "*/after-1/*" \) \) -delete
{
  echo "| build, round | $(echo "$WORKERS" | sed 's/,/ | /g') |"
  echo "|---|$(echo "$WORKERS" | sed 's/[0-9]*/--:/g; s/,/|/g')|"
  for dir in "$OUT"/before-* "$OUT"/after-*; do
    rates=$("$WORK/node" -e 'const r=require(process.argv[1]); console.log(r.scaling.rows.map((x) => x.docsPerSecond.toFixed(1) + " (main " + (1000 * x.mainThreadCpuSeconds / x.records).toFixed(2) + " ms)").join(" | "))' "$dir/end-to-end.json" 2>/dev/null || echo "?")
    echo "| $(basename "$dir") | $rates |"
  done
} >"$OUT/summary.md"
cat "$OUT/summary.md"
