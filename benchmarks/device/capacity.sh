#!/usr/bin/env bash
# What the machine itself gives for this work: K independent winnow processes at once, each
# cleaning the carried WARC single-threaded (--workers 0, the MLP; language ID on unless
# LANG_ID=0, as in scaling.sh), for K in PROCS; aggregate
# docs/s against K times one process's. Where K processes fall short of K times one, the cores
# (shared hyperthreads, memory bandwidth, a CPU quota) cap any worker pool too: this is the
# ceiling to read the pool's scaling against. Run after scaling.sh has unpacked the bundle.
#
#   PROCS=1,8,16 bash benchmarks/device/capacity.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUNDLE=$ROOT/benchmarks/data/device
WORK=$ROOT/benchmarks/data/device-run
PROCS=${PROCS:-1,2,4,8,16}
NODE=$WORK/node
WARC=$BUNDLE/$(grep -o '"warc": *"[^"]*"' "$BUNDLE/manifest.json" | sed 's/.*"\([^"]*\)"$/\1/')
[ -x "$NODE" ] || { echo "capacity.sh: run scaling.sh first (it unpacks Node)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| processes | docs | wall s | aggregate docs/s | × one process | per process |"
echo "|--:|--:|--:|--:|--:|--:|"
one=""
for k in ${PROCS//,/ }; do
  start=$(date +%s.%N)
  for i in $(seq "$k"); do
    "$NODE" "$WORK/benchmarks/lib/method.js" --method mlp --input "$WARC" --model "$BUNDLE/model.onnx" --passes 2 --workers 0 --lang-id "$([ "${LANG_ID:-1}" = 1 ] && echo true || echo false)" >"$tmp/$k-$i.json" &
  done
  wait
  wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  docs=$(cat "$tmp/$k"-*.json | "$NODE" -e 'let n=0; for (const l of require("fs").readFileSync(0,"utf8").trim().split("\n")) n += JSON.parse(l).records; console.log(n)')
  rate=$(awk -v d="$docs" -v w="$wall" 'BEGIN { print d / w }')
  [ -z "$one" ] && one=$rate
  awk -v k="$k" -v d="$docs" -v w="$wall" -v r="$rate" -v o="$one" 'BEGIN { printf "| %d | %d | %.1f | %.1f | %.2f× | %.1f |\n", k, d, w, r, r / o, r / k }'
done
