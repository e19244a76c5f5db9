#!/usr/bin/env bash
# What limits the worker pool on a many-core machine: the same run (the MLP, language ID on, the
# carried WARC read PASSES times) under variants that each change one thing, rounds interleaved
# (every variant once, then again), so a drift of the machine falls on all of them alike.
# Run after scaling.sh has unpacked the bundle.
#
#   WORKERS=16 PASSES=24 ROUNDS=2 VARIANTS="base pool8 pool16 procs2 procs4" bash benchmarks/device/pool-probes.sh
#
# Variants:
#   base        one process, WORKERS pool threads, Node's defaults
#   poolN       the same with NODE_OPTIONS=--v8-pool-size=N: V8's platform threads, which run
#               every isolate's background work (concurrent marking and sweeping, compiling);
#               Node starts 4 however many isolates share them
#   stgc        `node --single-threaded-gc`: each isolate collects on its own thread alone
#   node:A,B    `node A B`: any options on Node's command line, commas for spaces
#               (node:--v8-pool-size=16,--min-semi-space-size=16)
#   procsK      K processes at once, each WORKERS/K pool threads and PASSES/K passes (what
#               `winnow launch`'s array tasks do on one machine)
# Prints a Markdown table: docs/s over the wall time of the variant, CPU-seconds over wall (cores
# busy), CPU per page, and each process's main thread per page.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUNDLE=$ROOT/benchmarks/data/device
WORK=$ROOT/benchmarks/data/device-run
NODE=$WORK/node
WORKERS=${WORKERS:-16}
PASSES=${PASSES:-24}
ROUNDS=${ROUNDS:-2}
VARIANTS=${VARIANTS:-base pool8 pool16 procs2 procs4}
WARC=$BUNDLE/$(grep -o '"warc": *"[^"]*"' "$BUNDLE/manifest.json" | sed 's/.*"\([^"]*\)"$/\1/')
[ -x "$NODE" ] || { echo "pool-probes.sh: run scaling.sh first (it unpacks Node)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

one() { # $1: output file, $2: workers, $3: passes, then node arguments
  local out=$1 workers=$2 passes=$3
  shift 3
  "$NODE" "$@" "$WORK/benchmarks/lib/method.js" --method mlp --input "$WARC" --model "$BUNDLE/model.onnx" \
    --passes "$passes" --workers "$workers" --lang-id true >"$out"
}

echo "| variant | round | workers | docs | wall s | docs/s | cores busy | CPU ms/page | main thread ms/page |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
for round in $(seq "$ROUNDS"); do
  for variant in $VARIANTS; do
    rm -f "$tmp"/*.json
    start=$(date +%s.%N)
    case $variant in
      base) one "$tmp/1.json" "$WORKERS" "$PASSES" ;;
      pool*) NODE_OPTIONS="--v8-pool-size=${variant#pool}" one "$tmp/1.json" "$WORKERS" "$PASSES" ;;
      stgc) one "$tmp/1.json" "$WORKERS" "$PASSES" --single-threaded-gc ;;
      node:*)
        IFS=, read -r -a node_args <<<"${variant#node:}"
        one "$tmp/1.json" "$WORKERS" "$PASSES" "${node_args[@]}"
        ;;
      procs*)
        k=${variant#procs}
        for i in $(seq "$k"); do one "$tmp/$i.json" $((WORKERS / k)) $((PASSES / k)) & done
        wait
        ;;
      *) echo "pool-probes.sh: unknown variant $variant" >&2; exit 2 ;;
    esac
    wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    cat "$tmp"/*.json | "$NODE" -e '
      const [variant, round, workers, wall] = process.argv.slice(1);
      const runs = require("fs").readFileSync(0, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      const docs = runs.reduce((n, r) => n + r.records, 0);
      const cpu = runs.reduce((n, r) => n + r.cpuSeconds, 0);
      const main = runs.reduce((n, r) => n + (r.mainThreadCpuSeconds ?? 0), 0);
      const w = Number(wall);
      console.log(`| ${variant} | ${round} | ${workers} | ${docs} | ${w.toFixed(1)} | ${(docs / w).toFixed(1)} | ${(cpu / w).toFixed(1)} | ${((1000 * cpu) / docs).toFixed(2)} | ${((1000 * main) / docs).toFixed(2)} |`);
    ' "$variant" "$round" "$WORKERS" "$wall"
  done
done
