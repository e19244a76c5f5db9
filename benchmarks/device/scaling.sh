#!/usr/bin/env bash
# End-to-end benchmark with worker scaling, on a machine with no Node, no network and no build
# outputs: everything comes from the carried folder benchmarks/data/device (made by
# `node benchmarks/device/prepare.js`). Results go to $OUT (end-to-end.md/.json, machine.txt, logs).
#
#   bash benchmarks/device/scaling.sh
#
# Environment (all optional):
#   WORKERS=1,2,4,8,12,16   worker counts for the scaling table
#   DOCS_PER_WORKER=800     pages per worker per scaling run (the 300-page WARC is read repeatedly)
#   RUNS=1                  runs per measurement (the median by CPU time is kept)
#   UNORDERED=1             also a scaling table with unordered output (0 to skip)
#   SECTIONS="single scaling"   add "micro" for the micro-benchmarks, "capacity" for what the machine
#                           gives as many independent processes as WORKERS names (capacity.sh: the
#                           ceiling to read the pool's scaling against), drop "single" to skip Readability & co.
#   LANG_ID=1               language identification on in the scaling and capacity runs, as
#                           `winnow clean` runs by default (0: extraction and metadata only)
#   OUT=<dir>               where results go (default: benchmarks/data/device-out)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUNDLE=$ROOT/benchmarks/data/device
# Unpacked beside the bundle, not inside it: a local test run must not grow what gets carried
# (gitignored, so on the device it survives between calls).
WORK=$ROOT/benchmarks/data/device-run
OUT=${OUT:-$ROOT/benchmarks/data/device-out}
WORKERS=${WORKERS:-1,2,4,8,12,16}
DOCS_PER_WORKER=${DOCS_PER_WORKER:-800}
RUNS=${RUNS:-1}
UNORDERED=${UNORDERED:-1}
SECTIONS=${SECTIONS:-single scaling}
LANG_ID=${LANG_ID:-1}
export LANG_ID
mkdir -p "$OUT"

say() { echo "scaling.sh: $*" >&2; }
if [ ! -f "$BUNDLE/manifest.json" ]; then
  say "$BUNDLE/manifest.json is missing: run 'node benchmarks/device/prepare.js' here first and carry benchmarks/data/device"
  exit 2
fi

# xz first; python3's lzma when the xz tool is not installed.
unxz_stream() {
  if command -v xz >/dev/null 2>&1; then
    xz -dc "$1"
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"
  else
    say "neither xz nor python3 is installed: cannot unpack $1"
    exit 2
  fi
}

# Unpack once per bundle: the manifest's creation stamp marks what is unpacked.
stamp=$(grep -o '"created": *"[^"]*"' "$BUNDLE/manifest.json")
if [ ! -x "$WORK/node" ] || [ "$(cat "$WORK/.unpacked" 2>/dev/null)" != "$stamp" ]; then
  say "unpacking Node and node_modules ..."
  rm -rf "$WORK"
  mkdir -p "$WORK"
  unxz_stream "$BUNDLE/node.xz" >"$WORK/node"
  chmod +x "$WORK/node"
  unxz_stream "$BUNDLE/node_modules.tar.xz" | tar -x -C "$WORK"
  echo "$stamp" >"$WORK/.unpacked"
fi
NODE=$WORK/node

# The benchmark scripts run from beside the slim node_modules, so package lookups find it and
# nothing in the repository (no node_modules, no dist) is needed or touched.
rm -rf "$WORK/benchmarks"
mkdir -p "$WORK/benchmarks"
cp -R "$ROOT/benchmarks/lib" "$ROOT"/benchmarks/*.js "$WORK/benchmarks/"

WARC=$BUNDLE/$(grep -o '"warc": *"[^"]*"' "$BUNDLE/manifest.json" | sed 's/.*"\([^"]*\)"$/\1/')
MODEL=$BUNDLE/model.onnx

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "uname: $(uname -srm)"
  echo "nproc: $(nproc)"
  (lscpu 2>/dev/null | grep -E '^(Model name|CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|NUMA node\(s\)):' || true)
  (grep -E '^(MemTotal|MemAvailable):' /proc/meminfo || true)
  echo "cgroup cpu.max: $(cat /sys/fs/cgroup/cpu.max 2>/dev/null || echo n/a)"
  echo "node: $("$NODE" --version)"
  echo "settings: WORKERS=$WORKERS DOCS_PER_WORKER=$DOCS_PER_WORKER RUNS=$RUNS UNORDERED=$UNORDERED SECTIONS=$SECTIONS LANG_ID=$LANG_ID"
  cat "$BUNDLE/manifest.json"
} >"$OUT/machine.txt"
say "$(head -4 "$OUT/machine.txt" | tr '\n' ' ')"

args=(--no-full --subset-input "$WARC" --model "$MODEL" --workers "$WORKERS" --docs-per-worker "$DOCS_PER_WORKER" --runs "$RUNS")
case " $SECTIONS " in *" single "*) ;; *) args+=(--no-single) ;; esac
case " $SECTIONS " in *" scaling "*) ;; *) args+=(--no-scaling) ;; esac
[ "$UNORDERED" = 1 ] && args+=(--unordered)
[ "$LANG_ID" = 1 ] && args+=(--lang-id)

if [[ " $SECTIONS " == *" micro "* ]]; then
  say "micro-benchmarks ..."
  "$NODE" "$WORK/benchmarks/micro.js" --input "$WARC" --model "$MODEL" --json "$OUT/micro.json" >"$OUT/micro.md" 2>>"$OUT/log.txt"
fi
if [[ " $SECTIONS " == *" single "* || " $SECTIONS " == *" scaling "* ]]; then
  say "end to end: ${args[*]}"
  "$NODE" "$WORK/benchmarks/end-to-end.js" "${args[@]}" --json "$OUT/end-to-end.json" >"$OUT/end-to-end.md" 2> >(tee -a "$OUT/log.txt" >&2)
fi
if [[ " $SECTIONS " == *" capacity "* ]]; then
  say "capacity: independent processes $WORKERS ..."
  PROCS=$WORKERS bash "$ROOT/benchmarks/device/capacity.sh" >"$OUT/capacity.md" 2>>"$OUT/log.txt"
fi
cat "$OUT"/*.md
say "results in $OUT"
